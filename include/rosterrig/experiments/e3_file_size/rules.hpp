// rosterrig/experiments/e3_file_size/rules.hpp: the analysis (cells and reader tables found in the samples) and the verdict rules, rules()

#ifndef ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_RULES_HPP

#include "rosterrig/experiments/e3_file_size/samples.hpp"

namespace rosterrig::e3 {

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

/// Every run of the grid cell (interval, parallelism), its repeats included, in run order.
inline std::vector<const cell_run*> grid_runs(const samples& s, std::int64_t interval_ms, std::int64_t parallelism) {
    std::vector<const cell_run*> out;
    for (const auto& c : s.cells)
        if (c.role == cell_role::grid && c.interval_ms == interval_ms && c.parallelism == parallelism)
            out.push_back(&c);
    return out;
}

/// Median of the timed rounds of one query on one table in one phase (ms), or -1.
inline double median_ms(const reader_cost& rc, const std::string& phase, const std::string& table,
                        const std::string& query) {
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

// ---- verdict rules -------------------------------------------------------------

using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

inline rule_verdict every_cell_lands_once(const samples& s) {
    return experiment::for_each_of(
        s.cells, [](const cell_run& c) { return c.cell; },
        [](const cell_run& c) {
            return experiment::held_if(
                landed_once(c),
                {{"rows", c.rows},
                 {"events", c.events},
                 {"duplicate_rows", c.duplicate_rows},
                 {"missing_runs", c.missing_runs.size()}},
                "{rows} rows of {events}, {duplicate_rows} duplicates, {missing_runs} missing runs");
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
            if (a.commits_with_data == 0) return inconclusive({}, "no commit added data");
            return experiment::held_if(off == 0,
                                       {{"commits_off", off},
                                        {"commits_with_data", a.commits_with_data},
                                        {"writer_parallelism", c.in_force.writer_parallelism}},
                                       "{commits_off} of {commits_with_data} commits with data added other than "
                                       "{writer_parallelism} data files");
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
    if (!spread) return inconclusive({}, "fewer than two runs of the baseline cell: no repeat spread to judge against");
    if (p.intervals_ms.size() < 2) return inconclusive({}, "one interval only");
    const auto shortest = *std::min_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const auto longest = *std::max_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const double range = spread->max - spread->min;
    return experiment::for_each_of(
        p.parallelisms, [](std::int64_t w) { return "parallelism " + std::to_string(w); },
        [&](std::int64_t w) {
            // Every run at the longest interval is judged against the first at the shortest.
            const auto* a = grid_cell(s, shortest, w);
            const auto longest_runs = grid_runs(s, longest, w);
            if (!a || longest_runs.empty()) return inconclusive({}, "a cell did not run");
            const double lo = analyze(*a).mean_file_bytes;
            return experiment::for_each_of(
                longest_runs, [](const cell_run* b) { return b->cell; },
                [&](const cell_run* b) {
                    const double hi = analyze(*b).mean_file_bytes;
                    const double ratio = lo > 0 ? hi / lo : 0;
                    return experiment::held_if(
                        ratio >= 3 && hi - lo > 10 * range,
                        {{"mean_file_bytes_shortest", lo},
                         {"shortest_interval_s", static_cast<double>(shortest) / 1000},
                         {"mean_file_bytes_longest", hi},
                         {"longest_interval_s", static_cast<double>(longest) / 1000},
                         {"ratio", ratio},
                         {"repeat_spread_bytes", range}},
                        "mean file {mean_file_bytes_shortest:.0} B at {shortest_interval_s} s, "
                        "{mean_file_bytes_longest:.0} B at {longest_interval_s} s (x{ratio:.2}), repeat spread "
                        "{repeat_spread_bytes:.0} B");
                },
                "no run at the longest interval");
        },
        "no parallelism");
}

inline rule_verdict target_does_not_move_file_size(const samples& s, const parameters& p) {
    const auto spread = baseline_spread(s, p);
    if (!spread) return inconclusive({}, "fewer than two runs of the baseline cell: no repeat spread to judge against");
    const cell_run* large = nullptr;
    for (const auto& c : s.cells)
        if (c.role == cell_role::large_target) large = &c;
    if (!large) return inconclusive({}, "the large-target cell did not run");
    const double m = analyze(*large).mean_file_bytes;
    const double slack = 0.03 * spread->median;
    return experiment::held_if(
        m >= spread->min - slack && m <= spread->max + slack,
        {{"mean_file_bytes", m},
         {"baseline_min_bytes", spread->min},
         {"baseline_max_bytes", spread->max},
         {"allowed_min_bytes", spread->min - slack},
         {"allowed_max_bytes", spread->max + slack}},
        "mean file {mean_file_bytes:.0} B with the large target; the baseline's runs "
        "{baseline_min_bytes:.0} .. {baseline_max_bytes:.0} B, allowed {allowed_min_bytes:.0} .. "
        "{allowed_max_bytes:.0} B");
}

inline rule_verdict control_rolls_files(const samples& s) {
    std::vector<cell_run> controls;
    for (const auto& c : s.cells)
        if (c.role == cell_role::control) controls.push_back(c);
    return experiment::for_each_of(
        controls, [](const cell_run& c) { return c.cell; },
        [](const cell_run& c) {
            const auto a = analyze(c);
            if (a.files_per_commit.empty()) return inconclusive({}, "no commit added data");
            std::vector<double> xs(a.files_per_commit.begin(), a.files_per_commit.end());
            const auto m = stats::summarize(xs).median;
            experiment::facts f{{"median_files_per_commit", m},
                                {"writer_parallelism", c.in_force.writer_parallelism},
                                {"target_file_size_bytes", nullptr}};
            if (c.in_force.target_file_size_bytes) f["target_file_size_bytes"] = *c.in_force.target_file_size_bytes;
            return experiment::held_if(m > static_cast<double>(c.in_force.writer_parallelism), std::move(f),
                                       c.in_force.target_file_size_bytes
                                           ? "median {median_files_per_commit:.1} data files per commit with "
                                             "{writer_parallelism} writers, target {target_file_size_bytes} B in the "
                                             "catalog"
                                           : "median {median_files_per_commit:.1} data files per commit with "
                                             "{writer_parallelism} writers, target not set B in the catalog");
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
inline freshness_bound freshness_p50_bound(std::int64_t interval_ms, std::int64_t feed_duration_ms,
                                           std::int64_t bucket_ms) {
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
            if (a.p50_ms < 0) return inconclusive({}, "no freshness recorded");
            if (c.in_force.interval_ms <= 0) return inconclusive({}, "no checkpoint interval in force recorded");
            const double half = static_cast<double>(c.in_force.interval_ms) / 2;
            const auto bound = freshness_p50_bound(c.in_force.interval_ms, c.feed_duration_ms, c.freshness.bucket_ms);
            const double p50 = static_cast<double>(a.p50_ms);
            return experiment::held_if(
                p50 >= bound.low_ms && p50 <= bound.high_ms,
                {{"p50_s", p50 / 1000},
                 {"half_interval_s", half / 1000},
                 {"commit_allowance_s", commit_latency_allowance_ms / 1000},
                 {"low_s", bound.low_ms / 1000},
                 {"high_s", bound.high_ms / 1000},
                 {"outside_percent", 100 * bound.outside_fraction}},
                "p50 <= {p50_s:.1} s against half the interval {half_interval_s:.1} s (a wait of at most one interval "
                "plus {commit_allowance_s:.0} s to commit allows {low_s:.2} to {high_s:.2} s with "
                "{outside_percent:.0}% of the feed outside complete intervals)");
        },
        "no grid cell ran");
}

/// The reader part's timings count only on tables whose content is exact
/// and whose answers were right: a fast wrong answer is not a result.
inline std::optional<experiment::phrase> reader_unusable(const reader_cost& rc) {
    for (const auto& t : rc.tables)
        if (!t.exact)
            return experiment::phrase{{{"table", t.name}, {"phase", t.phase}},
                                      "table {table} ({phase}) does not hold the expected latest rows"};
    for (const auto& t : rc.timings)
        if (!t.answer_right)
            return experiment::phrase{{{"query", t.query}, {"table", t.table}}, "a {query} on {table} answered wrong"};
    return std::nullopt;
}

inline const char* const queries[] = {"count", "lookup"};

/// A reader rule judged on every run of the reader part ("reader run 2: ...").
template <class Decide>
rule_verdict each_reader_run(const samples& s, Decide&& decide) {
    const auto runs = reader_runs(s);
    std::size_t k = 0;
    return experiment::for_each_of(
        runs, [&](const reader_cost*) { return "reader run " + std::to_string(++k); },
        [&](const reader_cost* rc) {
            if (auto why = reader_unusable(*rc)) return inconclusive(*why);
            return decide(*rc);
        },
        "the reader part did not run");
}

inline rule_verdict upsert_short_reads_slower(const samples& s, const parameters& p) {
    const auto upsert = upsert_name(p.reader_short_interval_ms);
    return each_reader_run(s, [&](const reader_cost& rc) {
        return experiment::for_each_of(
            std::vector<std::string>(std::begin(queries), std::end(queries)), [](const std::string& q) { return q; },
            [&](const std::string& q) {
                const double u = median_ms(rc, "before", upsert, q), a = median_ms(rc, "before", append_name, q);
                if (u < 0 || a <= 0) return inconclusive({}, "no timed rounds");
                return experiment::held_if(
                    u >= 1.5 * a, {{"upsert_table", upsert}, {"upsert_ms", u}, {"append_ms", a}, {"ratio", u / a}},
                    "{upsert_table} {upsert_ms:.1} ms against append {append_ms:.1} ms (x{ratio:.2})");
            },
            "no query");
    });
}

inline rule_verdict optimize_removes_most_of_the_gap(const samples& s, const parameters& p) {
    const auto upsert = upsert_name(p.reader_short_interval_ms);
    return each_reader_run(s, [&](const reader_cost& rc) {
        if (!rc.optimize_errors.empty())
            return inconclusive({{"optimize_error", rc.optimize_errors.front()}}, "optimize failed: {optimize_error}");
        return experiment::for_each_of(
            std::vector<std::string>(std::begin(queries), std::end(queries)), [](const std::string& q) { return q; },
            [&](const std::string& q) {
                const double before = median_ms(rc, "before", upsert, q) - median_ms(rc, "before", append_name, q);
                const double after = median_ms(rc, "after", upsert, q) - median_ms(rc, "after", append_name, q);
                experiment::facts f{{"gap_before_ms", before}, {"gap_after_ms", after}};
                const std::string why =
                    "gap to append {gap_before_ms:.1} ms before optimize, {gap_after_ms:.1} ms after";
                if (before <= 0) return inconclusive(std::move(f), why + ": no gap to remove");
                return experiment::held_if(after <= 0.5 * before, std::move(f), why);
            },
            "no query");
    });
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    return {{"e3.every-cell-lands-once", [](const samples& s, const parameters&) { return every_cell_lands_once(s); }},
            {"e3.files-per-commit-equal-subtasks",
             [](const samples& s, const parameters&) { return files_per_commit_equal_subtasks(s); }},
            {"e3.interval-moves-file-size",
             [](const samples& s, const parameters& p) { return interval_moves_file_size(s, p); }},
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

}  // namespace rosterrig::e3

#endif
