// rosterrig/experiments/e2_savepoint_restore/samples.hpp: experiment 2's sample schema (batches as produced, samples, snapshots, landings, a restore's run)
// batch_feed sat between batches() and the variants in the old header, and start_run (which
// builds a restore_run) after rules(); both moved here, beside the schema.
#ifndef ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_SAMPLES_HPP

#include "rosterrig/experiments/e2_savepoint_restore/parameters.hpp"

namespace rosterrig::e2 {

/// One batch as it was produced: its seqs in the repeat's feed (feed(repeat))
/// and the SHA-256 of its lines (generate/feed_digest.hpp).
struct batch_feed {
    std::uint64_t first_seq = 0;
    std::uint64_t last_seq = 0;
    std::string feed_sha256;
};
BOOST_DESCRIBE_STRUCT(batch_feed, (), (first_seq, last_seq, feed_sha256))

// One fast sample, timed from the restore request.
struct sample {
    std::int64_t t_ms = 0;
    std::string job_state;  // "" before the job exists
    std::int64_t newest_checkpoint_id = -1;
    std::int64_t failed_checkpoints = 0;
    std::int64_t lag = -1;          // summed over partitions, from Kafka
    std::int64_t snapshot_id = -1;  // the table's current snapshot, from the catalog
    std::int64_t max_committed_checkpoint_id = -1;
    std::string snapshot_job_id;  // flink.job-id of that snapshot
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
    std::int64_t timestamp_ms = 0;  // commit time, epoch ms (catalog)
    std::int64_t max_committed_checkpoint_id = -1;
    std::string job_id;     // flink.job-id
    std::string operation;  // append, overwrite, delete ...
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
    std::string variant;  // append-flinksink | upsert-flinksink | append-sinkv2
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
    std::int64_t rows_before = 0;  // through Trino
    std::uint64_t events_total = 0;
    std::int64_t restarts_during = 0;  // numRestarts of the restored job at the end
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
    std::optional<std::int64_t>
        restore_requested_at_ms;               // epoch ms on the catalog's machine clock (absent in older runs)
    std::optional<batch_landing> third_batch;  // the batch written after the freeze (absent in older runs)
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

}  // namespace rosterrig::e2

#endif
