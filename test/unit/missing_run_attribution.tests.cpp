// Which commit should have carried each missing run, from the seqs each
// snapshot added per Kafka partition (experiment/seq_placement.hpp,
// experiment/missing_run_attribution.hpp). "Mutation:" names the code change
// that makes a case fail; each was made and seen to fail.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/missing_run_attribution.hpp>

using namespace rosterrig;
using experiment::attribution_kind;

namespace {
// A feed of 20 seqs: odd seqs in partition 0, even ones in partition 1.
std::vector<std::uint32_t> feed_partitions() {
    std::vector<std::uint32_t> p;
    for (std::uint64_t seq = 1; seq <= 20; ++seq) p.push_back(seq % 2 == 1 ? 0 : 1);
    return p;
}

// Three commits, in commit order: A (checkpoint 3) holds seqs 1-5; B
// (checkpoint 7) holds partition 0's 7, 9 and 13 and nothing of partition 1;
// C (checkpoint 8) holds 10, 14-18 and 20. Missing: 6, 8 (partition 1), 11
// (0), 12 (1), 19 (0); the table's runs are 6, 8, 11-12 and 19. Trino's
// islands: no other snapshot's row between first and last (B's 7-9 holds 8,
// which is missing), with the distinct seqs counted.
const std::vector<experiment::seq_island> islands{
    {100, 1, 5, 5}, {200, 7, 9, 2}, {300, 10, 10, 1}, {200, 13, 13, 1}, {300, 14, 20, 6}};
const std::vector<seq_range> runs{{6, 6}, {8, 8}, {11, 12}, {19, 19}};

std::vector<check::snapshot_entry> commits() {
    check::snapshot_entry a, b, c;
    a.snapshot_id = 100, a.watermark = 3, b.snapshot_id = 200, b.watermark = 7, c.snapshot_id = 300, c.watermark = 8;
    return {a, b, c};
}

// Flink's history: 4 and 5 timed out, 6 failed for another reason, 9 timed out.
std::vector<experiment::checkpoint_outcome> history() {
    std::vector<experiment::checkpoint_outcome> h;
    for (std::int64_t id = 1; id <= 10; ++id) {
        const bool expired = id == 4 || id == 5 || id == 9;
        h.push_back({id, expired || id == 6 ? "FAILED" : "COMPLETED",
                     expired   ? "Checkpoint expired before completing."
                     : id == 6 ? "Task failure"
                               : "",
                     0, 100});
    }
    return h;
}

std::vector<experiment::missing_run_attribution> attributed() {
    const auto parts = feed_partitions();
    return experiment::attribute_missing_runs(runs, experiment::pieces_of(runs, parts),
                                              experiment::spans_of(islands, parts, runs), commits(), history());
}
}  // namespace

// Mutation: keying spans_of's map by snapshot alone (partition 0) merges a
// snapshot's partitions into one span; not skipping the missing runs counts
// B's missing 8 (and throws on Trino's count).
TEST_CASE(
    "seq placement: each snapshot's seqs are spanned per partition of the feed, its missing seqs left out, counted exactly") {
    const auto spans = experiment::spans_of(islands, feed_partitions(), runs);
    REQUIRE(spans.size() == 5);
    auto span = [&](std::int64_t snap, std::uint64_t p) {
        for (const auto& s : spans)
            if (s.snapshot_id == snap && s.partition == p) return s;
        FAIL("no span of snapshot " << snap << " partition " << p);
        return experiment::seq_span{};
    };
    CHECK((span(100, 0).first_seq == 1 && span(100, 0).last_seq == 5 && span(100, 0).seqs == 3));
    CHECK((span(100, 1).first_seq == 2 && span(100, 1).last_seq == 4 && span(100, 1).seqs == 2));
    CHECK((span(200, 0).first_seq == 7 && span(200, 0).last_seq == 13 && span(200, 0).seqs == 3));
    CHECK((span(300, 0).first_seq == 15 && span(300, 0).last_seq == 17 && span(300, 0).seqs == 2));
    CHECK((span(300, 1).first_seq == 10 && span(300, 1).last_seq == 20 && span(300, 1).seqs == 5));
}

// Mutation: iterating an island to its own last seq (not the feed's last)
// reads past the feed's partitions and throws.
TEST_CASE("seq placement: seqs the feed never had are left out of the spans, not a failure of the run") {
    auto with_stray = islands;
    with_stray.back() = {300, 14, 25, 8};  // 21-25 are not in the feed
    with_stray.push_back({300, 0, 0, 1});
    const auto spans = experiment::spans_of(with_stray, feed_partitions(), runs);
    REQUIRE(spans.size() == 5);
    for (const auto& s : spans)
        if (s.snapshot_id == 300 && s.partition == 0) CHECK((s.last_seq == 17 && s.seqs == 2));
}

// Mutation: dropping the comparison with Trino's count (`held != i.seqs`) lets
// an island that holds another snapshot's seq pass as this one's.
TEST_CASE(
    "seq placement: an island whose seqs Trino counted otherwise than the table's missing runs leave is refused") {
    const std::vector<experiment::seq_island> wrong{{200, 7, 10, 2}};  // 10 is C's: 7, 9 and 10 are three
    CHECK_THROWS_AS(experiment::spans_of(wrong, feed_partitions(), runs), std::logic_error);
    CHECK_NOTHROW(experiment::spans_of({{200, 7, 10, 0}}, feed_partitions(), runs));  // no count given, no check
}

// Mutation: pieces_of keeping the run's own first seq as every piece's first
// (missing_piece{k, p, runs[k].first, ...}) gives partition 1's piece of 11-12 the first seq 11.
TEST_CASE("seq placement: a missing run over two partitions is split into one piece per partition") {
    const auto pieces = experiment::pieces_of({{11, 12}, {19, 19}}, feed_partitions());
    REQUIRE(pieces.size() == 3);
    CHECK((pieces[0].run == 0 && pieces[0].partition == 0 && pieces[0].first_seq == 11 && pieces[0].seqs == 1));
    CHECK((pieces[1].run == 0 && pieces[1].partition == 1 && pieces[1].first_seq == 12 && pieces[1].seqs == 1));
    CHECK((pieces[2].run == 1 && pieces[2].partition == 0 && pieces[2].last_seq == 19));
    CHECK_THROWS_AS(experiment::pieces_of({{20, 21}}, feed_partitions()), std::out_of_range);
}

// Mutation: choosing S_prev as the first candidate in commit order (`at <`
// for `<` in the prev comparison) makes A S_prev of seq 11, no hole.
TEST_CASE(
    "missing run attribution: seqs missing inside one commit's span of their partition are a hole that commit should have carried, exactly") {
    const auto a = attributed();
    REQUIRE(a.size() == 4);
    REQUIRE(a[2].pieces.size() == 2);
    const auto& eleven = a[2].pieces[0];
    CHECK(eleven.kind == attribution_kind::hole);
    CHECK(eleven.prev_snapshot == 200);
    CHECK((eleven.first_checkpoint == 7 && eleven.last_checkpoint == 7));
    CHECK(eleven.exact);
    // The checkpoints B's commit spanned (after A's 3, before its own 7).
    CHECK(eleven.timed_out == std::vector<std::int64_t>{4, 5});
    CHECK(eleven.failed_other == std::vector<std::int64_t>{6});
}

// Mutation: looking up every partition's spans (by_partition[0] for
// by_partition[piece.partition]) makes seq 12 a hole in B's partition-0 span.
TEST_CASE("missing run attribution: each partition of a run is attributed by that partition's spans alone") {
    const auto a = attributed();
    const auto& twelve = a[2].pieces[1];
    CHECK(twelve.piece.partition == 1);
    CHECK(twelve.kind == attribution_kind::hole);
    CHECK(twelve.prev_snapshot == 300);
    CHECK((twelve.first_checkpoint == 8 && twelve.exact));
    CHECK(twelve.timed_out.empty());
}

// Mutation: in_order as `>` makes the piece out_of_order with the bound reversed.
TEST_CASE(
    "missing run attribution: seqs missing between two commits' spans are bounded by those commits' checkpoints, not exact") {
    const auto a = attributed();
    for (std::size_t k : {0, 1}) {
        REQUIRE(a[k].pieces.size() == 1);
        const auto& p = a[k].pieces[0];
        CHECK(p.kind == attribution_kind::between);
        CHECK((p.prev_snapshot == 100 && p.next_snapshot == 300));
        CHECK((p.first_checkpoint == 3 && p.last_checkpoint == 8));
        CHECK_FALSE(p.exact);
        CHECK(p.timed_out == std::vector<std::int64_t>{4, 5});
        CHECK(p.failed_other == std::vector<std::int64_t>{6});
    }
}

// Mutation: window(a, a.prev_checkpoint, a.prev_checkpoint) for the lost_at_end
// window lists no timeout after the last commit.
TEST_CASE("missing run attribution: seqs no later commit carries are lost at the end, bounded below only") {
    const auto a = attributed();
    const auto& p = a[3].pieces.at(0);
    CHECK(p.kind == attribution_kind::lost_at_end);
    CHECK((p.prev_snapshot == 300 && p.next_snapshot == -1));
    CHECK((p.first_checkpoint == 8 && p.last_checkpoint == -1 && !p.exact));
    CHECK(p.timed_out == std::vector<std::int64_t>{9});
}

// Mutation: dropping the filter of by_partition (every span, listed or not)
// makes the unlisted file's span a candidate, and its lookup throws.
TEST_CASE("missing run attribution: rows of files no listed snapshot added are not used as a commit") {
    auto with_unlisted = islands;
    with_unlisted.push_back({-1, 10, 10, 1});  // a copy of C's 10 in a file no snapshot lists
    const auto parts = feed_partitions();
    const std::vector<seq_range> six{{6, 6}};
    const auto a = experiment::attribute_missing_runs(
        six, experiment::pieces_of(six, parts), experiment::spans_of(with_unlisted, parts, runs), commits(), history());
    CHECK(a.at(0).pieces.at(0).next_snapshot == 300);
}

// Mutation: `&&` to `||` before none_of in `exact` (exact whenever W is known) calls this hole exact.
TEST_CASE(
    "missing run attribution: a hole in a commit whose span another commit's seqs of the partition fall within is named, but not exact") {
    // X (checkpoint 2, committed first) holds partition 0's 9, inside B's 7-13.
    check::snapshot_entry x, b;
    x.snapshot_id = 50, x.watermark = 2, b.snapshot_id = 200, b.watermark = 7;
    const std::vector<experiment::seq_span> spans{{50, 0, 9, 9, 1}, {200, 0, 7, 13, 3}};
    const std::vector<seq_range> eleven{{11, 11}};
    const auto a = experiment::attribute_missing_runs(eleven, {{0, 0, 11, 11, 1}}, spans, {x, b}, history());
    const auto& p = a.at(0).pieces.at(0);
    CHECK(p.kind == attribution_kind::hole);
    CHECK((p.prev_snapshot == 200 && p.first_checkpoint == 7));
    CHECK_FALSE(p.exact);
}
