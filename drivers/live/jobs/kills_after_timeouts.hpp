// Experiment 1c's kill cells: the job's TaskManager SIGKILLed right after a
// checkpoint timed out, for each planned step of the run. The trigger is the
// checkpoint history the run's sampler merges each second: the first expired
// checkpoint above both the last one that triggered a kill and the checkpoint
// the job last restored, seen once the job runs again with a spare
// TaskManager. A run whose job times out no more checkpoints within the wait
// makes fewer kills (e1c.kills-applied says so).
#ifndef ROSTERRIG_LIVE_KILLS_AFTER_TIMEOUTS_HPP
#define ROSTERRIG_LIVE_KILLS_AFTER_TIMEOUTS_HPP
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp>

#include "roles/checkpoint_sampler.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

// Applies `steps` in order; `record` is called with each kill as it is made.
void kill_after_timeouts(session& s, const std::string& job, checkpoint_sampler& sampler,
                         const std::vector<experiment::fault_step>& steps, std::chrono::seconds wait_for_timeout,
                         const std::string& label, const std::function<void(const e1c::timeout_kill&)>& record);

}  // namespace rosterrig::live

#endif
