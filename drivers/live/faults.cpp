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

taskmanager_kill_record kill_taskmanager(session& s, const std::string& job, const experiment::fault_step& step) {
    if (step.kind != experiment::fault_kind::kill_taskmanager)
        throw live_error("fault step " + std::to_string(step.index) + " is not a TaskManager kill");
    taskmanager_kill_record r;
    r.kill = kill_and_await_restart(s.taskmanager(), s.taskmanager_pid_file(), std::chrono::seconds(60));
    // The failure must be seen before "running again" means anything.
    wait_restart_after(s.flink, job, r.kill.killed_at_ms, std::chrono::seconds(120));
    wait_all_running(s.flink, job, std::chrono::seconds(180));
    r.running_after_ms = now_ms() - r.kill.killed_at_ms;
    r.restarting_at_ms = s.flink.last_restarting_ms(job);
    r.restarts_after = s.flink.restarts(job);
    r.exceptions_after = static_cast<long long>(s.flink.exceptions(job).size());
    r.restored_checkpoint_id = s.flink.checkpoints(job).latest_restored_id;
    r.same_job_running = s.flink.job_state(job) == "RUNNING";
    return r;
}

}  // namespace rosterrig::live
