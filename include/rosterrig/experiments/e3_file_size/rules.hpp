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
            // Every run at the longest interval is judged against the first at the shortest.
            const auto* a = grid_cell(s, shortest, w);
            const auto longest_runs = grid_runs(s, longest, w);
            if (!a || longest_runs.empty()) return inconclusive("a cell did not run");
            const double lo = analyze(*a).mean_file_bytes;
            return experiment::for_each_of(
                longest_runs, [](const cell_run* b) { return b->cell; },
                [&](const cell_run* b) {
                    const double hi = analyze(*b).mean_file_bytes;
                    const double ratio = lo > 0 ? hi / lo : 0;
                    const std::string why = "mean file " + report::fixed(lo, 0) + " B at " + seconds_text(shortest) +
                                            ", " + report::fixed(hi, 0) + " B at " + seconds_text(longest) + " (x" +
                                            report::fixed(ratio, 2) + "), repeat spread " + report::fixed(range, 0) +
                                            " B";
                    return ratio >= 3 && hi - lo > 10 * range ? held(why) : refuted(why);
                },
                "no run at the longest interval");
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
                            report::fixed(spread->min, 0) + " .. " + report::fixed(spread->max, 0) + " B, allowed " +
                            report::fixed(spread->min - slack, 0) + " .. " + report::fixed(spread->max + slack, 0) +
                            " B";
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
            const std::string why =
                "median " + report::fixed(m, 1) + " data files per commit with " +
                std::to_string(c.in_force.writer_parallelism) + " writers, target " +
                (c.in_force.target_file_size_bytes ? std::to_string(*c.in_force.target_file_size_bytes)
                                                   : std::string("not set")) +
                " B in the catalog";
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
            if (a.p50_ms < 0) return inconclusive("no freshness recorded");
            if (c.in_force.interval_ms <= 0) return inconclusive("no checkpoint interval in force recorded");
            const double half = static_cast<double>(c.in_force.interval_ms) / 2;
            const auto bound = freshness_p50_bound(c.in_force.interval_ms, c.feed_duration_ms, c.freshness.bucket_ms);
            const double p50 = static_cast<double>(a.p50_ms);
            const std::string why =
                "p50 <= " + report::fixed(p50 / 1000, 1) + " s against half the interval " +
                report::fixed(half / 1000, 1) + " s (a wait of at most one interval plus " +
                report::fixed(commit_latency_allowance_ms / 1000, 0) + " s to commit allows " +
                report::fixed(bound.low_ms / 1000, 2) + " to " + report::fixed(bound.high_ms / 1000, 2) + " s with " +
                report::fixed(100 * bound.outside_fraction, 0) + "% of the feed outside complete intervals)";
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
                if (u < 0 || a <= 0) return inconclusive("no timed rounds");
                const std::string why = upsert + " " + report::fixed(u, 1) + " ms against append " +
                                        report::fixed(a, 1) + " ms (x" + report::fixed(u / a, 2) + ")";
                return u >= 1.5 * a ? held(why) : refuted(why);
            },
            "no query");
    });
}

inline rule_verdict optimize_removes_most_of_the_gap(const samples& s, const parameters& p) {
    const auto upsert = upsert_name(p.reader_short_interval_ms);
    return each_reader_run(s, [&](const reader_cost& rc) {
        if (!rc.optimize_errors.empty()) return inconclusive("optimize failed: " + rc.optimize_errors.front());
        return experiment::for_each_of(
            std::vector<std::string>(std::begin(queries), std::end(queries)), [](const std::string& q) { return q; },
            [&](const std::string& q) {
                const double before = median_ms(rc, "before", upsert, q) - median_ms(rc, "before", append_name, q);
                const double after = median_ms(rc, "after", upsert, q) - median_ms(rc, "after", append_name, q);
                const std::string why = "gap to append " + report::fixed(before, 1) + " ms before optimize, " +
                                        report::fixed(after, 1) + " ms after";
                if (before <= 0) return inconclusive(why + ": no gap to remove");
                return after <= 0.5 * before ? held(why) : refuted(why);
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
