// rosterrig-e5: what does a Kafka transaction timeout shorter than the
// checkpoint interval cost a job that writes to Kafka at exactly-once?
//
// Per run: an input topic with the roster feed, a Flink SQL job copying it to
// an output topic through the Kafka sink at exactly-once (its own
// transactional-id prefix and transaction.timeout.ms), the broker's view of
// the job's transactions sampled, and the output read back at read_committed
// and read_uncommitted once the job has had time to commit. The restart-term
// runs restore a job from a savepoint promptly or after the timeout; the
// stuck-transaction runs cancel a job with a transaction open and watch a
// read_committed reader wait. The job and what an operator sees of it are in
// drivers/live/kafka_txn_job.hpp; the rest is in
// include/rosterrig/experiments/e5_transaction_timeout.hpp.
#include <rosterrig/experiments/e5_transaction_timeout.hpp>
#include <rosterrig/generate/generator.hpp>

#include "feeder.hpp"
#include "job_waits.hpp"
#include "kafka_transactions.hpp"
#include "kafka_txn_job.hpp"
#include "poll.hpp"
#include "process_fault.hpp"
#include "runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e5::definition>;
using std::chrono::milliseconds, std::chrono::seconds;

namespace {

std::int64_t checked_interval(session& s, const std::string& job, std::int64_t want) {
    const auto got = s.flink.checkpoint_config(job).interval_ms;
    if (got != want)
        throw live_error(s.flink.where(), "job " + job + " runs every " + std::to_string(got) + " ms, not the requested " + std::to_string(want));
    return got;
}

// `n` more checkpoints, then 11 s for the broker's abort sweep (every 10 s) to
// act on what timed out. A job failing over may not complete them: what it
// did is recorded, not waited for forever.
void let_it_commit(session& s, const std::string& job, std::int64_t n, std::int64_t interval_ms, const std::string& label) {
    try {
        auto id = s.flink.checkpoints(job).latest_completed_id;
        for (std::int64_t i = 0; i < n; ++i) id = wait_checkpoint_above(s.flink, job, id, seconds(interval_ms / 1000 * 2 + 60));
    } catch (const live_error& e) {
        progress(label + ": " + e.what() + "; reading what was committed");
    }
    std::this_thread::sleep_for(seconds(11));
}

void run_once(session& s, const e5::parameters& params, const e5::run_plan& plan, std::int64_t broker_max,
              const std::vector<kafka_record>& records, history& h) {
    const std::string label = "e5[" + plan.name + "]";
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, plan.part + "_" + std::to_string(h.read([](const e5::samples& x) { return x.runs.size(); })));
    scope.spec.transaction_timeout_ms = plan.timeout_ms;
    scope.spec.config.checkpoint_interval_ms = plan.interval_ms;
    scope.spec.config.parallelism = params.parallelism;
    e5::txn_run run{plan.part, plan.name, plan.repeat, plan.ratio, plan.timeout_ms};
    run.broker_max_timeout_ms = broker_max;
    try {
        run.broker_abort_sweep_ms = broker_setting(s.stack, "transaction.abort.timed.out.transaction.cleanup.interval.ms");
    } catch (const live_error& e) {
        progress(label + ": " + e.what());
    }
    run.events = params.events;
    const auto logs = mark_flink_logs(s.stack);
    const auto t0 = std::chrono::steady_clock::now();
    run.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    progress(label + ": job " + run.job_id + ", timeout " + std::to_string(plan.timeout_ms) + " ms, interval " +
             std::to_string(plan.interval_ms) + " ms");
    if (plan.part == "above-max") {
        // Does the job fail, and when? It runs the feed like any other run.
        feeder(s.stack.kafka(), scope.spec.in_topic, records, 0).finish();
        try {
            poll_until(s.flink.where(), seconds(120), [&] {
                const auto st = s.flink.job_state(run.job_id);
                return st == "FAILED" || st == "RESTARTING" || !s.flink.exceptions(run.job_id).empty();
            }, [&] { return "job " + run.job_id + " with a timeout above the broker's maximum has not failed"; });
            run.failed_after_ms = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - t0).count();
        } catch (const live_error& e) {
            progress(label + ": " + e.what());
        }
        run.interval_ms = s.flink.checkpoint_config(run.job_id).interval_ms;
    } else {
        wait_all_running(s.flink, run.job_id, seconds(120));
        run.interval_ms = checked_interval(s, run.job_id, plan.interval_ms);
        feeder(s.stack.kafka(), scope.spec.in_topic, records,
               static_cast<double>(records.size()) * 1000.0 / static_cast<double>(params.feed_ms)).finish();
        let_it_commit(s, run.job_id, params.commit_wait_checkpoints, plan.interval_ms, label);
    }
    run.states = states.stop();
    for (const auto& x : run.states) try {  // the timeout the broker registered, for one of the job's ids
            const auto d = describe_transaction(s.stack, x.transactional_id);
            if (d.timeout_ms > 0) { run.registered_timeout_ms = d.timeout_ms; break; }
        } catch (const live_error&) {
        }
    run.committed = read_back(s, scope.spec.out_topic, parts, isolation::read_committed, params.events);
    run.uncommitted = read_back(s, scope.spec.out_topic, parts, isolation::read_uncommitted, params.events);
    run.signals = signals_of(s, run.job_id, scope.spec.transactional_id_prefix, logs);
    progress(label + ": " + e5::read_text(run));
    h.record([&](e5::samples& x) { x.runs.push_back(std::move(run)); });
}

// The restart term: a savepoint mid-feed pre-commits the writer's
// transactions; the TaskManager is SIGKILLed and the job cancelled; a job
// restored from the savepoint (at once, or `restart_late_wait_ms` after it)
// has to commit them, while the feed goes on.
void run_restart(session& s, const e5::parameters& params, const std::string& ending, const std::vector<kafka_record>& records,
                 history& h) {
    const std::string label = "e5[restart, " + ending + "]";
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, "restart_" + ending);
    scope.spec.transaction_timeout_ms = params.restart_timeout_ms;
    scope.spec.config.checkpoint_interval_ms = params.restart_interval_ms;
    scope.spec.config.parallelism = params.parallelism;
    e5::restart_run r;
    r.ending = ending;
    r.requested_timeout_ms = params.restart_timeout_ms;
    r.events = params.events;
    const auto logs = mark_flink_logs(s.stack);
    const auto t0 = std::chrono::steady_clock::now();
    r.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    wait_all_running(s.flink, r.job_id, seconds(120));
    r.interval_ms = checked_interval(s, r.job_id, params.restart_interval_ms);
    const auto before = s.flink.checkpoints(r.job_id).latest_completed_id;
    feeder feed(s.stack.kafka(), scope.spec.in_topic, records,
                static_cast<double>(records.size()) * 1000.0 / static_cast<double>(params.feed_ms));
    // A checkpoint during the feed, then a few seconds of records for the savepoint's transaction.
    wait_checkpoint_above(s.flink, r.job_id, before, seconds(params.restart_interval_ms / 1000 * 2 + 60));
    std::this_thread::sleep_for(milliseconds(std::min<std::int64_t>(params.restart_interval_ms / 4, 5000)));
    // The kill follows the savepoint at once: a checkpoint after it would commit its transaction.
    long long savepoint_at = 0;
    const long long triggered_at = now_ms();
    const auto sp = take_savepoint(s.flink, r.job_id, "file://" + s.stack.data_dir() + "/flink/savepoints", [&] {
        savepoint_at = now_ms();
        kill_taskmanager_then_cancel(s, r.job_id);
    });
    r.savepoint_path = sp.path, r.savepoint_id = sp.id;
    // Pending: still open after the kill and begun before the savepoint was
    // triggered (the writer's next transactions begin after its barrier).
    for (const auto& t : list_transactions(s.stack, scope.spec.transactional_id_prefix)) {
        if (t.state != "Ongoing") continue;
        const auto d = describe_transaction(s.stack, t.id);
        if (d.timeout_ms > 0) r.registered_timeout_ms = d.timeout_ms;
        if (d.start_ms <= 0 || d.start_ms >= triggered_at) continue;
        r.pending_at_savepoint.push_back(t.id);
        r.pending_open_for_ms_at_savepoint = std::max<std::int64_t>(r.pending_open_for_ms_at_savepoint, savepoint_at - d.start_ms);
    }
    progress(label + ": savepoint " + std::to_string(sp.id) + ", TaskManager killed, job cancelled; " +
             std::to_string(r.pending_at_savepoint.size()) + " transaction(s) begun before the savepoint still open, the oldest for " +
             std::to_string(r.pending_open_for_ms_at_savepoint) + " ms at the savepoint");
    if (ending == "late") std::this_thread::sleep_until(std::chrono::system_clock::time_point(milliseconds(savepoint_at + params.restart_late_wait_ms)));
    r.restored_job_id = scope.relaunch_from(sp.path);
    wait_all_running(s.flink, r.restored_job_id, seconds(180));
    r.savepoint_to_restored_running_ms = now_ms() - savepoint_at;
    progress(label + ": restored as job " + r.restored_job_id + ", running " + std::to_string(r.savepoint_to_restored_running_ms) +
             " ms after the savepoint");
    feed.finish();
    let_it_commit(s, r.restored_job_id, params.commit_wait_checkpoints, params.restart_interval_ms, label);
    r.states = states.stop();
    r.committed = read_back(s, scope.spec.out_topic, parts, isolation::read_committed, params.events);
    r.uncommitted = read_back(s, scope.spec.out_topic, parts, isolation::read_uncommitted, params.events);
    r.signals = signals_of(s, r.restored_job_id, scope.spec.transactional_id_prefix, logs);
    progress(label + ": " + e5::restart_text(r));
    h.record([&](e5::samples& x) { x.restarts.push_back(std::move(r)); });
}

// A transaction left open: a long timeout, the job ended with a transaction
// open, then plain records written to the same topic and a read_committed
// reader polled, per partition, until it sees them all.
void run_stuck(session& s, const e5::parameters& params, const std::string& ending, const std::string& partitioner,
               const std::vector<kafka_record>& records, const std::vector<kafka_record>& plain, history& h) {
    const std::string label = "e5[stuck, " + ending + ", " + partitioner + " partitioner]";
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, "stuck_" + ending + "_" + partitioner);
    scope.spec.sink_partitioner = partitioner;
    scope.spec.transaction_timeout_ms = params.stuck_timeout_ms;
    scope.spec.config.checkpoint_interval_ms = params.stuck_interval_ms;
    scope.spec.config.parallelism = params.parallelism;
    e5::stuck_run st;
    st.ending = ending;
    st.sink_partitioner = partitioner;
    st.requested_timeout_ms = params.stuck_timeout_ms;
    st.plain_records = plain.size();
    const auto t0 = std::chrono::steady_clock::now();
    st.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    wait_all_running(s.flink, st.job_id, seconds(120));
    st.interval_ms = s.flink.checkpoint_config(st.job_id).interval_ms;
    feeder(s.stack.kafka(), scope.spec.in_topic, records, 0).finish();
    // A transaction is open once the sink has written into it.
    st.open_at_cancel = poll_until(s.stack.kafka(), seconds(90), [&]() -> std::optional<std::vector<std::string>> {
        std::vector<std::string> ongoing;
        for (const auto& t : list_transactions(s.stack, scope.spec.transactional_id_prefix))
            if (t.state == "Ongoing") ongoing.push_back(t.id);
        return ongoing.empty() ? std::nullopt : std::optional(ongoing);
    }, [&] { return "no transaction of " + scope.spec.transactional_id_prefix + " is open"; }, {milliseconds(1000)});
    const auto open = describe_open(s, st.open_at_cancel);
    st.registered_timeout_ms = open.registered_timeout_ms;
    const long long cancelled_at = ending == "kill-then-cancel" ? kill_taskmanager_then_cancel(s, st.job_id) : cancel(s, st.job_id);
    st.open_for_ms_at_cancel = open.oldest_start_ms > 0 ? cancelled_at - open.oldest_start_ms : -1;
    progress(label + ": job cancelled with " + std::to_string(st.open_at_cancel.size()) + " transaction(s) open; writing " +
             std::to_string(plain.size()) + " plain records");
    std::map<std::uint64_t, int> partition_of;
    for (int p = 0; p < parts; ++p) st.partitions.push_back({p, false, 0, -1});
    for (int p : open.partitions_of(scope.spec.out_topic)) st.partitions.at(static_cast<std::size_t>(p)).held_by_open_transaction = true;
    for (const auto& r : plain) partition_of[static_cast<std::uint64_t>(r.seq)] = r.partition, ++st.partitions.at(static_cast<std::size_t>(r.partition)).plain_records;
    feeder(s.stack.kafka(), scope.spec.out_topic, plain, 0).finish();
    const auto written = std::chrono::steady_clock::now();
    st.plain_acked_after_cancel_ms = now_ms() - cancelled_at;
    poll_until(s.stack.kafka(), seconds(params.stuck_timeout_ms / 1000 + 90), [&] {
        const auto r = read_topic(s.stack.kafka(), scope.spec.out_topic, parts, isolation::read_committed);
        const auto t = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - written).count();
        std::vector<std::uint64_t> per(static_cast<std::size_t>(parts), 0);
        std::int64_t visible = 0;
        for (auto seq : r.seqs)
            if (auto it = partition_of.find(seq); it != partition_of.end()) ++visible, ++per[static_cast<std::size_t>(it->second)];
        for (auto& pw : st.partitions)
            if (pw.all_visible_after_ms < 0 && per[static_cast<std::size_t>(pw.partition)] >= pw.plain_records) pw.all_visible_after_ms = t;
        st.visibility.push_back({t, visible});
        if (visible >= static_cast<std::int64_t>(plain.size())) st.all_visible_after_ms = t;
        return st.all_visible_after_ms >= 0;
    }, [&] { return std::string("the plain records are still hidden from read_committed readers"); }, {milliseconds(2000), seconds(15)});
    st.states = states.stop();
    progress(label + ": plain records hidden for " + std::to_string(e5::hidden_for_ms(st)) + " ms, all visible after " +
             std::to_string(st.all_visible_after_ms) + " ms");
    h.record([&](e5::samples& x) { x.stuck.push_back(std::move(st)); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e5::definition>(
        argc, argv, "Experiment 5: what a Kafka transaction timeout shorter than the checkpoint interval costs a job "
                    "writing to Kafka at exactly-once; where the rule bites; the restart term; a timeout above the "
                    "broker's maximum; and the transaction a cancelled job leaves open.",
        {{"--pair-timeouts", "MS,MS", "the reference pair's timeouts, in ms (default 5000,300000)", &e5::parameters::pair_timeouts_ms}},
        [](session& s, const e5::parameters& params, const experiment::fault_plan&, history& h) {
            const auto records = kafka_records(generate(params.feed()));
            const auto max = broker_setting(s.stack, "transaction.max.timeout.ms");
            for (const auto& plan : e5::runs_of(params)) run_once(s, params, plan, max, records, h);
            for (const auto& ending : params.restart_endings) run_restart(s, params, ending, records, h);
            run_once(s, params, {"above-max", "above the broker's maximum", params.boundary_interval_ms, max + params.above_max_by_ms, 1, std::nullopt},
                     max, records, h);
            auto more = params.feed();
            more.events += params.stuck_plain_records;
            const auto all = kafka_records(generate(more));
            const std::vector<kafka_record> plain(all.end() - static_cast<long>(params.stuck_plain_records), all.end());
            const std::vector<kafka_record> first(records.begin(), records.begin() + static_cast<long>(records.size() / 4));
            for (const auto& run : params.stuck_runs) {
                const auto slash = run.find('/');
                run_stuck(s, params, run.substr(0, slash), run.substr(slash + 1), first, plain, h);
            }
        });
}
