// rosterrig/experiments/e2_savepoint_restore.hpp: experiment 2, restoring
// from a savepoint older than the table, as data: parameters (full and quick),
// the three variants, the raw samples, the analysis that finds the freeze, the
// lump and what the on-call signals did, the verdict rules and the report
// section.
#ifndef ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_HPP
#define ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::e2 {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 2;
    std::uint64_t first_batch_events = 8000;   // written while the first job runs
    std::uint64_t second_batch_events = 4000;  // written while no job runs
    // Written once the table has moved and settled after the restore: does data
    // after the freeze land once? (Absent in runs from before it existed.)
    std::optional<std::uint64_t> third_batch_events = 2000;
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t watermark_lead = 10;          // checkpoints past the savepoint before stopping
    std::int64_t sample_period_ms = 500;
    std::int64_t row_count_period_ms = 3000;
    std::uint64_t repeats = 3;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    std::int64_t parallelism = 2;
    bool quick = false;

    static parameters full() { return {}; }
    /// For CI: one repeat of each variant, smaller batches.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.repeats = 1;
        p.first_batch_events = 2000;
        p.second_batch_events = 1000;
        p.third_batch_events = 500;
        p.providers = 500;
        // Two checkpoints past the savepoint: the freeze, which lasts as long as the
        // first job ran on after the savepoint, stays short (a 1 s interval was
        // tried and ran slower: the job fell behind its own checkpoints).
        p.watermark_lead = 2;
        return p;
    }
    /// Repeat r's feed: both batches, one seed per repeat.
    roster_spec feed(std::uint64_t repeat) const {
        roster_spec s;
        s.seed = seed + repeat;
        s.events = first_batch_events + second_batch_events + third_batch_events.value_or(0);
        s.providers = providers;
        s.partitions = partitions;
        return s;
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, first_batch_events, second_batch_events, third_batch_events, providers, partitions, checkpoint_interval_ms,
                       watermark_lead, sample_period_ms, row_count_period_ms, repeats, warehouse, parallelism, quick))

/// The seqs of each batch of a repeat's feed, in the order they are written:
/// the first (job running), the second (no job), the third (after the freeze)
/// when the run has one.
inline std::vector<seq_range> batches(const parameters& p) {
    std::vector<seq_range> out;
    std::uint64_t next = 1;
    for (const std::uint64_t n : {p.first_batch_events, p.second_batch_events, p.third_batch_events.value_or(0)}) {
        if (n == 0) continue;
        out.push_back({next, next + n - 1});
        next += n;
    }
    return out;
}

/// One batch as it was produced: its seqs in the repeat's feed (feed(repeat))
/// and the SHA-256 of its lines (generate/feed_digest.hpp).
struct batch_feed {
    std::uint64_t first_seq = 0;
    std::uint64_t last_seq = 0;
    std::string feed_sha256;
};
BOOST_DESCRIBE_STRUCT(batch_feed, (), (first_seq, last_seq, feed_sha256))

struct variant {
    std::string name;
    experiment::table_kind table;
    experiment::iceberg_sink sink;
};
/// The three variants, in the order each repeat runs them.
inline std::vector<variant> variants() {
    using experiment::iceberg_sink;
    using experiment::table_kind;
    return {{"append-flinksink", table_kind::append, iceberg_sink::flink_sink},
            {"upsert-flinksink", table_kind::upsert, iceberg_sink::flink_sink},
            {"append-sinkv2", table_kind::append, iceberg_sink::sink_v2}};
}

// One fast sample, timed from the restore request.
struct sample {
    std::int64_t t_ms = 0;
    std::string job_state;                 // "" before the job exists
    std::int64_t newest_checkpoint_id = -1;
    std::int64_t failed_checkpoints = 0;
    std::int64_t lag = -1;                 // summed over partitions, from Kafka
    std::int64_t snapshot_id = -1;         // the table's current snapshot, from the catalog
    std::int64_t max_committed_checkpoint_id = -1;
    std::string snapshot_job_id;           // flink.job-id of that snapshot
    std::int64_t total_records = 0;
};
BOOST_DESCRIBE_STRUCT(sample, (),
                      (t_ms, job_state, newest_checkpoint_id, failed_checkpoints, lag, snapshot_id,
                       max_committed_checkpoint_id, snapshot_job_id, total_records))

// The slower cadence: rows visible to a reader, through Trino.
struct row_count_sample {
    std::int64_t t_ms = 0;
    std::int64_t rows = 0;
};
BOOST_DESCRIBE_STRUCT(row_count_sample, (), (t_ms, rows))

// A snapshot the table gained after the restore, from the catalog at the end.
struct snapshot_record {
    std::int64_t snapshot_id = 0;
    std::int64_t timestamp_ms = 0;             // commit time, epoch ms (catalog)
    std::int64_t max_committed_checkpoint_id = -1;
    std::string job_id;                        // flink.job-id
    std::string operation;                     // append, overwrite, delete ...
    std::int64_t added_records = 0;
    std::int64_t total_records = 0;
};
BOOST_DESCRIBE_STRUCT(snapshot_record, (),
                      (snapshot_id, timestamp_ms, max_committed_checkpoint_id, job_id, operation, added_records,
                       total_records))

/// How one batch of the feed (seqs first..last) landed in the table.
struct batch_landing {
    std::uint64_t first_seq = 0;
    std::uint64_t last_seq = 0;
    std::uint64_t missing_seqs = 0;     // seqs of the batch with no row (a loss in append tables only)
    std::uint64_t duplicate_rows = 0;   // append tables: extra rows of the batch's seqs
    std::int64_t written_after_ms = 0;  // when it was produced, from the restore request
};
BOOST_DESCRIBE_STRUCT(batch_landing, (), (first_seq, last_seq, missing_seqs, duplicate_rows, written_after_ms))

/// The batch's seqs in a read-back of the whole feed.
inline batch_landing landing_of(const experiment::table_observation& o, std::uint64_t first, std::uint64_t last,
                                std::int64_t written_after_ms) {
    batch_landing b{first, last, 0, 0, written_after_ms};
    for (const auto& r : o.by_seq.missing_runs)
        if (r.last >= first && r.first <= last) b.missing_seqs += std::min(r.last, last) - std::max(r.first, first) + 1;
    for (const auto& d : o.by_seq.duplicates)
        if (d.seq >= first && d.seq <= last) b.duplicate_rows += d.copies - 1;
    return b;
}

struct restore_run {
    std::string variant;      // append-flinksink | upsert-flinksink | append-sinkv2
    std::uint64_t repeat = 0;
    experiment::table_kind table_kind = experiment::table_kind::append;
    bool v2_sink = false;
    std::string old_job_id;
    std::string new_job_id;
    std::string savepoint_path;
    std::int64_t savepoint_checkpoint_id = -1;  // what the restored job says it restored
    std::int64_t watermark_before = -1;         // table's flink.max-committed-checkpoint-id when stopped
    std::int64_t snapshot_before = -1;
    std::int64_t total_records_before = 0;
    std::int64_t rows_before = 0;               // through Trino
    std::uint64_t events_total = 0;
    std::int64_t restarts_during = 0;           // numRestarts of the restored job at the end
    std::int64_t exceptions_during = 0;
    std::vector<sample> samples;
    std::vector<row_count_sample> row_counts;
    std::vector<snapshot_record> snapshots_after;  // every snapshot committed after the restore, oldest first
    std::uint64_t rows = 0;
    std::uint64_t duplicate_rows = 0;
    std::vector<seq_range> missing_runs;
    std::uint64_t rows_sharing_npi = 0;
    std::uint64_t missing_npis = 0;
    std::uint64_t stale_rows = 0;
    std::optional<std::int64_t> restore_requested_at_ms;  // epoch ms on the catalog's machine clock (absent in older runs)
    std::optional<batch_landing> third_batch;             // the batch written after the freeze (absent in older runs)
    // The old job failed over while the savepoint was taken: the exception
    // before each retry (absent when the first attempt succeeded).
    std::optional<std::vector<std::string>> savepoint_retried_after;
    // Absent in runs from before they were recorded:
    std::optional<std::vector<batch_feed>> feeds;                  // every batch produced, in order
    std::optional<experiment::restart_strategy> restart_strategy;  // as Flink reported it for the first job
    std::optional<experiment::table_settings> table_settings;      // as the catalog reported the table
};
BOOST_DESCRIBE_STRUCT(restore_run, (),
                      (variant, repeat, table_kind, v2_sink, old_job_id, new_job_id, savepoint_path,
                       savepoint_checkpoint_id, watermark_before, snapshot_before, total_records_before, rows_before,
                       events_total, restarts_during, exceptions_during, samples, row_counts, snapshots_after, rows,
                       duplicate_rows, missing_runs, rows_sharing_npi, missing_npis, stale_rows,
                       restore_requested_at_ms, third_batch, savepoint_retried_after, feeds, restart_strategy,
                       table_settings))

struct samples {
    std::vector<restore_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

// What the samples say about one restore.
struct freeze_analysis {
    bool table_moved = false;
    std::int64_t last_old_ms = -1;      // last sample still showing the table as it was
    std::int64_t first_new_ms = -1;     // first sample showing a new snapshot
    // max-committed-checkpoint-id of the table's current snapshot at that sample:
    // the sampler's view (every 0.5 s), which may be past the first new snapshot
    std::int64_t ended_by_checkpoint = -1;
    std::int64_t lump_records = 0;      // total-records added by that one snapshot
    bool lag_zero_while_stale = false;
    std::set<std::string> states_while_stale;  // job states seen before the table moved (job existing)
    std::int64_t failed_checkpoints_at_first_running = -1;
    std::int64_t failed_checkpoints_at_table_move = -1;
    std::int64_t first_running_ms = -1;
    // The commit burst that ended the freeze: from the first new snapshot up to
    // the first one stamped above the old watermark (a committer writing one
    // RowDelta per pending checkpoint commits them one after another, each
    // stamped with its own checkpoint id, all from one checkpoint's completion).
    std::int64_t burst_snapshots = 0;
    std::int64_t burst_final_checkpoint = -1;  // the watermark once the burst is done
    std::int64_t burst_records = 0;            // total-records the burst added
    std::int64_t burst_span_ms = 0;            // first to last commit of the burst
    // The freeze's end from the first new snapshot's own commit timestamp (the
    // catalog records it to the millisecond, on this machine's clock), when
    // the restore request's time was recorded; the samples bound it to 0.5 s.
    std::optional<std::int64_t> first_commit_ms;
};

inline freeze_analysis analyze(const restore_run& r) {
    freeze_analysis a;
    // The third batch's own commits come after the freeze; they are not part of it.
    const std::int64_t third_batch_from = r.third_batch && r.restore_requested_at_ms
                                              ? *r.restore_requested_at_ms + r.third_batch->written_after_ms
                                              : std::numeric_limits<std::int64_t>::max();
    for (const auto& snap : r.snapshots_after) {
        if (snap.timestamp_ms >= third_batch_from) break;
        ++a.burst_snapshots;
        a.burst_final_checkpoint = snap.max_committed_checkpoint_id;
        a.burst_records = snap.total_records - r.total_records_before;
        a.burst_span_ms = snap.timestamp_ms - r.snapshots_after.front().timestamp_ms;
        if (snap.max_committed_checkpoint_id > r.watermark_before) break;
    }
    if (!r.snapshots_after.empty() && r.restore_requested_at_ms)
        a.first_commit_ms = r.snapshots_after.front().timestamp_ms - *r.restore_requested_at_ms;
    for (const auto& s : r.samples) {
        const bool old = s.snapshot_id == r.snapshot_before;
        if (old) {
            a.last_old_ms = s.t_ms;
            if (!s.job_state.empty()) a.states_while_stale.insert(s.job_state);
            if (s.job_state == "RUNNING" && a.first_running_ms < 0) {
                a.first_running_ms = s.t_ms;
                a.failed_checkpoints_at_first_running = s.failed_checkpoints;
            }
            if (s.lag == 0 && s.job_state == "RUNNING") a.lag_zero_while_stale = true;
            continue;
        }
        a.table_moved = true;
        a.first_new_ms = s.t_ms;
        a.ended_by_checkpoint = s.max_committed_checkpoint_id;
        a.lump_records = s.total_records - r.total_records_before;
        a.failed_checkpoints_at_table_move = s.failed_checkpoints;
        break;
    }
    return a;
}

inline const restore_run* first_of(const samples& s, const std::string& variant) {
    for (const auto& r : s.runs)
        if (r.variant == variant) return &r;
    return nullptr;
}

/// Puts the read-back of the table after the restore into the run.
inline void record_table(restore_run& r, const experiment::table_observation& o) {
    r.rows = o.by_seq.rows;
    r.duplicate_rows = o.by_seq.duplicate_rows;
    if (r.table_kind == experiment::table_kind::append) r.missing_runs = o.by_seq.missing_runs;
    if (r.table_kind == experiment::table_kind::upsert) {
        r.rows_sharing_npi = o.by_npi.rows_sharing_npi;
        r.missing_npis = o.by_npi.missing_npis.size();
        r.stale_rows = o.by_npi.stale_rows;
    }
}

/// One line on what a restore did, for the progress log.
inline std::string describe(const restore_run& r) {
    auto a = analyze(r);
    return "froze from restore to between " + std::to_string(a.last_old_ms) + " and " + std::to_string(a.first_new_ms) +
           " ms; ended by checkpoint " + std::to_string(a.ended_by_checkpoint) + " (watermark " +
           std::to_string(r.watermark_before) + "); burst of " + std::to_string(a.burst_snapshots) +
           " snapshots up to checkpoint " + std::to_string(a.burst_final_checkpoint) + " adding " +
           std::to_string(a.burst_records) + " records; first snapshot " + std::to_string(a.lump_records) +
           " records; " + std::to_string(r.rows) + " rows, " + std::to_string(r.duplicate_rows) + " duplicates";
}

/// One sample in words, for the progress log while sampling.
inline std::string describe(const sample& x) {
    return "at t=" + std::to_string(x.t_ms) + " ms: " + (x.job_state.empty() ? std::string("not started") : x.job_state) +
           ", checkpoint " + std::to_string(x.newest_checkpoint_id) + ", lag " + std::to_string(x.lag) +
           ", table watermark " + std::to_string(x.max_committed_checkpoint_id) + ", records " +
           std::to_string(x.total_records);
}

/// Sampling may stop once the table has moved, the lag is zero and three
/// more checkpoints have completed (a quick run: two): the burst is over and
/// nothing is left.
struct settle_watch {
    std::int64_t snapshot_before = -1;
    std::int64_t moved_at_checkpoint = -1;
    std::int64_t checkpoints_after_move = 3;
    bool settled(const sample& last) {
        if (moved_at_checkpoint < 0 && last.snapshot_id != snapshot_before && last.snapshot_id != -1)
            moved_at_checkpoint = last.newest_checkpoint_id;
        return moved_at_checkpoint >= 0 && last.lag == 0 && last.newest_checkpoint_id >= moved_at_checkpoint + checkpoints_after_move;
    }
};
inline settle_watch settle_watch_of(const parameters& p, std::int64_t snapshot_before) {
    return {snapshot_before, -1, p.quick ? 2 : 3};
}

// ---- verdict rules: a prediction holds only if it holds for every repeat ----

using experiment::rule_verdict;

inline std::vector<restore_run> runs_of(const samples& s, const std::string& variant) {
    std::vector<restore_run> out;
    for (const auto& r : s.runs)
        if (r.variant == variant) out.push_back(r);
    return out;
}

template <class Decide>
rule_verdict every_repeat(const samples& s, const std::string& variant, Decide decide) {
    return experiment::for_each_of(
        runs_of(s, variant), [](const restore_run& r) { return "repeat " + std::to_string(r.repeat); },
        [&](const restore_run& r) {
            std::string why;
            bool ok = decide(r, analyze(r), why);
            return rule_verdict{ok ? verdict_kind::held : verdict_kind::refuted, why};
        },
        "the variant did not run");
}

inline rule_verdict flinksink_append_freezes_then_lumps(const samples& s) {
    return every_repeat(s, "append-flinksink", [](const restore_run& r, const freeze_analysis& a, std::string& why) {
        why = "ended by checkpoint " + std::to_string(a.ended_by_checkpoint) + " vs watermark " +
              std::to_string(r.watermark_before) + ", lag 0 while stale: " + (a.lag_zero_while_stale ? "yes" : "no") +
              ", " + std::to_string(r.duplicate_rows) + " duplicates, " + std::to_string(r.missing_runs.size()) +
              " missing runs";
        return a.table_moved && a.ended_by_checkpoint == r.watermark_before + 1 && a.lag_zero_while_stale &&
               a.failed_checkpoints_at_table_move == a.failed_checkpoints_at_first_running && r.duplicate_rows > 0 &&
               r.missing_runs.empty();
    });
}

inline rule_verdict flinksink_upsert_freezes_replay_invisible(const samples& s) {
    return every_repeat(s, "upsert-flinksink", [](const restore_run& r, const freeze_analysis& a, std::string& why) {
        why = "ended by checkpoint " + std::to_string(a.ended_by_checkpoint) + " vs watermark " +
              std::to_string(r.watermark_before) + ", " + std::to_string(r.duplicate_rows) + " duplicates, " +
              std::to_string(r.stale_rows) + " stale, " + std::to_string(r.rows_sharing_npi) + " sharing, " +
              std::to_string(r.missing_npis) + " missing NPIs";
        return a.table_moved && a.ended_by_checkpoint == r.watermark_before + 1 && r.duplicate_rows == 0 &&
               r.stale_rows == 0 && r.rows_sharing_npi == 0 && r.missing_npis == 0;
    });
}

inline rule_verdict sinkv2_append_no_freeze_duplicates(const samples& s) {
    return every_repeat(s, "append-sinkv2", [](const restore_run& r, const freeze_analysis& a, std::string& why) {
        why = "table moved at checkpoint " + std::to_string(a.ended_by_checkpoint) + " vs watermark " +
              std::to_string(r.watermark_before) + ", " + std::to_string(r.duplicate_rows) + " duplicates, " +
              std::to_string(r.missing_runs.size()) + " missing runs";
        return a.table_moved && a.ended_by_checkpoint <= r.watermark_before && r.duplicate_rows > 0 &&
               r.missing_runs.empty();
    });
}

/// Data written after the freeze lands once: in append tables every seq of
/// the third batch exactly once; in upsert tables the final check already
/// covers its NPIs (one row each, the latest).
inline rule_verdict post_freeze_batch_lands_once(const samples& s) {
    std::vector<restore_run> with_batch;
    for (const auto& r : s.runs)
        if (r.third_batch) with_batch.push_back(r);
    return experiment::for_each_of(
        with_batch, [](const restore_run& r) { return r.variant + " #" + std::to_string(r.repeat); },
        [](const restore_run& r) {
            const auto& b = *r.third_batch;
            std::string why = "seqs " + std::to_string(b.first_seq) + ".." + std::to_string(b.last_seq) + " written " +
                              std::to_string(b.written_after_ms) + " ms after the restore: " +
                              std::to_string(b.missing_seqs) + " missing, " + std::to_string(b.duplicate_rows) +
                              " duplicated";
            // An upsert table keeps only each NPI's latest seq, so a missing seq
            // is no loss there: its NPIs are judged instead.
            bool ok = b.duplicate_rows == 0;
            if (r.table_kind == experiment::table_kind::upsert) {
                ok = ok && r.missing_npis == 0 && r.stale_rows == 0 && r.rows_sharing_npi == 0;
                why += ", " + std::to_string(r.missing_npis) + " missing NPIs, " + std::to_string(r.stale_rows) + " stale";
            } else {
                ok = ok && b.missing_seqs == 0;
            }
            return rule_verdict{ok ? verdict_kind::held : verdict_kind::refuted, why};
        },
        "no run wrote a batch after the freeze");
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    return {{"e2.post-freeze-batch-lands-once",
             [](const samples& s, const parameters&) { return post_freeze_batch_lands_once(s); }},
            {"e2.flinksink-append-freezes-then-lumps",
             [](const samples& s, const parameters&) { return flinksink_append_freezes_then_lumps(s); }},
            {"e2.flinksink-upsert-freezes-replay-invisible",
             [](const samples& s, const parameters&) { return flinksink_upsert_freezes_replay_invisible(s); }},
            {"e2.sinkv2-append-no-freeze-duplicates",
             [](const samples& s, const parameters&) { return sinkv2_append_no_freeze_duplicates(s); }}};
}

/// The pipeline a variant runs: exactly-once checkpoints, the variant's table and sink.
inline experiment::pipeline_config pipeline_of(const parameters& p, const variant& v) {
    return {v.table, experiment::checkpoint_mode::exactly_once, v.sink, p.warehouse,
            experiment::startup_mode::earliest_offset, p.checkpoint_interval_ms, p.parallelism};
}

/// The first batch arrives at a steady rate spread over enough checkpoints for
/// the watermark to get `watermark_lead` past the savepoint.
/// A quick run spreads it over fewer checkpoints, to stay under 3 minutes.
inline double first_batch_rate(const parameters& p) {
    const double lead = static_cast<double>(p.watermark_lead + (p.quick ? 1 : 8));
    const double seconds = (p.quick ? 2.0 : 10.0) + lead * static_cast<double>(p.checkpoint_interval_ms) / 1000.0;
    return static_cast<double>(p.first_batch_events) / seconds;
}

/// Checkpoints that complete after the group's lag reached zero before the
/// table is read: the commit that carried the last records lands in the
/// first one's notification. A full run waits for two; a quick run, to stay
/// under 3 minutes, for one.
inline int drain_checkpoints(const parameters& p) { return p.quick ? 1 : 2; }

inline restore_run start_run(const parameters& p, const variant& v, std::uint64_t repeat, const std::string& old_job,
                             const experiment::writer_settings& w) {
    restore_run r;
    r.restart_strategy = w.restart;
    r.table_settings = w.table;
    r.variant = v.name;
    r.repeat = repeat;
    r.table_kind = v.table;
    r.v2_sink = v.sink == experiment::iceberg_sink::sink_v2;
    r.events_total = p.first_batch_events + p.second_batch_events + p.third_batch_events.value_or(0);
    r.old_job_id = old_job;
    return r;
}

/// One restore per variant and repeat, planned before the first.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    for (std::uint64_t r = 1; r <= p.repeats; ++r)
        for (const auto& v : variants())
            plan.steps.push_back({r, v.name, experiment::fault_kind::restore_from_savepoint,
                                  "the table's watermark is watermark_lead checkpoints past the savepoint and the "
                                  "first batch has landed; the job is stopped and the second batch written",
                                  0, "none: the restored job runs on; the question is what the table shows"});
    return plan;
}

// ---- report ------------------------------------------------------------------

/// The README section: one row per restore, the freeze per variant, the
/// verdicts and the provenance, all derived from the saved samples.
inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    using report::with_thousands;
    auto sec = [](std::int64_t ms) { return fixed(static_cast<double>(ms) / 1000.0, 1) + " s"; };
    std::string o = "Per repeat: a first batch of " + with_thousands(static_cast<long long>(params.first_batch_events)) +
                    " events, a savepoint early, the job run on until the table's watermark was " +
                    std::to_string(params.watermark_lead) + " checkpoints past it, stopped; a second batch of " +
                    with_thousands(static_cast<long long>(params.second_batch_events)) +
                    " events; a new job restored from the old savepoint" +
                    (params.third_batch_events ? "; once the table had moved and settled, a third batch of " +
                                                     with_thousands(static_cast<long long>(*params.third_batch_events)) + " events"
                                               : std::string()) +
                    ". Sampled every " +
                    std::to_string(params.sample_period_ms) + " ms from the restore request (Trino row counts every " +
                    std::to_string(params.row_count_period_ms) + " ms)" + (params.quick ? ", **quick run**" : "") + ".\n\n";
    report::markdown_table t{{"Variant", "Repeat", "Savepoint checkpoint", "Table watermark",
                              "Freeze (last old sample, first new)", "First commit (catalog timestamp)",
                              "Table's watermark at the first sample that saw it move",
                              "First new snapshot's checkpoint id (catalog)",
                              "Commit burst: snapshots, final checkpoint, records, span", "Lag 0 while stale",
                              "Job states while stale", "Failed checkpoints during freeze", "Rows", "Duplicate rows",
                              "Missing runs", "Batch written after the freeze: seqs missing, duplicated"}};
    std::map<std::string, std::vector<double>> freezes;
    for (const auto& r : s.runs) {
        auto a = analyze(r);
        std::string states;
        for (const auto& st : a.states_while_stale) states += (states.empty() ? "" : ", ") + st;
        const bool seen_running = a.failed_checkpoints_at_first_running >= 0 && a.failed_checkpoints_at_table_move >= 0;
        t.row({r.variant, std::to_string(r.repeat), std::to_string(r.savepoint_checkpoint_id),
               std::to_string(r.watermark_before), sec(a.last_old_ms) + ", " + sec(a.first_new_ms),
               a.first_commit_ms ? sec(*a.first_commit_ms) : std::string("not recorded in this run"),
               std::to_string(a.ended_by_checkpoint),
               r.snapshots_after.empty() ? std::string("none")
                                         : std::to_string(r.snapshots_after.front().max_committed_checkpoint_id),
               std::to_string(a.burst_snapshots) + ", " + std::to_string(a.burst_final_checkpoint) + ", " +
                   with_thousands(a.burst_records) + ", " + sec(a.burst_span_ms),
               a.lag_zero_while_stale ? "yes" : "no",
               states.empty() ? std::string("none seen: the table moved first") : states,
               seen_running ? std::to_string(a.failed_checkpoints_at_table_move - a.failed_checkpoints_at_first_running)
                            : std::string("n/a: the table moved before a sample saw the job running"),
               with_thousands(static_cast<long long>(r.rows)), with_thousands(static_cast<long long>(r.duplicate_rows)),
               std::to_string(r.missing_runs.size()),
               !r.third_batch ? std::string("not written in this run")
               : r.table_kind == experiment::table_kind::upsert
                   ? "n/a (upsert keeps the latest seq per NPI), " + std::to_string(r.third_batch->duplicate_rows)
                   : std::to_string(r.third_batch->missing_seqs) + ", " + std::to_string(r.third_batch->duplicate_rows)});
        if (a.table_moved) freezes[r.variant].push_back(static_cast<double>(a.first_new_ms) / 1000.0);
    }
    o += t.render();
    report::markdown_table f{{"Variant", "Freeze end after the restore request, min / median / max"}};
    for (const auto& [v, xs] : freezes) {
        auto sum = stats::summarize(xs);
        f.row({v, fixed(sum.min, 1) + " / " + fixed(sum.median, 1) + " / " + fixed(sum.max, 1) + " s (n = " +
                      std::to_string(sum.count) + ")"});
    }
    o += "\n" + f.render();
    o += "\nThe freeze is bounded by two samples half a second apart: the table changed after the first figure and "
         "no later than the second; where the run recorded the restore request's time, the first new snapshot's own "
         "commit timestamp (from the catalog, on the same machine's clock) places it to the millisecond.\n\n"
         "![records in the table and the restored job's newest checkpoint id against time since the restore, with "
         "each table's watermark](docs/e2_timeline.svg)\n\n";
    return o + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// The timeline of each variant's first repeat: records in the table (solid,
/// left axis) and the restored job's newest checkpoint id (dashed, right axis)
/// against seconds since the restore request, with the table's watermark as
/// a reference line: the freeze ends where the dashed line crosses it.
inline std::string timeline_svg(const samples& s) {
    report::line_plot p;
    p.title = "After restoring from an old savepoint: the table waits for the watermark";
    p.x_label = "seconds since the restore request";
    p.y_label = "records in the table (solid)";
    p.y2_label = "restored job's newest checkpoint id (dashed)";
    std::set<std::int64_t> watermarks;
    for (const auto& r : s.runs) {
        if (r.repeat != 1) continue;
        report::series rows{r.variant + ": records", {}, report::axis::left, false};
        report::series ids{r.variant + ": checkpoint id", {}, report::axis::right, true};
        for (const auto& x : r.samples) {
            const double t = static_cast<double>(x.t_ms) / 1000.0;
            rows.points.push_back({t, static_cast<double>(x.total_records)});
            if (x.newest_checkpoint_id >= 0) ids.points.push_back({t, static_cast<double>(x.newest_checkpoint_id)});
        }
        p.add_series(std::move(rows));
        p.add_series(std::move(ids));
        watermarks.insert(r.watermark_before);
    }
    for (auto w : watermarks)
        p.add_reference({report::orientation::horizontal, report::axis::right, static_cast<double>(w),
                         "table watermark " + std::to_string(w)});
    return p.render();
}

/// Experiment 2 as the runner, the report and the claim tests see it.
struct definition {
    using parameters = e2::parameters;
    using samples = e2::samples;
    static constexpr const char* id = "e2_savepoint_restore";
    static constexpr const char* tag = "e2";
    static constexpr const char* predictions_file = "predictions/e2_savepoint_restore.json";
    static constexpr const char* results_file = "results/e2_savepoint_restore.json";
    static constexpr experiment::hooks<parameters> hooks{
        .warehouse = &parameters::warehouse};
    static std::vector<rule> rules() { return e2::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e2::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e2::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) {
        return {{"docs/e2_timeline.svg", timeline_svg(s)}};
    }
};

} // namespace rosterrig::e2

#endif
