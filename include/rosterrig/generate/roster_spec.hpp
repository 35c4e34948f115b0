// rosterrig/generate/roster_spec.hpp: the generator's inputs.
#ifndef ROSTERRIG_GENERATE_ROSTER_SPEC_HPP
#define ROSTERRIG_GENERATE_ROSTER_SPEC_HPP

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rosterrig {

/// Everything the roster feed depends on. The feed is a pure function of it.
/// The defaults reproduce the reference study's shape (2,000 providers,
/// 12,000 events, 4 partitions) with late stale assertions turned off.
struct roster_spec {
    std::uint64_t seed = 1;
    std::uint64_t providers = 2000;
    std::uint64_t events = 12000;
    std::uint32_t partitions = 4;
    /// Probability that an event is a late re-delivery of a provider's
    /// previous assertion (lower revision, arriving after the newer one).
    /// Only providers with at least two assertions can get one. 0 = off.
    double late_stale_fraction = 0.0;

    friend bool operator==(const roster_spec&, const roster_spec&) = default;
};

/// The feed an experiment's parameters name: seed, events, providers, partitions.
inline roster_spec roster_feed(std::uint64_t seed, std::uint64_t events, std::uint64_t providers,
                               std::uint32_t partitions) {
    roster_spec s;
    s.seed = seed;
    s.events = events;
    s.providers = providers;
    s.partitions = partitions;
    return s;
}

/// Upper bound on providers: the NPI space we draw from has 2e8 identifiers.
inline constexpr std::uint64_t max_providers = 100'000'000;

/// Throws std::invalid_argument naming the first bad input.
inline void validate(const roster_spec& spec) {
    if (spec.providers == 0 || spec.providers > max_providers)
        throw std::invalid_argument("providers must be in 1.." + std::to_string(max_providers));
    if (spec.partitions == 0 || spec.partitions > 1'000'000)
        throw std::invalid_argument("partitions must be in 1..1000000");
    if (!(spec.late_stale_fraction >= 0.0 && spec.late_stale_fraction <= 1.0))
        throw std::invalid_argument("late_stale_fraction must be in [0, 1]");
}

}  // namespace rosterrig

#endif
