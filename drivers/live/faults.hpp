// Faults applied from a plan's steps, each leaving a record of what happened:
// when it was applied, what Flink saw, and when the job was whole again.
#pragma once
#include <string>

#include <rosterrig/experiment/fault_plan.hpp>

#include "process_fault.hpp"
#include "session.hpp"

namespace rosterrig::live {

struct taskmanager_kill_record {
    kill_record kill;                    // pid, killed_at_ms, replacement pid and time
    long long restarting_at_ms = 0;      // Flink put the job in RESTARTING (after the kill)
    long long running_after_ms = 0;      // every task RUNNING again, from the kill
    long long restored_checkpoint_id = -1;
    long long restarts_after = 0;        // numRestarts
    long long exceptions_after = 0;      // entries in the exception history
    bool same_job_running = false;       // an internal restart of the same job id
};

// Waits for the first checkpoint completed after the last recovery, then
// the step's planned delay: the trigger the kill plan is drawn for.
void await_kill_trigger(session& s, const std::string& job, long long last_restored_id,
                        const experiment::fault_step& step);

// SIGKILLs the TaskManager (the step must be a kill_taskmanager step) and
// waits for the heal: a new TaskManager, Flink's RESTARTING, every task RUNNING.
taskmanager_kill_record kill_taskmanager(session& s, const std::string& job, const experiment::fault_step& step);

}  // namespace rosterrig::live
