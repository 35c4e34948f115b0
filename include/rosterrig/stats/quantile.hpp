// rosterrig/stats/quantile.hpp: one sample's q-quantile, for the benchmarks'
// medians and 90th percentiles (no interpolation: a value that was measured).
#ifndef ROSTERRIG_STATS_QUANTILE_HPP
#define ROSTERRIG_STATS_QUANTILE_HPP

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace rosterrig::stats {

/// The measured value at rank round(q * (n - 1)) of the sorted sample, so q = 0
/// is the minimum, 1 the maximum and 0.5 the middle value (the upper middle of
/// an even count). Throws std::domain_error on an empty sample or q outside [0, 1].
inline double nearest_rank_quantile(std::vector<double> values, double q) {
    if (values.empty()) throw std::domain_error("nearest_rank_quantile: no values");
    if (!(q >= 0.0 && q <= 1.0)) throw std::domain_error("nearest_rank_quantile: q outside [0, 1]");
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
    return values[rank];
}

}  // namespace rosterrig::stats

#endif
