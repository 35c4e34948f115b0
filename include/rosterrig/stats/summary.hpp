// rosterrig/stats/summary.hpp: min / median / max of repeated measurements.
#ifndef ROSTERRIG_STATS_SUMMARY_HPP
#define ROSTERRIG_STATS_SUMMARY_HPP

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace rosterrig::stats {

struct summary {
    double min = 0, median = 0, max = 0;
    std::size_t count = 0;
    friend bool operator==(const summary&, const summary&) = default;
};

/// Median of an even count is the mean of the two middle values.
/// Throws std::domain_error on an empty sample.
inline summary summarize(std::vector<double> values) {
    if (values.empty()) throw std::domain_error("summarize: no values");
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    return summary{values.front(), median, values.back(), n};
}

}  // namespace rosterrig::stats

#endif
