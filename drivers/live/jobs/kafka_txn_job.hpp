// A Kafka → Flink → Kafka job writing at exactly-once, as experiment 5 runs
// it: its topics, jobs and transactional ids, undone however the run ends;
// the broker's transaction states sampled on a thread; what an operator would
// watch (job state, checkpoints, exception history, the transaction warnings
// in Flink's logs); the output read back at either isolation level; and the
// TaskManager SIGKILL that leaves a writer's transaction to the broker.
#ifndef ROSTERRIG_LIVE_KAFKA_TXN_JOB_HPP
#define ROSTERRIG_LIVE_KAFKA_TXN_JOB_HPP
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>

#include "roles/job_waits.hpp"
#include "adapters/kafka_producer.hpp"
#include "adapters/kafka_reader.hpp"
#include "roles/periodic.hpp"
#include "roles/pipeline.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

// What the job is asked to run with.
struct txn_job_settings {
    long long transaction_timeout_ms = 0;
    std::int64_t checkpoint_interval_ms = 0;
    std::int64_t parallelism = 0;
};

// One run's two topics, its jobs and its transactional-id prefix. On
// destruction: every job cancelled, every transaction the prefix left open
// aborted (the broker is asked which), the topics deleted.
class txn_scope {
public:
    txn_scope(session& s, const std::string& label, const txn_job_settings& settings);
    ~txn_scope();
    txn_scope(const txn_scope&) = delete;
    txn_scope& operator=(const txn_scope&) = delete;

    // Creates both topics and submits the job; returns its id.
    std::string launch(int partitions);
    // Submits the job again on the same topics, restored from `savepoint`.
    std::string relaunch_from(const std::string& savepoint);

    kafka_pipeline_spec spec;
    created_resources created;

private:
    std::string submit();
    session& s_;
    std::vector<std::string> jobs_;
};

// The broker's states for every transactional id of a prefix, every 3 s
// (each sample starts a JVM), as times since `t0`.
class transaction_sampler {
public:
    transaction_sampler(session& s, const std::string& prefix, std::chrono::steady_clock::time_point t0);
    std::vector<e5::transaction_state> stop();

private:
    std::mutex mutex_;
    std::vector<e5::transaction_state> seen_;
    periodic tick_;
};

// Where each Flink log ends now, so that a run counts only its own lines.
using log_marks = std::map<std::string, std::uintmax_t>;
log_marks mark_flink_logs(const stack_config& stack);

// What an operator would see of `job`, and the transaction warnings written
// to the Flink logs since `since` that are not another run's (`prefix`: this
// run's transactional-id prefix).
e5::job_signals signals_of(session& s, const std::string& job, const std::string& prefix, const log_marks& since);

// `topic` read to its end at `level`, every seq checked against a feed of `events`.
e5::output_read read_back(session& s, const std::string& topic, int partitions, isolation level, std::uint64_t events);

// What a run ends with, once its job has had time to commit: the broker's
// transaction states (the sampler stopped), the output read at read_committed
// and read_uncommitted, and what an operator sees of `job`.
template <class Run>
void read_outcome(session& s, Run& r, transaction_sampler& states, const std::string& out_topic, int partitions,
                  const std::string& job, const std::string& prefix, std::uint64_t events, const log_marks& logs) {
    r.states = states.stop();
    r.committed = read_back(s, out_topic, partitions, isolation::read_committed, events);
    r.uncommitted = read_back(s, out_topic, partitions, isolation::read_uncommitted, events);
    r.signals = signals_of(s, job, prefix, logs);
}

// A stuck run's wait: reads `topic` at read_committed every 2 s until every
// plain record (`partition_of`: seq -> partition) is visible, noting each
// read in `st` (e5::note_committed_read); throws naming Kafka at `deadline`.
void watch_plain_records(session& s, e5::stuck_run& st, const std::string& topic, int partitions,
                         const std::map<std::uint64_t, int>& partition_of, std::chrono::seconds deadline);

// The stuck runs' feeds: the first quarter of `records` for the job, and
// `stuck_plain_records` more of the same seeded feed, past its end, for the plain producer.
std::pair<std::vector<kafka_record>, std::vector<kafka_record>> stuck_feeds(const e5::parameters& p,
                                                                            const std::vector<kafka_record>& records);

// The smallest CurrentTransactionStartTimeMs among `ids` as the broker
// describes them (epoch ms, -1 if none is open), and the timeout registered.
struct open_transactions {
    long long oldest_start_ms = -1;
    std::optional<long long> registered_timeout_ms;
    std::vector<int> partitions_of(const std::string& topic) const;
    std::vector<std::string> topic_partitions;  // as the broker lists them: <topic>-<partition>
};
open_transactions describe_open(session& s, const std::vector<std::string>& ids);

// SIGKILLs the TaskManager, cancels `job` at once (so no restart recovers its
// writer), and waits for the supervisor's new TaskManager to register.
// Returns when the job was CANCELED (epoch ms).
long long kill_taskmanager_then_cancel(session& s, const std::string& job);

// A savepoint of `job` into the stack's savepoint directory, the TaskManager
// SIGKILLed and the job cancelled the moment it completes (a checkpoint after
// it would commit the savepoint's transaction); when it was triggered and when
// it completed (epoch ms).
struct killed_after_savepoint {
    savepoint_taken savepoint;
    long long triggered_at_ms = 0;
    long long savepoint_at_ms = 0;
};
killed_after_savepoint savepoint_then_kill(session& s, const std::string& job);

// savepoint_then_kill mid-feed, for the restart term: once a checkpoint above
// `before` has completed (within two intervals and a minute), and a quarter
// interval (at most 5 s) after it.
killed_after_savepoint savepoint_mid_feed(session& s, const std::string& job, long long before,
                                          std::int64_t interval_ms);

// Cancels `job` gracefully; returns when it was CANCELED (epoch ms).
long long cancel(session& s, const std::string& job);

// `n` more checkpoints, then 11 s for the broker's abort sweep (every 10 s) to
// act on what timed out. A job failing over may not complete them: what it
// did is recorded, not waited for forever (a progress line under `label`).
void let_it_commit(session& s, const std::string& job, std::int64_t n, std::int64_t interval_ms,
                   const std::string& label);

// The timeout the broker registered, for the first of the sampled ids it
// describes with one; none when it describes none.
std::optional<std::int64_t> registered_timeout(session& s, const std::vector<e5::transaction_state>& sampled);

// Feeds `records` into `topic` so that some of them sit in a transaction of
// `job`'s sink that is still open, and returns the ids of `prefix` the broker
// lists Ongoing then; throws naming Kafka when there is none by `deadline`.
// Flink fires a job's first checkpoint after a random delay within the
// interval, which can commit the whole feed before the broker is asked: so
// the last tenth is held back and produced only once the head is seen open
// or a checkpoint has completed since the feed began (the next is an
// interval away).
std::vector<std::string> feed_into_open_transaction(session& s, const std::string& job, const std::string& topic,
                                                    const std::vector<kafka_record>& records, const std::string& prefix,
                                                    std::chrono::seconds deadline);

// Every id of `prefix` the broker lists Ongoing, as it describes it.
std::vector<e5::transaction_description> describe_ongoing(session& s, const std::string& prefix);

}  // namespace rosterrig::live

#endif
