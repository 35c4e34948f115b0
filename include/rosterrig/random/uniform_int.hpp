// rosterrig/random/uniform_int.hpp: range reduction we own.
//
// Lemire's nearly-divisionless method ("Fast Random Integer Generation in an
// Interval", 2019) on 64-bit words with a 128-bit product. Unbiased: the
// rejection step removes the 2^64 mod bound surplus. Portable: same draws
// everywhere, unlike std::uniform_int_distribution.
#ifndef ROSTERRIG_RANDOM_UNIFORM_INT_HPP
#define ROSTERRIG_RANDOM_UNIFORM_INT_HPP

#include <cstdint>

#include "rosterrig/random/splitmix64.hpp"

namespace rosterrig {

/// A uniform integer in [0, bound). bound == 0 returns 0 without drawing.
template <class Engine>
std::uint64_t uniform_below(Engine& engine, std::uint64_t bound) {
    if (bound == 0) return 0;
    unsigned __int128 product = static_cast<unsigned __int128>(engine()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
        const std::uint64_t threshold = (0 - bound) % bound;
        while (low < threshold) {
            product = static_cast<unsigned __int128>(engine()) * bound;
            low = static_cast<std::uint64_t>(product);
        }
    }
    return static_cast<std::uint64_t>(product >> 64);
}

/// A uniform integer in the closed range [low, high].
template <class Engine>
std::uint64_t uniform_between(Engine& engine, std::uint64_t low, std::uint64_t high) {
    return low + uniform_below(engine, high - low + 1);
}

/// A uniform double in [0, 1) from the top 53 bits of one draw.
template <class Engine>
double uniform_unit(Engine& engine) {
    return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

/// True with probability p. Always consumes exactly one draw, whatever p is,
/// so that the stream position never depends on p (the generator relies on it:
/// turning a knob changes only what it governs).
template <class Engine>
bool bernoulli(Engine& engine, double p) {
    return uniform_unit(engine) < p;
}

}  // namespace rosterrig

#endif
