// Claims about rosterrig/check/commit_replay.hpp: a commit applied twice shows
// in the table's snapshots even where its rows do not. "Mutation:" names the
// change to the header that makes a case fail (each made, seen failing, reverted).
#include <catch2/catch.hpp>

#include "rosterrig/check/commit_replay.hpp"

using rosterrig::check::commit_replay;
using rosterrig::check::snapshot_entry;

namespace {
snapshot_entry snap(std::int64_t id, std::int64_t watermark, std::int64_t records, std::vector<std::string> files = {},
                    std::string op = "append", std::string writer = "job-a") {
    return {id, std::move(op), std::move(writer), watermark, records, std::move(files)};
}
}  // namespace

TEST_CASE("a writer whose snapshots added exactly the events it was sent is clean", "[check][commit-replay]") {
    const auto r = commit_replay({snap(1, 1, 400, {"a"}), snap(2, 2, 600, {"b"}), snap(3, 3, 0)}, 1000);
    CHECK(r.clean());
    CHECK(r.snapshots_with_data == 2);
    CHECK(r.excess_records() == 0);
}

TEST_CASE("one checkpoint committed twice shows as a repeated watermark and excess records", "[check][commit-replay]") {
    // PR #17901's signature: two snapshots with the same flink.max-committed-checkpoint-id.
    // Mutation: key the watermark map by snapshot id instead of (writer, watermark) and nothing repeats.
    const auto r = commit_replay({snap(1, 1, 400), snap(2, 2, 600), snap(3, 2, 600)}, 1000);
    CHECK_FALSE(r.clean());
    CHECK(r.excess_records() == 600);
    REQUIRE(r.replayed_watermarks.size() == 1);
    CHECK(r.replayed_watermarks.at(0).watermark == 2);
    CHECK(r.replayed_watermarks.at(0).snapshot_ids == std::vector<std::int64_t>{2, 3});
}

TEST_CASE("an upsert replay invisible in the rows is visible in the records the snapshots added",
          "[check][commit-replay]") {
    // A restored job re-committing under a new job id: no watermark repeats, the counts do.
    // Mutation: sum added_records over the first snapshot only and the excess is missed.
    const auto r =
        commit_replay({snap(1, 4, 500, {}, "overwrite", "job-a"), snap(2, 4, 500, {}, "overwrite", "job-b")}, 500);
    CHECK(r.replayed_watermarks.empty());
    CHECK(r.excess_records() == 500);
    CHECK_FALSE(r.clean());
}

TEST_CASE("one data file added by two snapshots is reported with both", "[check][commit-replay]") {
    // apache/iceberg #16282: the same Parquet file committed in two snapshots.
    // Mutation: drop the files_added_twice push and this case finds nothing.
    const auto r = commit_replay({snap(10, -1, 100, {"s3://w/f1.parquet"}, "append", ""),
                                  snap(11, -1, 100, {"s3://w/f1.parquet", "s3://w/f2.parquet"}, "append", "")},
                                 100);
    REQUIRE(r.files_added_twice.size() == 1);
    CHECK(r.files_added_twice.at(0).path == "s3://w/f1.parquet");
    CHECK(r.files_added_twice.at(0).snapshot_ids == std::vector<std::int64_t>{10, 11});
}

TEST_CASE("a compaction's rewrite is no replay, and missing records are a negative excess", "[check][commit-replay]") {
    // Mutation: count replace snapshots and the compaction's 1000 rewritten rows read as a replay.
    const auto r = commit_replay({snap(1, 1, 900), snap(2, -1, 1000, {}, "replace")}, 1000);
    CHECK(r.replayed_watermarks.empty());
    CHECK(r.excess_records() == -100);
}
