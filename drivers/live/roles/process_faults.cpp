#include "roles/process_faults.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <functional>
#include <fstream>
#include <string>
#include <vector>
#include <thread>

#include "adapters/child_process.hpp"
#include "adapters/flink_rest.hpp"
#include "adapters/poll.hpp"
#include "roles/fault_commands.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

namespace {
using experiment::fault_target;

component_address address_of(const stack_config& stack, fault_target target) {
    switch (target) {
        case fault_target::flink_jobmanager:
            return stack.flink();
        case fault_target::sql_gateway:
            return stack.sql_gateway();
        case fault_target::iceberg_catalog:
            return stack.catalog();
        case fault_target::object_store:
            return stack.s3();
        case fault_target::kafka_broker:
            return stack.kafka();
        case fault_target::trino:
            return stack.trino();
        case fault_target::connect_worker:
            if (stack.local()) return stack.connect();
            return {"kafka-connect", "", 0, "", "the described cluster's Connect worker", {}};
        case fault_target::flink_taskmanager:
            break;
    }
    return {"flink-taskmanager", "", 0, "", "the TaskManager", {}};
}

// Sleeps `ms`, waking every 100 ms so that Ctrl-C ends the wait at once.
void interruptible_sleep(std::int64_t ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until) {
        throw_if_interrupted();
        std::this_thread::sleep_for(
            std::min(std::chrono::milliseconds(100),
                     std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now())));
    }
}

const stack::fault_commands& required(const stack_config& stack, const process_target& t, const char* action) {
    const auto* c = stack::commands_for(stack.described, t.target, action);
    if (!c)
        throw live_error(t.who, std::string("the stack description (") + stack.description_file + ") gives no " +
                                    action + " command for process_faults." + experiment::name_of(t.target) +
                                    " (docs/STACK.md)");
    return *c;
}

// The values the description's commands are filled with: the target's {component.*} and the caller's.
stack::placeholder_values values_for(const stack_config& stack, const process_target& t) {
    auto v = stack::component_placeholders(stack.described, t.target);
    for (const auto& [k, x] : t.placeholders) v[k] = x;
    return v;
}

// The local process's pid-file name: "connect-w2" for <state>/pids/connect-w2.pid.
std::string pid_name_of(const process_target& t) {
    if (t.pid_file.empty()) return stack::local_process_of(t.target).pid_name;
    return std::filesystem::path(t.pid_file).stem().string();
}

// SIGTERM to the process's group when it leads one (compose/lib.sh's rr_start
// starts each in its own session, as rr_stop stops it), else to the process.
void terminate(const component_address& who, long long pid) {
    if (::kill(static_cast<pid_t>(-pid), SIGTERM) != 0 && ::kill(static_cast<pid_t>(pid), SIGTERM) != 0)
        throw live_error(who, "SIGTERM of pid " + std::to_string(pid) + " failed: errno " + std::to_string(errno));
}
}  // namespace

process_target process_of(const stack_config& stack, experiment::fault_target target, const std::string& process) {
    process_target t;
    t.target = target;
    t.who = address_of(stack, target);
    if (stack.local()) {
        const auto name = process.empty() ? stack::local_process_of(target).pid_name : process;
        t.pid_file = stack.pid_file(name);
        t.who.log_file = stack.log_file(name);
    }
    return t;
}

process_kill kill_target(const stack_config& stack, const process_target& t) {
    process_kill k;
    k.target = t;
    k.commands = stack::commands_for(stack.described, t.target, "kill");
    if (k.commands) {
        k.record.killed_at_ms = now_ms();
        run_fault_command(stack, *k.commands, values_for(stack, t));
    } else {
        k.record = kill_process(t.who, t.pid_file);
    }
    return k;
}

bool came_back_once(const stack_config& stack, const process_kill& k) {
    if (!k.commands) return replacement_of(k.record, k.target.pid_file) != 0;
    return !k.commands->came_back.empty() && fault_target_came_back(stack, *k.commands, values_for(stack, k.target));
}

void await_supervisor_replacement(process_kill& k, std::chrono::seconds deadline) {
    await_replacement(k.target.who, k.target.pid_file, k.record, deadline);
}

void start_again(const stack_config& stack, process_kill& k, std::chrono::seconds deadline) {
    const auto& who = k.target.who;
    if (!stack.local()) {
        const auto& start = required(stack, k.target, "start");
        run_fault_command(stack, start, values_for(stack, k.target));
        if (!start.came_back.empty())
            poll_until(
                who, deadline, [&] { return fault_target_came_back(stack, start, values_for(stack, k.target)); },
                [] { return std::string("the start command's came_back exiting 0"); },
                {std::chrono::seconds(1), std::chrono::seconds(15)});
        k.record.replaced_at_ms = now_ms();
        return;
    }
    // compose/stack starts whatever of the component is not running (an
    // extra Connect worker by its own command, stack::start_arguments); the
    // same state folder, so it writes the pid file this run reads.
    const auto args = stack::start_arguments(k.target.target, pid_name_of(k.target));
    const auto log = stack.log_file("stack-up");
    std::filesystem::create_directories(std::filesystem::path(log).parent_path());
    const auto script = stack.compose_dir + "/stack";
    std::string what = script;
    for (const auto& a : args) what += " " + a;
    progress("starting " + who.name + " again: " + what + " (log " + log + ")");
    std::vector<std::string> command{
        "env", "ROSTERRIG_STATE=" + stack.state_dir, "bash", "-c", "exec \"$0\" \"$@\" >&2", script};
    command.insert(command.end(), args.begin(), args.end());
    child_process up(command, log);
    const auto code = up.wait(deadline);
    if (!code)
        throw live_error(
            who, what + " did not finish within " + std::to_string(deadline.count()) + " s; killed (read " + log + ")");
    if (*code != 0) throw live_error(who, what + " exited " + std::to_string(*code) + " (read " + log + ")");
    // It waited for the component's health; its pid file names the new process by now.
    await_replacement(who, k.target.pid_file, k.record, std::chrono::seconds(10));
}

void heal_kill(const stack_config& stack, process_kill& k, std::chrono::seconds deadline) {
    const bool start_given = stack::commands_for(stack.described, k.target.target, "start") != nullptr;
    switch (stack::heal_of_kill(k.target.target, !stack.local(), start_given)) {
        case stack::kill_heal::supervisor_replaces:
            await_supervisor_replacement(k, deadline);
            return;
        case stack::kill_heal::experiment_starts:
            start_again(stack, k, deadline);
            return;
        case stack::kill_heal::cluster_brings_back:
            if (!k.commands || k.commands->came_back.empty())
                throw live_error(k.target.who,
                                 "the stack description gives neither a start nor a came_back command "
                                 "for process_faults." +
                                     experiment::name_of(k.target.target) +
                                     ": nothing would say it is back (docs/STACK.md)");
            poll_until(
                k.target.who, deadline, [&] { return came_back_once(stack, k); },
                [] { return std::string("the kill's came_back command exiting 0"); },
                {std::chrono::seconds(1), std::chrono::seconds(15)});
            k.record.replaced_at_ms = now_ms();
            return;
    }
}

process_pause pause_target(const stack_config& stack, const process_target& t) {
    process_pause p;
    p.target = t;
    if (const auto* pause = stack::commands_for(stack.described, t.target, "pause")) {
        p.resume = &required(stack, t, "resume");
        p.record.paused_at_ms = now_ms();
        run_fault_command(stack, *pause, values_for(stack, t));
    } else {
        p.record = pause_process(t.who, t.pid_file);
    }
    return p;
}

void resume_target(const stack_config& stack, process_pause& p) {
    if (!p.resume) return resume_process(p.target.who, p.record);
    run_fault_command(stack, *p.resume, values_for(stack, p.target));
    p.record.resumed_at_ms = now_ms();
}

namespace {

// Heals a fault when its scope ends before the heal was reached (an error, a
// stop request): no pause or stop outlives the fault that made it. The heal's
// own failure is reported, not thrown, from a destructor.
class heal_on_unwind {
public:
    heal_on_unwind(std::string what, std::function<void()> heal) : what_(std::move(what)), heal_(std::move(heal)) {}
    heal_on_unwind(const heal_on_unwind&) = delete;
    heal_on_unwind& operator=(const heal_on_unwind&) = delete;
    ~heal_on_unwind() {
        if (done) return;
        try {
            heal_();
        } catch (const std::exception& e) {
            progress("could not " + what_ + " after an error: " + e.what());
        }
    }
    bool done = false;  ///< set just before the heal runs in the ordinary way

private:
    std::string what_;
    std::function<void()> heal_;
};

}  // namespace

healed_fault fault_and_heal(const stack_config& stack, experiment::fault_kind kind, const process_target& t,
                            std::int64_t duration_ms, const std::string& name) {
    healed_fault f;
    if (kind == experiment::fault_kind::pause) {
        auto p = pause_target(stack, t);
        // Whatever ends this scope before the resume resumes the target: a
        // described pause is in no table the exit handler heals.
        heal_on_unwind guard("resume", [&] { resume_target(stack, p); });
        auto& r = p.record;
        f.pid = r.pid, f.fault_at_ms = r.paused_at_ms;
        if (r.pid > 0) {
            elapsed_until(now_ms(), 2000, [&] { return process_state(r.pid) == 'T'; }, std::chrono::milliseconds(20));
            f.state_seen_paused = std::string(1, process_state(r.pid));
        }
        progress(name + " paused for " + std::to_string(duration_ms / 1000) + " s");
        std::this_thread::sleep_for(std::chrono::milliseconds(duration_ms));
        guard.done = true;
        resume_target(stack, p);
        f.healed_at_ms = now_ms();
    } else if (kind == experiment::fault_kind::stop) {
        if (!stack.local())
            throw live_error(t.who,
                             "a stop needs the local stack's pid file (a description gives kill and start: "
                             "use kill)");
        process_kill k;
        k.target = t;
        k.record.pid = read_pid(t.pid_file);
        if (!process_alive(k.record.pid)) throw live_error(t.who, "no live process in " + t.pid_file + " to stop");
        // A supervised process would be started again by its supervisor a
        // second after it exits: its stop flag first, so the supervisor exits
        // with it and the stop lasts duration_ms (compose/stack up, the heal,
        // removes the flag when it starts the supervisor again).
        std::string flag;
        if (stack::local_process_of(t.target).supervised) {
            flag = stack.state_dir + "/" + stack::supervisor_stop_flag(pid_name_of(t));
            std::ofstream touch(flag, std::ios::app);
            if (!touch) throw live_error(t.who, "could not write the supervisor's stop flag " + flag);
        }
        k.record.killed_at_ms = now_ms();
        try {
            terminate(t.who, k.record.pid);
        } catch (const std::exception&) {
            if (!flag.empty()) std::filesystem::remove(flag);  // still running: its supervisor as it was
            throw;
        }
        // Whatever ends this scope before the heal starts the process again:
        // no stop outlives its fault.
        heal_on_unwind guard("start the stopped process again",
                             [&] { start_again(stack, k, std::chrono::seconds(300)); });
        f.pid = k.record.pid, f.fault_at_ms = k.record.killed_at_ms;
        progress(name + " (pid " + std::to_string(k.record.pid) + ") sent SIGTERM, started again after " +
                 std::to_string(duration_ms / 1000) + " s");
        // As compose/lib.sh's rr_stop: 20 s to exit, then SIGKILL.
        elapsed_until(now_ms(), 20000, [&] { return !process_alive(k.record.pid); }, std::chrono::milliseconds(100));
        if (process_alive(k.record.pid)) ::kill(static_cast<pid_t>(k.record.pid), SIGKILL);
        interruptible_sleep(std::max<std::int64_t>(0, duration_ms - (now_ms() - k.record.killed_at_ms)));
        guard.done = true;
        start_again(stack, k, std::chrono::seconds(300));
        f.replacement_pid = k.record.replacement_pid, f.healed_at_ms = k.record.replaced_at_ms;
    } else if (kind == experiment::fault_kind::start) {
        if (!stack.local())
            throw live_error(t.who, "a start needs the local stack's compose/stack (a description gives no join)");
        process_kill k;
        k.target = t;
        k.record.pid = read_pid(t.pid_file);  // a stale pid, or 0: start_again waits for another
        if (process_alive(k.record.pid))
            throw live_error(
                t.who, "pid " + std::to_string(k.record.pid) + " in " + t.pid_file + " is running: nothing to start");
        f.fault_at_ms = k.record.killed_at_ms = now_ms();
        progress(name + " starting");
        start_again(stack, k, std::chrono::seconds(300));
        f.pid = k.record.replacement_pid, f.healed_at_ms = k.record.replaced_at_ms;
    } else {
        auto k = kill_target(stack, t);
        f.pid = k.record.pid, f.fault_at_ms = k.record.killed_at_ms;
        progress(name + " (pid " + std::to_string(k.record.pid) + ") SIGKILLed");
        const bool supervised =
            stack::heal_of_kill(t.target, !stack.local(), false) == stack::kill_heal::supervisor_replaces;
        heal_kill(stack, k, std::chrono::seconds(supervised ? 60 : 300));
        f.replacement_pid = k.record.replacement_pid, f.healed_at_ms = k.record.replaced_at_ms;
    }
    return f;
}

experiment::applied_fault kill_and_restart_jobmanager(const stack_config& stack, std::chrono::seconds deadline) {
    using experiment::fault_kind;
    experiment::applied_fault a;
    a.planned = {
        1, "jobmanager",
        experiment::make_fault(fault_kind::kill, fault_target::flink_jobmanager, {}, "the check's last step", 0)};
    const auto jm = stack.flink();
    const int before = flink_rest(jm).registered_taskmanagers();
    auto k = kill_target(stack, process_of(stack, fault_target::flink_jobmanager));
    a.applied_at_ms = k.record.killed_at_ms;
    a.done = k.commands ? "the description's kill command" : "SIGKILL pid " + std::to_string(k.record.pid);
    a.note("flink_taskmanager", std::to_string(before) + " registered before the kill");
    progress("jobmanager: " + a.done + "; starting it again");
    heal_kill(stack, k, deadline);
    if (k.record.replacement_pid != 0) a.done += "; started again as pid " + std::to_string(k.record.replacement_pid);
    a.note("flink_jobmanager",
           "started again " + std::to_string(k.record.replaced_at_ms - a.applied_at_ms) + " ms after the kill");
    // A fresh client per ask: the old JobManager's connection died with it.
    int registered = -1;
    poll_until(
        jm, deadline,
        [&] {
            try {
                registered = flink_rest(jm).registered_taskmanagers();
            } catch (const std::exception&) {
                registered = -1;  // not answering yet
            }
            return registered >= before;
        },
        [&] {
            return "GET /overview listing " + std::to_string(before) +
                   " TaskManagers (last: " + (registered < 0 ? std::string("no answer") : std::to_string(registered)) +
                   ")";
        },
        {std::chrono::milliseconds(200), std::chrono::seconds(15)});
    a.healed_at_ms = now_ms();
    a.note("flink_jobmanager",
           "REST /overview answered " + std::to_string(a.healed_at_ms - a.applied_at_ms) + " ms after the kill");
    a.note("flink_taskmanager", std::to_string(registered) + " registered with the new JobManager");
    return a;
}

}  // namespace rosterrig::live
