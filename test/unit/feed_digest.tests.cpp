// The feed digest a run records (generate/feed_digest.hpp): the producer's
// running hash and a regeneration from the spec agree, byte for byte, with
// the JSON lines `rosterrig generate` writes. Each test names the change that
// makes it fail; each was applied once and seen to fail.
#include <catch2/catch.hpp>

#include <string>

#include "rosterrig/detail/sha256.hpp"
#include "rosterrig/generate/feed_digest.hpp"

using namespace rosterrig;

namespace {
// The feed's lines with seq in [first, last], as the CLI writes them.
std::string lines_of(const roster_spec& spec, std::uint64_t first = 1, std::uint64_t last = ~std::uint64_t{0}) {
    std::string out;
    for_each_event(spec, [&](const roster_event& e) {
        if (e.seq >= first && e.seq <= last) append_json_line(out, e);
    });
    return out;
}
// Big enough to cross feed_sha256's 64 KiB chunks several times.
const roster_spec small{.seed = 5, .providers = 300, .events = 2000, .partitions = 4};
}  // namespace

// Mutation: drop the final `h.add_lines(chunk)` in feed_sha256 (the last,
// partial chunk never hashed): this fails.
TEST_CASE("a feed's streamed digest is the SHA-256 of its JSON lines", "[generate][digest]") {
    const auto bytes = lines_of(small);
    REQUIRE(bytes.size() > 3 * 64 * 1024);
    CHECK(feed_sha256(small) == detail::sha256_hex(bytes));
}

// Mutation: drop `hash_.update("\n")` from feed_hasher::add_value: this fails.
TEST_CASE("record values hashed as the producer hands them over give the feed's digest", "[generate][digest]") {
    // The producer's records carry the line without its '\n' (feeder.cpp's
    // kafka_records); its hasher puts the '\n' back.
    feed_hasher h;
    for_each_event(small, [&](const roster_event& e) {
        auto value = to_json_line(e);
        value.pop_back();
        h.add_value(value);
    });
    CHECK(h.hex() == feed_sha256(small));
}

// Mutation: in feed_sha256, regenerate from `roster_spec{}` instead of `spec`
// (the seed ignored): this fails.
TEST_CASE("the same seed gives the same feed digest and another seed another", "[generate][digest]") {
    CHECK(feed_sha256(small) == feed_sha256(small));
    auto other = small;
    other.seed = 6;
    CHECK(feed_sha256(other) != feed_sha256(small));
    CHECK(feed_sha256(other) == detail::sha256_hex(lines_of(other)));
}

// Mutation: `e.seq < first_seq` -> `e.seq <= first_seq` in feed_sha256 (the
// batch's first line left out): this fails.
TEST_CASE("a batch's digest covers exactly the lines of its seqs", "[generate][digest]") {
    CHECK(feed_sha256(small, 501, 1200) == detail::sha256_hex(lines_of(small, 501, 1200)));
    CHECK(feed_sha256(small, 1, 2000) == feed_sha256(small));
    CHECK(feed_sha256(small, 2000, 2000) == detail::sha256_hex(lines_of(small, 2000, 2000)));
}

// The default feed's digest is the one pinned in generator.tests.cpp and
// docs/EXPECTED_STATE.md; the CLI test (cli_test.cmake) checks that
// `rosterrig generate --seed 1` writes bytes with this same digest, so a
// recorded digest can be checked with `rosterrig generate ... | sha256sum`.
// Mutation: change feed_salt's last hex digit: this fails.
TEST_CASE("the default feed's digest is the pinned digest of what rosterrig generate writes", "[generate][digest]") {
    CHECK(feed_sha256(roster_spec{}) == "a5860f2dad88ae8addb8cc89c0fde5e150a9a6a11274dd38a507e7b0e324e19e");
}
