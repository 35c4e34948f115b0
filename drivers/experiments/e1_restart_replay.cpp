// rosterrig-e1: what does a restart replay, and which setting decides it?
//
// Part 1: four configurations ({at-least-once, exactly-once} × {append, upsert
// on npi}), one job each, fed at a steady rate while the TaskManager is
// SIGKILLed at the moments the fault plan drew. Part 2: are committed offsets
// the truth or monitoring? Rewind them behind a job, kill, then start a fresh
// job that trusts them (drivers/live/jobs/flink_offsets). Everything else is in
// include/rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp.
#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/faults.hpp"
#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/kill_run.hpp"
#include "roles/observe_table.hpp"
#include "jobs/flink_offsets.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e1::definition>;

namespace {

void run_configuration(session& s, const e1::parameters& params, const e1::configuration& cfg,
                       const experiment::fault_plan& plan, history& h) {
    const std::string label = "e1[" + cfg.name + "]";
    pipeline_scope scope(s);
    const auto spec = params.feed();
    auto p = s.pipeline(e1::short_name_of(cfg), e1::pipeline_of(params, cfg));
    p.job = params.job;  // a user's template runs in place of the rig's
    const std::string job = scope.launch(p, static_cast<int>(spec.partitions));
    const auto in_force = scope.writer.in_force(job, p);
    const auto pacing = e1::pacing_of(params);
    const double rate = pacing.initial_rate(spec.events, params.kills_per_configuration);
    feeder feed(s.stack.kafka(), p.topic, kafka_records(generate(spec)), rate);
    const long long feed_start = now_ms();
    const std::size_t at = h.record([&](e1::samples& x) {
        x.configurations.push_back(e1::start_run(cfg, params, job, in_force, rate));
        return x.configurations.size() - 1;
    });
    progress(label + ": job " + job + " runs " + in_force.mode + " every " + std::to_string(in_force.interval_ms) +
             " ms; writer input: " + in_force.writer_input);

    const auto steps = plan.of(cfg.name);
    run_kill_loop(
        s, job, label, feed, feed_start, steps, pacing,
        {[&](const experiment::fault_step& step, long long last_restored) {
             await_kill_trigger(s, job, last_restored, step);
         },
         [&](const experiment::fault_step& step) {
             if (feed.sent() < feed.total()) return false;
             progress(label + ": the feed ended before kill " + std::to_string(step.index) + "; stopping kills");
             return true;
         },
         [&](const e1::kill_sample& k) {
             h.record([&](e1::samples& x) { x.configurations[at].kills.push_back(k); });
         }});
    const auto report = finish_and_drain(s, feed, job, p, static_cast<int>(spec.partitions), label, feed_start,
                                         std::chrono::seconds(300));
    const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
    const auto end = read_run_end(s, job, p);
    h.record([&](e1::samples& x) {
        auto& run = x.configurations[at];
        record_run_end(run, report, feed_start, end, seen);
        progress(label + ": " + e1::end_text(run));
    });
}

}  // namespace

int run_multi_input(int argc, char** argv);  // experiment 1b, the multi-input variant (e1b_multi_input.cpp)

int main(int argc, char** argv) {
    if (const auto variant = run_variant(argc, argv, "--multi-input", run_multi_input)) return *variant;
    return run_experiment<e1::definition>(
        argc, argv,
        "Experiment 1: what a TaskManager kill replays, four configurations, and whether a job recovers "
        "from Kafka's committed offsets or from its checkpoint. "
        "With --multi-input: experiment 1b, 1.2 M events into a writer with several inputs (--multi-input --help).",
        {{"--kills", "N", "TaskManager kills per configuration (default 30, quick 1)",
          &e1::parameters::kills_per_configuration}},
        [](session& s, const e1::parameters& params, const experiment::fault_plan& plan, history& h) {
            for (const auto& c : e1::configurations_of(params)) run_configuration(s, params, c, plan, h);
            if (!params.job) run_offsets(s, params, h);  // part 2 is about Flink's Kafka source, not a sink
        });
}
