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
    std::string why;  ///< what the trial did, or which precondition it missed
};

/// Whether the trial did what its cell needs, from the proxy's log (docs/E8_DESIGN.md §5).
inline validity validity_of(const trial& t) {
    if (!t.failure.empty()) return {false, "the trial stopped: " + t.failure};
    const auto* hit = applied_by(t, t.hit_rule);
    if (!hit) return {false, "no commit POST met the hit rule"};
    if (hit->watermark < 0) return {false, "the hit commit's body carried no flink.max-committed-checkpoint-id"};
    const auto c = std::to_string(hit->watermark);
    switch (t.kind) {
        case cell::lose_reply:
            if (hit->upstream_status == 200 && hit->dropped_at_ms > 0 && hit->answered_at_ms == 0)
                return {true, "checkpoint " + c + ": the catalog answered 200, the client's connection was dropped"};
            return {false,
                    "the hit was not applied and dropped (upstream " + std::to_string(hit->upstream_status) + ")"};
        case cell::status_unforwarded:
            if (hit->forwarded_at_ms == 0 && hit->answered_status == t.status)
                return {true, "checkpoint " + c + ": answered " + std::to_string(t.status) + ", never forwarded"};
            return {false,
                    "the hit was forwarded or answered otherwise (" + std::to_string(hit->answered_status) + ")"};
        case cell::forward_then_504:
            if (hit->upstream_status == 200 && hit->answered_status == 504)
                return {true, "checkpoint " + c + ": applied (200), answered 504"};
            return {false, "the hit was not applied and answered 504"};
        case cell::zombie_409:
        case cell::zombie_refresh:
            break;
    }
    if (!t.kill) return {false, "no kill was recorded"};
    const auto killed = t.kill->killed_at_ms;
    if (hit->upstream_status != 200)
        return {false, "A was not applied (upstream " + std::to_string(hit->upstream_status) + ")"};
    if (hit->forwarded_at_ms <= killed) return {false, "A was forwarded before the kill"};
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
        if (!b) return {false, "no commit POST met rule B (no replay came)"};
        if (b->upstream_status != 409)
            return {false, "the replay B got " + std::to_string(b->upstream_status) + ", not 409 (A landed " +
                               (b->forwarded_at_ms < hit->upstream_replied_at_ms ? "after" : "before") + " it)"};
        if (!applied_after || applied_after->forwarded_at_ms < b->upstream_replied_at_ms)
            return {false, "no commit POST was applied after B's 409"};
        return {true, "checkpoint " + c +
                          ": A applied after the kill, the replay B got 409, a later commit POST was applied"};
    }
    // zombie_refresh: A's 200 between a GET forwarded after the kill (the restored
    // load did not see A) and a GET forwarded before the replay's POST (its refresh did).
    if (!applied_after) return {false, "no commit POST was applied after the kill (no replay)"};
    for (const auto& r : t.requests)
        if (r.method == "POST" && r.upstream_status == 409 && r.forwarded_at_ms > killed)
            return {false, "a commit POST got 409 after the kill: the 409 path, not the refresh path"};
    if (applied_after->forwarded_at_ms < hit->upstream_replied_at_ms)
        return {false, "the replay was forwarded before A landed"};
    bool load_before = false, refresh_after = false;
    for (const auto& r : t.requests) {
        if (r.method != "GET" || r.forwarded_at_ms <= killed) continue;
        if (r.forwarded_at_ms < hit->upstream_replied_at_ms) load_before = true;
        if (r.forwarded_at_ms > hit->upstream_replied_at_ms && r.forwarded_at_ms < applied_after->forwarded_at_ms)
            refresh_after = true;
    }
    if (!load_before)
        return {false, "no table GET was forwarded between the kill and A's landing (the restore may have seen A)"};
    if (!refresh_after) return {false, "no table GET was forwarded between A's landing and the replay"};
    return {true, "checkpoint " + c + ": A landed between the restored load and the replay's refresh; no 409"};
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
            first = false;
        }
    return o;
}

/// The whole-table check of one run: its snapshots against the events sent.
inline check::commit_replay_report replay_report(const writer_run& run) {
    return check::commit_replay(run.snapshots, static_cast<std::int64_t>(run.events));
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
            return 30;
        case cell::forward_then_504:
        case cell::zombie_409:
            return 10;
        case cell::zombie_refresh:
            return 5;
    }
    return 0;
}

/// What in one valid trial contradicts a prediction, or nothing.
using contradiction = std::function<std::optional<std::string>(const trial&, const trial_outcome&)>;

/// Judges (writer, cell) over the writer's runs on the append and upsert
/// tables, with the commit's retry on or off (`retries_off`). A valid trial
/// that contradicts the prediction refutes it, and so does a table the feed
/// does not match at the end (append: a missing seq, and with the retry off a
/// duplicate too, since nothing there is predicted to double; upsert: any NPI
/// not holding its latest row once). Holding needs `asked` valid trials on
/// each table kind.
inline rule_verdict judge_over_tables(const samples& s, const std::string& writer, cell c, bool retries_off_runs,
                                      std::uint64_t asked, const contradiction& contradicts) {
    std::map<experiment::table_kind, std::uint64_t> valid_per_kind;
    std::uint64_t tried = 0, valid = 0, doubled = 0;
    std::string detail, refutation;
    bool all_observed = true;
    for (const auto& r : s.runs) {
        if (r.writer != writer || retries_off(variant_of(r)) != retries_off_runs) continue;
        if (retries_off_runs && !retry_off_in_force(r))
            return inconclusive(run_name(r) + ": the catalog does not hold commit.retry.num-retries = 0 for its table");
        std::uint64_t valid_here = 0;
        for (const auto& t : r.trials) {
            if (t.kind != c) continue;
            ++tried;
            const auto o = outcome_of(r, t);
            const std::string label = run_name(r) + " trial " + std::to_string(t.index);
            if (!o.valid.valid) {
                detail += label + " void (" + o.valid.why + "); ";
                continue;
            }
            ++valid, ++valid_here, ++valid_per_kind[kind_of(variant_of(r))];
            if (o.doubled()) ++doubled;
            detail += label + ": checkpoint " + std::to_string(o.checkpoint) + " committed by " +
                      std::to_string(o.commits_of_checkpoint) + " snapshot(s), " +
                      std::to_string(t.exceptions_after - t.exceptions_before) +
                      " failure(s) in Flink's exception history; ";
            if (refutation.empty())
                if (const auto why = contradicts(t, o)) refutation = label + ": " + *why;
        }
        if (valid_here == 0) continue;
        if (!r.observed)
            all_observed = false;
        else if (refutation.empty()) {
            const bool upsert = kind_of(variant_of(r)) == experiment::table_kind::upsert;
            if ((upsert && !table_undamaged(r)) ||
                (!upsert && (r.missing_seq > 0 || (retries_off_runs && r.duplicate_rows > 0))))
                refutation = run_name(r) + "'s table at the end: " + table_text(r);
        }
    }
    const auto on = [&](experiment::table_kind k) { return valid_per_kind.count(k) ? valid_per_kind.at(k) : 0; };
    if (tried == 0)
        return inconclusive("no " + stem_of(c) + " trial ran for " + writer +
                            (retries_off_runs ? " with the retry off" : ""));
    if (!all_observed) return inconclusive("a table was not read at the end; " + detail);
    const std::string counts = std::to_string(valid) + " valid of " + std::to_string(tried) + " trials (" +
                               std::to_string(on(experiment::table_kind::append)) + " append, " +
                               std::to_string(on(experiment::table_kind::upsert)) + " upsert), " +
                               std::to_string(doubled) + " doubled their checkpoint";
    if (!refutation.empty()) return refuted(counts + "; " + refutation + "; " + detail);
    if (valid == 0) return inconclusive(counts + "; " + detail);
    std::string bound;
    if (doubled == 0)
        bound = "; one-sided 95% upper bound on doubling per fault " +
                report::fixed(stats::clopper_pearson_upper(0, valid), 3);
    if (on(experiment::table_kind::append) >= asked && on(experiment::table_kind::upsert) >= asked)
        return held(counts + bound + "; " + detail);
    return inconclusive(counts + bound + "; as predicted so far, but the prediction asks " + std::to_string(asked) +
                        " per table kind on append and upsert tables; " + detail);
}

/// One of the five cells with the commit's retry on.
inline rule_verdict judge_cell(const samples& s, const std::string& writer, cell c) {
    return judge_over_tables(s, writer, c, false, asked_trials(c),
                             [c](const trial& t, const trial_outcome& o) -> std::optional<std::string> {
                                 if (predicted_to_double(c)) {
                                     if (!o.doubled()) return "committed its checkpoint once";
                                     return std::nullopt;
                                 }
                                 if (o.doubled())
                                     return "committed its checkpoint " + std::to_string(o.commits_of_checkpoint) +
                                            " times; predicted once";
                                 if (t.exceptions_after - t.exceptions_before != 1)
                                     return std::to_string(t.exceptions_after - t.exceptions_before) +
                                            " failures; predicted exactly one per fault";
                                 return std::nullopt;
                             });
}

/// The zombie-409 recipe with commit.retry.num-retries = 0: the replay's 409
/// is not rebased, so the checkpoint is committed once, by A, and the job
/// fails twice (the kill, then the 409).
inline rule_verdict judge_no_retries(const samples& s, const std::string& writer) {
    return judge_over_tables(s, writer, cell::zombie_409, true, 5,
                             [](const trial& t, const trial_outcome& o) -> std::optional<std::string> {
                                 if (o.commits_of_checkpoint != 1)
                                     return "committed its checkpoint " + std::to_string(o.commits_of_checkpoint) +
                                            " times; predicted once (A's)";
                                 if (t.exceptions_after - t.exceptions_before != 2)
                                     return std::to_string(t.exceptions_after - t.exceptions_before) +
                                            " failures; predicted two (the kill, then the 409)";
                                 return std::nullopt;
                             });
}

/// The predictions this version has no cell for, and why: judged inconclusive
/// in words, not left to the judge's "no rule".
inline std::vector<std::pair<std::string, std::string>> not_run() {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string connect =
        "the Connect sink is not a writer in this version of experiment 8 (Flink's two sinks only)";
    for (const auto* stem :
         {"lose-reply", "held-past-timeout", "held-kill-late-release", "status-unforwarded", "forward-then-504",
          "zombie-409", "zombie-refresh", "zombie-409-no-retries", "zombie-outside-window"})
        out.emplace_back(std::string("e8.") + stem + ":connect", connect);
    for (const auto* w : {"flinksink", "sinkv2"}) {
        out.emplace_back(std::string("e8.held-past-timeout:") + w,
                         "this version has no held-reply cell (http_hold_reply with a short client timeout)");
        out.emplace_back(std::string("e8.held-kill-late-release:") + w,
                         "this version has no held-reply cell (hold, kill, release after recovery)");
        out.emplace_back(std::string("e8.zombie-outside-window:") + w, "this version has no early or late zombie cell");
    }
    out.emplace_back("e8.held-no-timeout-stalls", "this version has no held-reply cell without a client timeout");
    out.emplace_back("e8.no-referenced-file-missing",
                     "this version does not list the store against the snapshots' files");
    out.emplace_back("e8.unacknowledged-commits-leave-orphans",
                     "this version does not list the store for unreferenced files");
    out.emplace_back(
        "e8.operator-signals",
        "this version records Flink's exception history per trial, not lag, job state samples or failed checkpoints");
    return out;
}

inline std::vector<rule> rules() {
    std::vector<rule> out;
    for (const auto& [id, why] : not_run())
        out.push_back({id, [why = why](const samples&, const parameters&) { return inconclusive("not run: " + why); }});
    for (const auto c :
         {cell::lose_reply, cell::status_unforwarded, cell::forward_then_504, cell::zombie_409, cell::zombie_refresh})
        for (const auto& w : known_writers())
            out.push_back({"e8." + stem_of(c) + ":" + w.name,
                           [c, name = w.name](const samples& s, const parameters&) { return judge_cell(s, name, c); }});
    for (const auto& w : known_writers())
        out.push_back({"e8.zombie-409-no-retries:" + w.name,
                       [name = w.name](const samples& s, const parameters&) { return judge_no_retries(s, name); }});
    return out;
}

}  // namespace rosterrig::e8

#endif
