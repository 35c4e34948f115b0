#include "jobs/kills_after_timeouts.hpp"

#include "adapters/poll.hpp"
#include "roles/faults.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

void kill_after_timeouts(session& s, const std::string& job, checkpoint_sampler& sampler,
                         const std::vector<experiment::fault_step>& steps, std::chrono::seconds wait_for_timeout,
                         const std::string& label, const std::function<void(const e1c::timeout_kill&)>& record) {
    std::int64_t above = -1;  // the last trigger, or the last restore when higher
    for (const auto& step : steps) {
        await_running_then_delay(s, job, step);  // running again, a spare TaskManager registered
        // Only a checkpoint triggered from now on: one that expired at the job's
        // start, or before the last kill's recovery, expired seconds ago.
        const long long armed_at = now_ms();
        e1c::timeout_kill k;
        k.step = step;
        const auto seen = [&] {
            for (const auto& c : sampler.checkpoints_so_far())
                if (experiment::timed_out(c) && c.id > above && c.trigger_ms >= armed_at) {
                    k.timed_out_checkpoint = c.id, k.timed_out_seen_at_ms = now_ms();
                    return true;
                }
            return false;
        };
        const auto waited_ms = std::chrono::duration_cast<std::chrono::milliseconds>(wait_for_timeout).count();
        if (elapsed_until(now_ms(), waited_ms, seen, std::chrono::milliseconds(200)) < 0) {
            progress(label + ": no checkpoint above " + std::to_string(above) + " triggered and timed out within " +
                     std::to_string(wait_for_timeout.count()) + " s; " + std::to_string(step.index - 1) + " of " +
                     std::to_string(steps.size()) + " kills made");
            return;
        }
        k.kill = kill_taskmanager(s, job, step);
        progress(label + ": kill " + std::to_string(step.index) + " after checkpoint " +
                 std::to_string(k.timed_out_checkpoint) + " timed out; restored checkpoint " +
                 std::to_string(k.kill.restored_checkpoint_id) + ", running again after " +
                 std::to_string(k.kill.running_after_ms) + " ms");
        above = std::max(k.timed_out_checkpoint, k.kill.restored_checkpoint_id);
        record(k);
    }
}

}  // namespace rosterrig::live
