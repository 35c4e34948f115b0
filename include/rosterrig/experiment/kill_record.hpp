// rosterrig/experiment/kill_record.hpp: what one TaskManager kill did, as the
// fault adapter records it: the process killed and its replacement, when Flink
// saw the failure, and when the job was whole again.
#ifndef ROSTERRIG_EXPERIMENT_KILL_RECORD_HPP
#define ROSTERRIG_EXPERIMENT_KILL_RECORD_HPP

#include <cstdint>
#include <optional>

#include <boost/describe.hpp>

#include "rosterrig/experiment/recovery_phases.hpp"

namespace rosterrig::experiment {

/// The job's checkpoint statistics at one moment (Flink's REST API).
struct checkpoint_state {
    std::int64_t completed = 0;
    std::int64_t in_progress = 0;
    std::int64_t latest_completed_id = -1;
    std::int64_t latest_completed_at_ms = 0;  ///< epoch ms; 0 when none
    std::int64_t restarts = 0;                ///< numRestarts
};

struct kill_record {
    std::int64_t pid = 0;
    std::int64_t killed_at_ms = 0;  ///< epoch ms
    std::int64_t replacement_pid = 0;
    std::int64_t replaced_at_ms = 0;    ///< the supervisor's new process in the pid file
    std::int64_t restarting_at_ms = 0;  ///< Flink put the job in RESTARTING
    std::int64_t running_after_ms = 0;  ///< every task RUNNING again, counted from the kill
    std::int64_t restored_checkpoint_id = -1;
    std::int64_t restarts_after = 0;
    std::int64_t exceptions_after = 0;  ///< entries in Flink's exception history
    bool same_job_running = false;      ///< an internal restart of the same job id
    std::optional<recovery_moments>
        moments;  ///< the recovery's phases as Flink and the polls saw them (absent in older runs)
};
BOOST_DESCRIBE_STRUCT(kill_record, (),
                      (pid, killed_at_ms, replacement_pid, replaced_at_ms, restarting_at_ms, running_after_ms,
                       restored_checkpoint_id, restarts_after, exceptions_after, same_job_running, moments))

}  // namespace rosterrig::experiment

#endif
