// rosterrig/experiments/e5_transaction_timeout/samples.hpp: the raw samples (transaction states, reads, txn/stuck/restart runs), warning lines, and a run's record from the stack

#ifndef ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_SAMPLES_HPP

#include "rosterrig/experiments/e5_transaction_timeout/parameters.hpp"

namespace rosterrig::e5 {

// ---- samples -----------------------------------------------------------------

struct transaction_state {
    std::int64_t t_ms = 0;  // since the job was submitted
    std::string transactional_id;
    std::string state;
};
BOOST_DESCRIBE_STRUCT(transaction_state, (), (t_ms, transactional_id, state))

/// A topic read back to its end at one isolation level, checked against the feed.
struct output_read {
    std::int64_t records = 0;
    std::uint64_t distinct_seq = 0;
    std::uint64_t duplicate_rows = 0;
    std::vector<seq_range> missing_runs;
};
BOOST_DESCRIBE_STRUCT(output_read, (), (records, distinct_seq, duplicate_rows, missing_runs))

inline output_read read_of(const append_result& r, std::int64_t records) {
    return {records, r.distinct_seq, r.duplicate_rows, r.missing_runs};
}

struct job_signals {
    std::string state;  // at the end
    std::int64_t completed_checkpoints = 0;
    std::int64_t failed_checkpoints = 0;
    std::int64_t exceptions = 0;               // in the exception history
    std::vector<std::string> exception_names;  // the first few
    std::int64_t log_warnings =
        0;  // JobManager and TaskManager lines at WARN or ERROR mentioning a transaction, not another run's
    std::vector<std::string> log_examples;  // the first few of them
};
BOOST_DESCRIBE_STRUCT(job_signals, (),
                      (state, completed_checkpoints, failed_checkpoints, exceptions, exception_names, log_warnings,
                       log_examples))

struct txn_run {
    std::string part;
    std::string name;
    std::uint64_t repeat = 1;
    std::optional<double> ratio;
    std::int64_t requested_timeout_ms = 0;
    std::int64_t interval_ms = 0;                       // Flink's checkpoint config
    std::optional<std::int64_t> registered_timeout_ms;  // the broker's TransactionTimeoutMs for the job's ids
    std::int64_t broker_max_timeout_ms = 0;             // transaction.max.timeout.ms as the broker reports it
    // How often the broker looks for timed-out transactions to abort
    // (transaction.abort.timed.out.transaction.cleanup.interval.ms, as it
    // reports it): a transaction is aborted up to this long after its timeout.
    std::optional<std::int64_t> broker_abort_sweep_ms;
    std::string job_id;
    std::uint64_t events = 0;
    std::vector<transaction_state> states;  // sampled from the broker
    output_read committed;                  // read_committed
    output_read uncommitted;                // read_uncommitted
    job_signals signals;
    std::int64_t failed_after_ms = -1;         // submit to FAILED, when it failed
    std::optional<std::int64_t> feed_done_ms;  // submit to the feed's last record acknowledged (absent in older runs)
};
BOOST_DESCRIBE_STRUCT(txn_run, (),
                      (part, name, repeat, ratio, requested_timeout_ms, interval_ms, registered_timeout_ms,
                       broker_max_timeout_ms, broker_abort_sweep_ms, job_id, events, states, committed, uncommitted,
                       signals, failed_after_ms, feed_done_ms))

/// What a read_committed reader saw of plain records written after a job
/// was cancelled with its transaction open.
struct visibility_sample {
    std::int64_t t_ms = 0;  // since the plain records were acknowledged
    std::int64_t visible = 0;
};
BOOST_DESCRIBE_STRUCT(visibility_sample, (), (t_ms, visible))

/// One output partition of a stuck run: whether an open transaction had
/// written to it (the broker's TopicPartitions for the open ids) and when the
/// plain records written to it became visible to read_committed.
struct partition_wait {
    std::int32_t partition = 0;
    bool held_by_open_transaction = false;
    std::uint64_t plain_records = 0;
    std::int64_t all_visible_after_ms = -1;  // since the plain records were acknowledged; -1: never in the wait
};
BOOST_DESCRIBE_STRUCT(partition_wait, (), (partition, held_by_open_transaction, plain_records, all_visible_after_ms))

struct stuck_run {
    std::string ending;  // cancel | kill-then-cancel (the TaskManager SIGKILLed first)
    std::int64_t requested_timeout_ms = 0;
    std::optional<std::int64_t> registered_timeout_ms;
    std::int64_t interval_ms = 0;
    std::string job_id;
    std::vector<std::string> open_at_cancel;  // ids the broker listed Ongoing when the job was cancelled
    std::int64_t open_for_ms_at_cancel = -1;  // how long the oldest of them had been open (broker's start time)
    std::uint64_t plain_records = 0;
    std::int64_t plain_acked_after_cancel_ms = 0;
    std::vector<visibility_sample> visibility;
    std::int64_t all_visible_after_ms = -1;  // since the plain records were acknowledged; -1: never in the wait
    std::vector<transaction_state> states;
    std::vector<partition_wait> partitions;    // per output partition (absent in runs before it was measured)
    std::string sink_partitioner = "default";  // default (Kafka's) | fixed (writer subtask i -> partition i)
};
BOOST_DESCRIBE_STRUCT(stuck_run, (),
                      (ending, requested_timeout_ms, registered_timeout_ms, interval_ms, job_id, open_at_cancel,
                       open_for_ms_at_cancel, plain_records, plain_acked_after_cancel_ms, visibility,
                       all_visible_after_ms, states, partitions, sink_partitioner))

/// The restart term: the transaction a savepoint pre-committed, committed by
/// the job restored from it, promptly or after its timeout.
struct restart_run {
    std::string ending;            // prompt | late
    std::int64_t interval_ms = 0;  // Flink's checkpoint config
    std::int64_t requested_timeout_ms = 0;
    std::optional<std::int64_t> registered_timeout_ms;
    std::string job_id;
    std::string restored_job_id;
    std::string savepoint_path;
    std::int64_t savepoint_id = -1;
    std::vector<std::string>
        pending_at_savepoint;  // ids the broker listed Ongoing after the kill, begun before the savepoint's trigger
    std::int64_t pending_open_for_ms_at_savepoint = -1;  // the oldest of them, from the broker's start time
    std::int64_t savepoint_to_restored_running_ms = -1;  // savepoint completed -> the restored job's tasks all RUNNING
    std::uint64_t events = 0;
    output_read committed;
    output_read uncommitted;
    job_signals signals;  // of the restored job, and both jobs' log lines
    std::vector<transaction_state> states;
    std::optional<std::uint64_t> repeat;  // absent in runs with one repeat per ending
};
BOOST_DESCRIBE_STRUCT(restart_run, (),
                      (ending, interval_ms, requested_timeout_ms, registered_timeout_ms, job_id, restored_job_id,
                       savepoint_path, savepoint_id, pending_at_savepoint, pending_open_for_ms_at_savepoint,
                       savepoint_to_restored_running_ms, events, committed, uncommitted, signals, states, repeat))

/// How old the pending transaction was when the restored job could commit it
/// (a lower bound: the commit comes after the tasks run); -1 when unknown.
inline std::int64_t pending_age_at_restore_ms(const restart_run& r) {
    if (r.pending_open_for_ms_at_savepoint < 0 || r.savepoint_to_restored_running_ms < 0) return -1;
    return r.pending_open_for_ms_at_savepoint + r.savepoint_to_restored_running_ms;
}

struct samples {
    std::vector<txn_run> runs;
    std::vector<stuck_run> stuck;
    std::vector<restart_run> restarts;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, stuck, restarts, predictions))

/// A Flink log line an operator would count as a transaction warning: at
/// WARN or ERROR, mentioning a transaction.
inline bool is_transaction_warning(const std::string& line) {
    const bool level = line.find(" WARN ") != std::string::npos || line.find(" ERROR ") != std::string::npos;
    return level && line.find("ransaction") != std::string::npos;
}

/// A transaction warning that belongs to the run whose transactional ids
/// start with `prefix`: it names one of them, or names no transactional id at
/// all. A line naming another run's id is that run's (a cancelled job's
/// producer may go on logging into the next run).
inline bool is_transaction_warning_of(const std::string& line, const std::string& prefix) {
    if (!is_transaction_warning(line)) return false;
    if (line.find(prefix) != std::string::npos) return true;
    return line.find("ransactionalId") == std::string::npos && line.find("ransactional id") == std::string::npos;
}

// ---- a run's record, from what the stack reported ----------------------------

/// Progress-log names of the runs.
inline std::string label_of(const run_plan& plan) { return "e5[" + plan.name + "]"; }
inline std::string restart_label(const std::string& ending, std::uint64_t repeat) {
    return "e5[restart, " + ending + " #" + std::to_string(repeat) + "]";
}
inline std::string stuck_label(const std::string& ending, const std::string& partitioner) {
    return "e5[stuck, " + ending + ", " + partitioner + " partitioner]";
}

/// A run's record before it runs: what its plan asks for, the broker's
/// maximum and the feed's size.
inline txn_run planned_run(const run_plan& plan, const parameters& p, std::int64_t broker_max_ms) {
    txn_run run;
    run.part = plan.part, run.name = plan.name, run.repeat = plan.repeat, run.ratio = plan.ratio;
    run.requested_timeout_ms = plan.timeout_ms;
    run.broker_max_timeout_ms = broker_max_ms;
    run.events = p.events;
    return run;
}
inline restart_run planned_restart(const parameters& p, const std::string& ending, std::uint64_t repeat) {
    restart_run r;
    r.ending = ending;
    r.repeat = repeat;
    r.requested_timeout_ms = p.restart_timeout_ms;
    r.events = p.events;
    return r;
}
inline stuck_run planned_stuck(const parameters& p, const std::string& ending, const std::string& partitioner,
                               std::uint64_t plain_records) {
    stuck_run st;
    st.ending = ending;
    st.sink_partitioner = partitioner;
    st.requested_timeout_ms = p.stuck_timeout_ms;
    st.plain_records = plain_records;
    return st;
}

/// A transaction as the broker describes it.
struct transaction_description {
    std::string id;
    std::int64_t start_ms = -1;    // CurrentTransactionStartTimeMs (epoch ms; -1: none open)
    std::int64_t timeout_ms = -1;  // TransactionTimeoutMs
};

/// Of the transactions still Ongoing after the kill (`ongoing`), those begun
/// before the savepoint was triggered are pending (the writer's next
/// transactions begin after its barrier): their ids, the oldest one's age
/// when the savepoint completed, and the timeout the broker registered.
inline void note_pending_at_savepoint(restart_run& r, const std::vector<transaction_description>& ongoing,
                                      std::int64_t triggered_at_ms, std::int64_t savepoint_at_ms) {
    for (const auto& d : ongoing) {
        if (d.timeout_ms > 0) r.registered_timeout_ms = d.timeout_ms;
        if (d.start_ms <= 0 || d.start_ms >= triggered_at_ms) continue;
        r.pending_at_savepoint.push_back(d.id);
        r.pending_open_for_ms_at_savepoint =
            std::max<std::int64_t>(r.pending_open_for_ms_at_savepoint, savepoint_at_ms - d.start_ms);
    }
}

/// A stuck run's output partitions before its wait: whether an open
/// transaction wrote to each (`written_by_open`, from the broker) and how many
/// plain records went to it (`plain_partition_of`: seq -> partition).
inline std::vector<partition_wait> partitions_before_wait(int partitions, const std::vector<int>& written_by_open,
                                                          const std::map<std::uint64_t, int>& plain_partition_of) {
    std::vector<partition_wait> out;
    for (int p = 0; p < partitions; ++p) out.push_back({p, false, 0, -1});
    for (int p : written_by_open) out.at(static_cast<std::size_t>(p)).held_by_open_transaction = true;
    for (const auto& [seq, p] : plain_partition_of) ++out.at(static_cast<std::size_t>(p)).plain_records;
    return out;
}

/// One read of the output at read_committed, `t_ms` after the plain records
/// were acknowledged: how many plain records it showed, the partitions that
/// now show all of theirs for the first time, and whether every plain record
/// is visible. True once they all are.
inline bool note_committed_read(stuck_run& st, const std::map<std::uint64_t, int>& plain_partition_of,
                                const std::vector<std::uint64_t>& seqs_read, std::int64_t t_ms) {
    std::vector<std::uint64_t> per(st.partitions.size(), 0);
    std::int64_t visible = 0;
    for (auto seq : seqs_read)
        if (auto it = plain_partition_of.find(seq); it != plain_partition_of.end())
            ++visible, ++per[static_cast<std::size_t>(it->second)];
    for (auto& pw : st.partitions)
        if (pw.all_visible_after_ms < 0 && per[static_cast<std::size_t>(pw.partition)] >= pw.plain_records)
            pw.all_visible_after_ms = t_ms;
    st.visibility.push_back({t_ms, visible});
    if (visible >= static_cast<std::int64_t>(st.plain_records)) st.all_visible_after_ms = t_ms;
    return st.all_visible_after_ms >= 0;
}

// Progress lines.
inline std::string started_text(const std::string& job, const run_plan& plan) {
    return "job " + job + ", timeout " + std::to_string(plan.timeout_ms) + " ms, interval " +
           std::to_string(plan.interval_ms) + " ms";
}
inline std::string savepoint_text(const restart_run& r) {
    return "savepoint " + std::to_string(r.savepoint_id) + ", TaskManager killed, job cancelled; " +
           std::to_string(r.pending_at_savepoint.size()) +
           " transaction(s) begun before the savepoint still open, the oldest for " +
           std::to_string(r.pending_open_for_ms_at_savepoint) + " ms at the savepoint";
}
inline std::string restored_text(const restart_run& r) {
    return "restored as job " + r.restored_job_id + ", running " + std::to_string(r.savepoint_to_restored_running_ms) +
           " ms after the savepoint";
}
inline std::string cancelled_text(const stuck_run& st) {
    return "job cancelled with " + std::to_string(st.open_at_cancel.size()) + " transaction(s) open; writing " +
           std::to_string(st.plain_records) + " plain records";
}

}  // namespace rosterrig::e5

#endif
