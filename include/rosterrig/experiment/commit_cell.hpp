// rosterrig/experiment/commit_cell.hpp: the record of one commit cell (a
// writer at one commit interval and parallelism, fed into a fresh table):
// the settings in force, every snapshot with the rows it made visible, the
// live files, each row's freshness and the read-back; and its analysis
// (commits with data, files per commit, file sizes, freshness quantiles).
// Experiment 3's schema, shared by experiment 7's dial. Field names are the
// results files' keys.
#ifndef ROSTERRIG_EXPERIMENT_COMMIT_CELL_HPP
#define ROSTERRIG_EXPERIMENT_COMMIT_CELL_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/freshness.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/result/check_json.hpp"  // seq_range, described
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::experiment {

/// What a cell is for.
enum class cell_role { grid, large_target, control };
BOOST_DESCRIBE_ENUM(cell_role, grid, large_target, control)

inline std::string seconds_text(std::int64_t ms) {
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

/// One snapshot of the table, from the catalog, with the rows that became
/// visible in it (from the seq -> file -> adding snapshot mapping).
struct snapshot_entry {
    std::int64_t snapshot_id = 0;
    std::int64_t timestamp_ms = 0;
    std::string operation;
    std::string job_id;                 // flink.job-id, "" for a snapshot no Flink job made
    std::int64_t added_data_files = 0;  // the summary's count
    std::int64_t added_records = 0;
    std::int64_t rows_first_visible = 0;  // rows a reader sees whose data file this snapshot added
};
BOOST_DESCRIBE_STRUCT(snapshot_entry, (),
                      (snapshot_id, timestamp_ms, operation, job_id, added_data_files, added_records,
                       rows_first_visible))

/// The settings in force, each from the component that holds it.
struct settings_in_force {
    std::string mode;                                    // Flink's checkpoint config
    std::int64_t interval_ms = 0;                        // Flink's checkpoint config
    std::int64_t writer_parallelism = 0;                 // the writer vertex in Flink's job plan
    std::string writer_vertex;                           // its description
    std::optional<std::int64_t> target_file_size_bytes;  // the table's property, from the catalog; none: not set
};
BOOST_DESCRIBE_STRUCT(settings_in_force, (),
                      (mode, interval_ms, writer_parallelism, writer_vertex, target_file_size_bytes))

struct cell_run {
    std::string cell;
    cell_role role = cell_role::grid;
    std::uint64_t repeat = 1;
    std::int64_t interval_ms = 0;              // requested
    std::int64_t parallelism = 0;              // requested
    std::optional<std::int64_t> target_bytes;  // requested
    settings_in_force in_force;
    std::string job_id;
    std::uint64_t events = 0;
    std::int64_t feed_started_ms = 0;       // epoch ms, first record handed to the producer
    std::int64_t feed_duration_ms = 0;      // first to last acknowledgement
    std::vector<snapshot_entry> snapshots;  // oldest first
    std::vector<file_entry> files;          // live files of the final snapshot
    freshness_histogram freshness;
    std::int64_t rows_unmapped = 0;  // rows whose data file the metadata does not list (expected 0)
    std::uint64_t rows = 0;
    std::uint64_t duplicate_rows = 0;
    std::vector<seq_range> missing_runs;
};
BOOST_DESCRIBE_STRUCT(cell_run, (),
                      (cell, role, repeat, interval_ms, parallelism, target_bytes, in_force, job_id, events,
                       feed_started_ms, feed_duration_ms, snapshots, files, freshness, rows_unmapped, rows,
                       duplicate_rows, missing_runs))

struct cell_analysis {
    std::int64_t commits_with_data = 0;          // snapshots by the job that added data files
    std::int64_t empty_commits = 0;              // snapshots by the job that added none
    std::vector<std::int64_t> files_per_commit;  // data files per commit with data, from $entries
    std::int64_t data_files = 0;
    stats::summary file_bytes;
    double mean_file_bytes = 0;
    stats::summary file_records;
    std::int64_t p50_ms = -1, p99_ms = -1;  // freshness, at most (histogram bucket upper edge)
};

inline cell_analysis analyze(const cell_run& r) {
    cell_analysis a;
    std::map<std::int64_t, std::int64_t> per_snapshot;
    std::vector<double> bytes, records;
    for (const auto& f : r.files) {
        if (f.content != 0) continue;
        ++per_snapshot[f.snapshot_id];
        bytes.push_back(static_cast<double>(f.bytes));
        records.push_back(static_cast<double>(f.records));
    }
    for (const auto& s : r.snapshots) {
        if (s.job_id.empty() || s.job_id != r.job_id) continue;
        const auto it = per_snapshot.find(s.snapshot_id);
        if (it == per_snapshot.end()) {
            ++a.empty_commits;
        } else {
            ++a.commits_with_data;
            a.files_per_commit.push_back(it->second);
        }
    }
    a.data_files = static_cast<std::int64_t>(bytes.size());
    if (!bytes.empty()) {
        a.file_bytes = stats::summarize(bytes);
        a.file_records = stats::summarize(records);
        double sum = 0;
        for (auto b : bytes) sum += b;
        a.mean_file_bytes = sum / static_cast<double>(bytes.size());
    }
    a.p50_ms = quantile_at_most(r.freshness, 0.50);
    a.p99_ms = quantile_at_most(r.freshness, 0.99);
    return a;
}

inline bool landed_once(const cell_run& r) {
    return r.rows == r.events && r.duplicate_rows == 0 && r.missing_runs.empty();
}

/// One line on a cell, for the progress log.
inline std::string describe(const cell_run& r) {
    const auto a = analyze(r);
    std::string fpc;
    for (auto n : a.files_per_commit) {
        if (!fpc.empty()) fpc += ',';
        fpc += std::to_string(n);
    }
    return std::to_string(a.commits_with_data) + " commits with data (" + std::to_string(a.empty_commits) +
           " empty), files per commit [" + fpc.substr(0, 60) + "], mean file " +
           std::to_string(static_cast<long long>(a.mean_file_bytes)) +
           " B, freshness p50 <= " + std::to_string(a.p50_ms) + " ms; " + std::to_string(r.rows) + " rows, " +
           std::to_string(r.duplicate_rows) + " duplicates, " + std::to_string(r.missing_runs.size()) + " missing runs";
}

/// The producer's acknowledgements: each seq's (epoch ms), and how long the
/// feed took from the first to the last of them (0 without any).
struct acknowledgements {
    std::map<long long, long long> at_ms;
    std::int64_t feed_duration_ms = 0;
};
/// From the producer's (seq, acknowledged at) pairs, in the order they came.
inline acknowledgements acknowledgements_of(const std::vector<std::pair<long long, long long>>& acked_at) {
    acknowledgements out;
    long long first = -1, last = -1;
    for (const auto& [seq, at] : acked_at) {
        out.at_ms[seq] = at;
        first = first < 0 ? at : std::min(first, at);
        last = std::max(last, at);
    }
    out.feed_duration_ms = last - first;
    return out;
}

/// Records the table's snapshots (as the catalog lists them), each with the
/// rows a reader sees whose data file it added, and every row's freshness:
/// `rows` holds (seq, adding snapshot, -1 when the metadata does not list its
/// file), `ack_ms` each seq's acknowledgement.
inline void record_snapshots(cell_run& run, std::vector<snapshot_entry> snapshots,
                             const std::vector<std::pair<long long, long long>>& rows,
                             const std::map<long long, long long>& ack_ms, std::int64_t bucket_ms) {
    std::map<long long, std::int64_t> first_visible;
    for (const auto& [seq, snap] : rows) ++first_visible[snap];
    std::map<long long, long long> commit_ms;
    for (auto& snap : snapshots) {
        commit_ms[snap.snapshot_id] = snap.timestamp_ms;
        snap.rows_first_visible = first_visible[snap.snapshot_id];
    }
    run.snapshots = std::move(snapshots);
    run.freshness = freshness_of(rows, commit_ms, ack_ms, bucket_ms, run.rows_unmapped);
}

inline std::string bytes_text(double b) { return report::with_thousands(static_cast<long long>(std::llround(b))); }

}  // namespace rosterrig::experiment

#endif
