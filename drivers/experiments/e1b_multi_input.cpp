// rosterrig-e1 --multi-input: experiment 1b, does the checkpointing mode matter
// once the Iceberg writer has several input channels, at 100× the feed?
//
// Five configurations (at-least-once; exactly-once aligned; exactly-once
// unaligned, each with a paced feed and 30 kills; at-least-once and aligned
// exactly-once with the feed produced at once), one append job each, the
// source at one subtask per partition and the writer at another parallelism
// (the plan is read back, and a chained writer stops the run). The TaskManager
// is SIGKILLed at the planned moments while the table lacks part of the
// 1.2 M-event feed; Flink's checkpoint statistics give the writer's alignment
// window. Everything else is in include/rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp.
#include <rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/faults.hpp"
#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/kill_run.hpp"
#include "roles/observe_table.hpp"
#include "jobs/writer_checkpoints.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e1b::definition>;

namespace {

void run_configuration(session& s, const e1b::parameters& params, const e1b::configuration& cfg,
                       const experiment::fault_plan& plan, history& h) {
    const std::string label = "e1b[" + cfg.name + "]";
    pipeline_scope scope(s);
    const auto spec = params.feed();
    const int parts = static_cast<int>(spec.partitions);
    auto p = s.pipeline(e1b::short_name_of(cfg), e1b::pipeline_of(params, cfg));
    p.job = params.job;  // a user's template runs in place of the rig's
    const std::string job = scope.launch(p, parts);
    const auto in_force = scope.writer.in_force(job, p);
    const auto pacing = e1b::pacing_of(params);
    const auto steps = plan.of(cfg.name);
    const double rate = cfg.saturated ? 0.0 : pacing.initial_rate(spec.events, steps.size());
    const std::size_t at = h.record([&](e1b::samples& x) {
        x.configurations.push_back(e1b::start_run(cfg, params, job, in_force, rate));
        return x.configurations.size() - 1;
    });
    const auto fan_in = experiment::fan_in_of(in_force.edges);
    if (auto why = e1b::fan_in_problem(fan_in))
        throw live_error(s.flink.where(), "job " + job + ": " + *why + "; the question needs several");
    progress(label + ": job " + job + " runs " + in_force.mode +
             (in_force.unaligned.value_or(false) ? " unaligned" : "") + "; writer input " +
             experiment::fan_in_text(fan_in));
    const std::string writer_vertex = s.flink.writer_vertex(job);  // the plan does not change across restarts
    progress(label + ": generating " + std::to_string(spec.events) + " events");
    feeder feed(s.stack.kafka(), p.topic, kafka_records(generate(spec)), rate);
    const long long feed_start = now_ms();
    std::string ended = e1b::all_kills_ran;
    long long committed = 0;  // the table's records just before the kill
    run_kill_loop(s, job, label, feed, feed_start, steps, cfg.saturated ? std::nullopt : std::optional(pacing),
                  {[&](const experiment::fault_step& step, long long last_restored) {
                       if (cfg.saturated)
                           await_running_then_delay(s, job, step);
                       else
                           await_kill_trigger(s, job, last_restored, step);
                       collect_checkpoints(s, job, writer_vertex, at, h);
                   },
                   // Kills only while data still arrives at the writer: once the table
                   // has committed the whole feed, a replay has nothing to repeat. (The
                   // committed offsets are no guide: they lag, and stalled for minutes.)
                   [&](const experiment::fault_step& step) {
                       committed = committed_records(s.catalog, p.ns, p.table);
                       if (committed < feed.total() && (cfg.saturated || feed.sent() < feed.total())) return false;
                       ended = e1b::writer_caught_up;
                       progress(label + ": the feed is " + (committed >= feed.total() ? "in the table" : "sent") +
                                " before kill " + std::to_string(step.index) + "; stopping kills");
                       return true;
                   },
                   [&](const experiment::kill_sample& k) {
                       h.record([&](e1b::samples& x) { e1b::add_kill(x.configurations[at], k, committed); });
                   },
                   [&](const experiment::kill_sample&) { return e1b::table_held_text(committed, feed.total()); }});
    const auto report = finish_and_drain(s, feed, job, p, parts, label, feed_start, std::chrono::seconds(900));
    const long long produced_ms = report.acked_at.empty() ? 0 : report.acked_at.back().second - feed_start;
    collect_checkpoints(s, job, writer_vertex, at, h);
    progress(label + ": reading " + std::to_string(spec.events) + " rows back through Trino");
    const long long read_start = now_ms();
    const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
    const long long read_ms = now_ms() - read_start;
    std::vector<e1b::duplicate_copy> copies;  // which checkpoint committed each copy of a duplicated seq
    if (seen.by_seq.duplicate_rows > 0)
        for (const auto& [seq, checkpoint] : duplicate_seq_checkpoints(s.trino, s.catalog, p.ns, p.table))
            copies.push_back({static_cast<std::uint64_t>(seq), checkpoint});
    const auto end = read_run_end(s, job, p);
    h.record([&](e1b::samples& x) {
        auto& c = x.configurations[at];
        c.kills_ended = ended, c.produce_ms = produced_ms, c.readback_ms = read_ms;
        record_run_end(c.run, report, feed_start, end, seen);
        c.duplicate_copies = copies;
        e1b::attribute_by_checkpoint(c);
        progress(label + ": " + e1b::end_text(c));
    });
}

}  // namespace

int run_multi_input(int argc, char** argv) {
    return run_experiment<e1b::definition>(
        argc, argv,
        "Experiment 1b (rosterrig-e1 --multi-input): at 1.2 M events, whether at-least-once duplicates once "
        "the Iceberg writer has several input channels, and whether aligned and unaligned exactly-once do not; "
        "paced feeds for 30 kills each, and saturated ones for sustained backpressure.",
        {{"--kills", "N", "TaskManager kills planned per configuration (default 30, quick 2)",
          &e1b::parameters::kills_per_configuration},
         {"--events", "N", "events in each configuration's feed (default 1200000, quick 60000); providers are events/6",
          &e1b::parameters::events}},
        [](session& s, const e1b::parameters& params, const experiment::fault_plan& plan, history& h) {
            for (const auto& c : e1b::configurations_of(params)) run_configuration(s, params, c, plan, h);
        });
}
