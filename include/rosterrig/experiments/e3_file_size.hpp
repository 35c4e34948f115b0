// rosterrig/experiments/e3_file_size.hpp: experiment 3, what decides the size
// of the files a streaming writer produces and what small files and equality
// deletes cost a reader, as data: parameters (full and quick), the cells, the
// raw samples, the analysis, the verdict rules, the report section and plot.
//
// Part A (the dial): the same seeded feed, paced to the same duration, into an
// append table at each checkpoint interval x writer parallelism, plus a 1 GB
// target, a positive control whose target is small enough that the writer
// must roll files inside one checkpoint, and repeats of the baseline cell.
// Part B (the reader): the feed's latest row per NPI as an upsert table written
// at a short and a long interval and as an append table written once, each
// checked against the model, then timed through Trino, before and after
// Trino's optimize.
#ifndef ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_HPP
#define ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_HPP

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

struct parameters {
    std::uint64_t seed = 3;
    std::uint64_t events = 60000;
    std::uint64_t providers = 20000;
    std::uint32_t partitions = 4;
    std::int64_t feed_ms = 200000;  // every cell's feed is paced to this duration
    std::vector<std::int64_t> intervals_ms{5000, 30000, 120000};
    std::vector<std::int64_t> parallelisms{1, 2, 4};
    std::int64_t baseline_interval_ms = 5000;  // the cell repeated, and the one the 1 GB target changes
    std::int64_t baseline_parallelism = 2;
    std::uint64_t baseline_repeats = 3;        // runs of the baseline cell in all (spread over the run)
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
    std::uint64_t query_rounds = 9;            // timed rounds per phase, after one untimed warm-up
    std::int64_t freshness_bucket_ms = 100;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    bool quick = false;

    static parameters full() { return {}; }
    /// For CI: two grid cells and the control, a short reader part.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 4000;
        p.providers = 1500;
        p.feed_ms = 20000;
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
    roster_spec feed() const { return roster_feed(seed, events, providers, partitions); }
    double feed_rate() const { return static_cast<double>(events) * 1000.0 / static_cast<double>(feed_ms); }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, providers, partitions, feed_ms, intervals_ms, parallelisms, baseline_interval_ms,
                       baseline_parallelism, baseline_repeats, large_target_bytes, control_interval_ms,
                       control_parallelism, control_target_bytes, reader_short_interval_ms, reader_long_interval_ms,
                       reader_parallelism, query_rounds, freshness_bucket_ms, warehouse, quick))

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
        cell c{base + " #" + std::to_string(r), cell_role::grid, p.baseline_interval_ms, p.baseline_parallelism,
               std::nullopt, r};
        const auto at = out.size() * (r - 1) / (p.baseline_repeats - 1);
        out.insert(out.begin() + static_cast<long>(at), c);
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
    if (2 * p.reader_parallelism > slots)
        return "the reader part runs two jobs of parallelism " + std::to_string(p.reader_parallelism) + " side by side and the TaskManager has " +
               std::to_string(slots) + " slots";
    return std::nullopt;
}

// ---- samples -----------------------------------------------------------------

using experiment::file_entry;

/// One table of the reader part, its files and its content checked against the model.
struct reader_table {
    std::string name;       // upsert-5s, upsert-120s, append, and the upsert ones again after optimize
    std::string phase;      // before | after (optimize)
    experiment::table_kind kind = experiment::table_kind::upsert;
    std::int64_t interval_ms = 0;  // the writer's; 0 for the table written once
    std::int64_t data_files = 0, position_delete_files = 0, equality_delete_files = 0;
    std::int64_t data_bytes = 0, delete_bytes = 0;
    std::uint64_t rows = 0, rows_sharing_npi = 0, missing_npis = 0, stale_rows = 0, unexpected_rows = 0;
    bool exact = false;     // one row per NPI, each the latest: timings count only then
};
BOOST_DESCRIBE_STRUCT(reader_table, (),
                      (name, phase, kind, interval_ms, data_files, position_delete_files, equality_delete_files,
                       data_bytes, delete_bytes, rows, rows_sharing_npi, missing_npis, stale_rows, unexpected_rows,
                       exact))

struct query_timing {
    std::string phase;     // before | after
    std::uint64_t round = 0;  // 0: the untimed warm-up (recorded, not used)
    std::string table;
    std::string query;     // count | lookup
    double ms = 0;         // wall time at the client, submit to last page
    std::int64_t answer = 0;
    bool answer_right = false;
};
BOOST_DESCRIBE_STRUCT(query_timing, (), (phase, round, table, query, ms, answer, answer_right))

struct reader_cost {
    std::string lookup_npi;
    std::int64_t lookup_expected_seq = 0;
    std::int64_t expected_rows = 0;
    std::vector<reader_table> tables;
    std::vector<query_timing> timings;
    std::vector<std::string> optimize_errors;  // Trino's message per failed optimize, none when all ran
};
BOOST_DESCRIBE_STRUCT(reader_cost, (), (lookup_npi, lookup_expected_seq, expected_rows, tables, timings, optimize_errors))

struct samples {
    std::vector<cell_run> cells;
    std::optional<reader_cost> reader;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (cells, reader, predictions))

// ---- analysis ----------------------------------------------------------------

inline const cell_run* find_cell(const samples& s, const std::string& name) {
    for (const auto& c : s.cells)
        if (c.cell == name) return &c;
    return nullptr;
}

/// The baseline cell's runs (the grid cell and its repeats).
inline std::vector<const cell_run*> baseline_runs(const samples& s, const parameters& p) {
    std::vector<const cell_run*> out;
    for (const auto& c : s.cells)
        if (c.role == cell_role::grid && c.interval_ms == p.baseline_interval_ms &&
            c.parallelism == p.baseline_parallelism)
            out.push_back(&c);
    return out;
}

/// The first run of the grid cell (interval, parallelism): the one the grid shows.
inline const cell_run* grid_cell(const samples& s, std::int64_t interval_ms, std::int64_t parallelism) {
    for (const auto& c : s.cells)
        if (c.role == cell_role::grid && c.interval_ms == interval_ms && c.parallelism == parallelism && c.repeat == 1)
            return &c;
    return nullptr;
}

/// Median of the timed rounds of one query on one table in one phase (ms), or -1.
inline double median_ms(const reader_cost& rc, const std::string& phase, const std::string& table, const std::string& query) {
    std::vector<double> xs;
    for (const auto& t : rc.timings)
        if (t.phase == phase && t.table == table && t.query == query && t.round > 0) xs.push_back(t.ms);
    return xs.empty() ? -1 : stats::summarize(xs).median;
}

inline const reader_table* find_table(const reader_cost& rc, const std::string& phase, const std::string& name) {
    for (const auto& t : rc.tables)
        if (t.phase == phase && t.name == name) return &t;
    return nullptr;
}

/// The reader part's table names.
inline std::string upsert_name(std::int64_t interval_ms) { return "upsert-" + seconds_text(interval_ms); }
inline const char* append_name = "append";

/// What the reader part asks and expects: the NPI a point lookup asks for
/// (the one with the most assertions, where equality deletes pile up; ties:
/// the smallest), its latest seq, and the rows a count must find (one per NPI).
inline void choose_lookup(reader_cost& rc, const std::vector<roster_event>& events) {
    std::map<std::uint64_t, std::pair<std::size_t, std::uint64_t>> per_npi;  // npi -> (assertions, latest seq)
    for (const auto& e : events) {
        auto& x = per_npi[e.npi];
        ++x.first;
        x.second = std::max<std::uint64_t>(x.second, e.seq);
    }
    const auto busiest = std::max_element(per_npi.begin(), per_npi.end(),
                                          [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
    if (busiest == per_npi.end()) return;
    rc.lookup_npi = std::to_string(busiest->first);
    rc.lookup_expected_seq = static_cast<std::int64_t>(busiest->second.second);
    rc.expected_rows = static_cast<std::int64_t>(per_npi.size());
}

/// A reader table's files, tallied by content kind.
inline void tally_files(reader_table& t, const std::vector<file_entry>& files) {
    for (const auto& f : files) {
        if (f.content == 0) ++t.data_files, t.data_bytes += f.bytes;
        else (f.content == 1 ? t.position_delete_files : t.equality_delete_files)++, t.delete_bytes += f.bytes;
    }
}

/// The SQL of one timed query (count | lookup) on table `from`.
inline std::string query_sql(const std::string& query, const std::string& from, const reader_cost& rc) {
    return query == "count" ? "SELECT count(*) FROM " + from
                            : "SELECT seq FROM " + from + " WHERE npi = '" + rc.lookup_npi + "'";
}

/// Whether a query's answer (rows returned, the first value) is the model's.
inline bool answer_right(const std::string& query, std::size_t rows, std::int64_t answer, const reader_cost& rc) {
    return query == "count" ? answer == rc.expected_rows : rows == 1 && answer == rc.lookup_expected_seq;
}

// ---- a cell's record, from what the stack reported --------------------------------

/// The progress log's name for a cell.
inline std::string label_of(const cell& c) { return "e3[" + c.name + "]"; }

/// A cell's record before it runs: what the cell asks for and the feed's size.
inline cell_run planned_run(const parameters& p, const cell& c) {
    cell_run run;
    run.cell = c.name, run.role = c.role, run.repeat = c.repeat, run.interval_ms = c.interval_ms,
    run.parallelism = c.parallelism, run.target_bytes = c.target_bytes, run.events = p.events;
    return run;
}

/// The settings in force: mode and interval as the writer reports them
/// (Flink's checkpoint config), the writer vertex's parallelism and
/// description from the job plan, and the target file size from the table's
/// properties in the catalog (none: not set).
inline settings_in_force settings_from(const experiment::writer_settings& writer,
                                       const std::pair<long long, std::string>& writer_vertex,
                                       const std::map<std::string, std::string>& table_properties) {
    settings_in_force in;
    in.mode = writer.mode;
    in.interval_ms = writer.interval_ms;
    std::tie(in.writer_parallelism, in.writer_vertex) = writer_vertex;
    if (auto it = table_properties.find("write.target-file-size-bytes"); it != table_properties.end())
        in.target_file_size_bytes = std::stoll(it->second);
    return in;
}

/// The settings in force as the stack reported them, for the progress log.
inline std::string settings_text(const cell_run& r) {
    const auto& in = r.in_force;
    return "job " + r.job_id + " runs " + in.mode + " every " + std::to_string(in.interval_ms) + " ms with " +
           std::to_string(in.writer_parallelism) + " writers; target " +
           (in.target_file_size_bytes ? std::to_string(*in.target_file_size_bytes) + " B" : std::string("not set"));
}

// ---- verdict rules -------------------------------------------------------------

using experiment::rule_verdict;
using experiment::held;
using experiment::inconclusive;
using experiment::refuted;

inline rule_verdict every_cell_lands_once(const samples& s) {
    return experiment::for_each_of(
        s.cells, [](const cell_run& c) { return c.cell; },
        [](const cell_run& c) {
            const std::string why = std::to_string(c.rows) + " rows of " + std::to_string(c.events) + ", " +
                                    std::to_string(c.duplicate_rows) + " duplicates, " +
                                    std::to_string(c.missing_runs.size()) + " missing runs";
            return landed_once(c) ? held(why) : refuted(why);
        },
        "no cell ran");
}

inline rule_verdict files_per_commit_equal_subtasks(const samples& s) {
    std::vector<cell_run> judged;
    for (const auto& c : s.cells)
        if (c.role != cell_role::control) judged.push_back(c);
    return experiment::for_each_of(
        judged, [](const cell_run& c) { return c.cell; },
        [](const cell_run& c) {
            const auto a = analyze(c);
            std::int64_t off = 0;
            for (auto n : a.files_per_commit)
                if (n != c.in_force.writer_parallelism) ++off;
            const std::string why = std::to_string(off) + " of " + std::to_string(a.commits_with_data) +
                                    " commits with data added other than " +
                                    std::to_string(c.in_force.writer_parallelism) + " data files";
            if (a.commits_with_data == 0) return inconclusive("no commit added data");
            return off == 0 ? held(why) : refuted(why);
        },
        "no cell other than the control ran");
}

/// The spread of the baseline's repeats: max - min of their mean file bytes.
inline std::optional<stats::summary> baseline_spread(const samples& s, const parameters& p) {
    std::vector<double> means;
    for (const auto* c : baseline_runs(s, p)) means.push_back(analyze(*c).mean_file_bytes);
    if (means.size() < 2) return std::nullopt;
    return stats::summarize(means);
}

inline rule_verdict interval_moves_file_size(const samples& s, const parameters& p) {
    const auto spread = baseline_spread(s, p);
    if (!spread) return inconclusive("fewer than two runs of the baseline cell: no repeat spread to judge against");
    if (p.intervals_ms.size() < 2) return inconclusive("one interval only");
    const auto shortest = *std::min_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const auto longest = *std::max_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const double range = spread->max - spread->min;
    return experiment::for_each_of(
        p.parallelisms, [](std::int64_t w) { return "parallelism " + std::to_string(w); },
        [&](std::int64_t w) {
            const auto* a = grid_cell(s, shortest, w);
            const auto* b = grid_cell(s, longest, w);
            if (!a || !b) return inconclusive("a cell did not run");
            const double lo = analyze(*a).mean_file_bytes, hi = analyze(*b).mean_file_bytes;
            const double ratio = lo > 0 ? hi / lo : 0;
            const std::string why = "mean file " + report::fixed(lo, 0) + " B at " + seconds_text(shortest) + ", " +
                                    report::fixed(hi, 0) + " B at " + seconds_text(longest) + " (x" +
                                    report::fixed(ratio, 2) + "), repeat spread " + report::fixed(range, 0) + " B";
            return ratio >= 3 && hi - lo > 10 * range ? held(why) : refuted(why);
        },
        "no parallelism");
}

inline rule_verdict target_does_not_move_file_size(const samples& s, const parameters& p) {
    const auto spread = baseline_spread(s, p);
    if (!spread) return inconclusive("fewer than two runs of the baseline cell: no repeat spread to judge against");
    const cell_run* large = nullptr;
    for (const auto& c : s.cells)
        if (c.role == cell_role::large_target) large = &c;
    if (!large) return inconclusive("the large-target cell did not run");
    const double m = analyze(*large).mean_file_bytes;
    const double slack = 0.03 * spread->median;
    const std::string why = "mean file " + report::fixed(m, 0) + " B with the large target; the baseline's runs " +
                            report::fixed(spread->min, 0) + " .. " + report::fixed(spread->max, 0) +
                            " B, allowed " + report::fixed(spread->min - slack, 0) + " .. " +
                            report::fixed(spread->max + slack, 0) + " B";
    return m >= spread->min - slack && m <= spread->max + slack ? held(why) : refuted(why);
}

inline rule_verdict control_rolls_files(const samples& s) {
    std::vector<cell_run> controls;
    for (const auto& c : s.cells)
        if (c.role == cell_role::control) controls.push_back(c);
    return experiment::for_each_of(
        controls, [](const cell_run& c) { return c.cell; },
        [](const cell_run& c) {
            const auto a = analyze(c);
            if (a.files_per_commit.empty()) return inconclusive("no commit added data");
            std::vector<double> xs(a.files_per_commit.begin(), a.files_per_commit.end());
            const auto m = stats::summarize(xs).median;
            const std::string why = "median " + report::fixed(m, 1) + " data files per commit with " +
                                    std::to_string(c.in_force.writer_parallelism) + " writers, target " +
                                    (c.in_force.target_file_size_bytes ? std::to_string(*c.in_force.target_file_size_bytes)
                                                                       : std::string("not set")) + " B in the catalog";
            return m > static_cast<double>(c.in_force.writer_parallelism) ? held(why) : refuted(why);
        },
        "the control did not run");
}

/// Where a cell's freshness p50 can lie, derived from what a record's wait can
/// be. A record acknowledged at time t waits for the next checkpoint barrier
/// (at most one interval I away) and then for that checkpoint's commit (the
/// commit latency c, barrier to snapshot, at most `commit_latency_allowance_ms`):
/// its wait is phase + c with phase in [0, I). Over a complete interval of a
/// steady feed the phase is uniform, so those records' median phase is I/2.
/// The feed spans D ms; the checkpoint grid, at an unknown offset, fits at
/// least k = floor(D/I) - 1 complete intervals into it, and the records outside
/// them are a fraction f <= (D - k·I)/D. Those can sit anywhere in [0, I), so
/// they move the median phase by at most delta = I·f / (2·(1 - f)) either way
/// (all of them at 0, or all at I). The p50 is read as the upper edge of its
/// histogram bucket (one bucket width w above the true value at most), so
///     I/2 - delta  <=  p50  <=  I/2 + delta + c_max + w.
/// From f = 1/2 on (a feed of under about three intervals) delta reaches I/2
/// and the only bound left is the wait's own: [0, I + c_max + w]. c_max is an
/// allowance, not a measurement: the shipped cells' slowest record waited at
/// most 0.96 s beyond its interval.
struct freshness_bound {
    double low_ms = 0, high_ms = 0;
    double outside_fraction = 1;  // f
};
inline constexpr double commit_latency_allowance_ms = 2000;
inline freshness_bound freshness_p50_bound(std::int64_t interval_ms, std::int64_t feed_duration_ms, std::int64_t bucket_ms) {
    const double i = static_cast<double>(interval_ms), d = static_cast<double>(feed_duration_ms);
    const double complete = d > 0 ? std::max(0.0, std::floor(d / i) - 1) : 0;
    const double f = d > 0 ? std::min(1.0, (d - complete * i) / d) : 1.0;
    const double delta = f >= 1 ? i / 2 : std::min(i / 2, i * f / (2 * (1 - f)));
    return {i / 2 - delta, i / 2 + delta + commit_latency_allowance_ms + static_cast<double>(bucket_ms), f};
}

inline rule_verdict freshness_tracks_half_interval(const samples& s) {
    std::vector<cell_run> judged;
    for (const auto& c : s.cells)
        if (c.role == cell_role::grid) judged.push_back(c);
    return experiment::for_each_of(
        judged, [](const cell_run& c) { return c.cell; },
        [](const cell_run& c) {
            const auto a = analyze(c);
            if (a.p50_ms < 0) return inconclusive("no freshness recorded");
            if (c.in_force.interval_ms <= 0) return inconclusive("no checkpoint interval in force recorded");
            const double half = static_cast<double>(c.in_force.interval_ms) / 2;
            const auto bound = freshness_p50_bound(c.in_force.interval_ms, c.feed_duration_ms, c.freshness.bucket_ms);
            const double p50 = static_cast<double>(a.p50_ms);
            const std::string why = "p50 <= " + report::fixed(p50 / 1000, 1) + " s against half the interval " +
                                    report::fixed(half / 1000, 1) + " s (a wait of at most one interval plus " +
                                    report::fixed(commit_latency_allowance_ms / 1000, 0) + " s to commit allows " +
                                    report::fixed(bound.low_ms / 1000, 2) + " to " + report::fixed(bound.high_ms / 1000, 2) +
                                    " s with " + report::fixed(100 * bound.outside_fraction, 0) +
                                    "% of the feed outside complete intervals)";
            return p50 >= bound.low_ms && p50 <= bound.high_ms ? held(why) : refuted(why);
        },
        "no grid cell ran");
}

/// The reader part's timings count only on tables whose content is exact
/// and whose answers were right: a fast wrong answer is not a result.
inline std::optional<std::string> reader_unusable(const reader_cost& rc) {
    for (const auto& t : rc.tables)
        if (!t.exact) return "table " + t.name + " (" + t.phase + ") does not hold the expected latest rows";
    for (const auto& t : rc.timings)
        if (!t.answer_right) return "a " + t.query + " on " + t.table + " answered wrong";
    return std::nullopt;
}

inline const char* const queries[] = {"count", "lookup"};

inline rule_verdict upsert_short_reads_slower(const samples& s, const parameters& p) {
    if (!s.reader) return inconclusive("the reader part did not run");
    if (auto why = reader_unusable(*s.reader)) return inconclusive(*why);
    const auto upsert = upsert_name(p.reader_short_interval_ms);
    return experiment::for_each_of(
        std::vector<std::string>(std::begin(queries), std::end(queries)), [](const std::string& q) { return q; },
        [&](const std::string& q) {
            const double u = median_ms(*s.reader, "before", upsert, q), a = median_ms(*s.reader, "before", append_name, q);
            if (u < 0 || a <= 0) return inconclusive("no timed rounds");
            const std::string why = upsert + " " + report::fixed(u, 1) + " ms against append " + report::fixed(a, 1) +
                                    " ms (x" + report::fixed(u / a, 2) + ")";
            return u >= 1.5 * a ? held(why) : refuted(why);
        },
        "no query");
}

inline rule_verdict optimize_removes_most_of_the_gap(const samples& s, const parameters& p) {
    if (!s.reader) return inconclusive("the reader part did not run");
    if (auto why = reader_unusable(*s.reader)) return inconclusive(*why);
    if (!s.reader->optimize_errors.empty()) return inconclusive("optimize failed: " + s.reader->optimize_errors.front());
    const auto upsert = upsert_name(p.reader_short_interval_ms);
    return experiment::for_each_of(
        std::vector<std::string>(std::begin(queries), std::end(queries)), [](const std::string& q) { return q; },
        [&](const std::string& q) {
            const double before = median_ms(*s.reader, "before", upsert, q) - median_ms(*s.reader, "before", append_name, q);
            const double after = median_ms(*s.reader, "after", upsert, q) - median_ms(*s.reader, "after", append_name, q);
            const std::string why = "gap to append " + report::fixed(before, 1) + " ms before optimize, " +
                                    report::fixed(after, 1) + " ms after";
            if (before <= 0) return inconclusive(why + ": no gap to remove");
            return after <= 0.5 * before ? held(why) : refuted(why);
        },
        "no query");
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    return {{"e3.every-cell-lands-once", [](const samples& s, const parameters&) { return every_cell_lands_once(s); }},
            {"e3.files-per-commit-equal-subtasks",
             [](const samples& s, const parameters&) { return files_per_commit_equal_subtasks(s); }},
            {"e3.interval-moves-file-size", [](const samples& s, const parameters& p) { return interval_moves_file_size(s, p); }},
            {"e3.target-does-not-move-file-size",
             [](const samples& s, const parameters& p) { return target_does_not_move_file_size(s, p); }},
            {"e3.control-rolls-files", [](const samples& s, const parameters&) { return control_rolls_files(s); }},
            {"e3.freshness-p50-tracks-half-interval",
             [](const samples& s, const parameters&) { return freshness_tracks_half_interval(s); }},
            {"e3.upsert-short-interval-reads-slower",
             [](const samples& s, const parameters& p) { return upsert_short_reads_slower(s, p); }},
            {"e3.optimize-removes-most-of-the-gap",
             [](const samples& s, const parameters& p) { return optimize_removes_most_of_the_gap(s, p); }}};
}

/// The pipeline a cell runs: an append table, exactly-once, Iceberg's FlinkSink.
inline experiment::pipeline_config pipeline_of(const parameters& p, const cell& c) {
    return {experiment::table_kind::append, experiment::checkpoint_mode::exactly_once, experiment::iceberg_sink::flink_sink,
            p.warehouse, experiment::startup_mode::earliest_offset, c.interval_ms, c.parallelism};
}
inline experiment::pipeline_config reader_pipeline(const parameters& p, std::int64_t interval_ms) {
    return {experiment::table_kind::upsert, experiment::checkpoint_mode::exactly_once, experiment::iceberg_sink::flink_sink,
            p.warehouse, experiment::startup_mode::earliest_offset, interval_ms, p.reader_parallelism};
}

/// No faults: the experiment measures a writer left alone.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    return plan;
}

// ---- report --------------------------------------------------------------------

inline std::string part_a_table(const samples& s) {
    using report::fixed;
    report::markdown_table t{{"Cell", "Interval (Flink)", "Writers (job plan)", "Target (catalog)", "Feed (first to last ack)",
                              "Commits with data (empty)", "Data files", "Files per commit min / median / max",
                              "Data-file bytes min / median / max", "Mean data-file bytes", "Records per file min / median / max",
                              "Freshness p50 / p99 / max", "Rows, duplicates, missing runs"}};
    for (const auto& c : s.cells) {
        const auto a = analyze(c);
        std::vector<double> fpc(a.files_per_commit.begin(), a.files_per_commit.end());
        const auto f = fpc.empty() ? stats::summary{} : stats::summarize(fpc);
        auto sec = [](std::int64_t ms) { return fixed(static_cast<double>(ms) / 1000.0, 1); };
        t.row({c.cell, seconds_text(c.in_force.interval_ms), std::to_string(c.in_force.writer_parallelism),
               c.in_force.target_file_size_bytes ? bytes_text(static_cast<double>(*c.in_force.target_file_size_bytes)) + " B"
                                                 : std::string("not set (Iceberg's default)"),
               sec(c.feed_duration_ms) + " s",
               std::to_string(a.commits_with_data) + " (" + std::to_string(a.empty_commits) + ")",
               std::to_string(a.data_files),
               fixed(f.min, 0) + " / " + fixed(f.median, 1) + " / " + fixed(f.max, 0),
               bytes_text(a.file_bytes.min) + " / " + bytes_text(a.file_bytes.median) + " / " + bytes_text(a.file_bytes.max),
               bytes_text(a.mean_file_bytes),
               bytes_text(a.file_records.min) + " / " + bytes_text(a.file_records.median) + " / " + bytes_text(a.file_records.max),
               "≤ " + sec(a.p50_ms) + " / ≤ " + sec(a.p99_ms) + " / " + sec(c.freshness.max_ms) + " s",
               report::with_thousands(static_cast<long long>(c.rows)) + ", " + std::to_string(c.duplicate_rows) + ", " +
                   std::to_string(c.missing_runs.size())});
    }
    return t.render();
}

inline std::string part_b_table(const reader_cost& rc) {
    using report::fixed;
    report::markdown_table t{{"Phase", "Table", "Data files", "Equality-delete files", "Position-delete files",
                              "Data / delete bytes", "Content (rows; sharing, missing, stale)",
                              "count(*) median (min–max) ms", "vs append", "Point lookup median (min–max) ms", "vs append"}};
    auto timing = [&](const reader_table& tb, const std::string& q) {
        std::vector<double> xs;
        for (const auto& x : rc.timings)
            if (x.phase == tb.phase && x.table == tb.name && x.query == q && x.round > 0) xs.push_back(x.ms);
        if (xs.empty()) return std::make_pair(std::string("not timed"), std::string("n/a"));
        const auto m = stats::summarize(xs);
        const double base = median_ms(rc, tb.phase, append_name, q);
        return std::make_pair(fixed(m.median, 1) + " (" + fixed(m.min, 1) + "–" + fixed(m.max, 1) + ")",
                              base > 0 ? "×" + fixed(m.median / base, 2) : std::string("n/a"));
    };
    for (const auto& tb : rc.tables) {
        const auto c = timing(tb, "count"), l = timing(tb, "lookup");
        t.row({tb.phase == "before" ? "as written" : "after optimize", tb.name, std::to_string(tb.data_files),
               std::to_string(tb.equality_delete_files), std::to_string(tb.position_delete_files),
               bytes_text(static_cast<double>(tb.data_bytes)) + " / " + bytes_text(static_cast<double>(tb.delete_bytes)),
               std::string(tb.exact ? "exact: " : "WRONG: ") + report::with_thousands(static_cast<long long>(tb.rows)) + "; " +
                   std::to_string(tb.rows_sharing_npi) + ", " + std::to_string(tb.missing_npis) + ", " +
                   std::to_string(tb.stale_rows),
               c.first, c.second, l.first, l.second});
    }
    return t.render();
}

/// The findings in words, every figure computed from the samples.
inline std::string findings(const samples& s, const parameters& p) {
    using report::fixed;
    std::string o;
    const auto shortest = *std::min_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const auto longest = *std::max_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const auto* a = grid_cell(s, shortest, p.baseline_parallelism);
    const auto* b = grid_cell(s, longest, p.baseline_parallelism);
    if (a && b && shortest != longest) {
        const auto aa = analyze(*a), bb = analyze(*b);
        o += "From " + seconds_text(shortest) + " to " + seconds_text(longest) + " at " +
             std::to_string(p.baseline_parallelism) + " writers the mean data file grew ×" +
             fixed(bb.mean_file_bytes / aa.mean_file_bytes, 1) + " (" + bytes_text(aa.mean_file_bytes) + " → " +
             bytes_text(bb.mean_file_bytes) + " B) and the median record's wait grew from at most " +
             fixed(static_cast<double>(aa.p50_ms) / 1000, 1) + " s to at most " + fixed(static_cast<double>(bb.p50_ms) / 1000, 1) + " s. ";
    }
    if (const auto spread = baseline_spread(s, p)) {
        o += "The baseline cell's " + std::to_string(baseline_runs(s, p).size()) + " runs spread " +
             bytes_text(spread->max - spread->min) + " B in mean file size (" +
             fixed(100 * (spread->max - spread->min) / spread->median, 2) + " % of their median)";
        for (const auto& c : s.cells)
            if (c.role == cell_role::large_target) {
                const double m = analyze(c).mean_file_bytes;
                o += "; the 1 GB target moved it " + fixed(100 * (m - spread->median) / spread->median, 2) +
                     " % from that median, and its largest file was " + bytes_text(analyze(c).file_bytes.max) + " B";
            }
        o += ". ";
    }
    for (const auto& c : s.cells)
        if (c.role == cell_role::control) {
            const auto a = analyze(c);
            std::vector<double> xs(a.files_per_commit.begin(), a.files_per_commit.end());
            if (xs.empty()) continue;
            o += "With a " + bytes_text(static_cast<double>(c.target_bytes.value_or(0))) +
                 " B target the control's writers rolled files inside a checkpoint: a median of " +
                 fixed(stats::summarize(xs).median, 1) + " data files per commit from " +
                 std::to_string(c.in_force.writer_parallelism) + " writers: the property does reach the writer. ";
        }
    return o.empty() ? o : o + "\n\n";
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    std::string o = "**Part A, the dial.** One seeded feed of " + report::with_thousands(static_cast<long long>(p.events)) +
                    " events (" + report::with_thousands(static_cast<long long>(p.providers)) + " providers, " +
                    std::to_string(p.partitions) + " partitions), paced to " + report::fixed(static_cast<double>(p.feed_ms) / 1000, 0) +
                    " s in every cell, into an append table (exactly-once, Iceberg's FlinkSink)" +
                    (p.quick ? ", **quick run**" : "") +
                    ". Interval and mode from Flink's checkpoint config, writers from the job plan's writer vertex, the "
                    "target from the table's properties in the catalog. Files, records and bytes from Iceberg's `$entries` "
                    "metadata table; commits from the catalog's snapshots stamped with the job's id. A record's freshness "
                    "runs from the producer's acknowledgement to the commit timestamp of the snapshot that added the data "
                    "file Trino reads it from (row → `$path` → `$entries`' adding snapshot); quantiles are upper edges of " +
                    std::to_string(p.freshness_bucket_ms) + " ms buckets, the maximum is exact.\n\n" + part_a_table(s) +
                    "\n![mean data-file bytes and freshness p50 against the checkpoint interval, one line per writer "
                    "parallelism](docs/e3_dial.svg)\n\n";
    if (s.reader) {
        const auto& rc = *s.reader;
        o += "**Part B, what a reader pays.** The feed's latest row per NPI (" +
             report::with_thousands(rc.expected_rows) + " rows) as an upsert table written at " +
             seconds_text(p.reader_short_interval_ms) + " and at " + seconds_text(p.reader_long_interval_ms) +
             " (two jobs on one topic), and as an append table written once (`CREATE TABLE AS` from the first, after its "
             "content checked exact); then both upsert tables after Trino's `ALTER TABLE … EXECUTE optimize`. Every table "
             "is checked against the model before it is timed. Each round runs `count(*)` and a lookup of NPI " +
             rc.lookup_npi + " on every table in turn, through one Trino client, one untimed warm-up round then " +
             std::to_string(p.query_rounds) +
             " timed; times are wall time at the client, medians with the range, ratios to the append table measured in "
             "the same phase.\n\n" + part_b_table(rc);
        for (const auto& e : rc.optimize_errors) o += "\nOptimize failed: " + e + "\n";
        o += "\n";
    }
    return o + findings(s, p) + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// Mean data-file bytes (solid, left) and freshness p50 (dashed, right)
/// against the interval, one pair of lines per writer parallelism.
inline std::string dial_svg(const samples& s, const parameters& p) {
    report::line_plot plot;
    plot.title = "File size and freshness are one dial";
    plot.x_label = "checkpoint interval (s)";
    plot.y_label = "mean data-file bytes (solid)";
    plot.y2_label = "freshness p50, s (dashed)";
    for (auto w : p.parallelisms) {
        report::series bytes{std::to_string(w) + " writers: bytes", {}, report::axis::left, false};
        report::series fresh{std::to_string(w) + " writers: p50", {}, report::axis::right, true};
        for (auto i : p.intervals_ms) {
            const auto* c = grid_cell(s, i, w);
            if (!c) continue;
            const auto a = analyze(*c);
            const double x = static_cast<double>(i) / 1000.0;
            bytes.points.push_back({x, a.mean_file_bytes});
            fresh.points.push_back({x, static_cast<double>(a.p50_ms) / 1000.0});
        }
        plot.add_series(std::move(bytes));
        plot.add_series(std::move(fresh));
    }
    return plot.render();
}

/// Experiment 3 as the runner, the report and the claim tests see it.
struct definition {
    using parameters = e3::parameters;
    using samples = e3::samples;
    static constexpr const char* id = "e3_file_size";
    static constexpr const char* tag = "e3";
    static constexpr const char* predictions_file = "predictions/e3_file_size.json";
    static constexpr const char* results_file = "results/e3_file_size.json";
    static constexpr experiment::hooks<parameters> hooks{
        // Cells and the reader part are independent: a stopped run continues.
        .resumable = true,
        .warehouse = &parameters::warehouse,
        .problems = &experiment::slot_problems<parameters, &e3::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e3::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e3::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e3::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters& p) {
        return {{"docs/e3_dial.svg", dial_svg(s, p)}};
    }
};

}  // namespace rosterrig::e3

#endif
