// Experiment 3's claims, asserted against the shipped results file; each claim
// is checked to hold on the shipped samples and to fail on a named mutation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>

#include <rosterrig/experiment/history.hpp>

#include "shipped_result.hpp"
#include <rosterrig/experiments/e3_file_size/e3_file_size.hpp>

using namespace rosterrig;

using C = claims_test::claims_of<e3::definition>;

namespace {

e3::cell_run& cell(e3::samples& s, e3::cell_role role) {
    return *std::find_if(s.cells.begin(), s.cells.end(), [&](const auto& c) { return c.role == role; });
}

e3::cell_run& grid(e3::samples& s, std::int64_t interval, std::int64_t parallelism) {
    return *std::find_if(s.cells.begin(), s.cells.end(), [&](const auto& c) {
        return c.role == e3::cell_role::grid && c.interval_ms == interval && c.parallelism == parallelism &&
               c.repeat == 1;
    });
}

// `step(shorter, longer)` for each pair of neighbouring intervals at every
// parallelism of the grid; false when a cell is missing.
bool every_interval_step(const e3::samples& x, const e3::parameters& p,
                         const std::function<bool(const e3::cell_run&, const e3::cell_run&)>& step) {
    auto intervals = p.intervals_ms;
    std::sort(intervals.begin(), intervals.end());
    for (auto w : p.parallelisms)
        for (std::size_t i = 1; i < intervals.size(); ++i) {
            const auto* a = e3::grid_cell(x, intervals[i - 1], w);
            const auto* b = e3::grid_cell(x, intervals[i], w);
            if (!claims_test::that("grid cell " + e3::cell_name(intervals[i - 1], w) + " recorded", a != nullptr) ||
                !claims_test::that("grid cell " + e3::cell_name(intervals[i], w) + " recorded", b != nullptr) ||
                !step(*a, *b))
                return false;
        }
    return true;
}

// Mean data-file bytes of the first grid run at (interval, parallelism).
double mean_bytes(const e3::samples& s, std::int64_t interval, std::int64_t parallelism) {
    const auto* c = e3::grid_cell(s, interval, parallelism);
    return c ? e3::analyze(*c).mean_file_bytes : -1;
}
}  // namespace

TEST_CASE("the full run covers the grid, the 1 GB cell, the control and three baseline runs", "[claims][e3]") {
    const auto& s = C::load();
    REQUIRE_FALSE(s.params.quick);
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            for (auto i : p.intervals_ms)
                for (auto w : p.parallelisms)
                    if (!claims_test::that("grid cell " + e3::cell_name(i, w) + " recorded",
                                           e3::grid_cell(x, i, w) != nullptr))
                        return false;
            const auto roles = [&](e3::cell_role r) {
                return std::count_if(x.cells.begin(), x.cells.end(), [&](const auto& c) { return c.role == r; });
            };
            return claims_test::ge("intervals in the grid", p.intervals_ms.size(), 3) &&
                   claims_test::ge("parallelisms in the grid", p.parallelisms.size(), 3) &&
                   claims_test::eq("1 GB target cells", roles(e3::cell_role::large_target), 1) &&
                   claims_test::eq("control cells", roles(e3::cell_role::control), 1) &&
                   claims_test::ge("baseline runs", e3::baseline_runs(x, p).size(), 3);
        },
        // Mutation: the last baseline repeat missing.
        [](e3::samples& x) { x.cells.pop_back(); });
}

TEST_CASE("every cell ran with the interval, writers and target it asked for, as the components report them",
          "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters&) {
            for (const auto& c : x.cells)
                if (!claims_test::eq(c.cell + " checkpointing mode in force", c.in_force.mode, "exactly_once") ||
                    !claims_test::eq(c.cell + " checkpoint interval in force (ms)", c.in_force.interval_ms,
                                     c.interval_ms) ||
                    !claims_test::eq(c.cell + " writer parallelism in force", c.in_force.writer_parallelism,
                                     c.parallelism) ||
                    !claims_test::eq(c.cell + " target file size in force (bytes)", c.in_force.target_file_size_bytes,
                                     c.target_bytes))
                    return false;
            return claims_test::gt("e3 cells", x.cells.size(), 0);
        },
        // Mutation: the catalog did not hold the 1 GB target the cell asked for.
        [](e3::samples& x) { cell(x, e3::cell_role::large_target).in_force.target_file_size_bytes.reset(); });
}

TEST_CASE("every cell landed the whole feed exactly once", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            for (const auto& c : x.cells)
                if (!claims_test::eq(c.cell + " events == the feed's", c.events, p.events) ||
                    !claims_test::that(c.cell + " landed every event once", e3::landed_once(c)))
                    return false;
            return claims_test::gt("e3 cells", x.cells.size(), 0);
        },
        // Mutation: one duplicate row in one cell.
        [](e3::samples& x) { x.cells.back().duplicate_rows = 1; });
}

TEST_CASE("every feed was paced to the same duration within two percent", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            for (const auto& c : x.cells) {
                const double d = static_cast<double>(c.feed_duration_ms), want = static_cast<double>(p.feed_ms);
                if (!claims_test::le(c.cell + " feed duration's distance from the asked one (ms)", std::abs(d - want),
                                     0.02 * want))
                    return false;
            }
            return claims_test::gt("e3 cells", x.cells.size(), 0);
        },
        // Mutation: one cell's producer ran five seconds longer.
        [](e3::samples& x) { x.cells.at(2).feed_duration_ms += 5000; });
}

TEST_CASE("every row was traced to the snapshot that made it visible", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters&) {
            for (const auto& c : x.cells) {
                std::int64_t visible = 0;
                for (const auto& s : c.snapshots) visible += s.rows_first_visible;
                if (!claims_test::eq(c.cell + " rows unmapped", c.rows_unmapped, 0) ||
                    !claims_test::eq(c.cell + " rows first visible in a snapshot == rows", visible,
                                     static_cast<std::int64_t>(c.rows)) ||
                    !claims_test::eq(c.cell + " freshness records == rows", c.freshness.records,
                                     static_cast<std::int64_t>(c.rows)))
                    return false;
            }
            return claims_test::gt("e3 cells", x.cells.size(), 0);
        },
        // Mutation: one row whose data file the metadata did not list.
        [](e3::samples& x) { x.cells.at(0).rows_unmapped = 1; });
}

TEST_CASE("files per commit track the writer subtasks, not the data, in every cell but the control", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters&) {
            for (const auto& c : x.cells) {
                if (c.role == e3::cell_role::control) continue;
                const auto a = e3::analyze(c);
                if (!claims_test::ne(c.cell + " commits with data", a.commits_with_data, 0)) return false;
                for (auto n : a.files_per_commit)
                    if (!claims_test::eq(c.cell + " data files of a commit == writer subtasks", n,
                                         c.in_force.writer_parallelism))
                        return false;
            }
            return true;
        },
        // Mutation: one commit of the first cell with a data file more than its writers.
        [](e3::samples& x) {
            auto& c = x.cells.at(0);
            c.files.push_back({c.files.front().snapshot_id, 0, 1, 100});
        });
}

TEST_CASE("the target reaches the writer: the control rolled files inside a checkpoint", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters&) {
            const auto& c = *std::find_if(x.cells.begin(), x.cells.end(),
                                          [](const auto& r) { return r.role == e3::cell_role::control; });
            const auto a = e3::analyze(c);
            std::int64_t more = 0;
            for (auto n : a.files_per_commit) more += n > c.in_force.writer_parallelism;
            return claims_test::that(c.cell + " target file size in force",
                                     c.in_force.target_file_size_bytes.has_value()) &&
                   claims_test::gt(c.cell + " twice the commits with more files than writers > commits with data",
                                   2 * more, a.commits_with_data);
        },
        // Mutation: the control's extra files merged back into one per writer and commit.
        [](e3::samples& x) {
            auto& c = cell(x, e3::cell_role::control);
            std::map<std::int64_t, int> kept;
            std::vector<e3::file_entry> files;
            for (const auto& f : c.files)
                if (kept[f.snapshot_id]++ < c.in_force.writer_parallelism) files.push_back(f);
            c.files = files;
        });
}

TEST_CASE("a longer interval gives fewer and larger files, at every parallelism", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            return every_interval_step(x, p, [](const e3::cell_run& a, const e3::cell_run& b) {
                const auto aa = e3::analyze(a), bb = e3::analyze(b);
                return claims_test::lt(b.cell + " commits with data < " + a.cell + "'s", bb.commits_with_data,
                                       aa.commits_with_data) &&
                       claims_test::gt(b.cell + " mean file bytes > " + a.cell + "'s", bb.mean_file_bytes,
                                       aa.mean_file_bytes);
            });
        },
        // Mutation: the longest interval's files at one writer as small as a byte.
        [](e3::samples& x) {
            const auto& p = C::load().params;
            for (auto& f : grid(x, p.intervals_ms.back(), p.parallelisms.front()).files) f.bytes = 1;
        });
}

TEST_CASE("freshness is what larger files cost: the median wait grows with the interval", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            return every_interval_step(x, p, [](const e3::cell_run& a, const e3::cell_run& b) {
                return claims_test::gt(b.cell + " median freshness (ms) > " + a.cell + "'s", e3::analyze(b).p50_ms,
                                       e3::analyze(a).p50_ms);
            });
        },
        // Mutation: the longest interval's histogram replaced by the shortest one's.
        [](e3::samples& x) {
            const auto& p = C::load().params;
            grid(x, p.intervals_ms.back(), p.parallelisms.front()).freshness =
                grid(x, p.intervals_ms.front(), p.parallelisms.front()).freshness;
        });
}

TEST_CASE("a 1 GB target still left every file four orders of magnitude below it", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters&) {
            const auto& c = *std::find_if(x.cells.begin(), x.cells.end(),
                                          [](const auto& r) { return r.role == e3::cell_role::large_target; });
            if (!claims_test::that(c.cell + " target recorded", c.target_bytes.has_value()) ||
                !claims_test::gt(c.cell + " files", c.files.size(), 0))
                return false;
            for (const auto& f : c.files)
                if (!claims_test::le(c.cell + " a file's bytes times 10000 <= the target", f.bytes * 10000,
                                     *c.target_bytes))
                    return false;
            return true;
        },
        // Mutation: one file of 200 KB in the 1 GB cell.
        [](e3::samples& x) { cell(x, e3::cell_role::large_target).files.at(0).bytes = 200000; });
}

TEST_CASE("the interval moves mean file size far more than the 1 GB target does", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            const auto base = e3::baseline_spread(x, p);
            if (!claims_test::that("a spread of the baseline cell's runs", base.has_value())) return false;
            const double by_interval = mean_bytes(x, p.intervals_ms.back(), p.baseline_parallelism) -
                                       mean_bytes(x, p.intervals_ms.front(), p.baseline_parallelism);
            const auto& large = *std::find_if(x.cells.begin(), x.cells.end(),
                                              [](const auto& r) { return r.role == e3::cell_role::large_target; });
            const double by_target = std::abs(e3::analyze(large).mean_file_bytes - base->median);
            return claims_test::gt("mean file bytes the interval moved > 20 times what the 1 GB target moved",
                                   by_interval, 20 * std::max(by_target, 1.0));
        },
        // Mutation: the 1 GB cell's files twice as large.
        [](e3::samples& x) {
            for (auto& f : cell(x, e3::cell_role::large_target).files) f.bytes *= 2;
        });
}

TEST_CASE("every reader table held exactly the latest row per NPI before it was timed, and every answer was right",
          "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            if (!claims_test::that("the reader part recorded", x.reader.has_value())) return false;
            for (const auto& t : x.reader->tables) {
                const auto table = "reader table " + t.name + " (" + t.phase + ")";
                if (!claims_test::that(table + " exact", t.exact) ||
                    !claims_test::eq(table + " rows == expected", static_cast<std::int64_t>(t.rows),
                                     x.reader->expected_rows))
                    return false;
            }
            for (const auto& t : x.reader->timings)
                if (!claims_test::that("reader " + t.query + " on " + t.table + " (" + t.phase + ", round " +
                                           std::to_string(t.round) + ") answered right",
                                       t.answer_right))
                    return false;
            return claims_test::eq("reader tables", x.reader->tables.size(), 6) &&
                   claims_test::eq("reader timings", x.reader->timings.size(), 2 * 3 * 2 * (p.query_rounds + 1));
        },
        // Mutation: one stale row in the optimized short-interval table.
        [](e3::samples& x) {
            auto& t = x.reader->tables.at(3);
            t.stale_rows = 1, t.exact = false;
        });
}

TEST_CASE(
    "the short-interval upsert table reads through many small files and equality deletes, the append table through none",
    "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            if (!claims_test::that("the reader part recorded", x.reader.has_value())) return false;
            const auto* u = e3::find_table(*x.reader, "before", e3::upsert_name(p.reader_short_interval_ms));
            const auto* a = e3::find_table(*x.reader, "before", e3::append_name);
            return claims_test::that("the short-interval upsert table read before optimize", u != nullptr) &&
                   claims_test::that("the append table read before optimize", a != nullptr) &&
                   claims_test::ge("short-interval upsert table data files >= 10 times the append table's",
                                   u->data_files, 10 * a->data_files) &&
                   claims_test::gt("short-interval upsert table equality delete files", u->equality_delete_files, 0) &&
                   claims_test::eq("append table equality delete files", a->equality_delete_files, 0) &&
                   claims_test::eq("append table position delete files", a->position_delete_files, 0);
        },
        // Mutation: an equality-delete file in the append table.
        [](e3::samples& x) { x.reader->tables.at(2).equality_delete_files = 1; });
}

// Mutation: the last reader repeat missing.
TEST_CASE("the longest interval ran three times at every parallelism and the reader part three times", "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters& p) {
            const auto longest = *std::max_element(p.intervals_ms.begin(), p.intervals_ms.end());
            for (auto w : p.parallelisms)
                if (!claims_test::ge("runs of grid cell " + e3::cell_name(longest, w),
                                     e3::grid_runs(x, longest, w).size(), 3))
                    return false;
            return claims_test::ge("reader part runs", e3::reader_runs(x).size(), 3);
        },
        [](e3::samples& x) { x.reader_repeats->pop_back(); });
}

// Mutation: one stale row in the last reader run's optimized short-interval table.
TEST_CASE("in every reader run each table held exactly the latest row per NPI and every answer was right",
          "[claims][e3]") {
    C::holds_and_is_mutation_checked(
        [](const e3::samples& x, const e3::parameters&) {
            const auto runs = e3::reader_runs(x);
            for (std::size_t i = 0; i < runs.size(); ++i) {
                const auto run = "reader run " + std::to_string(i + 1);
                for (const auto& t : runs[i]->tables)
                    if (!claims_test::that(run + " table " + t.name + " (" + t.phase + ") exact", t.exact) ||
                        !claims_test::eq(run + " table " + t.name + " rows == expected",
                                         static_cast<std::int64_t>(t.rows), runs[i]->expected_rows))
                        return false;
                for (const auto& t : runs[i]->timings)
                    if (!claims_test::that(run + " " + t.query + " on " + t.table + " answered right", t.answer_right))
                        return false;
            }
            return claims_test::ge("reader runs", runs.size(), 3);
        },
        [](e3::samples& x) {
            auto& t = x.reader_repeats->back().tables.at(3);
            t.stale_rows = 1, t.exact = false;
        });
}

TEST_CASE("the e3 verdicts on record are the ones the code computes from the samples", "[claims][e3]") {
    auto h = C::recorded_verdicts_are_recomputed(8);
    // Mutation (data): one duplicate in the shipped samples changes the recomputed verdict.
    h.samples.cells.at(0).duplicate_rows = 1;
    CHECK(experiment::rejudge(h).at(0).verdict == verdict_kind::refuted);
}
