// rosterrig/check/kill_attribution.hpp: which kill produced which duplicate,
// when several kills share one job run.
//
// The producer sends seq in ascending order, so at each kill we know
// sent_before_kill: every seq <= that number had been handed to Kafka. A replay
// after kill k re-reads records from the checkpoint restored by k up to where
// the job had got, and the job can only have read what was already sent. So a
// duplicated seq s can only have been caused by a kill k with
// sent_before_kill[k] >= s; we attribute it to the FIRST such kill, the earliest
// replay that could have re-read it. A duplicate with no such kill (sent after
// the last kill) is unattributed: no kill can explain it, which is itself a
// finding, and it is reported, never dropped.
#ifndef ROSTERRIG_CHECK_KILL_ATTRIBUTION_HPP
#define ROSTERRIG_CHECK_KILL_ATTRIBUTION_HPP

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rosterrig/check/append_check.hpp"

namespace rosterrig {

struct kill_attribution {
    std::vector<std::uint64_t> duplicates_per_kill;  ///< extra rows attributed to each kill, in kill order
    std::uint64_t unattributed = 0;                  ///< extra rows no kill can explain
};

/// sent_before_kill must be non-decreasing (kills happen in time order while the
/// producer only moves forward); throws std::invalid_argument otherwise.
inline kill_attribution attribute_duplicates(const std::vector<std::uint64_t>& sent_before_kill,
                                             const std::vector<seq_copies>& duplicates) {
    if (!std::is_sorted(sent_before_kill.begin(), sent_before_kill.end()))
        throw std::invalid_argument("attribute_duplicates: kills must be in time order");
    kill_attribution out;
    out.duplicates_per_kill.assign(sent_before_kill.size(), 0);
    for (const auto& d : duplicates) {
        const std::uint64_t extra = d.copies > 0 ? d.copies - 1 : 0;
        auto it = std::lower_bound(sent_before_kill.begin(), sent_before_kill.end(), d.seq);
        if (it == sent_before_kill.end())
            out.unattributed += extra;
        else
            out.duplicates_per_kill[static_cast<std::size_t>(it - sent_before_kill.begin())] += extra;
    }
    return out;
}

}  // namespace rosterrig

#endif
