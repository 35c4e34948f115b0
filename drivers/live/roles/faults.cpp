#include "roles/faults.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "roles/process_faults.hpp"
#include "roles/job_waits.hpp"
#include "roles/periodic.hpp"
#include "adapters/poll.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

namespace {
void await_running_with_spare(session& s, const std::string& job) {
    wait_all_running(s.flink, job, std::chrono::seconds(180));
    // A kill with no TaskManager to go to would measure waiting for a JVM, not recovery.
    poll_until(
        s.stack.flink(), std::chrono::seconds(120), [&] { return s.spare_taskmanager_registered(); },
        [] { return std::string("no spare TaskManager registered again after the last kill"); });
}
void sleep_planned_delay(const experiment::fault_step& step) {
    for (long long slept = 0; slept < step.delay_ms; slept += 100) {
        throw_if_interrupted();
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(100LL, step.delay_ms - slept)));
    }
}
}  // namespace

void await_kill_trigger(session& s, const std::string& job, long long last_restored_id,
                        const experiment::fault_step& step) {
    await_running_with_spare(s, job);
    const long long base = s.flink.checkpoints(job).latest_completed_id;
    wait_checkpoint_above(s.flink, job, std::max(base - 1, last_restored_id), std::chrono::seconds(120));
    sleep_planned_delay(step);
}

void await_running_then_delay(session& s, const std::string& job, const experiment::fault_step& step) {
    await_running_with_spare(s, job);
    sleep_planned_delay(step);
}

stack::placeholder_values fault_placeholders(const session::taskmanager_process& target, const std::string& job) {
    return {{"taskmanager.id", target.id},
            {"taskmanager.host", target.address.host},
            {"taskmanager.rpc_port", std::to_string(target.address.port)},
            {"taskmanager.data_port", std::to_string(target.data_port)},
            {"job.id", job}};
}

experiment::checkpoint_state checkpoint_state(session& s, const std::string& job) {
    const auto c = s.flink.checkpoints(job);
    // One ask: waiting for a metric the fetcher has not got would move the
    // kill seconds past its planned moment (it did, by ~6 s, for exactly-once jobs).
    return {c.completed, c.in_progress, c.latest_completed_id, c.latest_completed_at_ms, s.flink.restarts(job, 1)};
}

experiment::kill_record kill_taskmanager(session& s, const std::string& job, const experiment::fault_step& step,
                                         std::optional<std::chrono::seconds> heal_or_record) {
    if (step.kind != experiment::fault_kind::kill_taskmanager)
        throw live_error("fault step " + std::to_string(step.index) + " is not a TaskManager kill");
    experiment::kill_record r;
    // The supervisor's new JVM and its registration, as the JobManager lists
    // it, polled through the whole recovery: each a bound within the poll's
    // 100 ms. The job may run again before either (on another TaskManager).
    const auto target = s.taskmanager_of(job);
    const auto before = s.flink.taskmanager_ids();
    // A stack description may inject the kill with its own command; then the
    // effect is what Flink reports (RESTARTING after the kill, or the run
    // fails), and the return its came_back command or a new TaskManager.
    const process_target tm{experiment::fault_target::flink_taskmanager, target.address, target.pid_file,
                            fault_placeholders(target, job)};
    std::atomic<long long> registered_at{0}, replaced_at{0};
    const flink_rest own(s.stack.flink());  // the sampler's own client: one connection per thread
    // The process kill (pid 0 when a command injected it), through the one interface for process faults.
    auto kill = kill_target(s.stack, tm);
    const auto* commands = kill.commands;
    kill_record& k = kill.record;
    long long next_came_back_ms = 0;  // the came_back command at most once a second
    periodic watch(std::chrono::milliseconds(100), periodic::clock::now(), [&](long long t_ms) {
        if (replaced_at.load() == 0) {
            if (!commands) {
                if (came_back_once(s.stack, kill)) replaced_at = now_ms();
            } else if (!commands->came_back.empty() && t_ms >= next_came_back_ms) {
                next_came_back_ms = t_ms + 1000;
                if (came_back_once(s.stack, kill)) replaced_at = now_ms();
            }
        }
        if (registered_at.load() != 0) return;
        try {
            // Flink names a local TaskManager <host>:<rpc port>-<suffix>: the killed one's port, a new id.
            // Elsewhere the replacement may come up under another address: any new id counts.
            const std::string killed = commands ? std::string() : target.address.where() + "-";
            for (const auto& id : own.taskmanager_ids())
                if (id.rfind(killed, 0) == 0 && std::find(before.begin(), before.end(), id) == before.end())
                    registered_at = now_ms();
        } catch (const std::exception&) {  // the JobManager busy recovering: ask again next tick
        }
    });
    r.pid = k.pid, r.killed_at_ms = k.killed_at_ms;
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
    r.restarts_after = s.flink.restarts(job, 1);  // one ask: the next kill's moment must not wait on it
    const auto exceptions = s.flink.exceptions(job);
    const auto checkpoints = s.flink.checkpoints(job);
    r.exceptions_after = static_cast<long long>(exceptions.size());
    r.restored_checkpoint_id = checkpoints.latest_restored_id;
    r.same_job_running = r.running_after_ms >= 0 && s.flink.job_state(job) == "RUNNING";
    if (!commands) {
        k.replaced_at_ms = replaced_at.load();
        await_supervisor_replacement(kill, std::chrono::seconds(60));
    } else {
        // Back: the came_back command said so, or (without one) a new TaskManager registered.
        auto& back = commands->came_back.empty() ? registered_at : replaced_at;
        poll_until(
            target.address, std::chrono::seconds(commands->deadline_seconds), [&] { return back.load() != 0; },
            [&] {
                return std::string(commands->came_back.empty() ? "no new TaskManager registered with Flink"
                                                               : "the came_back command did not exit 0") +
                       " after the kill command";
            });
        k.replaced_at_ms = back.load();
    }
    watch.stop();
    r.replacement_pid = k.replacement_pid, r.replaced_at_ms = k.replaced_at_ms;
    auto& m = r.moments.emplace();
    if (registered_at.load() > 0) m.taskmanager_registered_at_ms = registered_at.load();
    for (const auto& e : exceptions)  // the entry this kill caused: the first at or after it
        if (e.timestamp_ms >= r.killed_at_ms && (!m.failure_seen_at_ms || e.timestamp_ms < *m.failure_seen_at_ms))
            m.failure_seen_at_ms = e.timestamp_ms;
    if (r.running_after_ms >= 0) {
        const auto [deploying, running] = s.flink.deploying_and_running_ms(job);
        if (deploying >= r.killed_at_ms) m.tasks_deploying_at_ms = deploying;
        if (running >= r.killed_at_ms) m.tasks_running_at_ms = running;
        if (checkpoints.latest_restored_at_ms >= r.killed_at_ms) m.restored_at_ms = checkpoints.latest_restored_at_ms;
    }
    return r;
}

}  // namespace rosterrig::live
