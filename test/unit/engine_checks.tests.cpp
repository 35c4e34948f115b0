#include <catch2/catch.hpp>

#include <regex>

#include "rosterrig/check/check_agreement.hpp"
#include "rosterrig/check/engine_check_sql.hpp"

using namespace rosterrig;

TEST_CASE("engine check: bucket fragments of a missing run merge into the run, across bucket edges",
          "[check][engine]") {
    // A run 1490-1510 cut by buckets of 100 comes back as 1490-1499 and 1500-1510.
    // Mutation check: joining only fragments that overlap (`out.back().last == f.first`) leaves two runs and fails.
    CHECK(engine_check::merge_adjacent({{1500, 1510}, {1490, 1499}, {7, 7}}) ==
          std::vector<seq_range>{{7, 7}, {1490, 1510}});
    CHECK(engine_check::merge_adjacent({{1, 3}, {5, 6}}) == std::vector<seq_range>{{1, 3}, {5, 6}});
    CHECK(engine_check::merge_adjacent({{1, 100}, {101, 200}, {201, 250}}) == std::vector<seq_range>{{1, 250}});
    CHECK(engine_check::merge_adjacent({}).empty());
}

TEST_CASE("engine check: overlapping or reversed fragments are an error, not a silent merge", "[check][engine]") {
    CHECK_THROWS_AS(engine_check::merge_adjacent({{1, 5}, {5, 9}}), std::invalid_argument);
    CHECK_THROWS_AS(engine_check::merge_adjacent({{9, 5}}), std::invalid_argument);
}

TEST_CASE("engine check: every window function orders within a seq bucket, never the whole table", "[check][engine]") {
    // One global ORDER BY would run on one worker: the query must stay spread out.
    const auto q =
        engine_check::append_missing_fragments("iceberg.ns.\"t\"", 12'000'000, engine_check::bucket_width(12'000'000));
    const std::regex over(R"(OVER \(([^)]*)\))");
    int windows = 0;
    for (auto it = std::sregex_iterator(q.begin(), q.end(), over); it != std::sregex_iterator(); ++it, ++windows)
        CHECK(it->str(1).rfind("PARTITION BY seq / 1048576 ", 0) == 0);
    CHECK(windows == 1);
    CHECK(q.find("sequence(0, 12000000 / 1048576)") != std::string::npos);
}

TEST_CASE("engine check: the bucket width keeps the bucket list within Trino's 10,000-element sequence",
          "[check][engine]") {
    for (const std::uint64_t n : {1ULL, 1'200'000ULL, 12'000'000ULL, 10'000'000'000ULL, 1'000'000'000'000ULL})
        CHECK(n / engine_check::bucket_width(n) < 10'000);
    CHECK(engine_check::bucket_width(1'200'000) == 1ULL << 20);
    CHECK_THROWS_AS(engine_check::append_missing_fragments("t", 0, 1), std::invalid_argument);
    CHECK_THROWS_AS(engine_check::append_missing_fragments("t", 1'000'000, 10), std::invalid_argument);
}

namespace {
append_result some_append() {
    append_result r;
    r.rows = 10, r.distinct_seq = 8, r.duplicate_rows = 1, r.duplicates = {{3, 2}}, r.missing_seq = 2,
    r.missing_runs = {{5, 6}}, r.out_of_range_rows = 1, r.out_of_range_seq = {99};
    return r;
}
upsert_result some_upsert() {
    upsert_result r;
    r.rows = 5, r.distinct_npis = 4, r.rows_sharing_npi = 1, r.shared_npis = {{7, 2}}, r.missing_npis = {9},
    r.stale_rows = 1, r.npis_without_latest = 1, r.stale = {{8, 2, 4}}, r.unexpected_rows = 0,
    r.behind_newest_revision = 1;
    return r;
}
}  // namespace

TEST_CASE("engine check: agreement names every append count and list that differs, and only those", "[check][engine]") {
    const auto a = some_append();
    CHECK(append_disagreements(a, a).empty());
    // Mutation check: dropping the missing-runs comparison from append_disagreements fails the second CHECK.
    auto b = a;
    b.missing_runs = {{5, 5}, {6, 6}};
    const auto d = append_disagreements(a, b);
    REQUIRE(d.size() == 1);
    CHECK(d.front().rfind("missing runs: the lists differ from entry 1", 0) == 0);
    b = a, b.duplicate_rows = 2;
    CHECK(append_disagreements(a, b) == std::vector<std::string>{"duplicate rows: streamed 1, engine 2"});
    b = a, b.duplicates = {{4, 2}};
    CHECK(append_disagreements(a, b).size() == 1);
    b = a, b.rows = 11, b.distinct_seq = 7, b.missing_seq = 3, b.out_of_range_rows = 2;
    CHECK(append_disagreements(a, b).size() == 4);
}

TEST_CASE("engine check: out-of-range seqs are compared as sets only when both sides hold every one",
          "[check][engine]") {
    auto a = some_append(), b = some_append();
    a.out_of_range_rows = b.out_of_range_rows = 2;
    a.out_of_range_seq = {99, 0}, b.out_of_range_seq = {0, 99};  // arrival order against ascending: the same set
    CHECK(append_disagreements(a, b).empty());
    b.out_of_range_seq = {0, 98};
    CHECK(append_disagreements(a, b).size() == 1);
    a.out_of_range_seq = {99};  // the streamed list was cut: nothing to compare it with
    CHECK(append_disagreements(a, b).empty());
}

TEST_CASE("engine check: agreement names every upsert count and list that differs", "[check][engine]") {
    const auto a = some_upsert();
    CHECK(upsert_disagreements(a, a).empty());
    // Mutation check: dropping the stale-rows comparison fails this CHECK.
    auto b = a;
    b.stale_rows = 2, b.stale = {{8, 2, 4}, {8, 3, 4}};
    CHECK(upsert_disagreements(a, b).size() == 2);
    b = a, b.missing_npis = {};
    CHECK(upsert_disagreements(a, b).size() == 1);
    b = a, b.behind_newest_revision = 0;
    CHECK(upsert_disagreements(a, b) ==
          std::vector<std::string>{"rows behind the newest revision: streamed 1, engine 0"});
    b = a, b.npis_without_latest = 0;
    CHECK(upsert_disagreements(a, b).size() == 1);
    b = a, b.stale = {{8, 1, 4}}, b.stale_capped = true;  // a cut list is not compared
    CHECK(upsert_disagreements(a, b).empty());
}
