// rosterrig-e1: what does a restart replay, and which setting decides it?
//
// Part 1: four configurations ({at-least-once, exactly-once} × {append, upsert
// on npi}), one job each, fed at a steady rate while the TaskManager is
// SIGKILLed at the moments the fault plan drew. Part 2: are committed offsets
// the truth or monitoring? Rewind them behind a job, kill, then start a fresh
// job that trusts them. Everything else is in
// include/rosterrig/experiments/e1_restart_replay.hpp.
#include <rosterrig/experiment/feed_pacing.hpp>
#include <rosterrig/experiments/e1_restart_replay.hpp>
#include <rosterrig/generate/generator.hpp>

#include "faults.hpp"
#include "feeder.hpp"
#include "flink_sql_writer.hpp"
#include "job_waits.hpp"
#include "kill_run.hpp"
#include "observe_table.hpp"
#include "runner.hpp"

#include <thread>

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e1::definition>;

namespace {

void run_configuration(session& s, const e1::parameters& params, const e1::configuration& cfg,
                       const experiment::fault_plan& plan, history& h) {
    const std::string label = "e1[" + cfg.name + "]";
    pipeline_scope scope(s);
    const auto spec = params.feed();
    const auto p = s.pipeline(std::string(cfg.mode == experiment::checkpoint_mode::at_least_once ? "alo_" : "eo_") +
                                  experiment::name_of(cfg.table), e1::pipeline_of(params, cfg));
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
    run_kill_loop(s, job, label, feed, feed_start, steps, pacing,
                  {[&](const experiment::fault_step& step, long long last_restored) { await_kill_trigger(s, job, last_restored, step); },
                   [&](const experiment::fault_step& step) {
                       if (feed.sent() < feed.total()) return false;
                       progress(label + ": the feed ended before kill " + std::to_string(step.index) + "; stopping kills");
                       return true;
                   },
                   [&](const e1::kill_sample& k) { h.record([&](e1::samples& x) { x.configurations[at].kills.push_back(k); }); }});
    const auto report = finish_and_drain(s, feed, job, p, static_cast<int>(spec.partitions), label, feed_start, std::chrono::seconds(300));
    const auto seen = observe_table(s.trino, p.ns, p.table, spec);
    h.record([&](e1::samples& x) {
        auto& run = x.configurations[at];
        record_run_end(s, run, report, feed_start, job, seen);
        progress(label + ": " + std::to_string(run.rows) + " rows, " + std::to_string(run.duplicate_rows) +
                 " duplicate seq rows, " + std::to_string(run.rows_sharing_npi) + " sharing an NPI, " +
                 std::to_string(run.equality_delete_files) + " equality delete files");
    });
}

e1::offsets_step offsets_step(session& s, const pipeline_spec& p, const roster_spec& spec, const std::string& step,
                              const std::string& job) {
    const int parts = static_cast<int>(spec.partitions);
    const auto seen = observe_table(s.trino, p.ns, p.table, spec);
    e1::offsets_step x{step, s.admin.committed_offsets_sum(p.group, p.topic, parts), s.admin.end_offsets_sum(p.topic, parts),
                       seen.by_seq.rows, seen.by_seq.duplicate_rows, job,
                       static_cast<std::int64_t>(s.flink.exceptions(job).size()), s.flink.checkpoints(job).latest_restored_id};
    progress("e1[offsets]: " + step + ": committed offsets " + std::to_string(x.committed_offsets_sum) + " of " +
             std::to_string(x.end_offsets_sum) + ", rows " + std::to_string(x.rows) + ", duplicates " + std::to_string(x.duplicate_rows));
    return x;
}

void run_offsets(session& s, const e1::parameters& params, history& h) {
    pipeline_scope scope(s);
    const auto spec = params.offsets_feed();
    const int parts = static_cast<int>(spec.partitions);
    auto p = s.pipeline("offsets", e1::pipeline_of(params, e1::configurations()[1]));  // exactly-once + append
    std::string job = scope.launch(p, parts);
    const auto fed = feeder(s.stack.kafka(), p.topic, kafka_records(generate(spec)), 0).finish();
    h.record([&](e1::samples& all) { all.offsets.feed_sha256 = fed.feed_sha256; });
    wait_until_drained(s.flink, s.admin, job, p.group, p.topic, parts, std::chrono::seconds(300));
    auto record = [&](const std::string& step) {
        auto x = offsets_step(s, p, spec, step, job);
        h.record([&](e1::samples& all) { all.offsets.events = spec.events, all.offsets.steps.push_back(x); });
    };
    record("landed");
    s.admin.rewind_committed_offsets(p.group, p.topic, parts);  // 1. behind the running job's back
    record("rewound");
    kill_taskmanager(s, job, {1, "offsets", experiment::fault_kind::kill_taskmanager, "the rewind", 0, "restart"});
    // 2. Does the restored job's checkpointing write its position back over the rewind, and when?
    const long long end = s.admin.end_offsets_sum(p.topic, parts);
    const auto recovered = std::chrono::steady_clock::now();
    for (bool done = false; !done; std::this_thread::sleep_for(std::chrono::milliseconds(500))) {
        throw_if_interrupted();
        const auto t = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - recovered).count();
        e1::offsets_watch_sample w{t, s.admin.committed_offsets_sum(p.group, p.topic, parts), s.flink.checkpoints(job).latest_completed_id};
        h.record([&](e1::samples& all) { all.offsets.after_restore.push_back(w); });
        done = w.committed_offsets_sum == end || t > (params.quick ? 10000 : 30000);
    }
    record("restored_from_checkpoint");
    scope.writer.stop(job);  // 3. a fresh job that trusts the rewound group offsets
    s.admin.rewind_committed_offsets(p.group, p.topic, parts);
    p.config.startup = experiment::startup_mode::group_offsets;
    job = scope.writer.start(p, false);
    wait_all_running(s.flink, job, std::chrono::seconds(120));
    wait_until_drained(s.flink, s.admin, job, p.group, p.topic, parts, std::chrono::seconds(300));
    record("fresh_from_group_offsets");
}

}  // namespace

// Experiment 1b, the multi-input variant (e1b_multi_input.cpp).
int run_multi_input(int argc, char** argv);

int main(int argc, char** argv) {
    // `--multi-input` anywhere selects the variant; the other flags are its own.
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) != "--multi-input") rest.push_back(argv[i]);
    if (static_cast<int>(rest.size()) != argc) return run_multi_input(static_cast<int>(rest.size()), rest.data());
    return run_experiment<e1::definition>(
        argc, argv, "Experiment 1: what a TaskManager kill replays, four configurations, and whether a job recovers "
                    "from Kafka's committed offsets or from its checkpoint. "
                    "With --multi-input: experiment 1b, 1.2 M events into a writer with several inputs (--multi-input --help).",
        {{"--kills", "N", "TaskManager kills per configuration (default 30, quick 1)", &e1::parameters::kills_per_configuration}},
        [](session& s, const e1::parameters& params, const experiment::fault_plan& plan, history& h) {
            for (const auto& c : e1::configurations_of(params)) run_configuration(s, params, c, plan, h);
            run_offsets(s, params, h);
        });
}
