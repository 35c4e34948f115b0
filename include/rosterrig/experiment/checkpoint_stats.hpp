// rosterrig/experiment/checkpoint_stats.hpp: one completed checkpoint as
// Flink's REST checkpoint statistics report it, with the writer vertex's
// barrier alignment: the window in which an at-least-once writer with several
// input channels processes records that arrived after a barrier, records a
// restore from that checkpoint replays.
#ifndef ROSTERRIG_EXPERIMENT_CHECKPOINT_STATS_HPP
#define ROSTERRIG_EXPERIMENT_CHECKPOINT_STATS_HPP

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe.hpp>

namespace rosterrig::experiment {

struct checkpoint_stat {
    std::int64_t id = -1;
    std::string status;              ///< COMPLETED, FAILED, IN_PROGRESS
    std::int64_t trigger_ms = 0;     ///< epoch ms
    std::int64_t end_to_end_ms = 0;  ///< trigger to the last acknowledgement
    std::int64_t checkpointed_bytes = 0;
    // The writer vertex's subtasks (GET .../checkpoints/details/<id>/subtasks/<vertex>):
    std::int64_t writer_subtasks = 0;
    std::int64_t writer_alignment_max_ms = 0;    ///< first to last barrier, the slowest subtask
    std::int64_t writer_start_delay_max_ms = 0;  ///< trigger to the first barrier at the subtask
    std::int64_t writer_processed_bytes = 0;     ///< processed during alignment, summed over subtasks
    std::int64_t writer_persisted_bytes = 0;     ///< in-flight data written into the checkpoint (unaligned)
    bool writer_unaligned = false;               ///< any subtask took it unaligned
};
BOOST_DESCRIBE_STRUCT(checkpoint_stat, (),
                      (id, status, trigger_ms, end_to_end_ms, checkpointed_bytes, writer_subtasks,
                       writer_alignment_max_ms, writer_start_delay_max_ms, writer_processed_bytes,
                       writer_persisted_bytes, writer_unaligned))

/// Adds the checkpoints of `seen` not yet in `into` (by id), keeping `into` ordered by id.
inline void merge_checkpoints(std::vector<checkpoint_stat>& into, const std::vector<checkpoint_stat>& seen) {
    for (const auto& c : seen)
        if (std::none_of(into.begin(), into.end(), [&](const checkpoint_stat& x) { return x.id == c.id; }))
            into.push_back(c);
    std::sort(into.begin(), into.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
}

/// The ids already recorded.
inline std::vector<std::int64_t> ids_of(const std::vector<checkpoint_stat>& v) {
    std::vector<std::int64_t> out;
    for (const auto& c : v) out.push_back(c.id);
    return out;
}

}  // namespace rosterrig::experiment

#endif
