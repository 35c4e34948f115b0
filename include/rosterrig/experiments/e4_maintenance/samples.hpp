// rosterrig/experiments/e4_maintenance/samples.hpp: the raw samples (job health, table checks, procedure calls, the expire/orphan/compaction runs) and how a run's record starts
// (The table-check predicates, exactly_once to table_promise_kept, sit between the sample structs in the old
// order and stay with them.)

#ifndef ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_SAMPLES_HPP

#include "rosterrig/experiments/e4_maintenance/parameters.hpp"

namespace rosterrig::e4 {

// ---- samples -----------------------------------------------------------------

/// What the job reported at the end of a run.
struct job_health {
    std::string state;
    std::int64_t restarts = 0;
    std::int64_t exceptions = 0;
    std::vector<std::string> exception_names;  // the newest few
    std::int64_t completed_checkpoints = 0;
    std::int64_t failed_checkpoints = 0;
};
BOOST_DESCRIBE_STRUCT(job_health, (),
                      (state, restarts, exceptions, exception_names, completed_checkpoints, failed_checkpoints))

/// The table read back through Trino at the end, checked against the seed,
/// and its referenced data files checked against the store.
struct table_check {
    std::string kind;  // append | upsert
    std::uint64_t events = 0;
    bool scan_ok = false;
    std::string scan_error;  // Trino's message when the full scan failed
    std::uint64_t rows = 0;
    std::uint64_t distinct_seq = 0;
    std::uint64_t duplicate_rows = 0;
    std::vector<seq_range> missing_runs;
    std::uint64_t rows_sharing_npi = 0;
    std::uint64_t missing_npis = 0;
    std::uint64_t stale_rows = 0;
    std::uint64_t unexpected_rows = 0;
    std::int64_t referenced_data_files = -1;    // the current snapshot's data and delete files ($files)
    std::int64_t referenced_missing = -1;       // of those, absent from the store's own listing
    std::int64_t records_in_missing_files = 0;  // their record counts, from the metadata
};
BOOST_DESCRIBE_STRUCT(table_check, (),
                      (kind, events, scan_ok, scan_error, rows, distinct_seq, duplicate_rows, missing_runs,
                       rows_sharing_npi, missing_npis, stale_rows, unexpected_rows, referenced_data_files,
                       referenced_missing, records_in_missing_files))

inline void record_rows(table_check& t, const experiment::table_observation& o) {
    t.scan_ok = true;
    t.rows = o.by_seq.rows, t.distinct_seq = o.by_seq.distinct_seq, t.duplicate_rows = o.by_seq.duplicate_rows;
    t.missing_runs = o.by_seq.missing_runs;
    t.rows_sharing_npi = o.by_npi.rows_sharing_npi, t.missing_npis = o.by_npi.missing_npis.size();
    t.stale_rows = o.by_npi.stale_rows, t.unexpected_rows = o.by_npi.unexpected_rows;
}

/// Every event exactly once (the append table's promise).
inline bool exactly_once(const table_check& t) {
    return t.scan_ok && t.rows == t.events && t.distinct_seq == t.events && t.duplicate_rows == 0 &&
           t.missing_runs.empty();
}
/// The latest row per NPI and nothing else (the upsert table's promise).
inline bool upsert_exact(const table_check& t) {
    return t.scan_ok && t.stale_rows == 0 && t.rows_sharing_npi == 0 && t.missing_npis == 0 && t.unexpected_rows == 0;
}
inline bool table_promise_kept(const table_check& t) { return t.kind == "upsert" ? upsert_exact(t) : exactly_once(t); }

/// One maintenance call through Trino and the table around it (catalog).
struct procedure_call {
    std::string procedure;   // expire_snapshots | remove_orphan_files | optimize
    std::int64_t at_ms = 0;  // since the job was submitted
    std::int64_t took_ms = 0;
    bool ok = false;
    std::string error;  // Trino's message when it failed
    std::int64_t snapshots_before = 0, snapshots_after = 0;
    std::int64_t data_files_before = -1, data_files_after = -1;  // live data files of the current snapshot
    std::int64_t delete_files_before = -1, delete_files_after = -1;
    std::int64_t watermark_before = -1,
                 watermark_after = -1;  // flink.max-committed-checkpoint-id of the newest snapshot
    std::string current_writer_before,
        current_writer_after;              // flink.job-id of the newest snapshot ("" when another writer's)
    std::string current_operation_after;   // operation of the newest snapshot after
    bool after_has_job_watermark = false;  // some snapshot left carries the job's flink.job-id and a watermark
};
BOOST_DESCRIBE_STRUCT(procedure_call, (),
                      (procedure, at_ms, took_ms, ok, error, snapshots_before, snapshots_after, data_files_before,
                       data_files_after, delete_files_before, delete_files_after, watermark_before, watermark_after,
                       current_writer_before, current_writer_after, current_operation_after, after_has_job_watermark))

/// Part 1: expire_snapshots, then a TaskManager kill.
struct expire_run {
    std::string name, store, variant;
    std::uint64_t repeat = 1;
    std::string job_id;
    std::int64_t interval_ms = 0;              // Flink's checkpoint config
    std::optional<procedure_call> compaction;  // the after-compaction variant's optimize (the last call)
    // How many times it was called: a call after which the job's commit was
    // the newest snapshot again is followed by another (absent: one call).
    std::optional<std::uint64_t> optimize_calls;
    procedure_call expire;
    experiment::kill_record kill;
    std::int64_t exceptions_before_kill = 0;
    job_health health;
    table_check table;
};
BOOST_DESCRIBE_STRUCT(expire_run, (),
                      (name, store, variant, repeat, job_id, interval_ms, compaction, optimize_calls, expire, kill,
                       exceptions_before_kill, health, table))

/// Part 2: remove_orphan_files with records in flight.
struct orphan_run {
    std::string name, store, variant;
    std::uint64_t repeat = 1;
    std::string job_id;
    std::int64_t interval_ms = 0;
    // write.parquet.row-group-size-bytes as the catalog holds the table's
    // properties; absent: Iceberg's default (128 MB) applies.
    std::optional<std::int64_t> row_group_bytes;
    std::uint64_t acknowledged_at_call = 0;      // by the broker, to our producer
    std::int64_t committed_records_at_call = 0;  // the newest snapshot's total-records (catalog)
    std::int64_t in_flight_records = 0;          // the difference: records the writer held in open files
    std::int64_t call_after_checkpoint_ms = -1;  // from the last completed checkpoint to the call
    store_listing before;
    procedure_call call;
    store_listing after;
    std::vector<std::string> deleted_data_files;  // unreferenced before, gone after
    job_health health;
    table_check table;
};
BOOST_DESCRIBE_STRUCT(orphan_run, (),
                      (name, store, variant, repeat, job_id, interval_ms, row_group_bytes, acknowledged_at_call,
                       committed_records_at_call, in_flight_records, call_after_checkpoint_ms, before, call, after,
                       deleted_data_files, health, table))

/// Part 3: optimize against a live writer.
struct compaction_run {
    std::string name, store, table_kind;
    std::uint64_t repeat = 1;
    std::string job_id;
    std::int64_t interval_ms = 0;
    std::vector<procedure_call> calls;
    job_health health;
    table_check table;
};
BOOST_DESCRIBE_STRUCT(compaction_run, (), (name, store, table_kind, repeat, job_id, interval_ms, calls, health, table))

/// Trino's minimum retentions for the two procedures, as its session reports them.
struct trino_settings {
    std::string expire_snapshots_min_retention;
    std::string remove_orphan_files_min_retention;
};
BOOST_DESCRIBE_STRUCT(trino_settings, (), (expire_snapshots_min_retention, remove_orphan_files_min_retention))

struct samples {
    trino_settings trino;
    std::vector<expire_run> expires;
    std::vector<orphan_run> orphans;
    std::vector<compaction_run> compactions;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (trino, expires, orphans, compactions, predictions))

/// The procedures called from Trino: every snapshot or file older than now is fair game.
inline const std::string expire_call = "expire_snapshots(retention_threshold => '0s')";
inline const std::string orphan_call = "remove_orphan_files(retention_threshold => '0s')";

/// A run's record, named after its plan, before anything is measured.
template <class Run>
Run run_of(const run_plan& plan) {
    Run r;
    r.name = plan.name(), r.store = plan.store, r.repeat = plan.repeat;
    if constexpr (requires { r.variant; }) r.variant = plan.variant;
    if constexpr (requires { r.table_kind; }) r.table_kind = plan.variant;
    return r;
}

inline bool recorded(const samples& s, const std::string& name) {
    for (const auto& x : s.expires)
        if (x.name == name) return true;
    for (const auto& x : s.orphans)
        if (x.name == name) return true;
    for (const auto& x : s.compactions)
        if (x.name == name) return true;
    return false;
}

}  // namespace rosterrig::e4

#endif
