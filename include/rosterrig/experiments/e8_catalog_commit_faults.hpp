// rosterrig/experiments/e8_catalog_commit_faults.hpp: experiment 8, a table
// commit whose reply is lost, answered by a fault, or that lands late.
//
// The Flink writers' catalog client goes through the fault proxy; one commit
// POST per trial is hit (docs/E8_DESIGN.md §5). The samples keep every request
// to the table's path the proxy saw in the trial (commit POSTs with the snapshot
// id and watermark their bodies carried), the kill when the cell has one, and,
// per writer run, the table as Trino reads it and the writer's snapshots as the
// catalog lists them. Whether a trial did what its cell needs (valid) and whether
// it doubled its checkpoint are computed here from those, never by the driver.
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>
#include <boost/json.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/check/commit_replay.hpp"
#include "rosterrig/check/missing_ranges.hpp"
#include "rosterrig/experiment/catalog_request.hpp"
#include "rosterrig/experiment/enum_names.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/kill_record.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/random/splitmix64.hpp"
#include "rosterrig/random/uniform_int.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/envelope.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"

namespace rosterrig::e8 {

using experiment::prediction_outcome;

/// What a trial does to the k-th commit POST after the table settled.
enum class cell {
    lose_reply,          ///< forwarded, applied, the client's connection dropped unanswered
    status_unforwarded,  ///< answered 500/502/503/504 by the proxy; the catalog never sees it
    forward_then_504,    ///< forwarded, applied, answered 504
    zombie_409,          ///< A delayed, the committer's TaskManager killed, the replay B delayed so A lands first: B gets 409
    zombie_refresh,      ///< A delayed, the kill, every table GET delayed: A lands between the restored load and the replay's refresh
};
BOOST_DESCRIBE_ENUM(cell, lose_reply, status_unforwarded, forward_then_504, zombie_409, zombie_refresh)

/// The prediction-id stem of a cell (e8.<stem>:<writer>).
inline std::string stem_of(cell c) {
    switch (c) {
    case cell::lose_reply: return "lose-reply";
    case cell::status_unforwarded: return "status-unforwarded";
    case cell::forward_then_504: return "forward-then-504";
    case cell::zombie_409: return "zombie-409";
    case cell::zombie_refresh: return "zombie-refresh";
    }
    return "?";
}
inline bool has_kill(cell c) { return c == cell::zombie_409 || c == cell::zombie_refresh; }
/// A cell whose fault, by the 1.10.1 code, doubles the checkpoint it hits (docs/E8_DESIGN.md §3).
inline bool predicted_to_double(cell c) { return has_kill(c); }

/// One writer under test: the prediction-id suffix and the sink it selects.
struct writer_kind {
    std::string name;  ///< sinkv2, flinksink
    experiment::iceberg_sink sink = experiment::iceberg_sink::sink_v2;
};
inline std::vector<writer_kind> known_writers() {
    return {{"sinkv2", experiment::iceberg_sink::sink_v2}, {"flinksink", experiment::iceberg_sink::flink_sink}};
}
inline std::optional<writer_kind> writer_named(const std::string& name) {
    for (const auto& w : known_writers())
        if (w.name == name) return w;
    return std::nullopt;
}

/// How many trials of a cell a writer runs.
struct cell_count {
    cell kind = cell::lose_reply;
    std::uint64_t trials = 0;
    friend bool operator==(const cell_count&, const cell_count&) = default;
};
BOOST_DESCRIBE_STRUCT(cell_count, (), (kind, trials))

/// The delays a zombie trial uses (fast recovery profile, docs/E8_DESIGN.md §5).
struct zombie_timing {
    std::int64_t a_ms = 0;      ///< rule A: the hit commit POST waits this long before it is forwarded
    std::int64_t b_ms = 0;      ///< zombie_409: the replay's POST waits this long
    std::int64_t get_ms = 0;    ///< zombie_refresh: every table GET waits this long until the heal
    friend bool operator==(const zombie_timing&, const zombie_timing&) = default;
};
BOOST_DESCRIBE_STRUCT(zombie_timing, (), (a_ms, b_ms, get_ms))

struct parameters {
    std::uint64_t seed = 8;
    std::uint64_t providers = 500;
    std::uint32_t partitions = 2;
    double rate = 50;                          ///< events per second, so every checkpoint carries data
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t socket_timeout_ms = 600000;   ///< rest.client.socket-timeout-ms: longer than every delay
    std::vector<std::string> writers = {"sinkv2", "flinksink"};
    std::vector<cell_count> cells;             ///< per writer, in this order
    zombie_timing zombie_409_timing{20000, 20000, 0};
    zombie_timing zombie_refresh_timing{35000, 0, 20000};
    std::vector<unsigned> statuses = {500, 502, 503, 504};  ///< status_unforwarded draws one per trial
    std::string repro;                         ///< a --repro run: its name
    bool quick = false;
    experiment::warehouse warehouse = experiment::warehouse::s3;

    static parameters full() {
        parameters p;
        // About 30 min on this machine (2 vCPUs): the deterministic zombie cells
        // at the predictions' n on the append table, the null cells at a third of it.
        p.cells = {{cell::zombie_409, 10}, {cell::zombie_refresh, 5}, {cell::lose_reply, 10},
                   {cell::status_unforwarded, 8}, {cell::forward_then_504, 5}};
        return p;
    }
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.writers = {"sinkv2"};
        p.cells = {{cell::lose_reply, 1}, {cell::status_unforwarded, 1}, {cell::zombie_409, 1}};
        p.statuses = {503};
        return p;
    }
    /// The minimal reproductions (docs/E8_DESIGN.md §6): one writer, one zombie
    /// cell, three trials; short, so quick (never promoted to results/).
    static std::vector<std::string> repro_names() {
        return {"sinkv2-zombie-409", "flinksink-zombie-409", "sinkv2-zombie-refresh", "flinksink-zombie-refresh"};
    }
    static std::optional<parameters> repro_run(const std::string& name) {
        const auto names = repro_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) return std::nullopt;
        parameters p;
        p.quick = true;
        p.repro = name;
        p.writers = {name.substr(0, name.find('-'))};
        p.cells = {{name.ends_with("409") ? cell::zombie_409 : cell::zombie_refresh, 3}};
        return p;
    }
    /// How long the trials take, roughly (s), for the feed's length.
    std::uint64_t expected_seconds() const {
        std::uint64_t per_writer = 60;  // the job's start, the settle and the drain
        for (const auto& c : cells)
            per_writer += c.trials * (c.kind == cell::zombie_refresh ? 110 : c.kind == cell::zombie_409 ? 80 : 35);
        return per_writer;
    }
    /// Half as long again as expected: a trial never waits for commits that cannot come (the rest goes at full speed at the end).
    std::uint64_t events() const { return static_cast<std::uint64_t>(rate * 1.5 * static_cast<double>(expected_seconds())); }
    roster_spec feed() const { return roster_feed(seed, events(), providers, partitions); }
};

BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, providers, partitions, rate, checkpoint_interval_ms, socket_timeout_ms, writers, cells,
                       zombie_409_timing, zombie_refresh_timing, statuses, repro, quick, warehouse))

// A commit POST's body and a request on the table's path are shared records
// (experiment/catalog_request.hpp).
using experiment::commit_body;
using experiment::commit_body_of;
using experiment::table_request;

/// One fault on one commit.
struct trial {
    std::uint64_t index = 0;  ///< 1-based within its writer run
    cell kind = cell::lose_reply;
    std::uint64_t k = 0;      ///< drawn: the k-th commit POST after the table settled is hit
    unsigned status = 0;      ///< status_unforwarded: what the proxy answered
    std::uint64_t hit_rule = 0, b_rule = 0, get_rule = 0;  ///< the proxy rules armed (0: none)
    std::int64_t armed_at_ms = 0;
    std::int64_t healed_at_ms = 0;   ///< the proxy's rules removed and holds released
    std::int64_t settled_at_ms = 0;  ///< job running and an unruled commit answered 200 after the heal (0: never)
    std::optional<experiment::kill_record> kill;  ///< the committer's TaskManager SIGKILLed (zombie cells)
    std::int64_t exceptions_before = 0, exceptions_after = 0;  ///< Flink's exception history, entries
    std::vector<std::string> new_exceptions;  ///< first lines of the entries the trial added, oldest first
    std::vector<table_request> requests;      ///< every request to the table path from arming to settling
    std::string failure;                      ///< why the trial stopped early, "" when it did not
};
BOOST_DESCRIBE_STRUCT(trial, (),
                      (index, kind, k, status, hit_rule, b_rule, get_rule, armed_at_ms, healed_at_ms, settled_at_ms, kill,
                       exceptions_before, exceptions_after, new_exceptions, requests, failure))

/// One writer's job, its trials and the table at the end.
struct writer_run {
    std::string writer;  ///< sinkv2, flinksink
    std::string job;
    std::string table;
    std::string mode_in_force;             ///< Flink's checkpointing mode (/jobs/<id>/checkpoints/config)
    std::int64_t interval_in_force_ms = 0;  ///< and interval
    std::string sink_in_force;             ///< the sink implementation the job plan shows
    std::map<std::string, std::string> catalog_properties;  ///< what the writer's CREATE CATALOG set beyond the stack's
    std::string proxy_address;  ///< where the writer's catalog client went
    std::string feed_sha256;
    std::uint64_t events = 0;
    std::vector<trial> trials;
    bool observed = false;  ///< the end below was read
    std::uint64_t rows = 0, duplicate_rows = 0, missing_seq = 0;
    std::vector<seq_range> missing_runs;
    std::vector<check::snapshot_entry> snapshots;  ///< the table's snapshots, oldest first, from the catalog
};
BOOST_DESCRIBE_STRUCT(writer_run, (),
                      (writer, job, table, mode_in_force, interval_in_force_ms, sink_in_force, catalog_properties, proxy_address, feed_sha256, events, trials, observed,
                       rows, duplicate_rows, missing_seq, missing_runs, snapshots))

/// A trial saved as it stands: added the first time, replaced after.
inline void keep_trial(writer_run& r, const trial& t) {
    if (r.trials.empty() || r.trials.back().index != t.index) r.trials.push_back(t);
    else r.trials.back() = t;
}

struct samples {
    std::vector<writer_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

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
        return {false, "the hit was not applied and dropped (upstream " + std::to_string(hit->upstream_status) + ")"};
    case cell::status_unforwarded:
        if (hit->forwarded_at_ms == 0 && hit->answered_status == t.status)
            return {true, "checkpoint " + c + ": answered " + std::to_string(t.status) + ", never forwarded"};
        return {false, "the hit was forwarded or answered otherwise (" + std::to_string(hit->answered_status) + ")"};
    case cell::forward_then_504:
        if (hit->upstream_status == 200 && hit->answered_status == 504)
            return {true, "checkpoint " + c + ": applied (200), answered 504"};
        return {false, "the hit was not applied and answered 504"};
    case cell::zombie_409:
    case cell::zombie_refresh: break;
    }
    if (!t.kill) return {false, "no kill was recorded"};
    const auto killed = t.kill->killed_at_ms;
    if (hit->upstream_status != 200) return {false, "A was not applied (upstream " + std::to_string(hit->upstream_status) + ")"};
    if (hit->forwarded_at_ms <= killed) return {false, "A was forwarded before the kill"};
    // The first unruled commit POST the catalog applied after the kill.
    const table_request* applied_after = nullptr;
    for (const auto& r : t.requests)
        if (r.method == "POST" && r.rule != t.hit_rule && (t.b_rule == 0 || r.rule != t.b_rule) && r.forwarded_at_ms > killed &&
            r.upstream_status == 200) {
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
        return {true, "checkpoint " + c + ": A applied after the kill, the replay B got 409, a retry was applied"};
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
        if (r.forwarded_at_ms > hit->upstream_replied_at_ms && r.forwarded_at_ms < applied_after->forwarded_at_ms) refresh_after = true;
    }
    if (!load_before) return {false, "no table GET was forwarded between the kill and A's landing (the restore may have seen A)"};
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
    case cell::status_unforwarded: return 30;
    case cell::forward_then_504:
    case cell::zombie_409: return 10;
    case cell::zombie_refresh: return 5;
    }
    return 0;
}

inline const writer_run* run_of(const samples& s, const std::string& writer) {
    for (const auto& r : s.runs)
        if (r.writer == writer) return &r;
    return nullptr;
}

/// Judges one (cell, writer) prediction on the append table this version runs.
/// A double commit in a valid trial decides it against a "nothing doubles"
/// prediction and for a "doubles" one; so does a valid trial that did not
/// double, the other way round. Holding needs the trials the prediction asks
/// for on every table kind it names, and only the append table runs here.
inline rule_verdict judge_cell(const samples& s, const std::string& writer, cell c) {
    const auto* run = run_of(s, writer);
    if (!run) return inconclusive(writer + " did not run");
    std::uint64_t tried = 0, valid = 0, doubled = 0;
    std::string detail;
    for (const auto& t : run->trials) {
        if (t.kind != c) continue;
        ++tried;
        const auto o = outcome_of(*run, t);
        if (!o.valid.valid) {
            detail += "trial " + std::to_string(t.index) + " void (" + o.valid.why + "); ";
            continue;
        }
        ++valid;
        if (o.doubled()) ++doubled;
        detail += "trial " + std::to_string(t.index) + ": checkpoint " + std::to_string(o.checkpoint) + " committed by " +
                  std::to_string(o.commits_of_checkpoint) + " snapshot(s)";
        if (!has_kill(c)) {
            const auto failures = t.exceptions_after - t.exceptions_before;
            detail += ", " + std::to_string(failures) + " failure(s) in Flink's exception history";
        }
        detail += "; ";
    }
    if (tried == 0) return inconclusive("no " + stem_of(c) + " trial ran for " + writer);
    if (!run->observed) return inconclusive("the table was not read at the end; " + detail);
    const std::string counts = std::to_string(valid) + " valid of " + std::to_string(tried) + " trials, " +
                               std::to_string(doubled) + " doubled their checkpoint";
    if (valid == 0) return inconclusive(counts + "; " + detail);
    if (predicted_to_double(c)) {
        if (doubled < valid) return refuted(counts + ": a valid trial committed its checkpoint once; " + detail);
    } else {
        if (doubled > 0) return refuted(counts + ": predicted none; " + detail);
        if (run->missing_seq > 0) return refuted(counts + ", but the table lacks " + std::to_string(run->missing_seq) + " seqs; " + detail);
        for (const auto& t : run->trials)
            if (t.kind == c && validity_of(t).valid && t.exceptions_after - t.exceptions_before != 1)
                return refuted(counts + "; predicted exactly one failure per fault; " + detail);
    }
    std::string bound;
    if (!predicted_to_double(c))
        bound = "; one-sided 95% upper bound on doubling per fault " + report::fixed(stats::clopper_pearson_upper(0, valid), 3);
    return inconclusive(counts + bound + "; as predicted so far, but the prediction asks " + std::to_string(asked_trials(c)) +
                        " per table kind on append and upsert tables and this version runs " + std::to_string(valid) +
                        " on append only; " + detail);
}

/// The predictions this version has no cell for, and why: judged inconclusive
/// in words, not left to the judge's "no rule".
inline std::vector<std::pair<std::string, std::string>> not_run() {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string connect = "the Connect sink is not a writer in this version of experiment 8 (Flink's two sinks only)";
    for (const auto* stem : {"lose-reply", "held-past-timeout", "held-kill-late-release", "status-unforwarded", "forward-then-504",
                             "zombie-409", "zombie-refresh", "zombie-409-no-retries", "zombie-outside-window"})
        out.emplace_back(std::string("e8.") + stem + ":connect", connect);
    for (const auto* w : {"flinksink", "sinkv2"}) {
        out.emplace_back(std::string("e8.held-past-timeout:") + w, "this version has no held-reply cell (http_hold_reply with a short client timeout)");
        out.emplace_back(std::string("e8.held-kill-late-release:") + w, "this version has no held-reply cell (hold, kill, release after recovery)");
        out.emplace_back(std::string("e8.zombie-409-no-retries:") + w, "this version does not set commit.retry.num-retries = 0");
        out.emplace_back(std::string("e8.zombie-outside-window:") + w, "this version has no early or late zombie cell");
    }
    out.emplace_back("e8.held-no-timeout-stalls", "this version has no held-reply cell without a client timeout");
    out.emplace_back("e8.no-referenced-file-missing", "this version does not list the store against the snapshots' files");
    out.emplace_back("e8.unacknowledged-commits-leave-orphans", "this version does not list the store for unreferenced files");
    out.emplace_back("e8.operator-signals", "this version records Flink's exception history per trial, not lag, job state samples or failed checkpoints");
    return out;
}

inline std::vector<rule> rules() {
    std::vector<rule> out;
    for (const auto& [id, why] : not_run())
        out.push_back({id, [why = why](const samples&, const parameters&) { return inconclusive("not run: " + why); }});
    for (const auto c : {cell::lose_reply, cell::status_unforwarded, cell::forward_then_504, cell::zombie_409, cell::zombie_refresh})
        for (const auto& w : known_writers())
            out.push_back({"e8." + stem_of(c) + ":" + w.name,
                           [c, name = w.name](const samples& s, const parameters&) { return judge_cell(s, name, c); }});
    return out;
}

// ---- plan, bad input, report -----------------------------------------------

/// Each trial's k (the k-th commit after the settle is hit) and, for
/// status_unforwarded, its status: drawn from the seed, so the same seed gives
/// the same plan. One step per trial, in the order the driver runs them.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    rosterrig::splitmix64 rng(p.seed ^ 0xe8e8e8e8ull);
    for (const auto& w : p.writers) {
        std::uint64_t index = 0;
        for (const auto& c : p.cells)
            for (std::uint64_t i = 0; i < c.trials; ++i) {
                const auto k = 2 + rosterrig::uniform_below(rng, 4);
                std::string what = "the " + std::to_string(k) + "th commit POST after the table settled";
                if (c.kind == cell::status_unforwarded && !p.statuses.empty())
                    what += ", answered " + std::to_string(p.statuses[rosterrig::uniform_below(rng, p.statuses.size())]);
                const auto kind = has_kill(c.kind) ? experiment::fault_kind::http_delay
                                : c.kind == cell::lose_reply ? experiment::fault_kind::http_lose_reply
                                : c.kind == cell::forward_then_504 ? experiment::fault_kind::http_forward_then_504
                                                                   : experiment::fault_kind::http_status;
                plan.steps.push_back({++index, w + "/" + experiment::name_of(c.kind), kind, what, static_cast<std::int64_t>(k),
                                      experiment::heal_of(kind, experiment::fault_target::iceberg_catalog) +
                                          (has_kill(c.kind) ? "; " + experiment::heal_of(experiment::fault_kind::kill_taskmanager,
                                                                                            experiment::fault_target::flink_taskmanager)
                                                            : std::string())});
            }
    }
    return plan;
}

/// The k and status a plan step drew (the step's delay_ms is k; its trigger names the status).
inline unsigned status_of(const experiment::fault_step& step) {
    const auto at = step.trigger.rfind("answered ");
    return at == std::string::npos ? 0u : static_cast<unsigned>(std::stoul(step.trigger.substr(at + 9)));
}

inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t slots) {
    if (p.writers.empty()) return "no writer to run (--writers)";
    for (const auto& w : p.writers)
        if (!writer_named(w)) return "unknown writer '" + w + "' (known: sinkv2, flinksink)";
    std::uint64_t trials = 0;
    for (const auto& c : p.cells) trials += c.trials;
    if (trials == 0) return "no trial to run: every cell has 0 trials";
    for (const auto s : p.statuses)
        if (s < 500 || s > 504 || s == 501) return "status " + std::to_string(s) + " is not one of 500, 502, 503, 504";
    for (const auto* t : {&p.zombie_409_timing, &p.zombie_refresh_timing})
        if (t->a_ms <= 0 || t->a_ms >= p.socket_timeout_ms || t->b_ms >= p.socket_timeout_ms || t->get_ms >= p.socket_timeout_ms)
            return "a zombie delay must be above 0 and under the client's socket timeout (" + std::to_string(p.socket_timeout_ms) + " ms)";
    // A zombie trial kills the committer's TaskManager: another must take the job.
    if (slots < 2) return "a zombie trial needs a second free task slot for the restored job; Flink offers " + std::to_string(slots);
    return std::nullopt;
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    std::string o = "One Flink job per writer (parallelism 1, exactly-once, checkpoint every " +
                    report::fixed(static_cast<double>(p.checkpoint_interval_ms) / 1000, 0) + " s, append table) fed " +
                    report::fixed(p.rate, 0) + " events/s; its catalog client goes through the fault proxy, the checks go to the "
                    "catalog and Trino directly. Each trial hits one commit POST (the k-th after the table settled, k drawn in "
                    "[2, 5]). Counts are exact: snapshots from the catalog, requests from the proxy's log, rows from a full Trino "
                    "scan" + std::string(p.quick ? "; **quick run**" : "") + ".\n\n";
    report::markdown_table t{{"Writer", "Trial", "Fault", "Checkpoint hit", "Valid (what the proxy saw)", "Snapshots with that watermark",
                              "Records committed twice", "Flink failures"}};
    for (const auto& r : s.runs)
        for (const auto& x : r.trials) {
            const auto oc = outcome_of(r, x);
            t.row({r.writer, std::to_string(x.index), stem_of(x.kind) + (x.status ? " " + std::to_string(x.status) : std::string()),
                   std::to_string(oc.checkpoint), (oc.valid.valid ? "yes: " : "no: ") + oc.valid.why,
                   std::to_string(oc.commits_of_checkpoint), std::to_string(oc.excess_records),
                   std::to_string(x.exceptions_after - x.exceptions_before)});
        }
    o += t.render() + "\n";
    o += "![Snapshots carrying each checkpoint id, per writer, from the catalog; 2 is a checkpoint committed twice]"
         "(docs/e8_commits.svg)\n\n";
    report::markdown_table end{{"Writer", "Events sent", "Rows", "Duplicate seq rows", "Missing seqs",
                                "Records added by the snapshots minus events sent", "Watermarks committed twice"}};
    for (const auto& r : s.runs) {
        const auto rr = replay_report(r);
        end.row({r.writer, report::with_thousands(static_cast<long long>(r.events)), report::with_thousands(static_cast<long long>(r.rows)),
                 report::with_thousands(static_cast<long long>(r.duplicate_rows)), report::with_thousands(static_cast<long long>(r.missing_seq)),
                 std::to_string(rr.excess_records()), std::to_string(rr.replayed_watermarks.size())});
    }
    return o + end.render() + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// Snapshots per checkpoint id, per writer, from the catalog: 1 is right, 2 a
/// checkpoint committed twice. (Records per checkpoint would not do: the
/// catch-up after a restart commits more than its neighbours too.)
inline std::string commits_svg(const samples& s) {
    report::line_plot p;
    p.title = "E8: snapshots carrying each checkpoint id (2 is a checkpoint committed twice)";
    p.x_label = "checkpoint id (flink.max-committed-checkpoint-id)";
    p.y_label = "snapshots that added data with this watermark";
    for (const auto& r : s.runs) {
        std::map<std::int64_t, std::int64_t> by_checkpoint;
        for (const auto& x : r.snapshots)
            if (x.watermark >= 0 && check::adds_data(x)) ++by_checkpoint[x.watermark];
        report::series line{r.writer, {}, report::axis::left, false};
        for (const auto& [c, n] : by_checkpoint) line.points.push_back({static_cast<double>(c), static_cast<double>(n)});
        p.add_series(std::move(line));
    }
    return p.render();
}

struct definition {
    using parameters = e8::parameters;
    using samples = e8::samples;
    static constexpr const char* id = "e8_catalog_commit_faults";
    static constexpr const char* tag = "e8";
    static constexpr const char* predictions_file = "predictions/e8_catalog_commit_faults.json";
    static constexpr const char* results_file = "results/e8_catalog_commit_faults.json";
    static constexpr experiment::hooks<parameters> hooks{
        .warehouse = &parameters::warehouse,
        .repro_run = &parameters::repro_run,
        .repro_names = &parameters::repro_names,
        // Why a described cluster is refused (exit 2, before anything is created).
        .local_stack_only =
            "experiment 8 runs only on the local stack: its fault proxy listens on this machine's 127.0.0.1, which a described "
            "cluster's Flink cannot reach",
        .problems = &experiment::slot_problems<parameters, &e8::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e8::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e8::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e8::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) {
        return {{"docs/e8_commits.svg", commits_svg(s)}};
    }
};

}  // namespace rosterrig::e8

#endif
