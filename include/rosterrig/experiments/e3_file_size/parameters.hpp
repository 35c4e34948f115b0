// rosterrig/experiments/e3_file_size/parameters.hpp: the parameters (full and quick), the cells they draw, usage_problem, the pipelines and the fault plan
// (pipeline_of, reader_pipeline and fault_plan came after rules() in the old header; they need only
// the parameters and a cell, so they sit here.)

#ifndef ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_PARAMETERS_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/feed_parameters.hpp"
#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/commit_cell.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/generate/roster_event.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::e3 {

// A cell's record and its analysis are shared (experiment/commit_cell.hpp).
using experiment::acknowledgements;
using experiment::acknowledgements_of;
using experiment::analyze;
using experiment::bytes_text;
using experiment::cell_analysis;
using experiment::cell_role;
using experiment::cell_run;
using experiment::describe;
using experiment::landed_once;
using experiment::record_snapshots;
using experiment::seconds_text;
using experiment::settings_in_force;
using experiment::snapshot_entry;

using experiment::prediction_outcome;

struct parameters : experiment::feed_parameters {
    parameters() : feed_parameters{.seed = 3, .events = 60000, .providers = 20000, .partitions = 4} {}
    std::int64_t feed_ms = 200000;  // every cell's feed is paced to this duration
    std::vector<std::int64_t> intervals_ms{5000, 30000, 120000};
    std::vector<std::int64_t> parallelisms{1, 2, 4};
    std::int64_t baseline_interval_ms = 5000;  // the cell repeated, and the one the 1 GB target changes
    std::int64_t baseline_parallelism = 2;
    std::uint64_t baseline_repeats = 3;  // runs of the baseline cell in all (spread over the run)
    std::int64_t large_target_bytes = 1073741824;
    // The positive control: Iceberg's rolling writer checks the size every
    // 1,000 rows, so a 1 KiB target rolls a file at each check, and a subtask
    // needs several thousand rows per checkpoint for that to show.
    std::int64_t control_interval_ms = 30000;
    std::int64_t control_parallelism = 2;
    std::int64_t control_target_bytes = 1024;
    // Part B
    std::int64_t reader_short_interval_ms = 5000;
    std::int64_t reader_long_interval_ms = 120000;
    std::int64_t reader_parallelism = 2;
    std::uint64_t query_rounds = 9;  // timed rounds per phase, after one untimed warm-up
    std::int64_t freshness_bucket_ms = 100;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    // Repeats where one run cannot say: at the longest interval a 200 s feed
    // holds two or three checkpoints, and where the first falls decides the
    // commit count; the reader part's timings drift between phases. Absent: once.
    std::optional<std::uint64_t> longest_interval_repeats;  // every grid cell at the longest interval
    std::optional<std::uint64_t> reader_repeats;            // the whole reader part

    static parameters full() {
        parameters p;
        p.longest_interval_repeats = 3;
        p.reader_repeats = 3;
        return p;
    }
    /// For CI: two grid cells and the control, a short reader part.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 4000;
        p.providers = 1500;
        p.feed_ms = 15000;  // at 20 s the quick run took 156-164 s in CI; 15 s still holds a 10 s interval's commit
        p.intervals_ms = {2000, 10000};
        p.parallelisms = {1};
        p.baseline_interval_ms = 2000;
        p.baseline_parallelism = 1;
        p.baseline_repeats = 1;
        p.large_target_bytes = 0;  // no 1 GB cell
        p.control_interval_ms = 10000;
        p.control_parallelism = 1;
        p.reader_short_interval_ms = 2000;
        p.reader_long_interval_ms = 10000;
        p.reader_parallelism = 1;
        p.query_rounds = 3;
        return p;
    }
    double feed_rate() const { return static_cast<double>(events) * 1000.0 / static_cast<double>(feed_ms); }
};
BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters),
                      (feed_ms, intervals_ms, parallelisms, baseline_interval_ms, baseline_parallelism,
                       baseline_repeats, large_target_bytes, control_interval_ms, control_parallelism,
                       control_target_bytes, reader_short_interval_ms, reader_long_interval_ms, reader_parallelism,
                       query_rounds, freshness_bucket_ms, warehouse, longest_interval_repeats, reader_repeats))

struct cell {
    std::string name;  // "5s-p2", "5s-p2-1GB", "30s-p2-control", "5s-p2 #2"
    cell_role role = cell_role::grid;
    std::int64_t interval_ms = 0;
    std::int64_t parallelism = 0;
    std::optional<std::int64_t> target_bytes;  // write.target-file-size-bytes; none: Iceberg's default
    std::uint64_t repeat = 1;                  // >1 only for the baseline cell's repeats
};

inline std::string cell_name(std::int64_t interval_ms, std::int64_t parallelism) {
    return seconds_text(interval_ms) + "-p" + std::to_string(parallelism);
}

/// The cells in the order a run takes them: the baseline's repeats spread
/// over the run (first, middle, last), so drift shows in the spread.
inline std::vector<cell> cells(const parameters& p) {
    std::vector<cell> grid;
    for (auto i : p.intervals_ms)
        for (auto w : p.parallelisms) grid.push_back({cell_name(i, w), cell_role::grid, i, w, std::nullopt, 1});
    std::vector<cell> extra;
    if (p.large_target_bytes > 0)
        extra.push_back({cell_name(p.baseline_interval_ms, p.baseline_parallelism) + "-1GB", cell_role::large_target,
                         p.baseline_interval_ms, p.baseline_parallelism, p.large_target_bytes, 1});
    extra.push_back({cell_name(p.control_interval_ms, p.control_parallelism) + "-control", cell_role::control,
                     p.control_interval_ms, p.control_parallelism, p.control_target_bytes, 1});
    std::vector<cell> out = grid;
    out.insert(out.begin() + static_cast<long>(out.size() / 2), extra.begin(), extra.end());
    const auto base = cell_name(p.baseline_interval_ms, p.baseline_parallelism);
    for (std::uint64_t r = 2; r <= p.baseline_repeats; ++r) {
        cell c{base + " #" + std::to_string(r), cell_role::grid, p.baseline_interval_ms,
               p.baseline_parallelism,          std::nullopt,    r};
        const auto at = out.size() * (r - 1) / (p.baseline_repeats - 1);
        out.insert(out.begin() + static_cast<long>(at), c);
    }
    // The longest interval's repeats, before the baseline's last run so that
    // one still closes the run (a cell the baseline repeats already is not repeated twice).
    if (!p.intervals_ms.empty()) {
        const auto longest = *std::max_element(p.intervals_ms.begin(), p.intervals_ms.end());
        std::vector<cell> again;
        for (std::uint64_t r = 2; r <= p.longest_interval_repeats.value_or(1); ++r)
            for (auto w : p.parallelisms)
                if (cell_name(longest, w) != base)
                    again.push_back({cell_name(longest, w) + " #" + std::to_string(r), cell_role::grid, longest, w,
                                     std::nullopt, r});
        const auto at = p.baseline_repeats > 1 ? out.end() - 1 : out.end();
        out.insert(at, again.begin(), again.end());
    }
    return out;
}

/// Why these parameters cannot run (naming the flag), or nothing. `slots` is
/// what the TaskManagers offer: a job needs one slot per writer subtask.
inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t slots) {
    for (auto i : p.intervals_ms)
        if (i <= 0) return "--intervals: a checkpoint interval of " + std::to_string(i) + " ms cannot run";
    for (auto w : p.parallelisms) {
        if (w <= 0) return "--parallelisms: a parallelism of " + std::to_string(w) + " cannot run";
        if (w > slots)
            return "--parallelisms: " + std::to_string(w) + " writers need " + std::to_string(w) +
                   " task slots and the TaskManager has " + std::to_string(slots);
    }
    if (p.intervals_ms.empty()) return std::string("--intervals: no interval given");
    if (p.parallelisms.empty()) return std::string("--parallelisms: no parallelism given");
    if (p.longest_interval_repeats == 0 || p.reader_repeats == 0) return std::string("repeats: 0 repeats run nothing");
    if (2 * p.reader_parallelism > slots)
        return "the reader part runs two jobs of parallelism " + std::to_string(p.reader_parallelism) +
               " side by side and the TaskManager has " + std::to_string(slots) + " slots";
    return std::nullopt;
}

/// The pipeline a cell runs: an append table, exactly-once, Iceberg's FlinkSink.
inline experiment::pipeline_config pipeline_of(const parameters& p, const cell& c) {
    return {experiment::table_kind::append,
            experiment::checkpoint_mode::exactly_once,
            experiment::iceberg_sink::flink_sink,
            p.warehouse,
            experiment::startup_mode::earliest_offset,
            c.interval_ms,
            c.parallelism};
}
inline experiment::pipeline_config reader_pipeline(const parameters& p, std::int64_t interval_ms) {
    return {experiment::table_kind::upsert,
            experiment::checkpoint_mode::exactly_once,
            experiment::iceberg_sink::flink_sink,
            p.warehouse,
            experiment::startup_mode::earliest_offset,
            interval_ms,
            p.reader_parallelism};
}

/// No faults: the experiment measures a writer left alone.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    return plan;
}

}  // namespace rosterrig::e3

#endif
