// Faults applied from a plan's steps, each leaving a record of what happened:
// when it was applied, what Flink saw, and when the job was whole again.
#ifndef ROSTERRIG_LIVE_FAULTS_HPP
#define ROSTERRIG_LIVE_FAULTS_HPP
#include <chrono>
#include <optional>
#include <string>

#include <rosterrig/experiment/fault_plan.hpp>
#include <rosterrig/experiment/kill_record.hpp>

#include <rosterrig/stack/fault_command.hpp>

#include "adapters/process_fault.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

// A fault command's placeholders for a kill of `target` under `job`
// (rosterrig/stack/fault_command.hpp names them).
stack::placeholder_values fault_placeholders(const session::taskmanager_process& target, const std::string& job);

// The job's checkpoint statistics and restart count now.
experiment::checkpoint_state checkpoint_state(session& s, const std::string& job);

// Waits for the first checkpoint completed after the last recovery, then
// the step's planned delay: the trigger the kill plan is drawn for.
void await_kill_trigger(session& s, const std::string& job, long long last_restored_id,
                        const experiment::fault_step& step);

// Waits until every task runs again after the last recovery (and a spare
// TaskManager is registered), then the step's planned delay, without waiting
// for a checkpoint: a kill may then restore the same checkpoint as the one
// before it, so a feed the job reads faster than it checkpoints lasts for
// more kills.
void await_running_then_delay(session& s, const std::string& job, const experiment::fault_step& step);

// SIGKILLs the TaskManager (the step must be a kill_taskmanager step) and
// waits for the heal: a new TaskManager, Flink's RESTARTING, every task RUNNING.
// With `heal_or_record`, a job whose tasks are not all RUNNING within that
// long is recorded as not healed (running_after_ms -1) instead of thrown:
// for a run where failing to restore is an outcome.
experiment::kill_record kill_taskmanager(session& s, const std::string& job, const experiment::fault_step& step,
                                         std::optional<std::chrono::seconds> heal_or_record = std::nullopt);

}  // namespace rosterrig::live

#endif
