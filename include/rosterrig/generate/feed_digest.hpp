// rosterrig/generate/feed_digest.hpp: the SHA-256 of a feed as JSON lines.
//
// A feed's digest is the SHA-256 of its records' values in the order they are
// handed to the producer, each followed by '\n': exactly the bytes
// `rosterrig generate` writes for the same spec (append_json_line), so
// `rosterrig generate --seed S ... | sha256sum` gives the digest a run records.
// The producer hashes as it produces (drivers/live/adapters/kafka_producer.cpp) and a
// claim test regenerates the feed from the recorded parameters with
// feed_sha256; both go through feed_hasher, so they frame lines alike.
// Needs OpenSSL::Crypto (rosterrig::experiments links it).
#ifndef ROSTERRIG_GENERATE_FEED_DIGEST_HPP
#define ROSTERRIG_GENERATE_FEED_DIGEST_HPP

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "rosterrig/detail/sha256.hpp"
#include "rosterrig/generate/generator.hpp"
#include "rosterrig/generate/json_lines.hpp"
#include "rosterrig/generate/roster_spec.hpp"

namespace rosterrig {

/// Hashes record values one by one, each as a line (value + '\n').
class feed_hasher {
public:
    void add_value(std::string_view value) {
        hash_.update(value);
        hash_.update("\n");
    }
    /// Whole lines, '\n' included (append_json_line's output), in bulk.
    void add_lines(std::string_view lines) { hash_.update(lines); }
    std::string hex() { return hash_.hex(); }

private:
    detail::sha256 hash_;
};

/// The digest of the feed's lines with seq in [first_seq, last_seq] (a batch
/// of it; by default the whole feed), regenerated from the spec, streamed:
/// lines are hashed in 64 KiB chunks, never the whole feed in memory.
inline std::string feed_sha256(const roster_spec& spec, std::uint64_t first_seq = 1,
                               std::uint64_t last_seq = std::numeric_limits<std::uint64_t>::max()) {
    feed_hasher h;
    std::string chunk;
    for_each_event(spec, [&](const roster_event& e) {
        if (e.seq < first_seq || e.seq > last_seq) return;
        append_json_line(chunk, e);
        if (chunk.size() >= 64 * 1024) h.add_lines(chunk), chunk.clear();
    });
    h.add_lines(chunk);
    return h.hex();
}

}  // namespace rosterrig

#endif
