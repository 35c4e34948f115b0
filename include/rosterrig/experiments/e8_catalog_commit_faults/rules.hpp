// rosterrig/experiments/e8_catalog_commit_faults/rules.hpp: experiment 8's analysis (a trial's validity and outcome, the replay check) and verdict rules, rules().
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_RULES_HPP

#include <functional>

#include "rosterrig/experiments/e8_catalog_commit_faults/samples.hpp"

namespace rosterrig::e8 {

// ---- analysis: pure, from the samples --------------------------------------

/// The request a rule applied to (the first), if any.
inline const table_request* applied_by(const trial& t, std::uint64_t rule) {
    if (rule == 0) return nullptr;
    for (const auto& r : t.requests)
        if (r.rule == rule) return &r;
    return nullptr;
}

/// The checkpoint a trial hit: the watermark the hit commit's body carried.
inline std::int64_t hit_checkpoint(const trial& t) {
    const auto* hit = applied_by(t, t.hit_rule);
    return hit ? hit->watermark : -1;
}

struct validity {
    bool valid = false;
    experiment::facts facts;  ///< what the trial did, or which precondition it missed, as values
    std::string why;          ///< rendered from the facts
};

inline validity valid_if(bool ok, experiment::facts f, std::string_view pattern) {
    std::string why = experiment::render(f, pattern);
    return {ok, std::move(f), std::move(why)};
}

/// The first commit POST no rule touched, forwarded after `killed_ms` and
/// applied, of a checkpoint after `watermark`: the restored job's. nullptr: none yet.
inline const table_request* later_commit(const std::vector<table_request>& requests, std::int64_t killed_ms,
                                         std::int64_t watermark) {
    for (const auto& r : requests)
        if (r.method == "POST" && r.rule == 0 && r.forwarded_at_ms > killed_ms && r.upstream_status == 200 &&
            r.watermark > watermark)
            return &r;
    return nullptr;
}

/// A held reply's trial: the hit commit applied before the kill, its reply
/// held, and let go only after a commit of a later checkpoint, forwarded
/// after the kill, was applied (the restored job's).
inline validity held_validity(const trial& t, const table_request& hit) {
    const experiment::facts at{{"checkpoint", hit.watermark}};
    if (!t.kill) return valid_if(false, at, "no kill was recorded");
    const auto killed = t.kill->killed_at_ms;
    if (hit.upstream_status != 200 || hit.upstream_replied_at_ms == 0 || hit.upstream_replied_at_ms > killed)
        return valid_if(false, at, "checkpoint {checkpoint}'s commit was not applied before the kill");
    if (!hit.released_at_ms)
        return valid_if(false, at, "checkpoint {checkpoint}'s reply was not held (no release in the proxy's log)");
    const auto* later = later_commit(t.requests, killed, hit.watermark);
    if (!later) return valid_if(false, at, "no later checkpoint was committed after the kill");
    if (*hit.released_at_ms <= later->upstream_replied_at_ms)
        return valid_if(false, at, "checkpoint {checkpoint}'s reply was let go before a later checkpoint landed");
    return valid_if(true, {{"checkpoint", hit.watermark}, {"later", later->watermark}},
                    "checkpoint {checkpoint}: applied before the kill, its reply held until the restored job had "
                    "committed checkpoint {later}");
}

/// A zombie timed outside the window: the committer's TaskManager killed
/// while A waited, and A not answered before the kill (the committer never
/// saw its commit). Early: A applied before any table GET forwarded after the
/// kill (the restored job read the table with A in it). Late: A forwarded
/// only after the restored job's first commit was applied.
inline validity outside_validity(const trial& t, const table_request& a) {
    const experiment::facts at{{"checkpoint", a.watermark}};
    if (!t.kill) return valid_if(false, at, "no kill was recorded");
    const auto killed = t.kill->killed_at_ms;
    if (a.forwarded_at_ms == 0) return valid_if(false, at, "A was never forwarded");
    if (a.answered_at_ms > 0 && a.answered_at_ms <= killed)
        return valid_if(false, at, "A was answered before the kill: the committer saw its commit");
    if (t.kind == cell::zombie_early) {
        if (a.upstream_status != 200 || a.upstream_replied_at_ms == 0)
            return valid_if(false, {{"checkpoint", a.watermark}, {"upstream_status", a.upstream_status}},
                            "A was not applied (upstream {upstream_status})");
        bool read_after = false;
        for (const auto& r : t.requests) {
            if (r.method != "GET" || r.forwarded_at_ms <= killed) continue;
            if (r.forwarded_at_ms < a.upstream_replied_at_ms)
                return valid_if(false, at, "a table GET was forwarded after the kill and before A landed");
            read_after = true;
        }
        if (!read_after) return valid_if(false, at, "no table GET was forwarded after the kill");
        return valid_if(true, at,
                        "checkpoint {checkpoint}: A unanswered at the kill, applied before the restored job's first "
                        "table read");
    }
    const table_request* first = nullptr;
    for (const auto& r : t.requests)
        if (r.method == "POST" && r.rule == 0 && r.forwarded_at_ms > killed && r.upstream_status == 200) {
            first = &r;
            break;
        }
    if (!first) return valid_if(false, at, "no commit POST of the restored job was applied");
    const experiment::facts both{{"checkpoint", a.watermark}, {"first", first->watermark}};
    if (a.forwarded_at_ms <= first->upstream_replied_at_ms)
        return valid_if(false, both,
                        "A was forwarded before the restored job's first commit (checkpoint {first}) was applied");
    return valid_if(true, both,
                    "checkpoint {checkpoint}: A forwarded after the restored job's first commit (checkpoint {first}) "
                    "was applied");
}

/// Whether the trial did what its cell needs, from the proxy's log (docs/E8_DESIGN.md §5).
inline validity validity_of(const trial& t) {
    if (!t.failure.empty()) return valid_if(false, {{"failure", t.failure}}, "the trial stopped: {failure}");
    const auto* hit = applied_by(t, t.hit_rule);
    if (!hit) return valid_if(false, {}, "no commit POST met the hit rule");
    if (hit->watermark < 0)
        return valid_if(false, {}, "the hit commit's body carried no flink.max-committed-checkpoint-id");
    const experiment::facts at{{"checkpoint", hit->watermark}};
    auto with = [&](experiment::facts more) {
        more.insert(at.begin(), at.end());
        return more;
    };
    switch (t.kind) {
        case cell::lose_reply:
            if (hit->upstream_status == 200 && hit->dropped_at_ms > 0 && hit->answered_at_ms == 0)
                return valid_if(true, at,
                                "checkpoint {checkpoint}: the catalog answered 200, the client's connection was "
                                "dropped");
            return valid_if(false, with({{"upstream_status", hit->upstream_status}}),
                            "the hit was not applied and dropped (upstream {upstream_status})");
        case cell::status_unforwarded:
            if (hit->forwarded_at_ms == 0 && hit->answered_status == t.status)
                return valid_if(true, with({{"answered_status", t.status}}),
                                "checkpoint {checkpoint}: answered {answered_status}, never forwarded");
            return valid_if(false, with({{"answered_status", hit->answered_status}}),
                            "the hit was forwarded or answered otherwise ({answered_status})");
        case cell::forward_then_504:
            if (hit->upstream_status == 200 && hit->answered_status == 504)
                return valid_if(true, at, "checkpoint {checkpoint}: applied (200), answered 504");
            return valid_if(
                false, with({{"upstream_status", hit->upstream_status}, {"answered_status", hit->answered_status}}),
                "the hit was not applied and answered 504");
        case cell::held_kill_late_release:
            return held_validity(t, *hit);
        case cell::held_past_timeout:
        case cell::held_no_timeout:
            if (hit->upstream_status != 200 || !hit->released_at_ms)
                return valid_if(false, with({{"upstream_status", hit->upstream_status}}),
                                "the hit was not applied (upstream {upstream_status}) and its reply held");
            if (hit->released_by.value_or("") != "deadline")
                return valid_if(false, with({{"released_by", hit->released_by.value_or("")}}),
                                "the held reply was let go by {released_by}, not at its deadline");
            return valid_if(true, with({{"held_ms", *hit->released_at_ms - hit->upstream_replied_at_ms}}),
                            "checkpoint {checkpoint}: applied (200), its reply held {held_ms} ms, to its deadline");
        case cell::zombie_early:
        case cell::zombie_late:
            return outside_validity(t, *hit);
        case cell::zombie_409:
        case cell::zombie_refresh:
            break;
    }
    if (!t.kill) return valid_if(false, at, "no kill was recorded");
    const auto killed = t.kill->killed_at_ms;
    if (hit->upstream_status != 200)
        return valid_if(false, with({{"upstream_status", hit->upstream_status}}),
                        "A was not applied (upstream {upstream_status})");
    if (hit->forwarded_at_ms <= killed) return valid_if(false, at, "A was forwarded before the kill");
    // The first unruled commit POST the catalog applied after the kill.
    const table_request* applied_after = nullptr;
    for (const auto& r : t.requests)
        if (r.method == "POST" && r.rule != t.hit_rule && (t.b_rule == 0 || r.rule != t.b_rule) &&
            r.forwarded_at_ms > killed && r.upstream_status == 200) {
            applied_after = &r;
            break;
        }
    if (t.kind == cell::zombie_409) {
        const auto* b = applied_by(t, t.b_rule);
        if (!b) return valid_if(false, at, "no commit POST met rule B (no replay came)");
        if (b->upstream_status != 409)
            return valid_if(false,
                            with({{"b_status", b->upstream_status},
                                  {"a_landed", b->forwarded_at_ms < hit->upstream_replied_at_ms ? "after" : "before"}}),
                            "the replay B got {b_status}, not 409 (A landed {a_landed} it)");
        if (!applied_after || applied_after->forwarded_at_ms < b->upstream_replied_at_ms)
            return valid_if(false, at, "no commit POST was applied after B's 409");
        return valid_if(true, at,
                        "checkpoint {checkpoint}: A applied after the kill, the replay B got 409, a later commit POST "
                        "was applied");
    }
    // zombie_refresh: A's 200 between a GET forwarded after the kill (the restored
    // load did not see A) and a GET forwarded before the replay's POST (its refresh did).
    if (!applied_after) return valid_if(false, at, "no commit POST was applied after the kill (no replay)");
    for (const auto& r : t.requests)
        if (r.method == "POST" && r.upstream_status == 409 && r.forwarded_at_ms > killed)
            return valid_if(false, at, "a commit POST got 409 after the kill: the 409 path, not the refresh path");
    if (applied_after->forwarded_at_ms < hit->upstream_replied_at_ms)
        return valid_if(false, at, "the replay was forwarded before A landed");
    bool load_before = false, refresh_after = false;
    for (const auto& r : t.requests) {
        if (r.method != "GET" || r.forwarded_at_ms <= killed) continue;
        if (r.forwarded_at_ms < hit->upstream_replied_at_ms) load_before = true;
        if (r.forwarded_at_ms > hit->upstream_replied_at_ms && r.forwarded_at_ms < applied_after->forwarded_at_ms)
            refresh_after = true;
    }
    if (!load_before)
        return valid_if(false, at,
                        "no table GET was forwarded between the kill and A's landing (the restore may have seen A)");
    if (!refresh_after) return valid_if(false, at, "no table GET was forwarded between A's landing and the replay");
    return valid_if(true, at,
                    "checkpoint {checkpoint}: A landed between the restored load and the replay's refresh; no 409");
}

/// The snapshots of a run that carry the writer's watermark c (any job id of that run).
inline std::vector<std::int64_t> snapshots_with_watermark(const writer_run& run, std::int64_t c) {
    std::vector<std::int64_t> out;
    for (const auto& s : run.snapshots)
        if (s.watermark == c && check::adds_data(s)) out.push_back(s.snapshot_id);
    return out;
}

/// A trial's outcome against the table: how many snapshots committed its checkpoint.
struct trial_outcome {
    validity valid;
    std::int64_t checkpoint = -1;
    std::uint64_t commits_of_checkpoint = 0;  ///< snapshots with its watermark (1 is right, 2 a double commit)
    std::int64_t excess_records = 0;          ///< records the extra snapshots of c added
    std::int64_t first_snapshot_id = 0;       ///< the first snapshot with its watermark (0: none)
    std::optional<std::int64_t> first_committed_at_ms;  ///< that snapshot's timestamp-ms, as the catalog lists it
    bool doubled() const { return commits_of_checkpoint >= 2; }
};

inline trial_outcome outcome_of(const writer_run& run, const trial& t) {
    trial_outcome o;
    o.valid = validity_of(t);
    o.checkpoint = hit_checkpoint(t);
    if (o.checkpoint < 0) return o;
    const auto ids = snapshots_with_watermark(run, o.checkpoint);
    o.commits_of_checkpoint = ids.size();
    bool first = true;
    for (const auto& s : run.snapshots)
        if (std::find(ids.begin(), ids.end(), s.snapshot_id) != ids.end()) {
            if (!first) o.excess_records += s.added_records;
            if (first) o.first_snapshot_id = s.snapshot_id, o.first_committed_at_ms = s.timestamp_ms;
            first = false;
        }
    return o;
}

/// The whole-table check of one run: its snapshots against the events sent.
inline check::commit_replay_report replay_report(const writer_run& run) {
    return check::commit_replay(run.snapshots, static_cast<std::int64_t>(run.events));
}

/// What one trial left in the store that nothing references, from its run's
/// listing at the end: the Flink committer's temporary manifests of the
/// checkpoint it hit (by their names), and the commit manifests, manifest
/// lists and data files the store wrote while the trial ran. The window opens
/// 2 s before the arming (a checkpoint's manifests are written as it is taken,
/// up to an interval before its commit, and the store's times may be whole
/// seconds) and closes 1 s after the trial settled (or healed, or was armed).
struct trial_strays {
    bool listed = false;  ///< the run listed its store
    std::vector<std::string> flink_manifests, commit_manifests, manifest_lists, data_files;
    std::size_t total() const {
        return flink_manifests.size() + commit_manifests.size() + manifest_lists.size() + data_files.size();
    }
};

inline std::int64_t stray_window_end(const trial& t) {
    const auto end = t.settled_at_ms > 0 ? t.settled_at_ms : t.healed_at_ms > 0 ? t.healed_at_ms : t.armed_at_ms;
    return end + 1000;
}

inline trial_strays strays_of(const writer_run& run, const trial& t) {
    trial_strays out;
    if (!run.store) return out;
    out.listed = true;
    const auto c = hit_checkpoint(t);
    const auto from = t.armed_at_ms - 2000, to = stray_window_end(t);
    for (const auto& f : run.store->unreferenced) {
        if (const auto of = experiment::flink_manifest_checkpoint(f.relative)) {
            if (c >= 0 && *of == c) out.flink_manifests.push_back(f.relative);
            continue;
        }
        if (t.armed_at_ms == 0 || f.modified_ms < from || f.modified_ms > to) continue;
        if (experiment::is_manifest_list(f.relative))
            out.manifest_lists.push_back(f.relative);
        else if (experiment::is_commit_manifest(f.relative))
            out.commit_manifests.push_back(f.relative);
        else if (f.relative.ends_with(".parquet"))
            out.data_files.push_back(f.relative);
    }
    return out;
}

/// The unreferenced files of a run that no trial left: not metadata JSON
/// (older versions leave the catalog's metadata log as it grows, fault or not).
inline std::vector<std::string> strays_of_no_trial(const writer_run& run) {
    std::set<std::string> matched;
    for (const auto& t : run.trials) {
        const auto st = strays_of(run, t);
        for (const auto* v : {&st.flink_manifests, &st.commit_manifests, &st.manifest_lists, &st.data_files})
            matched.insert(v->begin(), v->end());
    }
    std::vector<std::string> out;
    if (run.store)
        for (const auto& f : run.store->unreferenced)
            if (!f.relative.ends_with(".metadata.json") && !matched.count(f.relative)) out.push_back(f.relative);
    return out;
}

// ---- rules ----------------------------------------------------------------

using rule = experiment::rule<samples, parameters>;
using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

/// The trials each prediction asks for, per table kind (predictions/e8_catalog_commit_faults.json).
inline std::uint64_t asked_trials(cell c) {
    switch (c) {
        case cell::lose_reply:
        case cell::status_unforwarded:
        case cell::held_kill_late_release:
            return 30;
        case cell::forward_then_504:
        case cell::zombie_409:
        case cell::held_past_timeout:
            return 10;
        case cell::zombie_refresh:
        case cell::held_no_timeout:
        case cell::zombie_early:
        case cell::zombie_late:
            return 5;
    }
    return 0;
}

/// What in one valid trial contradicts a prediction (its facts and sentence,
/// as refuted() makes them), or nothing; inconclusive() when the trial lacks
/// what the prediction is read on.
using contradiction = std::function<std::optional<rule_verdict>(const trial&, const trial_outcome&)>;

/// A run's table at the end, as the refutation states it.
inline experiment::facts table_facts(const writer_run& r) {
    if (kind_of(variant_of(r)) == experiment::table_kind::upsert)
        return {{"rows_sharing_npi", r.rows_sharing_npi.value_or(0)},
                {"missing_npis", r.missing_npis.value_or(0)},
                {"stale_rows", r.stale_rows.value_or(0)}};
    return {{"duplicate_rows", r.duplicate_rows}, {"missing_seqs", r.missing_seq}};
}
inline std::string_view table_pattern(const writer_run& r) {
    if (kind_of(variant_of(r)) == experiment::table_kind::upsert)
        return "{rows_sharing_npi} NPIs with more than one row, {missing_npis} missing, {stale_rows} stale rows";
    return "{duplicate_rows} duplicate seq rows, {missing_seqs} missing seqs";
}

/// Whether cell `c` doubles the checkpoint it hits on table `v` by the 1.10.1
/// code: the zombies inside the window, except zombie-409 with the retry off
/// (its replay's 409 is not rebased).
inline bool doubles_by_design(cell c, table_variant v) {
    return c == cell::zombie_refresh || (c == cell::zombie_409 && !retries_off(v));
}

/// The duplicate rows a run's valid trials of cells that double by design
/// account for: the records their extra snapshots added.
inline std::uint64_t explained_duplicates(const writer_run& r) {
    std::uint64_t out = 0;
    for (const auto& t : r.trials) {
        if (!doubles_by_design(t.kind, variant_of(r))) continue;
        const auto o = outcome_of(r, t);
        if (o.valid.valid && o.doubled()) out += static_cast<std::uint64_t>(o.excess_records);
    }
    return out;
}

/// Judges (writer, cell) over the writer's runs on the append and upsert
/// tables, with the commit's retry on or off (`retries_off`). A valid trial
/// that contradicts the prediction refutes it, and so does a table the feed
/// does not match at the end (append: a missing seq, and with the retry off a
/// duplicate row more than the trials of cells that double by design there
/// account for; upsert: any NPI
/// not holding its latest row once). Holding needs `asked` valid trials on
/// each table kind (`append_only`: on the append table). The facts: the
/// counts, the refutation and each trial.
inline rule_verdict judge_over_tables(const samples& s, const std::string& writer, cell c, bool retries_off_runs,
                                      std::uint64_t asked, const contradiction& contradicts, bool append_only = false) {
    using experiment::facts;
    std::map<experiment::table_kind, std::uint64_t> valid_per_kind;
    std::uint64_t tried = 0, valid = 0, doubled = 0;
    boost::json::array trials;  // each trial's facts
    std::string detail, refutation, undecided;
    facts refuted_by;
    bool all_observed = true;
    for (const auto& r : s.runs) {
        if (r.writer != writer || retries_off(variant_of(r)) != retries_off_runs) continue;
        if (retries_off_runs && !retry_off_in_force(r))
            return inconclusive({{"run", run_name(r)}},
                                "{run}: the catalog does not hold commit.retry.num-retries = 0 for its table");
        std::uint64_t valid_here = 0;
        for (const auto& t : r.trials) {
            if (t.kind != c) continue;
            ++tried;
            const auto o = outcome_of(r, t);
            const std::string label = run_name(r) + " trial " + std::to_string(t.index);
            if (!o.valid.valid) {
                trials.push_back(facts{{"trial", label}, {"valid", false}, {"validity", o.valid.facts}});
                detail += label + " void (" + o.valid.why + "); ";
                continue;
            }
            ++valid, ++valid_here, ++valid_per_kind[kind_of(variant_of(r))];
            if (o.doubled()) ++doubled;
            facts one{{"trial", label},
                      {"valid", true},
                      {"checkpoint", o.checkpoint},
                      {"commits", o.commits_of_checkpoint},
                      {"failures", t.exceptions_after - t.exceptions_before}};
            detail += experiment::render(one,
                                         "{trial}: checkpoint {checkpoint} committed by {commits} snapshot(s), "
                                         "{failures} failure(s) in Flink's exception history; ");
            trials.push_back(std::move(one));
            if (refutation.empty())
                if (const auto no = contradicts(t, o)) {
                    // An inconclusive answer is a trial the prediction cannot be read on.
                    if (no->verdict == verdict_kind::inconclusive) {
                        if (undecided.empty()) undecided = label + ": " + no->reason;
                    } else {
                        refutation = label + ": " + no->reason;
                        refuted_by = {{"trial", label}, {"contradiction", no->facts}};
                    }
                }
        }
        if (valid_here == 0) continue;
        if (!r.observed)
            all_observed = false;
        else if (refutation.empty()) {
            const bool upsert = kind_of(variant_of(r)) == experiment::table_kind::upsert;
            if ((upsert && !table_undamaged(r)) ||
                (!upsert && (r.missing_seq > 0 || (retries_off_runs && r.duplicate_rows > explained_duplicates(r))))) {
                const auto table = table_facts(r);
                refutation = run_name(r) + "'s table at the end: " + experiment::render(table, table_pattern(r));
                refuted_by = {{"run", run_name(r)}, {"table", table}};
            }
        }
    }
    const auto on = [&](experiment::table_kind k) { return valid_per_kind.count(k) ? valid_per_kind.at(k) : 0; };
    if (tried == 0)
        return inconclusive({{"cell", stem_of(c)}, {"writer", writer}},
                            retries_off_runs ? "no {cell} trial ran for {writer} with the retry off"
                                             : "no {cell} trial ran for {writer}");
    facts f{{"tried", tried},
            {"valid", valid},
            {"valid_append", on(experiment::table_kind::append)},
            {"valid_upsert", on(experiment::table_kind::upsert)},
            {"doubled", doubled},
            {"asked", asked},
            {"trials", std::move(trials)}};
    if (!refutation.empty()) f["refuted_by"] = std::move(refuted_by);
    if (doubled == 0 && valid > 0) f["bound"] = stats::clopper_pearson_upper(0, valid);
    // The head is rendered from the counts; the refutation and the trials'
    // sentences were rendered above from the facts under refuted_by and trials.
    auto verdict = [&](verdict_kind k, const std::string& head, const std::string& middle = "") {
        auto v = experiment::decided(k, f, head);
        v.reason += "; " + middle + detail;
        return v;
    };
    if (!all_observed) return verdict(verdict_kind::inconclusive, "a table was not read at the end");
    const std::string counts =
        "{valid} valid of {tried} trials ({valid_append} append, {valid_upsert} upsert), {doubled} doubled their "
        "checkpoint";
    if (!refutation.empty()) return verdict(verdict_kind::refuted, counts, refutation + "; ");
    if (valid == 0) return verdict(verdict_kind::inconclusive, counts);
    if (!undecided.empty()) return verdict(verdict_kind::inconclusive, counts, undecided + "; ");
    const std::string bound = doubled == 0 ? "; one-sided 95% upper bound on doubling per fault {bound:.3}" : "";
    if (on(experiment::table_kind::append) >= asked && (append_only || on(experiment::table_kind::upsert) >= asked))
        return verdict(verdict_kind::held, counts + bound);
    return verdict(verdict_kind::inconclusive,
                   counts + bound +
                       (append_only ? "; as predicted so far, but the prediction asks {asked} on the append table"
                                    : "; as predicted so far, but the prediction asks {asked} per table kind on "
                                      "append and upsert tables"));
}

/// One of the five cells with the commit's retry on.
inline rule_verdict judge_cell(const samples& s, const std::string& writer, cell c) {
    return judge_over_tables(s, writer, c, false, asked_trials(c),
                             [c](const trial& t, const trial_outcome& o) -> std::optional<rule_verdict> {
                                 if (predicted_to_double(c)) {
                                     if (!o.doubled())
                                         return refuted({{"commits", o.commits_of_checkpoint}},
                                                        "committed its checkpoint once");
                                     return std::nullopt;
                                 }
                                 if (o.doubled())
                                     return refuted({{"commits", o.commits_of_checkpoint}},
                                                    "committed its checkpoint {commits} times; predicted once");
                                 if (t.exceptions_after - t.exceptions_before != 1)
                                     return refuted({{"failures", t.exceptions_after - t.exceptions_before}},
                                                    "{failures} failures; predicted exactly one per fault");
                                 return std::nullopt;
                             });
}

/// The zombie-409 recipe with commit.retry.num-retries = 0: the replay's 409
/// is not rebased, so the checkpoint is committed once, by A, and the job
/// fails twice (the kill, then the 409).
inline rule_verdict judge_no_retries(const samples& s, const std::string& writer) {
    return judge_over_tables(s, writer, cell::zombie_409, true, 5,
                             [](const trial& t, const trial_outcome& o) -> std::optional<rule_verdict> {
                                 if (o.commits_of_checkpoint != 1)
                                     return refuted({{"commits", o.commits_of_checkpoint}},
                                                    "committed its checkpoint {commits} times; predicted once (A's)");
                                 if (t.exceptions_after - t.exceptions_before != 2)
                                     return refuted({{"failures", t.exceptions_after - t.exceptions_before}},
                                                    "{failures} failures; predicted two (the kill, then the 409)");
                                 return std::nullopt;
                             });
}

/// Whether the run recorded the settings this version of the experiment added
/// (the held-past-timeout, held-no-timeout and outside-window cells, and the
/// refresh recipe with the retry off): a run from before is judged as that
/// version judged it (its new cells "not run", the refresh recipe on its own).
inline bool of_this_version(const parameters& p) { return p.short_socket_timeout_ms.has_value(); }

/// The zombie-refresh recipe, as its prediction asks: 5 valid trials per table
/// kind with the retry on, and 5 more (on the append table) with it off, each
/// doubling its checkpoint; refuted if either part is, held if both are.
inline rule_verdict judge_refresh_with_retry_off(const samples& s, const std::string& writer) {
    const auto doubled = [](const trial&, const trial_outcome& o) -> std::optional<rule_verdict> {
        if (!o.doubled()) return refuted({{"commits", o.commits_of_checkpoint}}, "committed its checkpoint once");
        return std::nullopt;
    };
    const std::vector<bool> retry_off{false, true};
    return experiment::for_each_of(
        retry_off, [](bool off) { return std::string(off ? "retry off" : "retry on"); },
        [&](bool off) {
            return judge_over_tables(s, writer, cell::zombie_refresh, off, asked_trials(cell::zombie_refresh), doubled,
                                     off);
        },
        "no zombie-refresh trial to judge");
}

/// A held reply let go after the client's socket timeout: the client gave up
/// (a read timeout, never retried), so the job fails once and the restored
/// committer finds the commit applied; the late reply meets a closed connection.
inline rule_verdict judge_held_past_timeout(const samples& s, const std::string& writer) {
    return judge_over_tables(s, writer, cell::held_past_timeout, false, asked_trials(cell::held_past_timeout),
                             [](const trial& t, const trial_outcome& o) -> std::optional<rule_verdict> {
                                 if (o.commits_of_checkpoint != 1)
                                     return refuted({{"commits", o.commits_of_checkpoint}},
                                                    "committed its checkpoint {commits} times; predicted once");
                                 if (t.exceptions_after - t.exceptions_before != 1)
                                     return refuted({{"failures", t.exceptions_after - t.exceptions_before}},
                                                    "{failures} failures; predicted exactly one per fault");
                                 const auto* hit = applied_by(t, t.hit_rule);
                                 if (!hit || hit->note.find("answering the client failed") == std::string::npos)
                                     return refuted(
                                         {}, "the held reply was delivered: the client had not closed its connection");
                                 return std::nullopt;
                             });
}

/// A zombie outside the window doubles nothing: early, A's snapshot is the
/// checkpoint's one commit; late, the catalog refuses A (409) and the replay's
/// snapshot is the one commit.
inline rule_verdict judge_outside_window(const samples& s, const std::string& writer) {
    const std::vector<cell> timings{cell::zombie_early, cell::zombie_late};
    return experiment::for_each_of(
        timings, [](cell c) { return stem_of(c); },
        [&](cell c) {
            return judge_over_tables(
                s, writer, c, false, asked_trials(c),
                [c](const trial& t, const trial_outcome& o) -> std::optional<rule_verdict> {
                    if (o.commits_of_checkpoint != 1)
                        return refuted({{"commits", o.commits_of_checkpoint}},
                                       "committed its checkpoint {commits} times; predicted once");
                    const auto* a = applied_by(t, t.hit_rule);
                    const bool a_is_the_commit = a && a->snapshot_id != 0 && a->snapshot_id == o.first_snapshot_id;
                    if (c == cell::zombie_early && !a_is_the_commit)
                        return refuted({}, "the checkpoint's one snapshot is not A's; predicted A's");
                    if (c == cell::zombie_late && (!a || a->upstream_status != 409))
                        return refuted({{"a_status", a ? a->upstream_status : 0u}},
                                       "A got {a_status} from the catalog; predicted 409");
                    if (c == cell::zombie_late && a_is_the_commit)
                        return refuted({}, "the checkpoint's one snapshot is A's; predicted the replay's");
                    return std::nullopt;
                });
        },
        "no zombie timing to judge");
}

/// A reply held under the client's timeout only stalls the committer: no
/// failure, no failed checkpoint, and the checkpoint committed once, by the
/// held commit (the catalog's commit time before the release). Each Flink
/// writer, on its append table.
inline rule_verdict judge_held_no_timeout(const samples& s) {
    std::vector<std::string> writers;
    for (const auto& w : known_writers()) writers.push_back(w.name);
    return experiment::for_each_of(
        writers, [](const std::string& w) { return w; },
        [&](const std::string& w) {
            return judge_over_tables(
                s, w, cell::held_no_timeout, false, asked_trials(cell::held_no_timeout),
                [](const trial& t, const trial_outcome& o) -> std::optional<rule_verdict> {
                    if (t.exceptions_after != t.exceptions_before)
                        return refuted({{"failures", t.exceptions_after - t.exceptions_before}},
                                       "{failures} failures; predicted none");
                    if (!t.failed_checkpoints_before || !t.failed_checkpoints_after)
                        return inconclusive({}, "the failed checkpoints were not read");
                    if (*t.failed_checkpoints_after != *t.failed_checkpoints_before)
                        return refuted({{"failed", *t.failed_checkpoints_after - *t.failed_checkpoints_before}},
                                       "{failed} checkpoints failed; predicted none");
                    if (o.commits_of_checkpoint != 1)
                        return refuted({{"commits", o.commits_of_checkpoint}},
                                       "committed its checkpoint {commits} times; predicted once");
                    const auto* hit = applied_by(t, t.hit_rule);
                    if (!o.first_committed_at_ms || !hit || !hit->released_at_ms)
                        return inconclusive({}, "the commit's time or the release's was not recorded");
                    if (*o.first_committed_at_ms >= *hit->released_at_ms)
                        return refuted(
                            {{"committed_at", *o.first_committed_at_ms}, {"released_at", *hit->released_at_ms}},
                            "the checkpoint's snapshot was committed at {committed_at}, not before the "
                            "release at {released_at}");
                    return std::nullopt;
                },
                true);
        },
        "no writer to judge");
}

// The store rules speak of every cell and writer; these do not run yet.
inline constexpr const char* store_rules_not_covered =
    "the Connect sink and the held-past-timeout cell do not run in this version";
inline constexpr const char* store_rules_not_covered_now = "the Connect sink does not run in this version";
inline const char* store_not_covered(const parameters& p) {
    return of_this_version(p) ? store_rules_not_covered_now : store_rules_not_covered;
}
// What the two store rules said before runs listed the store; a run from then is judged the same.
inline constexpr const char* store_not_listed_missing =
    "this version does not list the store against the snapshots' files";
inline constexpr const char* store_not_listed_orphans = "this version does not list the store for unreferenced files";

/// Runs that listed their store, and the first that did not (nullptr: none).
inline std::pair<std::size_t, const writer_run*> listed_runs(const samples& s) {
    std::size_t listed = 0;
    const writer_run* unlisted = nullptr;
    for (const auto& r : s.runs)
        if (r.store)
            ++listed;
        else if (!unlisted)
            unlisted = &r;
    return {listed, unlisted};
}

/// A run whose metadata names a file the store lacks refutes both store rules.
inline std::optional<rule_verdict> referenced_file_missing(const samples& s) {
    for (const auto& r : s.runs)
        if (r.store && !r.store->referenced_missing.empty())
            return refuted({{"run", run_name(r)},
                            {"missing", r.store->referenced_missing.size()},
                            {"first", r.store->referenced_missing.front()}},
                           "{run}: {missing} file(s) its metadata references are not in the store ({first} first)");
    return std::nullopt;
}

/// e8.no-referenced-file-missing: every run's store holds every file its
/// metadata references, and a full Trino scan read its table; inconclusive
/// while cells the prediction names do not run.
inline rule_verdict judge_no_referenced_missing(const samples& s, const parameters& p = {}) {
    const auto [listed, unlisted] = listed_runs(s);
    if (listed == 0) return inconclusive({{"not_run", store_not_listed_missing}}, "not run: {not_run}");
    if (const auto no = referenced_file_missing(s)) return *no;
    if (unlisted) return inconclusive({{"run", run_name(*unlisted)}}, "{run} did not list its store");
    std::int64_t referenced = 0;
    std::uint64_t faults = 0, faults_503 = 0;
    for (const auto& r : s.runs) {
        if (!r.observed) return inconclusive({{"run", run_name(r)}}, "{run}'s table was not read at the end");
        referenced += r.store->referenced;
        for (const auto& t : r.trials)
            if (validity_of(t).valid) {
                ++faults;
                if (t.kind == cell::status_unforwarded && t.status == 503) ++faults_503;
            }
    }
    return inconclusive({{"runs", s.runs.size()},
                         {"referenced", referenced},
                         {"faults", faults},
                         {"faults_503", faults_503},
                         {"not_covered", store_not_covered(p)}},
                        "as predicted so far: in {runs} runs the store holds all {referenced} files the metadata "
                        "references and a full Trino scan read each table, after {faults} valid faults ({faults_503} "
                        "of them a 503); but {not_covered}");
}

/// e8.unacknowledged-commits-leave-orphans: each valid lost reply and
/// forwarded-then-504 left a temporary Flink manifest of its checkpoint, and
/// each valid unforwarded 5xx a commit manifest and a manifest list; no
/// referenced file is missing. Inconclusive while cells it names do not run.
inline rule_verdict judge_unacknowledged_orphans(const samples& s, const parameters& p = {}) {
    const auto [listed, unlisted] = listed_runs(s);
    if (listed == 0) return inconclusive({{"not_run", store_not_listed_orphans}}, "not run: {not_run}");
    if (const auto no = referenced_file_missing(s)) return *no;
    std::map<std::string, std::uint64_t> judged;  // per cell
    std::uint64_t left = 0;
    for (const auto& r : s.runs) {
        if (!r.store) continue;
        for (const auto& t : r.trials) {
            if (!validity_of(t).valid) continue;
            const auto st = strays_of(r, t);
            const experiment::facts at{{"trial", run_name(r) + " trial " + std::to_string(t.index)},
                                       {"checkpoint", hit_checkpoint(t)},
                                       {"flink_manifests", st.flink_manifests.size()},
                                       {"commit_manifests", st.commit_manifests.size()},
                                       {"manifest_lists", st.manifest_lists.size()}};
            if (t.kind == cell::lose_reply || t.kind == cell::forward_then_504 ||
                t.kind == cell::held_kill_late_release || t.kind == cell::held_past_timeout) {
                if (st.flink_manifests.empty())
                    return refuted(at,
                                   "{trial}: its commit of checkpoint {checkpoint} was applied and not acknowledged, "
                                   "and left no temporary Flink manifest of it");
            } else if (t.kind == cell::status_unforwarded) {
                if (st.commit_manifests.empty() || st.manifest_lists.empty())
                    return refuted(at,
                                   "{trial}: its commit of checkpoint {checkpoint} was refused unforwarded and left "
                                   "{commit_manifests} commit manifest(s) and {manifest_lists} manifest list(s); "
                                   "predicted at least one of each");
            } else {
                continue;
            }
            ++judged[stem_of(t.kind)];
            left += st.total();
        }
    }
    std::uint64_t faults = 0;
    for (const auto& [c, n] : judged) faults += n;
    if (faults == 0)
        return inconclusive({},
                            "no valid lose-reply, forward-then-504, held-kill-late-release, held-past-timeout or "
                            "status-unforwarded trial in a listed run");
    experiment::facts per_cell;
    for (const auto& [c, n] : judged) per_cell[c] = n;
    return inconclusive(
        {{"faults", faults}, {"per_cell", std::move(per_cell)}, {"left", left}, {"not_covered", store_not_covered(p)}},
        "as predicted so far: each of {faults} valid faults left what the prediction says, "
        "{left} unreferenced files in all; but {not_covered}");
}

/// The predictions this version has no cell for, and why (for a run with
/// parameters `p`): judged inconclusive in words, not left to the judge's "no rule".
inline std::vector<std::pair<std::string, std::string>> not_run(const parameters& p = {}) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string connect =
        "the Connect sink is not a writer in this version of experiment 8 (Flink's two sinks only)";
    for (const auto* stem :
         {"lose-reply", "held-past-timeout", "held-kill-late-release", "status-unforwarded", "forward-then-504",
          "zombie-409", "zombie-refresh", "zombie-409-no-retries", "zombie-outside-window"})
        out.emplace_back(std::string("e8.") + stem + ":connect", connect);
    out.emplace_back("e8.operator-signals",
                     of_this_version(p)
                         ? "this version records Flink's exception history and failed-checkpoint count per trial, "
                           "not lag or job state samples"
                         : "this version records Flink's exception history per trial, not lag, job state samples or "
                           "failed checkpoints");
    return out;
}

/// The predictions a run from before the held-past-timeout, held-no-timeout
/// and outside-window cells had no cell for, with what it said then.
inline std::vector<std::pair<std::string, std::string>> not_run_before_those_cells() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto* w : {"flinksink", "sinkv2"}) {
        out.emplace_back(std::string("e8.held-past-timeout:") + w,
                         "this version has no held-reply cell (http_hold_reply with a short client timeout)");
        out.emplace_back(std::string("e8.zombie-outside-window:") + w, "this version has no early or late zombie cell");
    }
    out.emplace_back("e8.held-no-timeout-stalls", "this version has no held-reply cell without a client timeout");
    return out;
}

inline std::vector<rule> rules() {
    std::vector<rule> out;
    for (const auto& [id, why] : not_run())
        out.push_back({id, [id = id](const samples&, const parameters& p) {
                           std::string now;
                           for (const auto& [of, why_now] : not_run(p))
                               if (of == id) now = why_now;
                           return inconclusive({{"not_run", now}}, "not run: {not_run}");
                       }});
    // Judged by the cells below, or as "not run" on a run from before them.
    const auto since_those_cells = [](std::string id, std::function<rule_verdict(const samples&)> judge) -> rule {
        std::string before;
        for (const auto& [old_id, why] : not_run_before_those_cells())
            if (old_id == id) before = why;
        return {std::move(id), [before, judge = std::move(judge)](const samples& s, const parameters& p) {
                    if (!of_this_version(p)) return inconclusive({{"not_run", before}}, "not run: {not_run}");
                    return judge(s);
                }};
    };
    for (const auto& w : known_writers()) {
        out.push_back(since_those_cells("e8.held-past-timeout:" + w.name, [name = w.name](const samples& s) {
            return judge_held_past_timeout(s, name);
        }));
        out.push_back(since_those_cells("e8.zombie-outside-window:" + w.name,
                                        [name = w.name](const samples& s) { return judge_outside_window(s, name); }));
    }
    out.push_back(
        since_those_cells("e8.held-no-timeout-stalls", [](const samples& s) { return judge_held_no_timeout(s); }));
    for (const auto c : {cell::lose_reply, cell::status_unforwarded, cell::forward_then_504, cell::zombie_409,
                         cell::zombie_refresh, cell::held_kill_late_release})
        for (const auto& w : known_writers())
            out.push_back(
                {"e8." + stem_of(c) + ":" + w.name, [c, name = w.name](const samples& s, const parameters& p) {
                     if (c == cell::zombie_refresh && of_this_version(p)) return judge_refresh_with_retry_off(s, name);
                     return judge_cell(s, name, c);
                 }});
    for (const auto& w : known_writers())
        out.push_back({"e8.zombie-409-no-retries:" + w.name,
                       [name = w.name](const samples& s, const parameters&) { return judge_no_retries(s, name); }});
    out.push_back({"e8.no-referenced-file-missing",
                   [](const samples& s, const parameters& p) { return judge_no_referenced_missing(s, p); }});
    out.push_back({"e8.unacknowledged-commits-leave-orphans",
                   [](const samples& s, const parameters& p) { return judge_unacknowledged_orphans(s, p); }});
    return out;
}

}  // namespace rosterrig::e8

#endif
