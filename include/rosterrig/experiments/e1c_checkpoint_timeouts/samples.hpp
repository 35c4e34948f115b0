// rosterrig/experiments/e1c_checkpoint_timeouts/samples.hpp: experiment 1c's sample schema (an upsert cell's table, a cell's run, the samples) and its recording
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_SAMPLES_HPP

#include "rosterrig/experiments/e1c_checkpoint_timeouts/parameters.hpp"
#include "rosterrig/experiment/seq_placement.hpp"

namespace rosterrig::e1c {

/// An upsert cell's table: its settings as the catalog reports them, and the
/// per-NPI check of the rows read back. A loss shows as an NPI whose last
/// record is on no row (a lower bound on the records lost: a later record of
/// an NPI hides the loss of an earlier one); a delete that did not apply, as
/// an NPI on more than one row.
struct upsert_observation {
    experiment::table_settings table_in_force;  ///< write.upsert.enabled and the identifier fields, from the catalog
    std::uint64_t npis_expected = 0;            ///< distinct NPIs in the feed
    std::uint64_t npis_missing = 0;             ///< expected NPIs on no row
    std::uint64_t npis_without_latest = 0;      ///< NPIs on rows, none of them the NPI's last record
    std::uint64_t rows_sharing_npi = 0;         ///< extra rows: an NPI on k rows adds k-1
    std::uint64_t stale_rows = 0;               ///< rows that are not their NPI's last record
    std::uint64_t unexpected_rows = 0;          ///< rows whose NPI the feed never had
};
BOOST_DESCRIBE_STRUCT(upsert_observation, (),
                      (table_in_force, npis_expected, npis_missing, npis_without_latest, rows_sharing_npi, stale_rows,
                       unexpected_rows))

/// A kill cell's kill: the timed-out checkpoint that triggered it (Flink's
/// history) and what the kill did (the same record as experiment 1's kills).
struct timeout_kill {
    experiment::fault_step step;             ///< as planned
    std::int64_t timed_out_checkpoint = -1;  ///< the id whose expiry the kill followed
    std::int64_t timed_out_seen_at_ms = 0;   ///< epoch ms the history showed it (polled each second)
    experiment::kill_record kill;
};
BOOST_DESCRIBE_STRUCT(timeout_kill, (), (step, timed_out_checkpoint, timed_out_seen_at_ms, kill))

/// What ran in a cell, as the components reported it, and the table at the end.
struct cell_run {
    std::string name;
    std::uint64_t repeat = 1;  ///< which round of the cells this run was, from 1
    std::string sink;          ///< which sink implementation ran
    std::string job_id;
    std::string table;
    std::string mode_in_force;  ///< /jobs/<id>/checkpoints/config
    bool unaligned_in_force = false;
    std::int64_t interval_in_force_ms = 0;
    std::int64_t timeout_requested_ms = 0;
    std::int64_t timeout_in_force_ms = 0;
    std::int64_t tolerable_in_force = -1;
    std::string writer_input;             ///< the plan's ship strategy into the writer
    std::int64_t writer_parallelism = 0;  ///< from the plan
    std::string feed_sha256;
    std::uint64_t events = 0;
    std::uint64_t acknowledged = 0;
    std::int64_t produce_ms = 0;  ///< feed start to the last delivery report
    std::int64_t drained_ms = 0;  ///< feed start to the source's committed offsets at the end
    std::string final_job_state;
    std::int64_t restarts_reported = 0;
    experiment::checkpoint_totals totals;                     ///< Flink's counters, exact
    std::vector<experiment::checkpoint_outcome> checkpoints;  ///< polled from the history: a sample of the totals
    bool observed = false;
    std::uint64_t rows = 0, distinct_seq = 0, duplicate_rows = 0;
    // Append cells only: an upsert table keeps one row per NPI by design, so
    // its seqs are missing by the million (0 and empty there; see `upsert`).
    std::uint64_t missing_seq = 0;
    std::vector<seq_range> missing_runs;
    std::vector<check::snapshot_entry> snapshots;  ///< the writer's snapshots, as the catalog lists them
    experiment::store_listing store;               ///< data files in the store the table never referenced
    std::optional<upsert_observation> upsert;      ///< upsert cells only (absent: an append table)
    // Absent in runs from before they were recorded.
    std::optional<double> feed_rate;  ///< events per second asked of the producer; 0: produced at once
    std::optional<std::vector<experiment::backpressure_sample>> source_backpressure;  ///< sampled each second
    std::optional<std::vector<timeout_kill>> kills;  ///< kill cells only: each kill after a timed-out checkpoint
    /// The offsets the source's group had committed, read each second (they lag checkpoint completion).
    std::optional<std::vector<experiment::committed_offsets_sample>> source_offsets;
    /// Append cells: the seqs each snapshot added per Kafka partition, what
    /// the attribution of each missing run is computed from, with the missing
    /// runs split by the partitions of the run's feed (rules.hpp, attribution_of).
    std::optional<experiment::seq_placement> placement;
};
BOOST_DESCRIBE_STRUCT(cell_run, (),
                      (name, repeat, sink, job_id, table, mode_in_force, unaligned_in_force, interval_in_force_ms,
                       timeout_requested_ms, timeout_in_force_ms, tolerable_in_force, writer_input, writer_parallelism,
                       feed_sha256, events, acknowledged, produce_ms, drained_ms, final_job_state, restarts_reported,
                       totals, checkpoints, observed, rows, distinct_seq, duplicate_rows, missing_seq, missing_runs,
                       snapshots, store, upsert, feed_rate, source_backpressure, kills, source_offsets, placement))

struct samples {
    std::vector<cell_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

// ---- recording --------------------------------------------------------------

/// A cell's run as its job starts: the cell, its round, and the settings Flink
/// reports in force (the timeout requested kept beside them, to tell the two apart).
inline cell_run started_run(const parameters& p, const cell& c, std::uint64_t repeat, const std::string& job,
                            const std::string& table, const experiment::writer_settings& in_force,
                            std::uint64_t events) {
    const auto fan_in = experiment::fan_in_of(in_force.edges);
    cell_run r;
    r.name = c.name, r.repeat = repeat, r.sink = in_force.sink, r.job_id = job, r.table = table;
    r.mode_in_force = in_force.mode, r.unaligned_in_force = in_force.unaligned.value_or(false);
    r.interval_in_force_ms = in_force.interval_ms;
    r.timeout_requested_ms = timeout_of(p, c), r.timeout_in_force_ms = in_force.checkpoint_timeout_ms;
    r.tolerable_in_force = in_force.tolerable_failed_checkpoints;
    r.writer_input = fan_in.ship_strategy, r.writer_parallelism = fan_in.writer_parallelism;
    r.events = events;
    r.feed_rate = rate_of(p, c);
    if (c.kill_after_timeout) r.kills.emplace();
    if (c.kind == experiment::table_kind::upsert)
        r.upsert = upsert_observation{in_force.table.value_or(experiment::table_settings{})};
    return r;
}

/// Puts the table's read-back into the run: the seq counts, then what the
/// table's kind loses by: missing seqs (append) or the per-NPI counts (upsert;
/// the catalog's settings recorded at the start are kept).
inline void record_table(cell_run& r, const experiment::table_observation& o) {
    r.observed = true;
    r.rows = o.by_seq.rows, r.distinct_seq = o.by_seq.distinct_seq;
    r.duplicate_rows = o.by_seq.duplicate_rows;
    if (r.upsert) {
        const auto& u = o.by_npi;
        // The feed's NPIs: those seen, less the ones it never had, plus the ones on no row.
        r.upsert->npis_expected = u.distinct_npis - u.unexpected_npis.size() + u.missing_npis.size();
        r.upsert->npis_missing = u.missing_npis.size(), r.upsert->npis_without_latest = u.npis_without_latest;
        r.upsert->rows_sharing_npi = u.rows_sharing_npi, r.upsert->stale_rows = u.stale_rows;
        r.upsert->unexpected_rows = u.unexpected_rows;
    } else {
        r.missing_seq = o.by_seq.missing_seq, r.missing_runs = o.by_seq.missing_runs;
    }
}

/// An append cell's placement of its seqs, from Trino's islands and the feed's
/// partitions (`partition_of_seq[s - 1]`: seq s's); after record_table. The
/// missing runs' pieces are not stored: attribution_of derives them.
inline void record_placement(cell_run& r, const std::vector<experiment::seq_island>& islands,
                             const std::vector<std::uint32_t>& partition_of_seq) {
    if (r.upsert || !r.observed) return;
    r.placement = experiment::seq_placement{experiment::spans_of(islands, partition_of_seq, r.missing_runs), {}};
}

}  // namespace rosterrig::e1c

#endif
