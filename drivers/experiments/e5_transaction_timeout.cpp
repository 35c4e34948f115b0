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
#include "process_fault.hpp"
#include "runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e5::definition>;
using std::chrono::milliseconds, std::chrono::seconds;

namespace {

void run_once(session& s, const e5::parameters& params, const e5::run_plan& plan, std::int64_t broker_max,
              const std::vector<kafka_record>& records, history& h) {
    const std::string label = e5::label_of(plan);
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, plan.part + "_" + std::to_string(h.read([](const e5::samples& x) { return x.runs.size(); })),
                    {plan.timeout_ms, plan.interval_ms, params.parallelism});
    auto run = e5::planned_run(plan, params, broker_max);
    try {
        run.broker_abort_sweep_ms = broker_setting(s.stack, "transaction.abort.timed.out.transaction.cleanup.interval.ms");
    } catch (const live_error& e) {
        progress(label + ": " + e.what());
    }
    const auto logs = mark_flink_logs(s.stack);
    const auto t0 = std::chrono::steady_clock::now();
    run.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    progress(label + ": " + e5::started_text(run.job_id, plan));
    if (plan.part == "above-max") {
        // Does the job fail, and when? It runs the feed like any other run.
        feeder(s.stack.kafka(), scope.spec.in_topic, records, 0).finish();
        try {
            wait_job_failed(s.flink, run.job_id, seconds(120), " with a timeout above the broker's maximum");
            run.failed_after_ms = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - t0).count();
        } catch (const live_error& e) {
            progress(label + ": " + e.what());
        }
        run.interval_ms = s.flink.checkpoint_config(run.job_id).interval_ms;
    } else {
        wait_all_running(s.flink, run.job_id, seconds(120));
        run.interval_ms = require_checkpoint_interval(s.flink, run.job_id, plan.interval_ms);
        feeder(s.stack.kafka(), scope.spec.in_topic, records, params.feed_rate()).finish();
        let_it_commit(s, run.job_id, params.commit_wait_checkpoints, plan.interval_ms, label);
    }
    read_outcome(s, run, states, scope.spec.out_topic, parts, run.job_id, scope.spec.transactional_id_prefix, params.events, logs);
    run.registered_timeout_ms = registered_timeout(s, run.states);
    progress(label + ": " + e5::read_text(run));
    h.record([&](e5::samples& x) { x.runs.push_back(std::move(run)); });
}

// The restart term: a savepoint mid-feed pre-commits the writer's
// transactions; the TaskManager is SIGKILLed and the job cancelled; a job
// restored from the savepoint (at once, or `restart_late_wait_ms` after it)
// has to commit them, while the feed goes on.
void run_restart(session& s, const e5::parameters& params, const std::string& ending, const std::vector<kafka_record>& records,
                 history& h) {
    const std::string label = e5::restart_label(ending);
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, "restart_" + ending, {params.restart_timeout_ms, params.restart_interval_ms, params.parallelism});
    auto r = e5::planned_restart(params, ending);
    const auto logs = mark_flink_logs(s.stack);
    const auto t0 = std::chrono::steady_clock::now();
    r.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    wait_all_running(s.flink, r.job_id, seconds(120));
    r.interval_ms = require_checkpoint_interval(s.flink, r.job_id, params.restart_interval_ms);
    const auto before = s.flink.checkpoints(r.job_id).latest_completed_id;
    feeder feed(s.stack.kafka(), scope.spec.in_topic, records, params.feed_rate());
    // A checkpoint during the feed, then a few seconds of records for the savepoint's transaction.
    wait_checkpoint_above(s.flink, r.job_id, before, seconds(params.restart_interval_ms / 1000 * 2 + 60));
    std::this_thread::sleep_for(milliseconds(std::min<std::int64_t>(params.restart_interval_ms / 4, 5000)));
    const auto killed = savepoint_then_kill(s, r.job_id);
    const auto savepoint_at = killed.savepoint_at_ms;
    r.savepoint_path = killed.savepoint.path, r.savepoint_id = killed.savepoint.id;
    e5::note_pending_at_savepoint(r, describe_ongoing(s, scope.spec.transactional_id_prefix), killed.triggered_at_ms, savepoint_at);
    progress(label + ": " + e5::savepoint_text(r));
    if (ending == "late") std::this_thread::sleep_until(std::chrono::system_clock::time_point(milliseconds(savepoint_at + params.restart_late_wait_ms)));
    r.restored_job_id = scope.relaunch_from(killed.savepoint.path);
    wait_all_running(s.flink, r.restored_job_id, seconds(180));
    r.savepoint_to_restored_running_ms = now_ms() - savepoint_at;
    progress(label + ": " + e5::restored_text(r));
    feed.finish();
    let_it_commit(s, r.restored_job_id, params.commit_wait_checkpoints, params.restart_interval_ms, label);
    read_outcome(s, r, states, scope.spec.out_topic, parts, r.restored_job_id, scope.spec.transactional_id_prefix, params.events, logs);
    progress(label + ": " + e5::restart_text(r));
    h.record([&](e5::samples& x) { x.restarts.push_back(std::move(r)); });
}

// A transaction left open: a long timeout, the job ended with a transaction
// open, then plain records written to the same topic and a read_committed
// reader polled, per partition, until it sees them all.
void run_stuck(session& s, const e5::parameters& params, const std::string& ending, const std::string& partitioner,
               const std::vector<kafka_record>& records, const std::vector<kafka_record>& plain, history& h) {
    const std::string label = e5::stuck_label(ending, partitioner);
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, "stuck_" + ending + "_" + partitioner, {params.stuck_timeout_ms, params.stuck_interval_ms, params.parallelism});
    scope.spec.sink_partitioner = partitioner;
    auto st = e5::planned_stuck(params, ending, partitioner, plain.size());
    const auto t0 = std::chrono::steady_clock::now();
    st.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    wait_all_running(s.flink, st.job_id, seconds(120));
    st.interval_ms = s.flink.checkpoint_config(st.job_id).interval_ms;
    st.open_at_cancel = feed_into_open_transaction(s, st.job_id, scope.spec.in_topic, records, scope.spec.transactional_id_prefix, seconds(180));
    const auto open = describe_open(s, st.open_at_cancel);
    st.registered_timeout_ms = open.registered_timeout_ms;
    const long long cancelled_at = ending == "kill-then-cancel" ? kill_taskmanager_then_cancel(s, st.job_id) : cancel(s, st.job_id);
    st.open_for_ms_at_cancel = open.oldest_start_ms > 0 ? cancelled_at - open.oldest_start_ms : -1;
    progress(label + ": " + e5::cancelled_text(st));
    std::map<std::uint64_t, int> partition_of;
    for (const auto& r : plain) partition_of[static_cast<std::uint64_t>(r.seq)] = r.partition;
    st.partitions = e5::partitions_before_wait(parts, open.partitions_of(scope.spec.out_topic), partition_of);
    feeder(s.stack.kafka(), scope.spec.out_topic, plain, 0).finish();
    st.plain_acked_after_cancel_ms = now_ms() - cancelled_at;
    watch_plain_records(s, st, scope.spec.out_topic, parts, partition_of, seconds(params.stuck_timeout_ms / 1000 + 90));
    st.states = states.stop();
    progress(label + ": " + e5::hidden_text(st));
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
            run_once(s, params, e5::above_max_plan(params, max), max, records, h);
            const auto [first, plain] = stuck_feeds(params, records);
            for (const auto& run : params.stuck_runs) {
                const auto slash = run.find('/');
                run_stuck(s, params, run.substr(0, slash), run.substr(slash + 1), first, plain, h);
            }
        });
}
