// What experiments 1 and 1b share around a run of TaskManager kills: the
// kill loop (the trigger, a last look whether to stop, the SIGKILL and heal
// recorded as experiment 1's kill sample, a paced feed re-paced) and the end
// (the feed finished, the job drained, the run's common fields from Flink and
// from the table read back).
#ifndef ROSTERRIG_LIVE_KILL_RUN_HPP
#define ROSTERRIG_LIVE_KILL_RUN_HPP
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>

#include "roles/feeder.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

struct kill_loop_hooks {
    // Waits for the step's moment, given the checkpoint the previous kill restored (-1 before the first).
    std::function<void(const experiment::fault_step&, long long last_restored)> trigger;
    // Whether the kills end before this step; it says why in the progress log.
    std::function<bool(const experiment::fault_step&)> stop;
    // Saves the kill in the run's history.
    std::function<void(const e1::kill_sample&)> record;
    // What the progress line adds after experiment 1's description of the kill.
    std::function<std::string(const e1::kill_sample&)> more = [](const e1::kill_sample&) { return std::string(); };
};

// Runs `steps` against `job`: trigger, stop check, SIGKILL of the TaskManager
// and the heal, record; with `pacing`, the feed is re-paced after each kill.
void run_kill_loop(session& s, const std::string& job, const std::string& label, feeder& feed, long long feed_start_ms,
                   const std::vector<experiment::fault_step>& steps,
                   const std::optional<experiment::feed_pacing>& pacing, const kill_loop_hooks& hooks);

// The feed finished and the job drained: its group at the topic's end.
produce_report finish_and_drain(session& s, feeder& feed, const std::string& job, const pipeline_spec& p,
                                int partitions, const std::string& label, long long feed_start_ms,
                                std::chrono::seconds drain);

// What a run's end reads from the stack: when it was read, the job as Flink
// reports it and the table's snapshots as the catalog lists them. Read before
// the history records it, so no network call runs under the history's lock.
struct run_end_reading {
    long long read_at_ms = 0;
    std::string final_job_state;
    std::int64_t restarts_reported = 0;
    std::int64_t exceptions_recorded = 0;
    std::vector<check::snapshot_entry> snapshot_log;
};
run_end_reading read_run_end(session& s, const std::string& job, const pipeline_spec& p);

// The run's fields at its end: the feed as acknowledged, the job and the
// snapshots as `end` read them, the table as read back (with each kill's
// attributed duplicates).
void record_run_end(e1::configuration_run& run, const produce_report& report, long long feed_start_ms,
                    const run_end_reading& end, const experiment::table_observation& seen);

}  // namespace rosterrig::live

#endif
