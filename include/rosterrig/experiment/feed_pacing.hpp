// rosterrig/experiment/feed_pacing.hpp: how fast to feed so that data is still
// arriving when the last fault lands. A fault cycle (recovery, a fresh
// checkpoint, the planned delay) takes 10 to 30 s on a loaded 2-core machine,
// so the feed starts paced for a guessed cycle and is re-planned after each
// fault from the cycles measured so far: steady between faults, never dry.
#ifndef ROSTERRIG_EXPERIMENT_FEED_PACING_HPP
#define ROSTERRIG_EXPERIMENT_FEED_PACING_HPP

#include <algorithm>
#include <cstdint>

namespace rosterrig::experiment {

struct feed_pacing {
    double guessed_cycle_s = 16.0;  ///< before any fault has been measured
    double tail_s = 20.0;           ///< feed left after the last fault
    double margin = 1.25;           ///< cycles run this much longer than the mean so far

    /// Events per second for the whole feed, before the first fault.
    double initial_rate(std::uint64_t events, std::uint64_t faults) const {
        return static_cast<double>(events) / (tail_s + guessed_cycle_s * static_cast<double>(faults));
    }

    /// Events per second for the rest of the feed after `done` of `faults`
    /// faults, `elapsed_s` into it, with `sent` events sent; at least 1.
    double rate_after(std::uint64_t events, std::uint64_t sent, double elapsed_s, std::uint64_t done,
                      std::uint64_t faults) const {
        const double mean_cycle_s = done ? elapsed_s / static_cast<double>(done) : guessed_cycle_s;
        const double left_s = tail_s + margin * mean_cycle_s * static_cast<double>(faults > done ? faults - done : 0);
        const double left_events = static_cast<double>(events) - static_cast<double>(std::min(sent, events));
        return std::max(1.0, left_events / left_s);
    }
};

}  // namespace rosterrig::experiment

#endif
