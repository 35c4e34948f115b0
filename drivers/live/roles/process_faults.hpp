// The one interface for process faults: a kill, pause or stop of any
// component target, and its heal. On the local stack by the pid file the
// stack wrote (a signal; the heal is the supervisor's replacement, SIGCONT,
// or `compose/stack up` for a component nothing supervises); on a described
// cluster by the description's commands for that target
// (rosterrig/stack/description.hpp: process_faults, and faults.kill_taskmanager).
// Every experiment's process fault goes through here, so a new target or a
// new stack is one change, not one per experiment.
#ifndef ROSTERRIG_LIVE_PROCESS_FAULTS_HPP
#define ROSTERRIG_LIVE_PROCESS_FAULTS_HPP
#include <chrono>
#include <cstdint>
#include <string>

#include <rosterrig/experiment/applied_fault.hpp>
#include <rosterrig/experiment/fault.hpp>
#include <rosterrig/stack/fault_command.hpp>
#include <rosterrig/stack/local_process.hpp>

#include "adapters/live_error.hpp"
#include "adapters/process_fault.hpp"
#include "adapters/process_pause.hpp"
#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// Whom a process fault is aimed at.
struct process_target {
    experiment::fault_target target = experiment::fault_target::flink_taskmanager;
    component_address who;                   // named in every failure: name, address, log
    std::string pid_file;                    // the local stack's; "" on a described cluster
    stack::placeholder_values placeholders;  // the description's commands' values
};

// The target as this stack runs it: locally its pid file (`process`, the
// pid-file name, picks one of several: "flink-taskmanager-2", "connect-w2";
// default the target's first), its address and log; on a described cluster
// its {component.*} placeholders.
process_target process_of(const stack_config& stack, experiment::fault_target target, const std::string& process = {});

// A kill in progress: what was killed and, once seen, its replacement.
struct process_kill {
    process_target target;
    const stack::fault_commands* commands = nullptr;  // the description's kill, or nullptr: SIGKILL by pid file
    kill_record record;                               // pid 0 when a command killed it
};

// SIGKILL by the pid file, or the description's kill command (the moment
// recorded just before it runs). Throws naming the component.
process_kill kill_target(const stack_config& stack, const process_target& t);

// One look, no wait: has the killed process come back? Locally a different
// live pid in its pid file; described, its came_back command exits 0 (false
// without one).
bool came_back_once(const stack_config& stack, const process_kill& k);

// Waits for the supervisor's replacement pid (await_replacement; local only).
void await_supervisor_replacement(process_kill& k, std::chrono::seconds deadline);

// Starts a killed or stopped component again: locally `compose/stack up
// <component>` (an extra Connect worker: `compose/stack connect-worker up N`,
// stack::start_arguments) under the same ROSTERRIG_STATE (output appended to
// <state>/logs/stack-up.log), then its new pid; described, its start command
// then its came_back. Bounded by `deadline`.
void start_again(const stack_config& stack, process_kill& k, std::chrono::seconds deadline);

// The heal of a kill as stack::heal_of_kill chooses it: the supervisor's
// replacement, start_again, or (a described cluster without a start command)
// its came_back until it exits 0. Fills k.record's replacement.
void heal_kill(const stack_config& stack, process_kill& k, std::chrono::seconds deadline);

// A pause in progress.
struct process_pause {
    process_target target;
    const stack::fault_commands* resume = nullptr;  // described: the resume command; nullptr: SIGCONT
    pause_record record;                            // pid 0 when a command paused it
};

// SIGSTOP by the pid file (remembered until resumed, heal_paused_on_exit), or
// the description's pause command.
process_pause pause_target(const stack_config& stack, const process_target& t);
// SIGCONT, or the description's resume command.
void resume_target(const stack_config& stack, process_pause& p);

// What one fault applied and healed by fault_and_heal was seen to do.
struct healed_fault {
    long long pid = 0;
    long long fault_at_ms = 0;      // SIGSTOP, SIGKILL or SIGTERM sent, the start begun (or the command run), epoch ms
    std::string state_seen_paused;  // pause: the state letter after SIGSTOP, read until T (at most 2 s)
    long long replacement_pid = 0;  // kill, stop: the new process
    long long healed_at_ms = 0;     // pause: SIGCONT sent; kill, stop: the replacement seen; start: the started one up
};

// One fault on a process, applied and healed. `pause`: SIGSTOP, `duration_ms`
// stopped, SIGCONT. `stop` (local stack): SIGTERM, `duration_ms`, started
// again by start_again; a supervised process's supervisor is told first not
// to start it again (stack::supervisor_stop_flag), so the stop lasts
// duration_ms. `start` (local stack): a process that is not running is
// started (start_again; `pid` is the started one, there is nothing to heal).
// Any other kind: SIGKILL and its heal (heal_kill, up to 60 s for a
// supervisor's replacement, 300 s for a start). `name` starts the progress
// line (the label and the process, "e7b[...]: worker 2").
healed_fault fault_and_heal(const stack_config& stack, experiment::fault_kind kind, const process_target& t,
                            std::int64_t duration_ms, const std::string& name);

// The JobManager killed and started again: kill_target, heal_kill (locally
// `compose/stack up flink`, which starts the JobManager, the one Flink
// process nothing supervises; described, its start command or its
// came_back), then until its REST /overview answers listing at least the
// TaskManagers registered before the kill, each wait bounded by `deadline`.
// A job it ran is not resubmitted: what the loss does to a job is an
// experiment's question. The record notes what Flink reported.
experiment::applied_fault kill_and_restart_jobmanager(const stack_config& stack, std::chrono::seconds deadline);

}  // namespace rosterrig::live

#endif
