// rosterrig/experiments/e8_catalog_commit_faults/samples.hpp: experiment 8's sample schema (a trial, a writer run, the samples) over the shared catalog-request records.
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_SAMPLES_HPP

#include "rosterrig/experiment/stray_files.hpp"
#include "rosterrig/experiments/e8_catalog_commit_faults/parameters.hpp"

namespace rosterrig::e8 {

// A commit POST's body and a request on the table's path are shared records
// (experiment/catalog_request.hpp).
using experiment::commit_body;
using experiment::commit_body_of;
using experiment::table_request;

/// One fault on one commit.
struct trial {
    std::uint64_t index = 0;  ///< 1-based within its writer run
    cell kind = cell::lose_reply;
    std::uint64_t k = 0;  ///< drawn: the k-th commit POST after the table settled is hit
    unsigned status = 0;  ///< status_unforwarded: what the proxy answered
    std::uint64_t hit_rule = 0, b_rule = 0, get_rule = 0;  ///< the proxy rules armed (0: none)
    std::int64_t armed_at_ms = 0;
    std::int64_t healed_at_ms = 0;   ///< the proxy's rules removed and holds released
    std::int64_t settled_at_ms = 0;  ///< job running and an unruled commit answered 200 after the heal (0: never)
    std::optional<experiment::kill_record> kill;               ///< the committer's TaskManager SIGKILLed (zombie cells)
    std::int64_t exceptions_before = 0, exceptions_after = 0;  ///< Flink's exception history, entries
    std::vector<std::string> new_exceptions;  ///< first lines of the entries the trial added, oldest first
    std::vector<table_request> requests;      ///< every request to the table path from arming to settling
    std::string failure;                      ///< why the trial stopped early, "" when it did not
    /// Flink's failed-checkpoint count for the job (/jobs/<id>/checkpoints) at
    /// the arming and after the settle; absent in runs from before it was read.
    std::optional<std::int64_t> failed_checkpoints_before, failed_checkpoints_after;
};
BOOST_DESCRIBE_STRUCT(trial, (),
                      (index, kind, k, status, hit_rule, b_rule, get_rule, armed_at_ms, healed_at_ms, settled_at_ms,
                       kill, exceptions_before, exceptions_after, new_exceptions, requests, failure,
                       failed_checkpoints_before, failed_checkpoints_after))

/// One writer's job, its trials and the table at the end.
struct writer_run {
    std::string writer;                     ///< sinkv2, flinksink
    std::optional<table_variant> on_table;  ///< the table it committed to (absent: append, retries on)
    std::string job;
    std::string table;
    std::string mode_in_force;              ///< Flink's checkpointing mode (/jobs/<id>/checkpoints/config)
    std::int64_t interval_in_force_ms = 0;  ///< and interval
    std::string sink_in_force;              ///< the sink implementation the job plan shows
    std::map<std::string, std::string> catalog_properties;  ///< what the writer's CREATE CATALOG set beyond the stack's
    std::optional<std::map<std::string, std::string>>
        table_properties;       ///< the table's, as the catalog holds them once the job ran
    std::string proxy_address;  ///< where the writer's catalog client went
    std::string feed_sha256;
    std::uint64_t events = 0;
    std::vector<trial> trials;
    bool observed = false;  ///< the end below was read
    std::uint64_t rows = 0, duplicate_rows = 0,
                  missing_seq = 0;  ///< append tables (an upsert table keeps the latest row per NPI: 0 there)
    std::vector<seq_range> missing_runs;
    /// Upsert tables, against the latest row per NPI of the feed: NPIs with more than one row, NPIs missing, rows not the latest.
    std::optional<std::uint64_t> rows_sharing_npi, missing_npis, stale_rows;
    std::vector<check::snapshot_entry> snapshots;  ///< the table's snapshots, oldest first, from the catalog
    /// The store under the table's location at the end, against every path the
    /// metadata references (absent in runs from before it was listed).
    std::optional<experiment::store_check> store;
};
BOOST_DESCRIBE_STRUCT(writer_run, (),
                      (writer, on_table, job, table, mode_in_force, interval_in_force_ms, sink_in_force,
                       catalog_properties, table_properties, proxy_address, feed_sha256, events, trials, observed, rows,
                       duplicate_rows, missing_seq, missing_runs, rows_sharing_npi, missing_npis, stale_rows, snapshots,
                       store))

inline table_variant variant_of(const writer_run& r) { return r.on_table.value_or(table_variant::append); }
inline std::string run_name(const writer_run& r) { return run_name(r.writer, variant_of(r)); }

/// Whether the catalog holds commit.retry.num-retries = 0 for the run's table, as asked of it.
inline bool retry_off_in_force(const writer_run& r) {
    return r.table_properties && r.table_properties->count("commit.retry.num-retries") &&
           r.table_properties->at("commit.retry.num-retries") == "0";
}

/// The table at the end holds what the feed asks: append, no duplicate and no
/// missing seq; upsert, the latest row of every NPI once.
inline bool table_undamaged(const writer_run& r) {
    if (kind_of(variant_of(r)) == experiment::table_kind::upsert)
        return r.rows_sharing_npi.value_or(1) == 0 && r.missing_npis.value_or(1) == 0 && r.stale_rows.value_or(1) == 0;
    return r.duplicate_rows == 0 && r.missing_seq == 0;
}
inline std::string table_text(const writer_run& r) {
    if (kind_of(variant_of(r)) == experiment::table_kind::upsert)
        return std::to_string(r.rows_sharing_npi.value_or(0)) + " NPIs with more than one row, " +
               std::to_string(r.missing_npis.value_or(0)) + " missing, " + std::to_string(r.stale_rows.value_or(0)) +
               " stale rows";
    return std::to_string(r.duplicate_rows) + " duplicate seq rows, " + std::to_string(r.missing_seq) + " missing seqs";
}

/// A trial saved as it stands: added the first time, replaced after.
inline void keep_trial(writer_run& r, const trial& t) {
    if (r.trials.empty() || r.trials.back().index != t.index)
        r.trials.push_back(t);
    else
        r.trials.back() = t;
}

struct samples {
    std::vector<writer_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

/// Whether the writer run named `name` (run_name) was recorded to its end, its
/// table read: a resumed run (--resume) keeps it.
inline bool recorded(const samples& s, const std::string& name) {
    return std::any_of(s.runs.begin(), s.runs.end(),
                       [&](const writer_run& r) { return r.observed && run_name(r) == name; });
}

/// Drops the writer runs a stopped run left before their table was read: a
/// resumed run runs them again from the start, on a new job and table (the
/// stopped one's were cleaned up). Returns how many.
inline std::size_t drop_unobserved(samples& s) {
    return static_cast<std::size_t>(std::erase_if(s.runs, [](const writer_run& r) { return !r.observed; }));
}

}  // namespace rosterrig::e8

#endif
