// rosterrig/experiment/backpressure.hpp: how backpressured a job's source was,
// as Flink measures it: backPressuredTimeMsPerSecond, the milliseconds of each
// second a subtask waited for buffers downstream (0 to 1000), the largest over
// the source's subtasks, sampled from the REST server while the feed ran. Flink
// averages the metric over its own window and refreshes the REST cache every
// second, so a sample is a smoothed reading, not an instant.
#ifndef ROSTERRIG_EXPERIMENT_BACKPRESSURE_HPP
#define ROSTERRIG_EXPERIMENT_BACKPRESSURE_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/stats/summary.hpp"

namespace rosterrig::experiment {

struct backpressure_sample {
    std::int64_t at_ms = 0;   ///< since the feed started
    double max_ms_per_s = 0;  ///< the largest backPressuredTimeMsPerSecond over the source's subtasks
    friend bool operator==(const backpressure_sample&, const backpressure_sample&) = default;
};
BOOST_DESCRIBE_STRUCT(backpressure_sample, (), (at_ms, max_ms_per_s))

/// The samples' median and largest value, taken over those from `from_ms` to
/// `to_ms` (since the feed started); nullopt when none fall in it.
struct backpressure_summary {
    std::size_t samples = 0;
    double median_ms_per_s = 0;
    double max_ms_per_s = 0;
};
inline std::optional<backpressure_summary> summarize_backpressure(const std::vector<backpressure_sample>& xs,
                                                                  std::int64_t from_ms, std::int64_t to_ms) {
    std::vector<double> in;
    for (const auto& x : xs)
        if (x.at_ms >= from_ms && x.at_ms <= to_ms) in.push_back(x.max_ms_per_s);
    if (in.empty()) return std::nullopt;
    const auto s = stats::summarize(in);
    return backpressure_summary{in.size(), s.median, *std::max_element(in.begin(), in.end())};
}

}  // namespace rosterrig::experiment

#endif
