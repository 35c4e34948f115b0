// rosterrig/generate/roster_event.hpp: one assertion about one provider.
#ifndef ROSTERRIG_GENERATE_ROSTER_EVENT_HPP
#define ROSTERRIG_GENERATE_ROSTER_EVENT_HPP

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "rosterrig/random/splitmix64.hpp"

namespace rosterrig {

/// Who asserted a record. Each source has its own habits (see generator.hpp).
enum class source_kind : std::uint8_t {
    state_board,      ///< rare, full records, lags hours to a day
    payer_directory,  ///< frequent partial corrections, lags minutes
    credentialing,    ///< re-verifications, lags hours to days
};

inline constexpr std::string_view to_string(source_kind s) noexcept {
    switch (s) {
        case source_kind::state_board:
            return "state_board";
        case source_kind::payer_directory:
            return "payer_directory";
        case source_kind::credentialing:
            return "credentialing_service";
    }
    return "unknown";
}

/// The provider record an assertion carries. Every assertion carries the whole
/// record as the source believes it after that assertion.
struct provider_fields {
    std::string name;
    std::string taxonomy;  ///< NUCC health care provider taxonomy code
    std::string address;   ///< practice street address
    std::string city;
    std::string state;   ///< two-letter USPS code
    std::string zip;     ///< five digits
    std::string phone;   ///< NNN-NNN-NNNN
    std::string status;  ///< active | inactive | suspended

    friend bool operator==(const provider_fields&, const provider_fields&) = default;
};

/// A 64-bit digest of the fields in declaration order (8 bytes at a time,
/// each string length-prefixed, mixed with the SplitMix64 finalizer). Used to
/// compare a table row with the expected record in memory proportional to
/// keys rather than to record sizes. Not persisted: free to change.
inline std::uint64_t fields_digest(const provider_fields& f) noexcept {
    std::uint64_t h = 0x6669656c64732121ULL;
    auto add = [&h](std::string_view s) {
        h = mix64(h ^ s.size());
        std::size_t i = 0;
        for (; i + 8 <= s.size(); i += 8) {
            std::uint64_t word;
            std::memcpy(&word, s.data() + i, 8);
            h = mix64(h ^ word);
        }
        if (i < s.size()) {
            std::uint64_t word = 0;
            std::memcpy(&word, s.data() + i, s.size() - i);
            h = mix64(h ^ word);
        }
    };
    add(f.name);
    add(f.taxonomy);
    add(f.address);
    add(f.city);
    add(f.state);
    add(f.zip);
    add(f.phone);
    add(f.status);
    return h;
}

/// One event of the feed. seq is its identity and its arrival position.
struct roster_event {
    std::uint64_t seq = 0;        ///< 1..N, arrival order
    std::uint64_t npi = 0;        ///< ten digits, valid check digit; the message key
    std::uint32_t partition = 0;  ///< partition_of(npi, partitions)
    source_kind source = source_kind::state_board;
    std::uint32_t revision = 0;       ///< per NPI, 1, 2, ...; increases with asserted_at
    std::int64_t asserted_at_ms = 0;  ///< event time, milliseconds since the Unix epoch, UTC
    provider_fields fields;

    friend bool operator==(const roster_event&, const roster_event&) = default;
};

}  // namespace rosterrig

#endif
