// Waiting for a Flink job to reach a state an experiment needs, each through
// poll_until so every timeout names Flink, the job and what it last reported;
// and checking it runs at the interval asked for.
#ifndef ROSTERRIG_LIVE_JOB_WAITS_HPP
#define ROSTERRIG_LIVE_JOB_WAITS_HPP
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "adapters/flink_rest.hpp"
#include "adapters/kafka_admin.hpp"

namespace rosterrig::live {

// Every task of the job RUNNING; throws at once if the job FAILED or ended.
void wait_all_running(const flink_rest& flink, const std::string& job, std::chrono::seconds deadline);

// The job FAILED, is RESTARTING or has an exception in its history: it has
// failed at least once. `about` follows the job's id in the timeout message.
void wait_job_failed(const flink_rest& flink, const std::string& job, std::chrono::seconds deadline,
                     const std::string& about = "");

// wait_job_failed for a run where not failing is an outcome to record: how
// long after `t0` the job was seen to have failed, or -1 with a progress line
// under `label` when it was not within `deadline`.
long long failed_after_ms(const flink_rest& flink, const std::string& job, std::chrono::steady_clock::time_point t0,
                          std::chrono::seconds deadline, const std::string& about, const std::string& label);

// The job entered RESTARTING at or after since_ms (epoch ms): the failure was seen.
void wait_restart_after(const flink_rest& flink, const std::string& job, long long since_ms,
                        std::chrono::seconds deadline);

// At least `slots` free slots, within 15 s (a cancelled job's slots come back
// a moment after it ends); otherwise throws naming Flink and the slot counts.
void wait_free_slots(const flink_rest& flink, long long slots);

// A checkpoint with id above `above` completed; returns its id.
long long wait_checkpoint_above(const flink_rest& flink, const std::string& job, long long above,
                                std::chrono::seconds deadline);

// `n` more checkpoints complete after the newest one now, each within
// `each` (a checkpoint may take a whole interval); returns the last one's id.
long long wait_more_checkpoints(const flink_rest& flink, const std::string& job, long long n,
                                std::chrono::seconds each);

// The job's checkpoint interval (Flink's checkpoint config); throws unless it is `want`.
std::int64_t require_checkpoint_interval(const flink_rest& flink, const std::string& job, std::int64_t want);

// The group's lag on the topic is zero, then `extra_checkpoints` more
// checkpoints complete so the commit that carried the last records has landed.
void wait_until_drained(const flink_rest& flink, kafka_admin& admin, const std::string& job, const std::string& group,
                        const std::string& topic, int partitions, std::chrono::seconds deadline,
                        int extra_checkpoints = 2);

// wait_until_drained for a job whose tasks all run; a job that is not (failing
// to restore, say) or that does not drain in time is left as it is, with a
// progress line: for a run where that is an outcome to record, not an error.
void drain_if_healthy(const flink_rest& flink, kafka_admin& admin, const std::string& job, const std::string& group,
                      const std::string& topic, int partitions, std::chrono::seconds deadline,
                      const std::string& label);

struct savepoint_taken {
    std::string path;
    long long id = -1;         // the checkpoint id the engine gave it
    bool id_is_bound = false;  // the engine did not list it in time: `id` is an upper bound
    // Savepoints refused because the job was failing over (the exception that
    // made it restart, as Flink's history names it), each followed by a retry
    // once the job ran again.
    std::vector<std::string> retried_after;
};

// A savepoint of the running job into `target_dir`, with the id Flink gave it.
// A job failing over suspends its checkpoint coordinator, which refuses the
// savepoint: up to three attempts, each once the job runs again.
// `right_after` runs as soon as the savepoint completes, before its id is
// looked up (which may take seconds): where a fault must follow it at once.
savepoint_taken take_savepoint(const flink_rest& flink, const std::string& job, const std::string& target_dir,
                               const std::function<void()>& right_after = {});

}  // namespace rosterrig::live

#endif
