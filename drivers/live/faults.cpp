#include "faults.hpp"

#include <algorithm>
#include <thread>

#include "job_waits.hpp"
#include "progress.hpp"

namespace rosterrig::live {

void await_kill_trigger(session& s, const std::string& job, long long last_restored_id,
                        const experiment::fault_step& step) {
    wait_all_running(s.flink, job, std::chrono::seconds(180));
    const long long base = s.flink.checkpoints(job).latest_completed_id;
    wait_checkpoint_above(s.flink, job, std::max(base - 1, last_restored_id), std::chrono::seconds(120));
    for (long long slept = 0; slept < step.delay_ms; slept += 100) {
        throw_if_interrupted();
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(100LL, step.delay_ms - slept)));
    }
}

experiment::checkpoint_state checkpoint_state(session& s, const std::string& job) {
    const auto c = s.flink.checkpoints(job);
    return {c.completed, c.in_progress, c.latest_completed_id, c.latest_completed_at_ms, s.flink.restarts(job)};
}

experiment::kill_record kill_taskmanager(session& s, const std::string& job, const experiment::fault_step& step,
                                         std::optional<std::chrono::seconds> heal_or_record) {
    if (step.kind != experiment::fault_kind::kill_taskmanager)
        throw live_error("fault step " + std::to_string(step.index) + " is not a TaskManager kill");
    experiment::kill_record r;
    const auto k = kill_and_await_restart(s.taskmanager(), s.taskmanager_pid_file(), std::chrono::seconds(60));
    r.pid = k.pid, r.killed_at_ms = k.killed_at_ms, r.replacement_pid = k.replacement_pid, r.replaced_at_ms = k.replaced_at_ms;
    // The failure must be seen before "running again" means anything.
    wait_restart_after(s.flink, job, r.killed_at_ms, std::chrono::seconds(120));
    try {
        wait_all_running(s.flink, job, heal_or_record.value_or(std::chrono::seconds(180)));
        r.running_after_ms = now_ms() - r.killed_at_ms;
    } catch (const live_error& e) {
        if (!heal_or_record) throw;
        progress(std::string("the job did not heal after the kill: ") + e.what());
        r.running_after_ms = -1;
    }
    r.restarting_at_ms = s.flink.last_restarting_ms(job);
    r.restarts_after = s.flink.restarts(job);
    r.exceptions_after = static_cast<long long>(s.flink.exceptions(job).size());
    r.restored_checkpoint_id = s.flink.checkpoints(job).latest_restored_id;
    r.same_job_running = r.running_after_ms >= 0 && s.flink.job_state(job) == "RUNNING";
    return r;
}

}  // namespace rosterrig::live
