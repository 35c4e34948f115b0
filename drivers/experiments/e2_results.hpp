// Experiment 2 (restoring from a savepoint older than the table): the typed raw
// samples and the pure analysis that finds the freeze, the lump and what the
// on-call signals did, then judges the predictions.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/describe.hpp>
#include <rosterrig/prediction/verdict.hpp>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/prediction_file.hpp>
#include <rosterrig/stats/summary.hpp>

#include "prediction_outcome.hpp"

namespace rosterrig::e2 {

struct parameters {
    std::uint64_t seed = 2;
    std::uint64_t first_batch_events = 8000;   // written while the first job runs
    std::uint64_t second_batch_events = 4000;  // written while no job runs
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t watermark_lead = 10;          // checkpoints past the savepoint before stopping
    std::int64_t sample_period_ms = 500;
    std::int64_t row_count_period_ms = 3000;
    std::uint64_t repeats = 3;
    std::string warehouse = "s3";
    std::int64_t parallelism = 2;
    bool quick = false;
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, first_batch_events, second_batch_events, providers, partitions, checkpoint_interval_ms,
                       watermark_lead, sample_period_ms, row_count_period_ms, repeats, warehouse, parallelism, quick))

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

struct restore_run {
    std::string variant;      // append-flinksink | upsert-flinksink | append-sinkv2
    std::uint64_t repeat = 0;
    std::string table_kind;
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
    std::vector<std::vector<std::uint64_t>> missing_runs;
    std::uint64_t rows_sharing_npi = 0;
    std::uint64_t missing_npis = 0;
    std::uint64_t stale_rows = 0;
};
BOOST_DESCRIBE_STRUCT(restore_run, (),
                      (variant, repeat, table_kind, v2_sink, old_job_id, new_job_id, savepoint_path,
                       savepoint_checkpoint_id, watermark_before, snapshot_before, total_records_before, rows_before,
                       events_total, restarts_during, exceptions_during, samples, row_counts, snapshots_after, rows,
                       duplicate_rows,
                       missing_runs, rows_sharing_npi, missing_npis, stale_rows))

using experiments::prediction_outcome;

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
    std::int64_t ended_by_checkpoint = -1;  // max-committed-checkpoint-id of that snapshot
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
};

inline freeze_analysis analyze(const restore_run& r) {
    freeze_analysis a;
    for (const auto& snap : r.snapshots_after) {
        ++a.burst_snapshots;
        a.burst_final_checkpoint = snap.max_committed_checkpoint_id;
        a.burst_records = snap.total_records - r.total_records_before;
        a.burst_span_ms = snap.timestamp_ms - r.snapshots_after.front().timestamp_ms;
        if (snap.max_committed_checkpoint_id > r.watermark_before) break;
    }
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

// Judges each prediction over every repeat of its variant: it holds only if it
// holds for each repeat.
inline samples judge(samples s, const std::vector<result::prediction>& predictions) {
    s.predictions.clear();
    auto for_variant = [&](const std::string& variant, auto&& holds) {
        std::pair<verdict_kind, std::string> out{verdict_kind::held, {}};
        int n = 0;
        for (const auto& r : s.runs) {
            if (r.variant != variant) continue;
            ++n;
            std::string why;
            if (!holds(r, analyze(r), why)) out.first = verdict_kind::refuted;
            out.second += "repeat " + std::to_string(r.repeat) + ": " + why + "; ";
        }
        if (n == 0) out = {verdict_kind::inconclusive, "the variant did not run"};
        return out;
    };
    for (const auto& p : predictions) {
        prediction_outcome o{p.id, p.text, p.measure, verdict_kind::inconclusive, {}};
        std::pair<verdict_kind, std::string> v{verdict_kind::inconclusive, "no rule in the code judges this prediction"};
        if (p.id == "e2.flinksink-append-freezes-then-lumps") {
            v = for_variant("append-flinksink", [](const restore_run& r, const freeze_analysis& a, std::string& why) {
                why = "ended by checkpoint " + std::to_string(a.ended_by_checkpoint) + " vs watermark " +
                      std::to_string(r.watermark_before) + ", lag 0 while stale: " +
                      (a.lag_zero_while_stale ? "yes" : "no") + ", " + std::to_string(r.duplicate_rows) +
                      " duplicates, " + std::to_string(r.missing_runs.size()) + " missing runs";
                return a.table_moved && a.ended_by_checkpoint == r.watermark_before + 1 && a.lag_zero_while_stale &&
                       a.failed_checkpoints_at_table_move == a.failed_checkpoints_at_first_running &&
                       r.duplicate_rows > 0 && r.missing_runs.empty();
            });
        } else if (p.id == "e2.flinksink-upsert-freezes-replay-invisible") {
            v = for_variant("upsert-flinksink", [](const restore_run& r, const freeze_analysis& a, std::string& why) {
                why = "ended by checkpoint " + std::to_string(a.ended_by_checkpoint) + " vs watermark " +
                      std::to_string(r.watermark_before) + ", " + std::to_string(r.duplicate_rows) + " duplicates, " +
                      std::to_string(r.stale_rows) + " stale, " + std::to_string(r.rows_sharing_npi) + " sharing, " +
                      std::to_string(r.missing_npis) + " missing NPIs";
                return a.table_moved && a.ended_by_checkpoint == r.watermark_before + 1 && r.duplicate_rows == 0 &&
                       r.stale_rows == 0 && r.rows_sharing_npi == 0 && r.missing_npis == 0;
            });
        } else if (p.id == "e2.sinkv2-append-no-freeze-duplicates") {
            v = for_variant("append-sinkv2", [](const restore_run& r, const freeze_analysis& a, std::string& why) {
                why = "table moved at checkpoint " + std::to_string(a.ended_by_checkpoint) + " vs watermark " +
                      std::to_string(r.watermark_before) + ", " + std::to_string(r.duplicate_rows) + " duplicates, " +
                      std::to_string(r.missing_runs.size()) + " missing runs";
                return a.table_moved && a.ended_by_checkpoint <= r.watermark_before && r.duplicate_rows > 0 &&
                       r.missing_runs.empty();
            });
        }
        o.verdict = v.first;
        o.reason = v.second;
        s.predictions.push_back(o);
    }
    return s;
}

inline verdict_kind overall(const samples& s) { return experiments::overall(s.predictions); }

}  // namespace rosterrig::e2
