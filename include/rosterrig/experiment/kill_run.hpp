// rosterrig/experiment/kill_run.hpp: the record of a run whose writer is
// killed while a feed arrives (experiment 1's schema, shared by 1b and 7):
// each kill's sample, the run with its settings and table read-back, each
// kill's attributed duplicates, the per-run summary and its bound, and the
// rule "no kill duplicates". Field names are the results files' keys.
#ifndef ROSTERRIG_EXPERIMENT_KILL_RUN_HPP
#define ROSTERRIG_EXPERIMENT_KILL_RUN_HPP

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/check/commit_replay.hpp"
#include "rosterrig/check/kill_attribution.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/kill_record.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/recovery_phases.hpp"
#include "rosterrig/experiment/reported_settings.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/result/check_json.hpp"  // seq_range and seq_copies, described
#include "rosterrig/stats/binomial_bounds.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::experiment {

// One SIGKILL of the TaskManager and what surrounded it.
struct kill_sample {
    std::uint64_t index = 0;
    std::int64_t killed_at_ms = 0;               // wall clock
    std::int64_t feed_elapsed_ms = 0;            // since the producer started
    std::uint64_t sent_before_kill = 0;          // seq 1..this had been handed to Kafka
    std::uint64_t acknowledged_before_kill = 0;  // delivery reports received
    std::int64_t checkpoints_completed_before = 0;
    std::int64_t last_checkpoint_id_before = -1;
    std::int64_t ms_since_last_checkpoint = 0;  // checkpoint phase, in ms
    bool checkpoint_in_progress = false;
    std::int64_t killed_pid = 0;
    std::int64_t replacement_pid = 0;
    std::int64_t taskmanager_back_after_ms = 0;  // a new JVM in the pid file
    std::int64_t job_running_after_ms = 0;       // every task RUNNING again
    std::int64_t restarts_before = 0;            // Flink's numRestarts
    std::int64_t restarts_after = 0;
    std::int64_t restored_checkpoint_id = -1;      // what Flink says it restored
    std::int64_t restarting_at_ms = 0;             // when Flink put the job in RESTARTING for this kill
    std::int64_t exceptions_after = 0;             // entries in Flink's exception history after recovery
    std::string job_id_after;                      // same job id: an internal restart
    std::uint64_t duplicates = 0;                  // attributed (kill_attribution.hpp)
    std::optional<std::int64_t> planned_delay_ms;  // the fault plan's delay (absent in runs before plans were saved)
    std::optional<recovery_moments> recovery;  // where the recovery's time went (absent in runs before it was recorded)
};
BOOST_DESCRIBE_STRUCT(kill_sample, (),
                      (index, killed_at_ms, feed_elapsed_ms, sent_before_kill, acknowledged_before_kill,
                       checkpoints_completed_before, last_checkpoint_id_before, ms_since_last_checkpoint,
                       checkpoint_in_progress, killed_pid, replacement_pid, taskmanager_back_after_ms,
                       job_running_after_ms, restarts_before, restarts_after, restored_checkpoint_id, restarting_at_ms,
                       exceptions_after, job_id_after, duplicates, planned_delay_ms, recovery))

struct configuration_run {
    std::string name;  // "at-least-once + append"
    experiment::table_kind table_kind = table_kind::append;
    // The SQL option sent: AT_LEAST_ONCE | EXACTLY_ONCE; absent for a writer with no checkpointing mode to ask for.
    std::optional<std::string> checkpoint_mode_requested;
    std::string checkpoint_mode_in_force;  // from /jobs/<id>/checkpoints/config
    std::int64_t checkpoint_interval_requested_ms = 0;
    std::int64_t checkpoint_interval_in_force_ms = 0;
    std::string sink;          // which Iceberg sink ran
    std::string writer_input;  // how the writer is fed: the plan's ship strategy into it
    std::vector<plan_edge> edges;
    std::string job_id;
    std::string final_job_state;
    std::int64_t restarts_reported = 0;  // numRestarts at the end
    std::optional<std::int64_t>
        exceptions_recorded;  // entries in Flink's exception history; absent for a writer that keeps none
    std::uint64_t events = 0;
    std::uint64_t acknowledged = 0;
    double rate_per_second = 0;
    std::int64_t feed_duration_ms = 0;
    std::uint64_t rows = 0;
    std::uint64_t distinct_seq = 0;
    std::uint64_t duplicate_rows = 0;
    std::vector<seq_range> missing_runs;  // append tables only
    std::uint64_t distinct_npis = 0;
    std::uint64_t rows_sharing_npi = 0;
    std::uint64_t missing_npis = 0;  // upsert only; 0 for append
    std::uint64_t stale_rows = 0;    // upsert only
    std::uint64_t unexpected_rows = 0;
    std::int64_t data_files = 0;
    std::int64_t equality_delete_files = 0;
    std::int64_t position_delete_files = 0;
    std::int64_t snapshots = 0;
    std::vector<seq_copies> duplicate_seqs;
    std::uint64_t unattributed_duplicates = 0;
    std::vector<kill_sample> kills;
    // Absent in runs from before they were recorded:
    std::optional<std::string>
        feed_sha256;  // of the feed as produced (generate/feed_digest.hpp); regenerates from feed()
    std::optional<experiment::restart_strategy> restart_strategy;    // as Flink reported it for the job
    std::optional<experiment::table_settings> table_settings;        // as the catalog reported the table
    std::optional<experiment::recovery_settings> recovery_settings;  // the stack's, as its processes reported them
    // The table's snapshots at the end, oldest first, as the catalog lists
    // them: what a replay leaves where an upsert table's rows cannot show it.
    std::optional<std::vector<check::snapshot_entry>> snapshot_log;
};
BOOST_DESCRIBE_STRUCT(configuration_run, (),
                      (name, table_kind, checkpoint_mode_requested, checkpoint_mode_in_force,
                       checkpoint_interval_requested_ms, checkpoint_interval_in_force_ms, sink, writer_input, edges,
                       job_id, final_job_state, restarts_reported, exceptions_recorded, events, acknowledged,
                       rate_per_second, feed_duration_ms, rows, distinct_seq, duplicate_rows, missing_runs,
                       distinct_npis, rows_sharing_npi, missing_npis, stale_rows, unexpected_rows, data_files,
                       equality_delete_files, position_delete_files, snapshots, duplicate_seqs, unattributed_duplicates,
                       kills, feed_sha256, restart_strategy, table_settings, recovery_settings, snapshot_log))

/// A run's record as it starts: what was asked (the configuration's name,
/// table, mode and interval) and what the writer reports it runs.
inline configuration_run start_kill_run(const std::string& name, table_kind table, checkpoint_mode mode,
                                        std::int64_t checkpoint_interval_ms, std::uint64_t events,
                                        const std::string& job, const writer_settings& w, double rate_per_second) {
    configuration_run r;
    r.name = name;
    r.table_kind = table;
    r.checkpoint_mode_requested = std::string(flink_option(mode));
    r.checkpoint_mode_in_force = w.mode;
    r.checkpoint_interval_requested_ms = checkpoint_interval_ms;
    r.checkpoint_interval_in_force_ms = w.interval_ms;
    r.sink = w.sink;
    r.writer_input = w.writer_input;
    r.edges = w.edges;
    r.restart_strategy = w.restart;
    r.table_settings = w.table;
    r.recovery_settings = w.recovery;
    r.job_id = job;
    r.events = events;
    r.rate_per_second = rate_per_second;
    return r;
}

/// One kill's sample: the plan's step, the job just before, the fault
/// adapter's record, and how far the feed had got (seq 1..sent were handed
/// to Kafka before the kill).
inline kill_sample kill_sample_of(const fault_step& step, const checkpoint_state& before, const kill_record& k,
                                  std::uint64_t sent, std::uint64_t acknowledged, std::int64_t feed_start_ms,
                                  const std::string& job) {
    kill_sample s;
    s.index = step.index;
    s.planned_delay_ms = step.delay_ms;
    s.killed_at_ms = k.killed_at_ms;
    s.feed_elapsed_ms = k.killed_at_ms - feed_start_ms;
    s.sent_before_kill = sent;
    s.acknowledged_before_kill = acknowledged;
    s.checkpoints_completed_before = before.completed;
    s.last_checkpoint_id_before = before.latest_completed_id;
    s.ms_since_last_checkpoint =
        before.latest_completed_at_ms > 0 ? k.killed_at_ms - before.latest_completed_at_ms : -1;
    s.checkpoint_in_progress = before.in_progress > 0;
    s.killed_pid = k.pid;
    s.replacement_pid = k.replacement_pid;
    s.taskmanager_back_after_ms = k.replaced_at_ms - k.killed_at_ms;
    s.job_running_after_ms = k.running_after_ms;
    s.restarts_before = before.restarts;
    s.restarts_after = k.restarts_after;
    s.restored_checkpoint_id = k.restored_checkpoint_id;
    s.restarting_at_ms = k.restarting_at_ms;
    s.exceptions_after = k.exceptions_after;
    s.job_id_after = k.same_job_running ? job : "";
    s.recovery = k.moments;
    return s;
}

/// One progress line per kill.
inline std::string describe(const kill_sample& k, std::size_t of) {
    return "kill " + std::to_string(k.index) + "/" + std::to_string(of) + " at event " +
           std::to_string(k.sent_before_kill) + ", " + std::to_string(k.ms_since_last_checkpoint) +
           " ms after checkpoint " + std::to_string(k.last_checkpoint_id_before) + "; restored " +
           std::to_string(k.restored_checkpoint_id) + ", running again after " +
           std::to_string(k.job_running_after_ms) + " ms";
}

/// What Flink's numRestarts metric said around the kills: each kill reads it
/// before and after (restarts_before/after), -1 when the REST server's metric
/// cache did not report it. A kill's failure is shown by the job's RESTARTING
/// time and its exception history, not by this count; the count is reported
/// so that a reader can see how little it says.
struct restart_count_reads {
    std::uint64_t reads = 0;
    std::uint64_t not_reported = 0;     // reads of -1
    std::uint64_t kills_with_both = 0;  // both reads reported
    std::uint64_t moved = 0;            // of those, the count changed across the kill
};

template <class Runs, class RunOf>
restart_count_reads restart_counts_of(const Runs& runs, RunOf&& run_of) {
    restart_count_reads r;
    for (const auto& x : runs)
        for (const auto& k : run_of(x).kills) {
            r.reads += 2;
            r.not_reported += (k.restarts_before == -1) + (k.restarts_after == -1);
            if (k.restarts_before == -1 || k.restarts_after == -1) continue;
            ++r.kills_with_both;
            if (k.restarts_after != k.restarts_before) ++r.moved;
        }
    return r;
}

/// The report's sentence on the count, every figure from the samples.
inline std::string restart_count_sentence(const restart_count_reads& r) {
    return "Flink's numRestarts metric, read before and after each kill (-1 = not reported by the REST server's "
           "metric cache): " +
           std::to_string(r.not_reported) + " of " + std::to_string(r.reads) + " reads were -1; of the " +
           std::to_string(r.kills_with_both) + " kills with both reads, the count moved in " + std::to_string(r.moved) +
           ". The kills are shown by the job's RESTARTING time and its exception history, "
           "not by this count.\n";
}

// The per-configuration table row, derived from the raw kills.
struct configuration_summary {
    std::string name;
    std::uint64_t kills = 0;
    std::uint64_t kills_with_duplicates = 0;
    std::uint64_t total_duplicates = 0;
    double min_per_kill = 0, median_per_kill = 0, max_per_kill = 0;
    double upper_bound_95 = 1.0;  // one-sided Clopper–Pearson on P(a kill duplicates)
};

inline configuration_summary summarize(const configuration_run& run) {
    configuration_summary s;
    s.name = run.name;
    s.kills = run.kills.size();
    std::vector<double> per_kill;
    for (const auto& k : run.kills) {
        per_kill.push_back(static_cast<double>(k.duplicates));
        s.total_duplicates += k.duplicates;
        if (k.duplicates > 0) ++s.kills_with_duplicates;
    }
    if (!per_kill.empty()) {
        auto sum = stats::summarize(per_kill);
        s.min_per_kill = sum.min;
        s.median_per_kill = sum.median;
        s.max_per_kill = sum.max;
        s.upper_bound_95 = stats::clopper_pearson_upper(s.kills_with_duplicates, s.kills);
    }
    return s;
}

/// Recomputes each kill's attributed duplicates from the run's duplicate seqs.
inline void attribute(configuration_run& run) {
    std::vector<std::uint64_t> sent;
    for (const auto& k : run.kills) sent.push_back(k.sent_before_kill);
    auto a = attribute_duplicates(sent, run.duplicate_seqs);
    for (std::size_t i = 0; i < run.kills.size(); ++i) run.kills[i].duplicates = a.duplicates_per_kill[i];
    run.unattributed_duplicates = a.unattributed;
}

/// Puts a read-back of the table into the run: seq counts, per-NPI counts
/// (stale, missing and unexpected only for upsert tables, where they are
/// failures), files, and each kill's attributed duplicates.
inline void record_table(configuration_run& run, const table_observation& o) {
    run.rows = o.by_seq.rows;
    run.distinct_seq = o.by_seq.distinct_seq;
    run.duplicate_rows = o.by_seq.duplicate_rows;
    run.duplicate_seqs = o.by_seq.duplicates;
    run.distinct_npis = o.by_npi.distinct_npis;
    run.rows_sharing_npi = o.by_npi.rows_sharing_npi;
    if (run.table_kind == table_kind::append) {
        run.missing_runs = o.by_seq.missing_runs;
    } else {
        run.missing_npis = o.by_npi.missing_npis.size();
        run.stale_rows = o.by_npi.stale_rows;
        run.unexpected_rows = o.by_npi.unexpected_rows;
    }
    run.data_files = o.files.data_files;
    run.equality_delete_files = o.files.equality_delete_files;
    run.position_delete_files = o.files.position_delete_files;
    run.snapshots = o.files.snapshots;
    attribute(run);
}

/// The bound experiment 1's predictions set: at most 0.10 per configuration.
inline constexpr double kill_bound_target = 0.10;

/// What a run's snapshots say about replays (check/commit_replay.hpp), for
/// any table kind: an upsert table collapses a replayed row into the row it
/// repeats, but each commit's added-records still counts it.
struct kill_replays {
    check::commit_replay_report report;  ///< against the feed's events
    std::uint64_t kills = 0;
    /// Kills followed (before the next kill) by a snapshot that committed a
    /// checkpoint already committed: the kills the snapshots name.
    std::vector<std::uint64_t> kills_naming_a_replay;
    /// Kills that replayed, at least: those named, or one when records were
    /// added in excess and no snapshot names a kill.
    std::uint64_t kills_replayed_at_least() const {
        if (!kills_naming_a_replay.empty()) return kills_naming_a_replay.size();
        return report.excess_records() > 0 ? 1 : 0;
    }
};

/// The run's replays, from its snapshot log; none when the run did not record it.
inline std::optional<kill_replays> replays_of(const configuration_run& run) {
    if (!run.snapshot_log) return std::nullopt;
    kill_replays r;
    r.report = check::commit_replay(*run.snapshot_log, static_cast<std::int64_t>(run.events));
    r.kills = run.kills.size();
    std::map<std::int64_t, std::int64_t> committed_at;  // snapshot id -> commit time
    for (const auto& s : *run.snapshot_log) committed_at[s.snapshot_id] = s.timestamp_ms.value_or(-1);
    std::set<std::uint64_t> named;
    for (const auto& w : r.report.replayed_watermarks)
        for (std::size_t i = 1; i < w.snapshot_ids.size(); ++i) {  // every copy after the first
            const auto t = committed_at[w.snapshot_ids[i]];
            // The kill it follows: the last one before the copy's commit.
            for (std::size_t k = run.kills.size(); k-- > 0;)
                if (t >= run.kills[k].killed_at_ms) {
                    named.insert(run.kills[k].index);
                    break;
                }
        }
    r.kills_naming_a_replay.assign(named.begin(), named.end());
    return r;
}

/// "No kill replayed", judged on the snapshots: the records they added equal
/// the events sent (exact, from the catalog's counts: a replay adds records
/// twice, a loss adds too few, so only a replay and a loss of the same size
/// would cancel), no checkpoint committed twice, and enough kills to bound
/// the chance that a kill replays.
inline rule_verdict no_replay(const configuration_run* run, double target = kill_bound_target) {
    if (!run) return inconclusive({}, "the configuration did not run");
    const auto r = replays_of(*run);
    if (!r)
        return inconclusive(
            {}, "the run did not record its snapshots, so a replay that the table's rows collapse cannot be seen");
    const auto& rep = r->report;
    facts f{{"snapshots", rep.snapshots_with_data},
            {"records_added", rep.records_added},
            {"events_sent", rep.events_sent},
            {"checkpoints_committed_twice", rep.replayed_watermarks.size()},
            {"files_added_twice", rep.files_added_twice.size()},
            {"kills", r->kills}};
    const std::string counts =
        "the job's {snapshots} snapshots added {records_added} records for {events_sent} events sent; "
        "{checkpoints_committed_twice} checkpoints committed twice";
    if (rep.excess_records() < 0 && rep.replayed_watermarks.empty()) {
        f["records_never_landed"] = -rep.excess_records();
        return refuted(std::move(f), counts +
                                         "; {records_never_landed} records never landed, and a replay of up to "
                                         "that many would hide behind them");
    }
    if (!rep.clean()) {
        f["after_kills"] = boost::json::value_from(r->kills_naming_a_replay);
        f["kills_replayed_at_least"] = r->kills_replayed_at_least();
        return refuted(std::move(f), counts + (r->kills_naming_a_replay.empty() ? "" : "; after kills {after_kills}") +
                                         "; at least {kills_replayed_at_least} of {kills} kills replayed");
    }
    if (r->kills == 0) return inconclusive(std::move(f), counts + "; no kill to judge");
    const double bound = stats::clopper_pearson_upper(0, r->kills);
    f["bound"] = bound;
    f["target"] = target;
    const std::string why = counts + "; 0 of {kills} kills replayed; 95% upper bound {bound}";
    return bound <= target ? held(std::move(f), why) : inconclusive(std::move(f), why + ": too few kills to say");
}

/// "No kill duplicates; the 95% bound is at most `target`", for one run.
inline rule_verdict no_duplicates(const configuration_run* run, double target = kill_bound_target) {
    if (!run) return inconclusive({}, "the configuration did not run");
    auto s = summarize(*run);
    const auto total_extra = s.total_duplicates + run->unattributed_duplicates;
    facts f{{"kills", s.kills},
            {"kills_with_duplicates", s.kills_with_duplicates},
            {"duplicates", total_extra},
            {"duplicate_rows", run->duplicate_rows}};
    if (total_extra > 0 || run->duplicate_rows > 0)
        return refuted(std::move(f),
                       "{kills_with_duplicates} of {kills} kills produced duplicates ({duplicate_rows} "
                       "duplicate rows)");
    f["bound"] = s.upper_bound_95;
    f["target"] = target;
    if (s.upper_bound_95 <= target) return held(std::move(f), "0 of {kills} kills duplicated; 95% upper bound {bound}");
    return inconclusive(std::move(f),
                        "0 of {kills} kills duplicated, but the 95% upper bound {bound} is above {target}: too few "
                        "kills to say");
}

/// Issue 13's target: with about 100 kills per configuration, every
/// configuration's 95% upper bound is at most 0.030 (zero duplicates needs 99
/// kills for that). Every configuration must have run: one that did not cannot
/// be judged, and a duplicate anywhere refutes.

}  // namespace rosterrig::experiment

#endif
