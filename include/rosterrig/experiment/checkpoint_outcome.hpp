// rosterrig/experiment/checkpoint_outcome.hpp: how each checkpoint of a job
// ended, as Flink's checkpoint history reports it: completed, or failed and
// why (a timed-out one reads "Checkpoint expired before completing.").
// Flink keeps only its last web.checkpoints.history entries, so a run polls
// and merges; the counts Flink keeps for the whole job are the exact totals.
#ifndef ROSTERRIG_EXPERIMENT_CHECKPOINT_OUTCOME_HPP
#define ROSTERRIG_EXPERIMENT_CHECKPOINT_OUTCOME_HPP

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe.hpp>

namespace rosterrig::experiment {

struct checkpoint_outcome {
    std::int64_t id = -1;
    std::string status;              ///< COMPLETED, FAILED (IN_PROGRESS ones are not recorded)
    std::string failure_message;     ///< Flink's, "" for a completed one
    std::int64_t trigger_ms = 0;     ///< epoch ms
    std::int64_t end_to_end_ms = 0;  ///< trigger to the last acknowledgement (to the failure, for a failed one)
};
BOOST_DESCRIBE_STRUCT(checkpoint_outcome, (), (id, status, failure_message, trigger_ms, end_to_end_ms))

/// The job's totals, from Flink's counters (not from the polled history).
struct checkpoint_totals {
    std::int64_t completed = 0;
    std::int64_t failed = 0;
};
BOOST_DESCRIBE_STRUCT(checkpoint_totals, (), (completed, failed))

/// When Flink marked the checkpoint complete, or failed it (trigger + end to end).
inline std::int64_t ended_at_ms(const checkpoint_outcome& c) { return c.trigger_ms + c.end_to_end_ms; }

/// Whether a failed checkpoint failed by its timeout (Flink's CheckpointFailureReason.CHECKPOINT_EXPIRED).
inline bool timed_out(const checkpoint_outcome& c) {
    return c.status == "FAILED" && c.failure_message.find("expired") != std::string::npos;
}

/// Adds the outcomes of `seen` not yet in `into` (by id), keeping `into` ordered by id.
inline void merge_outcomes(std::vector<checkpoint_outcome>& into, const std::vector<checkpoint_outcome>& seen) {
    for (const auto& c : seen)
        if (std::none_of(into.begin(), into.end(), [&](const checkpoint_outcome& x) { return x.id == c.id; }))
            into.push_back(c);
    std::sort(into.begin(), into.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
}

}  // namespace rosterrig::experiment

#endif
