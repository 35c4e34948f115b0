// rosterrig/check/observed_row.hpp: a row read back from a table, as the
// checks see it.
#ifndef ROSTERRIG_CHECK_OBSERVED_ROW_HPP
#define ROSTERRIG_CHECK_OBSERVED_ROW_HPP

#include <cstdint>
#include <optional>

#include "rosterrig/generate/roster_event.hpp"

namespace rosterrig {

/// seq and the record are optional because a table may not carry them: the
/// append check needs seq; the upsert check needs seq or the fields' digest.
struct observed_row {
    std::optional<std::uint64_t> seq;
    std::uint64_t npi = 0;
    std::optional<std::uint64_t> fields_digest;  ///< fields_digest(provider_fields)
};

/// The row a perfect sink would write for an event.
inline observed_row row_of(const roster_event& e) { return observed_row{e.seq, e.npi, fields_digest(e.fields)}; }

}  // namespace rosterrig

#endif
