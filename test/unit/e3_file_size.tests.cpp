// Experiment 3's measurement logic on hand-built samples: the freshness
// histogram, the cells a run takes, the usage check, and the rules.
#include <algorithm>

#include <catch2/catch.hpp>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/experiments/e3_file_size/e3_file_size.hpp>

using namespace rosterrig;

namespace {
// A cell whose job committed `commits` snapshots of `files` data files each.
e3::cell_run cell_with(const std::string& name, std::int64_t writers, std::int64_t commits, std::int64_t files,
                       std::int64_t bytes) {
    e3::cell_run c;
    c.cell = name;
    c.job_id = "job";
    c.interval_ms = 5000;
    c.parallelism = writers;
    c.in_force.interval_ms = 5000;
    c.in_force.writer_parallelism = writers;
    for (std::int64_t k = 1; k <= commits; ++k) {
        c.snapshots.push_back({k, 1000 * k, "append", "job", files, 10 * files, 10 * files});
        for (std::int64_t f = 0; f < files; ++f) c.files.push_back({k, 0, 10, bytes});
    }
    return c;
}
// A reader run on exact tables with right answers: the upsert table at 40 ms
// before optimize and 12 ms after, the append table at 10 ms, three timed rounds each.
e3::reader_cost exact_reader_run() {
    e3::reader_cost rc;
    for (const std::string phase : {"before", "after"})
        for (const std::string t : {"upsert-5s", "append"}) {
            e3::reader_table tb;
            tb.name = t, tb.phase = phase, tb.exact = true;
            rc.tables.push_back(tb);
            for (std::uint64_t r = 1; r <= 3; ++r)
                for (const std::string q : {"count", "lookup"})
                    rc.timings.push_back(
                        {phase, r, t, q, t == "append" ? 10.0 : (phase == "before" ? 40.0 : 12.0), 1, true});
        }
    return rc;
}
}  // namespace

TEST_CASE("a freshness quantile is an upper bound within one bucket of the true value", "[e3][freshness]") {
    std::vector<std::int64_t> values;
    for (std::int64_t v = 1; v <= 1000; ++v) values.push_back(v * 7);  // 7 .. 7000 ms
    const auto h = experiment::histogram_of(values, 100);
    CHECK(h.records == 1000);
    CHECK(h.min_ms == 7);
    CHECK(h.max_ms == 7000);
    // true median 3500 (the 500th value): the bound is the upper edge of its bucket.
    // Mutation: return the bucket's lower edge (3500, a bound from below) and this fails.
    const auto p50 = experiment::quantile_at_most(h, 0.5);
    CHECK(p50 >= 3500);
    CHECK(p50 - 100 <= 3500);
    CHECK(p50 == 3600);
    // the top quantile is the exact maximum, not a bucket edge past it
    CHECK(experiment::quantile_at_most(h, 1.0) == 7000);
}

TEST_CASE("a negative freshness falls below zero, not into the first bucket", "[e3][freshness]") {
    const auto h = experiment::histogram_of({-30, 40}, 100);
    REQUIRE(h.buckets.size() == 2);
    CHECK(h.buckets[0].from_ms == -100);
    CHECK(h.buckets[1].from_ms == 0);
}

TEST_CASE("a row whose snapshot or acknowledgement is unknown is counted as unmapped, not guessed", "[e3][freshness]") {
    std::int64_t unmapped = 0;
    const auto h =
        experiment::freshness_of({{1, 10}, {2, 11}, {3, -1}}, {{10, 5000}}, {{1, 4000}, {2, 4100}}, 100, unmapped);
    CHECK(unmapped == 2);  // seq 2's snapshot 11 has no commit time; seq 3 has no snapshot
    CHECK(h.records == 1);
    CHECK(h.max_ms == 1000);
}

TEST_CASE("the baseline cell's repeats are spread over the run, the last one at the end", "[e3]") {
    const auto p = e3::parameters::full();
    const auto cs = e3::cells(p);
    // The grid, the 1 GB cell and the control, two more baseline runs, two more of each 120 s cell.
    CHECK(cs.size() == 9 + 2 + 2 + 3 * 2);
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < cs.size(); ++i)
        if (cs[i].interval_ms == p.baseline_interval_ms && cs[i].parallelism == p.baseline_parallelism &&
            cs[i].role == e3::cell_role::grid)
            at.push_back(i);
    REQUIRE(at.size() == 3);
    CHECK(at.back() == cs.size() - 1);
    CHECK(at[1] > at[0] + 2);
}

TEST_CASE(
    "every cell at the longest interval runs three times in the full run and once in the quick run, under its own name",
    "[e3]") {
    const auto cs = e3::cells(e3::parameters::full());
    std::vector<std::string> longest;
    for (const auto& c : cs)
        if (c.interval_ms == 120000) longest.push_back(c.name + "/" + std::to_string(c.repeat));
    std::sort(longest.begin(), longest.end());
    CHECK(longest == std::vector<std::string>{"120s-p1 #2/2", "120s-p1 #3/3", "120s-p1/1", "120s-p2 #2/2",
                                              "120s-p2 #3/3", "120s-p2/1", "120s-p4 #2/2", "120s-p4 #3/3",
                                              "120s-p4/1"});
    std::vector<std::string> names;
    for (const auto& c : cs) names.push_back(c.name);
    std::sort(names.begin(), names.end());
    CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());  // no two cells share a table name
    const auto quick = e3::cells(e3::parameters::quick_run());
    CHECK(std::none_of(quick.begin(), quick.end(), [](const e3::cell& c) { return c.repeat > 1; }));
    // A longest interval that is the baseline's is repeated by the baseline alone.
    auto p = e3::parameters::full();
    p.intervals_ms = {5000};
    const auto only_baseline = e3::cells(p);
    CHECK(std::count_if(only_baseline.begin(), only_baseline.end(), [](const e3::cell& c) {
              return c.name.rfind("5s-p2", 0) == 0;
          }) == 3 + 1);  // three runs and the 1 GB cell
}

TEST_CASE("an interval or parallelism that cannot run is refused, naming the flag", "[e3][usage]") {
    auto p = e3::parameters::full();
    CHECK_FALSE(e3::usage_problem(p, 4));
    p.intervals_ms = {5000, 0};
    CHECK(e3::usage_problem(p, 4).value().rfind("--intervals", 0) == 0);
    p = e3::parameters::full();
    p.parallelisms = {-1};
    CHECK(e3::usage_problem(p, 4).value().rfind("--parallelisms", 0) == 0);
    p.parallelisms = {5};
    // Mutation: let a job take two slots' worth of writers (w > 2 * slots) and this fails.
    REQUIRE(e3::usage_problem(p, 4));
    CHECK(e3::usage_problem(p, 4).value().find("the TaskManager has 4") != std::string::npos);
}

TEST_CASE("a list flag parses into whole numbers and a bad element names the flag", "[e3][usage]") {
    std::vector<std::int64_t> xs;
    cli::arg_parser a{"t", "s"};
    a.option("--intervals", xs, "MS,..", "h");
    a.parse({"--intervals", "5000,30000,-1"});
    CHECK(xs == std::vector<std::int64_t>{5000, 30000, -1});
    cli::arg_parser b{"t", "s"};
    b.option("--intervals", xs, "MS,..", "h");
    CHECK_THROWS_WITH(b.parse({"--intervals", "5000,x"}), Catch::Contains("--intervals"));
}

TEST_CASE("one commit with a file more than the writers refutes files-per-commit", "[e3][verdict]") {
    e3::samples s;
    s.cells.push_back(cell_with("5s-p2", 2, 10, 2, 1000));
    CHECK(e3::files_per_commit_equal_subtasks(s).verdict == verdict_kind::held);
    s.cells[0].files.push_back({3, 0, 10, 1000});
    // Mutation: count files per commit from the summary's added-data-files instead of $entries and this fails.
    CHECK(e3::files_per_commit_equal_subtasks(s).verdict == verdict_kind::refuted);
}

TEST_CASE("commits by another job or without data are not commits of the cell", "[e3]") {
    auto c = cell_with("5s-p2", 2, 3, 2, 1000);
    c.snapshots.push_back({99, 9000, "append", "other-job", 0, 0, 0});
    c.snapshots.push_back({100, 9500, "append", "job", 0, 0, 0});
    const auto a = e3::analyze(c);
    CHECK(a.commits_with_data == 3);
    CHECK(a.empty_commits == 1);
}

TEST_CASE("the interval and target rules need a repeat spread, and judge against it", "[e3][verdict]") {
    auto p = e3::parameters::full();
    p.intervals_ms = {5000, 120000};
    p.parallelisms = {2};
    e3::samples s;
    s.cells.push_back(cell_with("5s-p2", 2, 40, 2, 13000));
    auto longer = cell_with("120s-p2", 2, 2, 2, 75000);
    longer.interval_ms = 120000;
    s.cells.push_back(longer);
    CHECK(e3::interval_moves_file_size(s, p).verdict == verdict_kind::inconclusive);
    auto again = cell_with("5s-p2 #2", 2, 40, 2, 13100);
    again.repeat = 2;
    s.cells.push_back(again);
    CHECK(e3::interval_moves_file_size(s, p).verdict == verdict_kind::held);
    auto large = cell_with("5s-p2-1GB", 2, 40, 2, 13050);
    large.role = e3::cell_role::large_target;
    s.cells.push_back(large);
    CHECK(e3::target_does_not_move_file_size(s, p).verdict == verdict_kind::held);
    // 13,000 .. 13,100 widened by 3 % of 13,050 (391.5): 14,000 is outside.
    // Mutation: drop the slack's bound on the upper side and this fails.
    for (auto& f : s.cells.back().files) f.bytes = 14000;
    CHECK(e3::target_does_not_move_file_size(s, p).verdict == verdict_kind::refuted);
}

TEST_CASE("reader timings count only on tables checked exact with right answers", "[e3][verdict]") {
    const auto p = e3::parameters::full();
    e3::samples s;
    const auto rc = exact_reader_run();
    s.reader = rc;
    CHECK(e3::upsert_short_reads_slower(s, p).verdict == verdict_kind::held);
    CHECK(e3::optimize_removes_most_of_the_gap(s, p).verdict == verdict_kind::held);
    s.reader->tables[0].exact = false;
    // Mutation: drop reader_unusable from the rule and this fails (it would hold).
    CHECK(e3::upsert_short_reads_slower(s, p).verdict == verdict_kind::inconclusive);
    s.reader->tables[0].exact = true;
    s.reader->timings[0].answer_right = false;
    CHECK(e3::optimize_removes_most_of_the_gap(s, p).verdict == verdict_kind::inconclusive);
}

TEST_CASE("a reader rule judges every run of the reader part: a repeat that fails refutes it", "[e3][verdict]") {
    const auto p = e3::parameters::full();
    const auto rc = exact_reader_run();
    e3::samples s;
    for (int k = 0; k < 3; ++k) e3::record_reader_run(s, rc);
    REQUIRE(e3::reader_runs(s).size() == 3);
    CHECK(s.reader_repeats->size() == 2);
    CHECK(e3::optimize_removes_most_of_the_gap(s, p).verdict == verdict_kind::held);
    // Mutation: judge the first run only, and the third's gap left after optimize goes unseen.
    for (auto& t : s.reader_repeats->back().timings)
        if (t.phase == "after" && t.table == "upsert-5s") t.ms = 35.0;
    CHECK(e3::optimize_removes_most_of_the_gap(s, p).verdict == verdict_kind::refuted);
    // The third run's facts hold what refuted it: a count gap left after optimize.
    const auto third = e3::optimize_removes_most_of_the_gap(s, p).facts.at("reader run 3").at("count");
    CHECK(third.at("gap_after_ms").as_double() > 0.5 * third.at("gap_before_ms").as_double());
    const auto table = e3::part_b_repeats_table(s);
    CHECK_THAT(table, Catch::Contains(
                          "| after optimize | upsert-5s | count(*) | 12.0 / 12.0 / 35.0 | ×1.20 / ×1.20 / ×3.50 |"));
}

TEST_CASE("the interval rule judges every run at the longest interval", "[e3][verdict]") {
    auto p = e3::parameters::full();
    p.intervals_ms = {5000, 120000};
    p.parallelisms = {2};
    e3::samples s;
    s.cells.push_back(cell_with("5s-p2", 2, 40, 2, 13000));
    auto again = cell_with("5s-p2 #2", 2, 40, 2, 13100);
    again.repeat = 2;
    s.cells.push_back(again);
    for (std::uint64_t r = 1; r <= 3; ++r) {
        auto longer = cell_with(r == 1 ? "120s-p2" : "120s-p2 #" + std::to_string(r), 2, 2, 2, 75000);
        longer.interval_ms = 120000, longer.repeat = r;
        s.cells.push_back(longer);
    }
    CHECK(e3::interval_moves_file_size(s, p).verdict == verdict_kind::held);
    // Mutation: judge the first run at 120 s only, and a third run whose files are no larger goes unseen.
    for (auto& f : s.cells.back().files) f.bytes = 14000;
    CHECK(e3::interval_moves_file_size(s, p).verdict == verdict_kind::refuted);
}

TEST_CASE("the feed duration runs from the first to the last acknowledgement", "[e3]") {
    // Acknowledgements arrive out of order across partitions.
    const auto acks = e3::acknowledgements_of({{1, 5000}, {3, 4000}, {2, 9000}, {4, 7000}});
    // Mutation: take the duration from the first and last pair as listed (7000 - 5000) and this fails.
    CHECK(acks.feed_duration_ms == 5000);
    CHECK(acks.at_ms.at(3) == 4000);
    CHECK(acks.at_ms.size() == 4);
    CHECK(e3::acknowledgements_of({}).feed_duration_ms == 0);
}

TEST_CASE("a snapshot counts the rows whose data file it added and each row's freshness ends at its commit",
          "[e3][freshness]") {
    e3::cell_run run;
    std::vector<e3::snapshot_entry> snaps{{10, 6000, "append", "job", 1, 2, 0}, {11, 9000, "append", "job", 1, 1, 0}};
    // seq 1 and 2 landed in snapshot 10, seq 3 in 11, seq 4's file is not in the metadata.
    e3::record_snapshots(run, snaps, {{1, 10}, {2, 10}, {3, 11}, {4, -1}}, {{1, 5000}, {2, 5500}, {3, 5000}, {4, 5000}},
                         100);
    REQUIRE(run.snapshots.size() == 2);
    // Mutation: count the rows by seq instead of by their snapshot (++first_visible[seq]) and this fails.
    CHECK(run.snapshots[0].rows_first_visible == 2);
    CHECK(run.snapshots[1].rows_first_visible == 1);
    CHECK(run.rows_unmapped == 1);
    CHECK(run.freshness.records == 3);
    CHECK(run.freshness.min_ms == 500);   // seq 2: 6000 - 5500
    CHECK(run.freshness.max_ms == 4000);  // seq 3: 9000 - 5000
}

TEST_CASE("a cell's settings in force take the target file size from the table's properties", "[e3]") {
    experiment::writer_settings w;
    w.mode = "EXACTLY_ONCE", w.interval_ms = 5000;
    const auto in = e3::settings_from(w, {2, "IcebergStreamWriter"}, {{"write.target-file-size-bytes", "1024"}});
    CHECK(in.mode == "EXACTLY_ONCE");
    CHECK(in.interval_ms == 5000);
    CHECK(in.writer_parallelism == 2);
    CHECK(in.writer_vertex == "IcebergStreamWriter");
    // Mutation: read another property (write.target-file-size) and the target is reported as not set.
    REQUIRE(in.target_file_size_bytes.has_value());
    CHECK(*in.target_file_size_bytes == 1024);
    CHECK_FALSE(
        e3::settings_from(w, {2, "w"}, {{"write.format.default", "parquet"}}).target_file_size_bytes.has_value());
}

TEST_CASE("a cell's record starts from what the cell asks for and the feed's size", "[e3]") {
    const auto p = e3::parameters::full();
    const auto cs = e3::cells(p);
    const auto it =
        std::find_if(cs.begin(), cs.end(), [](const e3::cell& c) { return c.role == e3::cell_role::control; });
    REQUIRE(it != cs.end());
    const auto run = e3::planned_run(p, *it);
    CHECK(run.cell == it->name);
    CHECK(run.role == e3::cell_role::control);
    CHECK(run.interval_ms == p.control_interval_ms);
    CHECK(run.parallelism == p.control_parallelism);
    // Mutation: leave the requested target out of the record and this fails.
    CHECK(run.target_bytes == std::optional<std::int64_t>(p.control_target_bytes));
    CHECK(run.events == p.events);
    CHECK(e3::label_of(*it) == "e3[" + it->name + "]");
}

namespace {
// A grid cell of `interval_ms` fed steadily for `feed_ms`, every record
// waiting `wait_ms` (so its p50 is that, to the 100 ms bucket).
e3::cell_run freshness_cell(std::int64_t interval_ms, std::int64_t feed_ms, std::int64_t wait_ms) {
    auto c = cell_with("cell", 2, 3, 2, 1000);
    c.in_force.interval_ms = c.interval_ms = interval_ms;
    c.feed_duration_ms = feed_ms;
    c.freshness = experiment::histogram_of(std::vector<std::int64_t>(101, wait_ms), 100);
    return c;
}
verdict_kind freshness_verdict(std::int64_t interval_ms, std::int64_t feed_ms, std::int64_t wait_ms) {
    e3::samples s;
    s.cells.push_back(freshness_cell(interval_ms, feed_ms, wait_ms));
    return e3::freshness_tracks_half_interval(s).verdict;
}
}  // namespace

// Mutation: put back the old tolerance, |p50 - I/2| <= 0.25·I + 2 s, and the
// 5 s cells at 5.5 s and at 1.0 s hold: this fails.
TEST_CASE(
    "the freshness rule refutes a 5 s cell whose median wait is past its interval plus the commit allowance or far below half of it",
    "[e3][verdict]") {
    // 200 s of feed at 5 s: at least 39 complete intervals, 2.5% of the feed
    // outside them, so p50 in [2.44, 4.66] s.
    const auto b = e3::freshness_p50_bound(5000, 200000, 100);
    CHECK(b.low_ms == Approx(2435.9).epsilon(0.0001));
    CHECK(b.high_ms == Approx(4664.1).epsilon(0.0001));
    CHECK(freshness_verdict(5000, 200000, 2800) == verdict_kind::held);
    CHECK(freshness_verdict(5000, 200000, 5500) == verdict_kind::refuted);
    CHECK(freshness_verdict(5000, 200000, 1000) == verdict_kind::refuted);
}

// Mutation: take f as 0 in freshness_p50_bound (ignore the records outside
// complete intervals) and the 120 s cell fed for 200 s refutes a median of
// 50 s that its two commits allow: this fails.
TEST_CASE("the freshness rule holds any median a short feed allows and refutes one beyond the longest wait",
          "[e3][verdict]") {
    // 200 s of feed at 120 s: no complete interval is certain, so the median
    // can be anywhere a record's wait can be, 0 to 120 s + 2 s + one bucket.
    const auto b = e3::freshness_p50_bound(120000, 200000, 100);
    CHECK(b.low_ms == 0);
    CHECK(b.high_ms == 122100);
    CHECK(freshness_verdict(120000, 200000, 50200) == verdict_kind::held);
    CHECK(freshness_verdict(120000, 200000, 68700) == verdict_kind::held);
    CHECK(freshness_verdict(120000, 200000, 125000) == verdict_kind::refuted);
    // 30 s fed for 200 s: 5 complete intervals, a quarter outside: [10, 22.1] s.
    CHECK(freshness_verdict(30000, 200000, 14500) == verdict_kind::held);
    CHECK(freshness_verdict(30000, 200000, 23000) == verdict_kind::refuted);
    CHECK(freshness_verdict(30000, 200000, 9000) == verdict_kind::refuted);
}
