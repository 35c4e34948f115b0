// rosterrig/experiments/e5_transaction_timeout.hpp: experiment 5, what a
// Kafka transaction timeout shorter than the checkpoint interval costs a job
// that writes to Kafka at exactly-once, as data: parameters, the runs, the raw
// samples, the rules and the report.
//
// The rule under test: checkpoint interval + checkpoint duration + restart
// time < transaction.timeout.ms <= the broker's transaction.max.timeout.ms.
// Parts: the reference study's pair (one interval, a timeout far below and
// far above it); the boundary (timeouts at ratios to a shorter interval, each
// repeated); the restart term (a transaction a savepoint pre-committed, whose
// commit waits for the job to come back: a restore within the timeout and one
// after it); a timeout above the broker's maximum; and the other cost of a
// long timeout, a transaction left open by a cancelled job that holds every
// read_committed reader of its partitions back.
#ifndef ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_HPP
#define ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/check/append_check.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::e5 {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 5;
    std::uint64_t events = 8000;
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::int64_t parallelism = 2;
    std::int64_t feed_ms = 30000;  // the feed's duration in every run
    // The reference study's pair: one interval, a timeout far below and far above it.
    std::int64_t pair_interval_ms = 120000;
    std::vector<std::int64_t> pair_timeouts_ms{5000, 300000};
    std::optional<std::uint64_t> pair_repeats;  // each pair timeout this many times (absent: once)
    // The reference study's condition: the pair's interval and first timeout,
    // the feed written at once so that it has ended before the broker aborts
    // (records still arriving after the abort make the job fail over), this
    // many times (absent: not run).
    std::optional<std::uint64_t> seed_condition_repeats;
    // The boundary: timeouts at these ratios to a shorter interval, each `boundary_repeats` times.
    std::int64_t boundary_interval_ms = 20000;
    std::vector<double> boundary_ratios{0.5, 0.9, 1.1, 1.5, 3.0};
    std::uint64_t boundary_repeats = 3;
    // Half the interval varies (a failover's replay can commit what the abort
    // took): the 0.5 ratio runs this many times (absent: boundary_repeats).
    std::optional<std::uint64_t> half_ratio_repeats;
    // Above the broker's maximum: this many ms more than it.
    std::int64_t above_max_by_ms = 60000;
    // The stuck transaction: a long timeout, the job cancelled with a transaction open.
    std::int64_t stuck_timeout_ms = 300000;
    std::int64_t stuck_interval_ms = 600000;  // longer than the wait, so the open transaction is never committed
    std::uint64_t stuck_plain_records = 500;
    // The stuck runs, as ending/partitioner: a graceful cancel, a SIGKILL then
    // cancel, and the same with each writer subtask writing one partition
    // ('sink.partitioner' = 'fixed'), so that some partitions have no open
    // transaction: does a stuck transaction hold back only its own partitions?
    std::vector<std::string> stuck_runs{"cancel/default", "kill-then-cancel/default", "kill-then-cancel/fixed"};
    // The restart term: a savepoint pre-commits the writer's transaction, which
    // is committed only once a job restored from it runs. The TaskManager is
    // SIGKILLed right after the savepoint and the job cancelled; the restore
    // is submitted at once ("prompt") or `restart_late_wait_ms` after the
    // savepoint ("late"). The timeout is 3x the interval: a prompt restore on
    // this machine takes about 20 s, which 1.5x of 20 s would not cover.
    std::int64_t restart_interval_ms = 20000;
    std::int64_t restart_timeout_ms = 60000;
    std::int64_t restart_late_wait_ms = 90000;
    std::vector<std::string> restart_endings{"prompt", "late"};
    std::optional<std::uint64_t> restart_repeats;  // each ending this many times (absent: once)
    std::int64_t commit_wait_checkpoints = 2;  // checkpoints to wait after the feed before reading
    bool quick = false;

    static parameters full() {
        parameters p;
        p.pair_repeats = 3;
        p.seed_condition_repeats = 3;
        p.half_ratio_repeats = 5;
        p.restart_repeats = 3;
        return p;
    }
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 2000;
        p.providers = 500;
        p.feed_ms = 6000;
        p.pair_timeouts_ms = {};  // the boundary covers a timeout below and above the interval
        p.boundary_interval_ms = 6000;
        p.boundary_ratios = {0.5, 3.0};
        p.boundary_repeats = 1;
        p.half_ratio_repeats = 1;
        p.stuck_timeout_ms = 12000;
        p.stuck_runs = {"cancel/default", "kill-then-cancel/fixed"};
        p.stuck_interval_ms = 120000;
        p.stuck_plain_records = 100;
        p.restart_interval_ms = 5000;
        // Late enough that the broker's abort sweep (every 10 s by default) has run after the timeout.
        p.restart_timeout_ms = 10000;
        p.restart_late_wait_ms = 25000;
        p.restart_endings = {"late"};
        // One checkpoint completed after the feed commits all of it; a full run waits for two.
        p.commit_wait_checkpoints = 1;
        return p;
    }
    roster_spec feed() const { return roster_feed(seed, events, providers, partitions); }
    /// Records per second that spread the feed over feed_ms.
    double feed_rate() const { return static_cast<double>(events) * 1000.0 / static_cast<double>(feed_ms); }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, providers, partitions, parallelism, feed_ms, pair_interval_ms, pair_timeouts_ms,
                       pair_repeats, seed_condition_repeats, boundary_interval_ms, boundary_ratios, boundary_repeats,
                       half_ratio_repeats, above_max_by_ms, stuck_timeout_ms, stuck_interval_ms, stuck_plain_records,
                       stuck_runs, restart_interval_ms, restart_timeout_ms, restart_late_wait_ms, restart_endings,
                       restart_repeats, commit_wait_checkpoints, quick))

/// One run of the Kafka → Flink → Kafka job: what it asked for.
struct run_plan {
    std::string part;  // pair | seed-condition | boundary | above-max
    std::string name;
    std::int64_t interval_ms = 0;
    std::int64_t timeout_ms = 0;
    std::uint64_t repeat = 1;
    std::optional<double> ratio;  // timeout / interval, for the boundary
};

inline bool is_half_ratio(double ratio) { return std::abs(ratio - 0.5) < 1e-9; }

/// The runs in the order they run: each repeat of the pair, the seed's
/// condition, then each repeat of the boundary (the 0.5 ratio's extra repeats last).
inline std::vector<run_plan> runs_of(const parameters& p) {
    std::vector<run_plan> out;
    const auto pair_name = [&](std::int64_t t) {
        return std::to_string(t / 1000) + " s timeout, " + std::to_string(p.pair_interval_ms / 1000) + " s interval";
    };
    const auto pair_repeats = p.pair_repeats.value_or(1);
    for (std::uint64_t r = 1; r <= pair_repeats; ++r)
        for (auto t : p.pair_timeouts_ms)
            out.push_back({"pair", "pair: " + pair_name(t) + (pair_repeats > 1 ? " #" + std::to_string(r) : std::string()),
                           p.pair_interval_ms, t, r, std::nullopt});
    if (!p.pair_timeouts_ms.empty())
        for (std::uint64_t r = 1; r <= p.seed_condition_repeats.value_or(0); ++r)
            out.push_back({"seed-condition", "seed condition: " + pair_name(p.pair_timeouts_ms.front()) + ", feed at once #" + std::to_string(r),
                           p.pair_interval_ms, p.pair_timeouts_ms.front(), r, std::nullopt});
    const auto half_repeats = p.half_ratio_repeats.value_or(p.boundary_repeats);
    for (std::uint64_t r = 1; r <= std::max(p.boundary_repeats, half_repeats); ++r)
        for (auto ratio : p.boundary_ratios) {
            if (r > (is_half_ratio(ratio) ? half_repeats : p.boundary_repeats)) continue;
            const auto t = static_cast<std::int64_t>(std::llround(ratio * static_cast<double>(p.boundary_interval_ms)));
            out.push_back({"boundary", "boundary x" + report::fixed(ratio, 1) + " #" + std::to_string(r),
                           p.boundary_interval_ms, t, r, ratio});
        }
    return out;
}

/// Records per second for a run's feed: the seed's condition writes it at
/// once (0: as fast as the producer goes), every other run spreads it.
inline double feed_rate_of(const run_plan& plan, const parameters& p) { return plan.part == "seed-condition" ? 0.0 : p.feed_rate(); }

/// The run above the broker's maximum (part 4): the boundary's interval, a
/// timeout `above_max_by_ms` over the maximum the broker reports.
inline run_plan above_max_plan(const parameters& p, std::int64_t broker_max_ms) {
    return {"above-max", "above the broker's maximum", p.boundary_interval_ms, broker_max_ms + p.above_max_by_ms, 1, std::nullopt};
}

/// The stuck runs (part 5), each `stuck_runs` entry split at its slash: the ending, then the sink's partitioner.
inline std::vector<std::pair<std::string, std::string>> stuck_cells(const parameters& p) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& run : p.stuck_runs) {
        const auto slash = run.find('/');
        out.emplace_back(run.substr(0, slash), run.substr(slash + 1));
    }
    return out;
}

/// Why the parameters cannot run (naming the flag), or nothing.
inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t /*slots*/) {
    for (auto t : p.pair_timeouts_ms)
        if (t <= 0) return "--pair-timeouts: a timeout of " + std::to_string(t) + " ms cannot run";
    if (p.pair_interval_ms <= 0 || p.boundary_interval_ms <= 0 || p.stuck_interval_ms <= 0)
        return std::string("an interval of 0 ms or below cannot run");
    for (auto r : p.boundary_ratios)
        if (r <= 0) return "a ratio of " + report::fixed(r, 2) + " gives no timeout";
    if (p.stuck_timeout_ms <= 0) return std::string("a stuck-transaction timeout of 0 ms or below cannot run");
    if (p.restart_interval_ms <= 0 || p.restart_timeout_ms <= 0)
        return std::string("a restart-term interval or timeout of 0 ms or below cannot run");
    for (const auto& r : p.stuck_runs)
        if (r != "cancel/default" && r != "cancel/fixed" && r != "kill-then-cancel/default" && r != "kill-then-cancel/fixed")
            return "a stuck run '" + r + "' is not (cancel|kill-then-cancel)/(default|fixed)";
    for (const auto& e : p.restart_endings)
        if (e != "prompt" && e != "late") return "a restart ending '" + e + "' is neither prompt nor late";
    return std::nullopt;
}

/// Why a timeout the parameters ask for cannot run against a broker whose
/// transaction.max.timeout.ms is `broker_max_ms`, or nothing. Only the
/// above-maximum run (part 4) asks for more, on purpose.
inline std::optional<std::string> transaction_timeout_problem(const parameters& p, std::int64_t broker_max_ms) {
    auto over = [&](std::int64_t t, const std::string& what) -> std::optional<std::string> {
        if (t <= broker_max_ms) return std::nullopt;
        return what + " of " + std::to_string(t) + " ms is above the broker's transaction.max.timeout.ms of " +
               std::to_string(broker_max_ms) + " ms (only the above-maximum run asks for more, on purpose)";
    };
    for (const auto& plan : runs_of(p))
        if (auto why = over(plan.timeout_ms, plan.name + ": a timeout")) return why;
    if (auto why = over(p.restart_timeout_ms, "the restart term's timeout")) return why;
    return over(p.stuck_timeout_ms, "the stuck transaction's timeout");
}

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
    std::string state;                  // at the end
    std::int64_t completed_checkpoints = 0;
    std::int64_t failed_checkpoints = 0;
    std::int64_t exceptions = 0;        // in the exception history
    std::vector<std::string> exception_names;  // the first few
    std::int64_t log_warnings = 0;      // JobManager and TaskManager lines at WARN or ERROR mentioning a transaction, not another run's
    std::vector<std::string> log_examples;     // the first few of them
};
BOOST_DESCRIBE_STRUCT(job_signals, (),
                      (state, completed_checkpoints, failed_checkpoints, exceptions, exception_names, log_warnings, log_examples))

struct txn_run {
    std::string part;
    std::string name;
    std::uint64_t repeat = 1;
    std::optional<double> ratio;
    std::int64_t requested_timeout_ms = 0;
    std::int64_t interval_ms = 0;                   // Flink's checkpoint config
    std::optional<std::int64_t> registered_timeout_ms;  // the broker's TransactionTimeoutMs for the job's ids
    std::int64_t broker_max_timeout_ms = 0;         // transaction.max.timeout.ms as the broker reports it
    // How often the broker looks for timed-out transactions to abort
    // (transaction.abort.timed.out.transaction.cleanup.interval.ms, as it
    // reports it): a transaction is aborted up to this long after its timeout.
    std::optional<std::int64_t> broker_abort_sweep_ms;
    std::string job_id;
    std::uint64_t events = 0;
    std::vector<transaction_state> states;           // sampled from the broker
    output_read committed;                           // read_committed
    output_read uncommitted;                         // read_uncommitted
    job_signals signals;
    std::int64_t failed_after_ms = -1;               // submit to FAILED, when it failed
    std::optional<std::int64_t> feed_done_ms;        // submit to the feed's last record acknowledged (absent in older runs)
};
BOOST_DESCRIBE_STRUCT(txn_run, (),
                      (part, name, repeat, ratio, requested_timeout_ms, interval_ms, registered_timeout_ms,
                       broker_max_timeout_ms, broker_abort_sweep_ms, job_id, events, states, committed, uncommitted, signals,
                       failed_after_ms, feed_done_ms))

/// What a read_committed reader saw of plain records written after a job
/// was cancelled with its transaction open.
struct visibility_sample {
    std::int64_t t_ms = 0;   // since the plain records were acknowledged
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
    std::string ending;                             // cancel | kill-then-cancel (the TaskManager SIGKILLed first)
    std::int64_t requested_timeout_ms = 0;
    std::optional<std::int64_t> registered_timeout_ms;
    std::int64_t interval_ms = 0;
    std::string job_id;
    std::vector<std::string> open_at_cancel;        // ids the broker listed Ongoing when the job was cancelled
    std::int64_t open_for_ms_at_cancel = -1;        // how long the oldest of them had been open (broker's start time)
    std::uint64_t plain_records = 0;
    std::int64_t plain_acked_after_cancel_ms = 0;
    std::vector<visibility_sample> visibility;
    std::int64_t all_visible_after_ms = -1;         // since the plain records were acknowledged; -1: never in the wait
    std::vector<transaction_state> states;
    std::vector<partition_wait> partitions;          // per output partition (absent in runs before it was measured)
    std::string sink_partitioner = "default";        // default (Kafka's) | fixed (writer subtask i -> partition i)
};
BOOST_DESCRIBE_STRUCT(stuck_run, (),
                      (ending, requested_timeout_ms, registered_timeout_ms, interval_ms, job_id, open_at_cancel,
                       open_for_ms_at_cancel, plain_records, plain_acked_after_cancel_ms, visibility,
                       all_visible_after_ms, states, partitions, sink_partitioner))

/// The restart term: the transaction a savepoint pre-committed, committed by
/// the job restored from it, promptly or after its timeout.
struct restart_run {
    std::string ending;                              // prompt | late
    std::int64_t interval_ms = 0;                    // Flink's checkpoint config
    std::int64_t requested_timeout_ms = 0;
    std::optional<std::int64_t> registered_timeout_ms;
    std::string job_id;
    std::string restored_job_id;
    std::string savepoint_path;
    std::int64_t savepoint_id = -1;
    std::vector<std::string> pending_at_savepoint;   // ids the broker listed Ongoing after the kill, begun before the savepoint's trigger
    std::int64_t pending_open_for_ms_at_savepoint = -1;  // the oldest of them, from the broker's start time
    std::int64_t savepoint_to_restored_running_ms = -1;  // savepoint completed -> the restored job's tasks all RUNNING
    std::uint64_t events = 0;
    output_read committed;
    output_read uncommitted;
    job_signals signals;                             // of the restored job, and both jobs' log lines
    std::vector<transaction_state> states;
    std::optional<std::uint64_t> repeat;             // absent in runs with one repeat per ending
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
        r.pending_open_for_ms_at_savepoint = std::max<std::int64_t>(r.pending_open_for_ms_at_savepoint, savepoint_at_ms - d.start_ms);
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
        if (auto it = plain_partition_of.find(seq); it != plain_partition_of.end()) ++visible, ++per[static_cast<std::size_t>(it->second)];
    for (auto& pw : st.partitions)
        if (pw.all_visible_after_ms < 0 && per[static_cast<std::size_t>(pw.partition)] >= pw.plain_records) pw.all_visible_after_ms = t_ms;
    st.visibility.push_back({t_ms, visible});
    if (visible >= static_cast<std::int64_t>(st.plain_records)) st.all_visible_after_ms = t_ms;
    return st.all_visible_after_ms >= 0;
}

// Progress lines.
inline std::string started_text(const std::string& job, const run_plan& plan) {
    return "job " + job + ", timeout " + std::to_string(plan.timeout_ms) + " ms, interval " + std::to_string(plan.interval_ms) + " ms";
}
inline std::string savepoint_text(const restart_run& r) {
    return "savepoint " + std::to_string(r.savepoint_id) + ", TaskManager killed, job cancelled; " +
           std::to_string(r.pending_at_savepoint.size()) + " transaction(s) begun before the savepoint still open, the oldest for " +
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

// ---- analysis ----------------------------------------------------------------

inline std::set<std::string> states_seen(const std::vector<transaction_state>& xs) {
    std::set<std::string> out;
    for (const auto& x : xs) out.insert(x.state);
    return out;
}
inline bool is_abort(const std::string& state) { return state == "PrepareAbort" || state == "CompleteAbort"; }
inline bool aborted(const std::vector<transaction_state>& xs) {
    return std::any_of(xs.begin(), xs.end(), [](const transaction_state& x) { return is_abort(x.state); });
}

/// When the broker's first abort happened, as the sampling bounds it: after
/// the last sample before the first sample that showed an abort (`after_ms`;
/// 0 when that was the first sample) and no later than that sample (`by_ms`).
struct abort_window {
    std::int64_t after_ms = 0;
    std::int64_t by_ms = 0;
};
inline std::optional<abort_window> first_abort(const std::vector<transaction_state>& xs) {
    std::optional<std::int64_t> by;
    for (const auto& x : xs)
        if (is_abort(x.state) && (!by || x.t_ms < *by)) by = x.t_ms;
    if (!by) return std::nullopt;
    abort_window w{0, *by};
    for (const auto& x : xs)
        if (x.t_ms < *by) w.after_ms = std::max(w.after_ms, x.t_ms);
    return w;
}
/// The fraction of the feed a read_committed reader got, once each.
inline double committed_fraction(const txn_run& r) {
    return r.events ? static_cast<double>(r.committed.distinct_seq) / static_cast<double>(r.events) : 0;
}
inline bool exactly_once(const output_read& o, std::uint64_t events) {
    return o.distinct_seq == events && o.duplicate_rows == 0 && o.missing_runs.empty();
}
/// What was left of the open transactions' timeout when the plain records
/// were acknowledged (may be below zero).
inline std::int64_t rest_of_timeout_ms(const stuck_run& s) {
    return s.requested_timeout_ms - std::max<std::int64_t>(s.open_for_ms_at_cancel, 0) - s.plain_acked_after_cancel_ms;
}

/// Plain records stayed invisible to read_committed from their write until this.
inline std::int64_t hidden_for_ms(const stuck_run& s) {
    for (const auto& v : s.visibility)
        if (v.visible > 0) return v.t_ms;
    return s.visibility.empty() ? -1 : s.visibility.back().t_ms;
}
inline std::string hidden_text(const stuck_run& st) {
    return "plain records hidden for " + std::to_string(hidden_for_ms(st)) + " ms, all visible after " +
           std::to_string(st.all_visible_after_ms) + " ms";
}

// ---- verdict rules -------------------------------------------------------------

using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

inline std::vector<txn_run> runs_where(const samples& s, const std::function<bool(const txn_run&)>& keep) {
    std::vector<txn_run> out;
    for (const auto& r : s.runs)
        if (keep(r)) out.push_back(r);
    return out;
}

inline std::string read_text(const txn_run& r) {
    return std::to_string(r.committed.distinct_seq) + " of " + std::to_string(r.events) + " read committed (" +
           std::to_string(r.committed.duplicate_rows) + " duplicates), " + std::to_string(r.uncommitted.distinct_seq) +
           " uncommitted; job " + r.signals.state + ", " + std::to_string(r.signals.failed_checkpoints) +
           " failed checkpoints, " + std::to_string(r.signals.log_warnings) + " transaction warnings in the logs";
}

inline bool far_under(const txn_run& r) { return r.part != "above-max" && r.requested_timeout_ms * 2 <= r.interval_ms; }
inline bool seed_condition(const txn_run& r) { return r.part == "seed-condition"; }
inline bool just_under(const txn_run& r) {
    return r.part != "above-max" && r.requested_timeout_ms * 2 > r.interval_ms && r.requested_timeout_ms < r.interval_ms;
}

/// Far under the interval (half of it or less): a read_committed reader gets
/// nothing, though every record was written (read_uncommitted sees them all),
/// and the broker aborted the transactions.
inline rule_verdict far_under_interval_loses_everything(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, far_under), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            const std::string why = read_text(r) + (aborted(r.states) ? ", aborts seen" : ", no abort seen");
            const bool ok = r.committed.distinct_seq == 0 && r.uncommitted.distinct_seq == r.events && aborted(r.states);
            return ok ? held(why) : refuted(why);
        },
        "no run had a timeout of half its interval or less");
}

/// With records still arriving after the broker aborted its transaction, the
/// writer's next send fails and the job fails over: its exception history is
/// not empty (the reference study's job, whose feed had ended, stayed quiet).
/// The seed's condition, whose feed ends before the abort, is not its case.
inline rule_verdict far_under_interval_job_fails_over(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) { return far_under(r) && !seed_condition(r); }), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            std::string names;
            for (const auto& n : r.signals.exception_names) names += (names.empty() ? "" : ", ") + n;
            const std::string why = std::to_string(r.signals.exceptions) + " exceptions (" +
                                    (names.empty() ? std::string("none") : names) + "), job " + r.signals.state;
            return r.signals.exceptions > 0 ? held(why) : refuted(why);
        },
        "no run had a timeout of half its interval or less");
}

inline std::string seed_condition_text(const txn_run& r, const std::optional<abort_window>& w) {
    std::string names;
    for (const auto& n : r.signals.exception_names) names += (names.empty() ? "" : ", ") + n;
    return read_text(r) + ", " + std::to_string(r.signals.exceptions) + " exceptions" +
           (names.empty() ? std::string() : " (" + names + ")") + "; feed acknowledged " +
           (r.feed_done_ms ? std::to_string(*r.feed_done_ms) + " ms" : std::string("at an unrecorded time")) +
           " after the submit, first abort " +
           (w ? "after " + std::to_string(w->after_ms) + " and by " + std::to_string(w->by_ms) + " ms" : std::string("not seen"));
}

/// The reference study's condition (the feed over before the broker's
/// abort): a read_committed reader gets nothing, and nothing reports it: the
/// job runs, with no exception and no failed checkpoint. A run whose feed was
/// not over before the abort's earliest bound is not the seed's condition:
/// inconclusive.
inline rule_verdict seed_condition_is_silent(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, seed_condition), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            const auto w = first_abort(r.states);
            const auto why = seed_condition_text(r, w);
            if (!r.feed_done_ms || !w || *r.feed_done_ms > w->after_ms)
                return inconclusive("not the seed's condition (no abort seen after the feed was over): " + why);
            const bool silent = r.committed.distinct_seq == 0 && r.uncommitted.distinct_seq == r.events &&
                                r.signals.state == "RUNNING" && r.signals.exceptions == 0 && r.signals.failed_checkpoints == 0;
            return silent ? held(why) : refuted(why);
        },
        "no run had the seed's condition");
}

/// Just under the interval: every run loses at least one record for a read_committed reader.
inline rule_verdict just_under_interval_loses_records(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, just_under), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) { return r.committed.distinct_seq < r.events ? held(read_text(r)) : refuted(read_text(r)); },
        "no run had a timeout between half its interval and the interval");
}

/// A timeout comfortably above the interval (1.5x or more): every record once.
inline rule_verdict above_interval_delivers_once(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) {
            return r.part != "above-max" && r.requested_timeout_ms >= r.interval_ms * 3 / 2;
        }),
        [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            return exactly_once(r.committed, r.events) ? held(read_text(r)) : refuted(read_text(r));
        },
        "no run had a timeout of 1.5 times its interval or more");
}

/// Just above the interval (more than 1x, under 1.5x): still every record once
/// on a healthy job, whose transactions live one interval plus a short checkpoint.
inline rule_verdict just_above_interval_suffices(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) {
            return r.part != "above-max" && r.requested_timeout_ms > r.interval_ms &&
                   r.requested_timeout_ms < r.interval_ms * 3 / 2;
        }),
        [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            return exactly_once(r.committed, r.events) ? held(read_text(r)) : refuted(read_text(r));
        },
        "no run had a timeout between 1x and 1.5x its interval");
}

/// The broker registered the timeout the job asked for.
inline rule_verdict broker_registered_the_request(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) { return r.part != "above-max"; }), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            if (!r.registered_timeout_ms) return inconclusive("the broker described none of the job's ids");
            const std::string why = "asked " + std::to_string(r.requested_timeout_ms) + " ms, registered " +
                                    std::to_string(*r.registered_timeout_ms) + " ms";
            return *r.registered_timeout_ms == r.requested_timeout_ms ? held(why) : refuted(why);
        },
        "no run");
}

/// Above the broker's maximum the job fails loudly within a minute and delivers nothing.
inline rule_verdict above_max_fails_loudly(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) { return r.part == "above-max"; }), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            std::string names;
            for (const auto& n : r.signals.exception_names) names += (names.empty() ? "" : ", ") + n;
            const std::string why = "asked " + std::to_string(r.requested_timeout_ms) + " ms over a maximum of " +
                                    std::to_string(r.broker_max_timeout_ms) + " ms: job " + r.signals.state +
                                    (r.failed_after_ms >= 0 ? " after " + std::to_string(r.failed_after_ms) + " ms" : std::string()) +
                                    ", exceptions: " + (names.empty() ? std::string("none") : names) + "; " +
                                    std::to_string(r.committed.distinct_seq) + " records read committed";
            const bool loud = r.signals.exceptions > 0 && r.committed.distinct_seq == 0 &&
                              (r.signals.state == "FAILED" || r.signals.state == "RESTARTING" || r.failed_after_ms >= 0);
            return loud ? held(why) : refuted(why);
        },
        "the above-maximum run did not run");
}

inline const stuck_run* stuck_ending(const samples& s, const std::string& ending) {
    for (const auto& x : s.stuck)
        if (x.ending == ending && x.sink_partitioner == "default") return &x;
    return nullptr;
}

inline std::string stuck_text(const stuck_run& st) {
    return "plain records hidden for " + std::to_string(hidden_for_ms(st)) + " ms, all visible after " +
           std::to_string(st.all_visible_after_ms) + " ms; timeout " + std::to_string(st.requested_timeout_ms) + " ms, " +
           std::to_string(st.open_at_cancel.size()) + " transaction(s) open for " + std::to_string(st.open_for_ms_at_cancel) +
           " ms when the job was cancelled";
}

/// A graceful cancel closes the sink's writer, which aborts its open
/// transaction: the plain records written afterwards are visible within 10 s.
inline rule_verdict cancel_aborts_its_transaction(const samples& s) {
    const auto* st = stuck_ending(s, "cancel");
    if (!st) return inconclusive("the cancel run did not run");
    if (st->open_at_cancel.empty()) return inconclusive("no transaction was open when the job was cancelled");
    const bool ok = st->all_visible_after_ms >= 0 && st->all_visible_after_ms <= 10000;
    return ok ? held(stuck_text(*st)) : refuted(stuck_text(*st));
}

/// A transaction whose writer died (TaskManager SIGKILLed, then the job
/// cancelled so nothing recovers it) stays open: plain records written after
/// it stay invisible to read_committed readers for at least 80 % of the rest
/// of its timeout, and all become visible within 20 s after it runs out.
inline rule_verdict stuck_transaction_blocks_readers(const samples& s) {
    const auto* st = stuck_ending(s, "kill-then-cancel");
    if (!st) return inconclusive("the kill-then-cancel run did not run");
    if (st->open_at_cancel.empty()) return inconclusive("no transaction was open when the job was cancelled");
    const auto rest = rest_of_timeout_ms(*st);
    const bool ok = hidden_for_ms(*st) >= rest * 8 / 10 && st->all_visible_after_ms >= 0 &&
                    st->all_visible_after_ms <= std::max<std::int64_t>(rest, 0) + 20000;
    return ok ? held(stuck_text(*st)) : refuted(stuck_text(*st));
}

/// A killed writer's open transaction holds back exactly the partitions it
/// wrote to: on the others the plain records are visible within 10 s; on
/// those, hidden for at least 80 % of the rest of its timeout.
inline rule_verdict stuck_transaction_holds_only_its_partitions(const samples& s) {
    std::vector<stuck_run> killed;
    for (const auto& st : s.stuck)
        if (st.ending == "kill-then-cancel" && !st.partitions.empty()) killed.push_back(st);
    if (killed.empty()) return inconclusive("no kill-then-cancel run measured its partitions");
    std::string why;
    bool ok = true, decided = false;
    for (const auto& st : killed) {
        const auto rest = std::max<std::int64_t>(rest_of_timeout_ms(st), 0);
        std::string one;
        bool held_any = false, free_any = false, fine = true;
        for (const auto& p : st.partitions) {
            if (p.plain_records == 0) continue;
            (p.held_by_open_transaction ? held_any : free_any) = true;
            one += (one.empty() ? "" : ", ") + std::string("partition ") + std::to_string(p.partition) +
                   (p.held_by_open_transaction ? " (written by an open transaction)" : " (not written)") + " visible after " +
                   std::to_string(p.all_visible_after_ms) + " ms";
            if (p.held_by_open_transaction) fine = fine && (p.all_visible_after_ms < 0 || p.all_visible_after_ms >= rest * 8 / 10);
            else fine = fine && p.all_visible_after_ms >= 0 && p.all_visible_after_ms <= 10000;
        }
        why += (why.empty() ? "" : "; ") + st.sink_partitioner + " partitioner: " + one + ", rest of the timeout " +
               std::to_string(rest) + " ms" + (held_any && free_any ? "" : " (not decisive: one kind of partition only)");
        if (held_any && free_any) decided = true, ok = ok && fine;
    }
    if (!decided) return inconclusive(why);
    return ok ? held(why) : refuted(why);
}

inline std::vector<restart_run> restarts_ending(const samples& s, const std::string& ending) {
    std::vector<restart_run> out;
    for (const auto& x : s.restarts)
        if (x.ending == ending) out.push_back(x);
    return out;
}
inline std::string restart_name(const restart_run& r) { return r.ending + " #" + std::to_string(r.repeat.value_or(1)); }

inline std::string restart_text(const restart_run& r) {
    return std::to_string(r.committed.distinct_seq) + " of " + std::to_string(r.events) + " read committed (" +
           std::to_string(r.committed.missing_runs.size()) + " missing runs, " + std::to_string(r.committed.duplicate_rows) +
           " duplicates), " + std::to_string(r.uncommitted.distinct_seq) + " uncommitted; the pending transaction was " +
           std::to_string(pending_age_at_restore_ms(r)) + " ms old when the restored job ran, timeout " +
           std::to_string(r.requested_timeout_ms) + " ms; restored job " + r.signals.state + ", " +
           std::to_string(r.signals.exceptions) + " exceptions, " + std::to_string(r.signals.failed_checkpoints) +
           " failed checkpoints, " + std::to_string(r.signals.log_warnings) + " transaction warnings in the logs";
}

// Whether the kill was placed as the ending meant: a late restore runs after
// the pending transaction's timeout, a prompt one well within it.
inline std::optional<std::string> misplaced(const restart_run& r) {
    if (r.pending_at_savepoint.empty()) return "no transaction of the savepoint's checkpoint was pending";
    const auto age = pending_age_at_restore_ms(r);
    if (age < 0) return "the pending transaction's age is unknown";
    if (r.ending == "late" && age <= r.requested_timeout_ms) return "the late restore ran within the timeout: " + restart_text(r);
    if (r.ending == "prompt" && age >= r.requested_timeout_ms * 9 / 10)
        return "the prompt restore came within 10 % of the timeout: " + restart_text(r);
    return std::nullopt;
}

/// A restore after the timeout loses the savepoint's pending transaction: a
/// read_committed reader misses records that read_uncommitted sees, and none twice.
inline rule_verdict restart_late_loses_the_pending_transaction(const samples& s) {
    return experiment::for_each_of(
        restarts_ending(s, "late"), restart_name,
        [](const restart_run& r) {
            if (auto why = misplaced(r)) return inconclusive(*why);
            const bool ok = !r.committed.missing_runs.empty() && r.committed.duplicate_rows == 0 && r.uncommitted.distinct_seq == r.events;
            return ok ? held(restart_text(r)) : refuted(restart_text(r));
        },
        "the late restore did not run");
}

/// ... and says so only in the logs: the restored job runs, with no exception
/// in its history and no failed checkpoint, while the logs carry warnings
/// about the transaction.
inline rule_verdict restart_late_is_silent_but_for_the_logs(const samples& s) {
    return experiment::for_each_of(
        restarts_ending(s, "late"), restart_name,
        [](const restart_run& r) {
            if (auto why = misplaced(r)) return inconclusive(*why);
            const bool ok = r.signals.state == "RUNNING" && r.signals.exceptions == 0 && r.signals.failed_checkpoints == 0 &&
                            r.signals.log_warnings > 0;
            return ok ? held(restart_text(r)) : refuted(restart_text(r));
        },
        "the late restore did not run");
}

/// A restore within the timeout commits the pending transaction: every record once.
inline rule_verdict restart_prompt_delivers_once(const samples& s) {
    return experiment::for_each_of(
        restarts_ending(s, "prompt"), restart_name,
        [](const restart_run& r) {
            if (auto why = misplaced(r)) return inconclusive(*why);
            return exactly_once(r.committed, r.events) ? held(restart_text(r)) : refuted(restart_text(r));
        },
        "the prompt restore did not run");
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    return {{"e5.far-under-interval-loses-everything", [](const samples& s, const parameters&) { return far_under_interval_loses_everything(s); }},
            {"e5.far-under-interval-job-fails-over", [](const samples& s, const parameters&) { return far_under_interval_job_fails_over(s); }},
            {"e5.seed-condition-is-silent", [](const samples& s, const parameters&) { return seed_condition_is_silent(s); }},
            {"e5.just-under-interval-loses-records", [](const samples& s, const parameters&) { return just_under_interval_loses_records(s); }},
            {"e5.above-interval-delivers-once", [](const samples& s, const parameters&) { return above_interval_delivers_once(s); }},
            {"e5.just-above-interval-suffices", [](const samples& s, const parameters&) { return just_above_interval_suffices(s); }},
            {"e5.broker-registers-the-request", [](const samples& s, const parameters&) { return broker_registered_the_request(s); }},
            {"e5.above-broker-max-fails-loudly", [](const samples& s, const parameters&) { return above_max_fails_loudly(s); }},
            {"e5.cancel-aborts-its-transaction", [](const samples& s, const parameters&) { return cancel_aborts_its_transaction(s); }},
            {"e5.stuck-transaction-blocks-readers", [](const samples& s, const parameters&) { return stuck_transaction_blocks_readers(s); }},
            {"e5.stuck-transaction-holds-only-its-partitions", [](const samples& s, const parameters&) { return stuck_transaction_holds_only_its_partitions(s); }},
            {"e5.restart-late-loses-the-pending-transaction", [](const samples& s, const parameters&) { return restart_late_loses_the_pending_transaction(s); }},
            {"e5.restart-late-is-silent-but-for-the-logs", [](const samples& s, const parameters&) { return restart_late_is_silent_but_for_the_logs(s); }},
            {"e5.restart-prompt-delivers-once", [](const samples& s, const parameters&) { return restart_prompt_delivers_once(s); }}};
}

inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    return plan;
}

// ---- report --------------------------------------------------------------------

/// A run's cell: its name without the repeat's number.
inline std::string cell_of(const std::string& name) {
    const auto hash = name.rfind(" #");
    return hash == std::string::npos ? name : name.substr(0, hash);
}

/// One cell's repeats side by side: how many, the records a read_committed
/// reader got once (min / median / max), how often it got all or none, and
/// how often the job recorded an exception.
struct cell_spread {
    std::string cell;
    std::size_t runs = 0;
    stats::summary committed;
    std::size_t all_once = 0, none = 0, with_exceptions = 0;
};
template <class Run>
std::vector<cell_spread> spread_by_cell(const std::vector<Run>& runs, const std::function<std::string(const Run&)>& cell) {
    std::vector<cell_spread> out;
    std::map<std::string, std::vector<const Run*>> by;
    for (const auto& r : runs) {
        const auto c = cell(r);
        if (!by.count(c)) out.push_back({c, 0, {}, 0, 0, 0});
        by[c].push_back(&r);
    }
    for (auto& c : out) {
        std::vector<double> got;
        for (const auto* r : by.at(c.cell)) {
            got.push_back(static_cast<double>(r->committed.distinct_seq));
            c.all_once += exactly_once(r->committed, r->events) ? 1 : 0;
            c.none += r->committed.distinct_seq == 0 ? 1 : 0;
            c.with_exceptions += r->signals.exceptions > 0 ? 1 : 0;
        }
        c.runs = got.size();
        c.committed = stats::summarize(got);
    }
    return out;
}
inline std::string spread_table(const std::vector<cell_spread>& cells, const std::string& first_column) {
    report::markdown_table t{{first_column, "Runs", "Read committed, records once: min / median / max",
                              "Runs where read_committed got every record once", "Runs where it got none",
                              "Runs with an exception recorded"}};
    const auto n = [](double x) { return report::with_thousands(static_cast<long long>(x)); };
    for (const auto& c : cells)
        t.row({c.cell, std::to_string(c.runs), n(c.committed.min) + " / " + n(c.committed.median) + " / " + n(c.committed.max),
               std::to_string(c.all_once), std::to_string(c.none), std::to_string(c.with_exceptions)});
    return t.render();
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    using report::fixed;
    std::string o = "The roster feed (" + report::with_thousands(static_cast<long long>(p.events)) + " events, " +
                    std::to_string(p.partitions) + " partitions) copied by a Flink SQL job to a second topic through the "
                    "Kafka connector's sink at `sink.delivery-guarantee = exactly-once`, parallelism " +
                    std::to_string(p.parallelism) + ", fed over " + fixed(static_cast<double>(p.feed_ms) / 1000, 0) +
                    " s and read back " + std::to_string(p.commit_wait_checkpoints) +
                    " checkpoints later by two consumers of our own, every seq checked against the seed" +
                    (p.quick ? ", **quick run**" : "") +
                    ". The interval from Flink's checkpoint config; the timeout the broker registered and the states "
                    "of the job's transactions from the broker (`TransactionsCommand describe`/`list`, sampled)" +
                    (s.runs.empty() || !s.runs.front().broker_abort_sweep_ms
                         ? std::string()
                         : "; the broker looks for timed-out transactions every " +
                               fixed(static_cast<double>(*s.runs.front().broker_abort_sweep_ms) / 1000, 0) +
                               " s (`transaction.abort.timed.out.transaction.cleanup.interval.ms`, as it reports it), so "
                               "a transaction is aborted between its timeout and that much later") +
                    ".\n\n";
    report::markdown_table t{{"Run", "Interval (Flink)", "Timeout asked / registered (broker)", "Timeout / interval",
                              "Read committed: records once, duplicates, missing runs", "Read uncommitted: records",
                              "Transaction states seen", "Job at the end", "Failed checkpoints", "Exceptions",
                              "Transaction warnings in the logs", "Feed over / first abort (after the submit; the abort between two samples)"}};
    for (const auto& r : s.runs) {
        const auto w = first_abort(r.states);
        const auto secs = [](std::int64_t ms) { return report::fixed(static_cast<double>(ms) / 1000, 1); };
        const std::string feed_abort = (r.feed_done_ms ? secs(*r.feed_done_ms) + " s" : std::string("not recorded")) + " / " +
                                       (w ? secs(w->after_ms) + "–" + secs(w->by_ms) + " s" : std::string("no abort seen"));
        std::string states;
        for (const auto& x : states_seen(r.states)) states += (states.empty() ? "" : ", ") + x;
        t.row({r.name, report::fixed(static_cast<double>(r.interval_ms) / 1000, 0) + " s",
               std::to_string(r.requested_timeout_ms) + " / " +
                   (r.registered_timeout_ms ? std::to_string(*r.registered_timeout_ms) : std::string("none described")) + " ms",
               fixed(static_cast<double>(r.requested_timeout_ms) / static_cast<double>(std::max<std::int64_t>(r.interval_ms, 1)), 2),
               report::with_thousands(static_cast<long long>(r.committed.distinct_seq)) + " of " +
                   report::with_thousands(static_cast<long long>(r.events)) + ", " + std::to_string(r.committed.duplicate_rows) +
                   ", " + std::to_string(r.committed.missing_runs.size()),
               report::with_thousands(static_cast<long long>(r.uncommitted.distinct_seq)),
               states.empty() ? std::string("none sampled") : states, r.signals.state,
               std::to_string(r.signals.failed_checkpoints), std::to_string(r.signals.exceptions),
               std::to_string(r.signals.log_warnings), feed_abort});
    }
    o += t.render();
    if (!s.runs.empty()) {
        o += "\n**The repeats side by side**, one row per cell (each repeat is a row above).\n\n" +
             spread_table(spread_by_cell<txn_run>(s.runs, [](const txn_run& r) { return cell_of(r.name); }), "Cell");
    }
    for (const auto& st : s.stuck) {
        o += "\n**A transaction left open (" + st.ending +
             (st.sink_partitioner == "default" ? std::string() : ", each writer subtask on one partition") + ").** A job with a " + std::to_string(st.requested_timeout_ms / 1000) +
             " s timeout (registered: " + (st.registered_timeout_ms ? std::to_string(*st.registered_timeout_ms) + " ms" : std::string("none described")) +
             ") was " + (st.ending == "cancel" ? std::string("cancelled") : std::string("cancelled right after its TaskManager was SIGKILLed")) +
             " with " + std::to_string(st.open_at_cancel.size()) + " transaction(s) open (the oldest open for " +
             std::to_string(st.open_for_ms_at_cancel) + " ms); " + std::to_string(st.plain_records) +
             " records were then written to the same topic by a plain producer. A read_committed reader saw none of them for " +
             fixed(static_cast<double>(hidden_for_ms(st)) / 1000, 1) + " s, and all of them " +
             (st.all_visible_after_ms >= 0 ? "after " + fixed(static_cast<double>(st.all_visible_after_ms) / 1000, 1) + " s"
                                           : std::string("not within the wait")) + ".\n";
        if (!st.partitions.empty()) {
            report::markdown_table pt{{"Partition", "Written by an open transaction (broker)", "Plain records", "All visible after"}};
            for (const auto& pw : st.partitions)
                pt.row({std::to_string(pw.partition), pw.held_by_open_transaction ? "yes" : "no", std::to_string(pw.plain_records),
                        pw.all_visible_after_ms >= 0 ? fixed(static_cast<double>(pw.all_visible_after_ms) / 1000, 1) + " s"
                                                     : std::string("not within the wait")});
            o += "\n" + pt.render();
        }
    }
    if (!s.restarts.empty()) {
        o += "\n**The restart term.** A savepoint pre-commits each writer subtask's transaction; it is committed only "
             "when a job restored from that savepoint runs. Right after the savepoint the TaskManager was SIGKILLed and "
             "the job cancelled; the restore was submitted at once (prompt) or " +
             fixed(static_cast<double>(p.restart_late_wait_ms) / 1000, 0) +
             " s after the savepoint (late), while the feed went on. The age is the pending transaction's, from the "
             "broker's start time to the restored job's tasks running (a lower bound on its age at the commit).\n\n";
        report::markdown_table rt{{"Restore", "Interval (Flink)", "Timeout asked / registered (broker)",
                                   "Transactions open after the kill, begun before the savepoint",
                                   "Their age when the restored job ran", "Read committed: records once, duplicates, missing runs",
                                   "Read uncommitted: records", "Restored job", "Exceptions", "Failed checkpoints",
                                   "Transaction warnings in the logs"}};
        for (const auto& r : s.restarts)
            rt.row({restart_name(r), fixed(static_cast<double>(r.interval_ms) / 1000, 0) + " s",
                    std::to_string(r.requested_timeout_ms) + " / " +
                        (r.registered_timeout_ms ? std::to_string(*r.registered_timeout_ms) : std::string("none described")) + " ms",
                    std::to_string(r.pending_at_savepoint.size()),
                    fixed(static_cast<double>(pending_age_at_restore_ms(r)) / 1000, 1) + " s",
                    report::with_thousands(static_cast<long long>(r.committed.distinct_seq)) + " of " +
                        report::with_thousands(static_cast<long long>(r.events)) + ", " + std::to_string(r.committed.duplicate_rows) +
                        ", " + std::to_string(r.committed.missing_runs.size()),
                    report::with_thousands(static_cast<long long>(r.uncommitted.distinct_seq)), r.signals.state,
                    std::to_string(r.signals.exceptions), std::to_string(r.signals.failed_checkpoints),
                    std::to_string(r.signals.log_warnings)});
        o += rt.render();
        o += "\n" + spread_table(spread_by_cell<restart_run>(s.restarts, [](const restart_run& r) { return r.ending; }), "Restore");
    }
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// The fraction a read_committed reader got against timeout / interval.
inline std::string boundary_svg(const samples& s) {
    report::line_plot plot;
    plot.title = "Where the transaction timeout bites";
    plot.x_label = "transaction timeout / checkpoint interval";
    plot.y_label = "fraction of records a read_committed reader got";
    std::map<std::uint64_t, report::series> by_repeat;
    for (const auto& r : s.runs) {
        if (r.part != "boundary" || !r.ratio) continue;
        auto& ser = by_repeat[r.repeat];
        ser.label = "repeat " + std::to_string(r.repeat);
        ser.points.push_back({*r.ratio, committed_fraction(r)});
    }
    for (auto& [k, ser] : by_repeat) {
        std::sort(ser.points.begin(), ser.points.end());
        plot.add_series(std::move(ser));
    }
    plot.add_reference({report::orientation::vertical, report::axis::left, 1.0, "timeout = interval"});
    return plot.render();
}

struct definition {
    using parameters = e5::parameters;
    using samples = e5::samples;
    static constexpr const char* id = "e5_transaction_timeout";
    static constexpr const char* tag = "e5";
    static constexpr const char* predictions_file = "predictions/e5_transaction_timeout.json";
    static constexpr const char* results_file = "results/e5_transaction_timeout.json";
    static constexpr experiment::hooks<parameters> hooks{
        .problems = [](const parameters& p, const experiment::preflight_facts& f) {
            const auto broker_max = f.broker_transaction_max_timeout_ms;
            return experiment::problems_found({e5::usage_problem(p, f.slots_or_unlimited()),
                                               broker_max ? e5::transaction_timeout_problem(p, *broker_max) : std::nullopt});
        },
        .reads = {.task_slots = true, .broker_transaction_max_timeout_ms = true}};
    static std::vector<rule> rules() { return e5::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e5::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e5::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) {
        return {{"docs/e5_boundary.svg", boundary_svg(s)}};
    }
};

}  // namespace rosterrig::e5

#endif
