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
// drivers/live/jobs/kafka_txn_job.hpp, the restart-term run in
// drivers/live/jobs/restart_term.hpp, the stuck-transaction run in
// drivers/live/jobs/stuck_transaction.hpp; the rest is in
// include/rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp.
#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/feeder.hpp"
#include "roles/job_waits.hpp"
#include "adapters/kafka_transactions.hpp"
#include "jobs/kafka_txn_job.hpp"
#include "jobs/restart_term.hpp"
#include "runner/runner.hpp"
#include "jobs/stuck_transaction.hpp"

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
    run.broker_abort_sweep_ms =
        broker_setting_if_read(s.stack, "transaction.abort.timed.out.transaction.cleanup.interval.ms", label);
    const auto logs = mark_flink_logs(s.stack);
    const auto t0 = std::chrono::steady_clock::now();
    run.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    progress(label + ": " + e5::started_text(run.job_id, plan));
    if (plan.part == "above-max") {
        // Does the job fail, and when? It runs the feed like any other run.
        feeder(s.stack.kafka(), scope.spec.in_topic, records, 0).finish();
        run.failed_after_ms =
            failed_after_ms(s.flink, run.job_id, t0, seconds(120), " with a timeout above the broker's maximum", label);
        run.interval_ms = s.flink.checkpoint_config(run.job_id).interval_ms;
    } else {
        wait_all_running(s.flink, run.job_id, seconds(120));
        run.interval_ms = require_checkpoint_interval(s.flink, run.job_id, plan.interval_ms);
        feeder(s.stack.kafka(), scope.spec.in_topic, records, e5::feed_rate_of(plan, params)).finish();
        run.feed_done_ms = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - t0).count();
        let_it_commit(s, run.job_id, params.commit_wait_checkpoints, plan.interval_ms, label);
    }
    read_outcome(s, run, states, scope.spec.out_topic, parts, run.job_id, scope.spec.transactional_id_prefix,
                 params.events, logs);
    run.registered_timeout_ms = registered_timeout(s, run.states);
    progress(label + ": " + e5::read_text(run));
    h.record([&](e5::samples& x) { x.runs.push_back(std::move(run)); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e5::definition>(
        argc, argv,
        "Experiment 5: what a Kafka transaction timeout shorter than the checkpoint interval costs a job "
        "writing to Kafka at exactly-once; where the rule bites; the restart term; a timeout above the "
        "broker's maximum; and the transaction a cancelled job leaves open.",
        {{"--pair-timeouts", "MS,MS", "the reference pair's timeouts, in ms (default 5000,300000)",
          &e5::parameters::pair_timeouts_ms}},
        [](session& s, const e5::parameters& params, const experiment::fault_plan&, history& h) {
            const auto records = kafka_records(generate(params.feed()));
            const auto max = broker_setting(s.stack, "transaction.max.timeout.ms");
            for (const auto& plan : e5::runs_of(params)) run_once(s, params, plan, max, records, h);
            for (std::uint64_t repeat = 1; repeat <= params.restart_repeats.value_or(1); ++repeat)
                for (const auto& ending : params.restart_endings) run_restart(s, params, ending, repeat, records, h);
            run_once(s, params, e5::above_max_plan(params, max), max, records, h);
            const auto [first, plain] = stuck_feeds(params, records);
            for (const auto& [ending, partitioner] : e5::stuck_cells(params))
                run_stuck_transaction(s, params, ending, partitioner, first, plain, [&](e5::stuck_run&& st) {
                    h.record([&](e5::samples& x) { x.stuck.push_back(std::move(st)); });
                });
        });
}
