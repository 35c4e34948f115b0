// rosterrig/random/splitmix64.hpp: the one random engine of the project.
//
// SplitMix64 (Steele, Lea, Flood 2014; the constants of Vigna's public-domain
// splitmix64.c). Chosen because its output is defined bit for bit by the
// algorithm alone, so a seed means the same bytes with every compiler and
// standard library. Nothing in rosterrig uses <random> distributions.
#ifndef ROSTERRIG_RANDOM_SPLITMIX64_HPP
#define ROSTERRIG_RANDOM_SPLITMIX64_HPP

#include <cstdint>

namespace rosterrig {

/// The SplitMix64 finalizer: a bijective 64-bit mixing function.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// SplitMix64: a 64-bit state advanced by the golden-ratio increment.
class splitmix64 {
public:
    using result_type = std::uint64_t;

    constexpr explicit splitmix64(std::uint64_t seed) noexcept : state_{seed} {}

    constexpr std::uint64_t next() noexcept {
        state_ += 0x9e3779b97f4a7c15ULL;
        return mix64(state_);
    }
    constexpr std::uint64_t operator()() noexcept { return next(); }

    static constexpr std::uint64_t min() noexcept { return 0; }
    static constexpr std::uint64_t max() noexcept { return ~std::uint64_t{0}; }

private:
    std::uint64_t state_;
};

}  // namespace rosterrig

#endif
