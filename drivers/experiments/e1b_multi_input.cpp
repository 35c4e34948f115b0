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
// window. Everything else is in
// include/rosterrig/experiments/e1b_multi_input.hpp.
#include <map>

#include <rosterrig/experiments/e1b_multi_input.hpp>
#include <rosterrig/generate/generator.hpp>

#include "faults.hpp"
#include "feeder.hpp"
#include "flink_sql_writer.hpp"
#include "job_waits.hpp"
#include "kill_run.hpp"
#include "observe_table.hpp"
#include "runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e1b::definition>;

namespace {

// Flink keeps the last few checkpoints' statistics: collected before each
// kill and at the end, so the run keeps every one it saw.
void collect_checkpoints(session& s, const std::string& job, const std::string& writer_vertex, std::size_t at, history& h) {
    const auto known = h.read([&](const e1b::samples& x) { return experiment::ids_of(x.configurations[at].checkpoints); });
    const auto seen = s.flink.checkpoint_stats(job, writer_vertex, known);
    h.record([&](e1b::samples& x) { experiment::merge_checkpoints(x.configurations[at].checkpoints, seen); });
}

void run_configuration(session& s, const e1b::parameters& params, const e1b::configuration& cfg,
                       const experiment::fault_plan& plan, history& h) {
    const std::string label = "e1b[" + cfg.name + "]";
    pipeline_scope scope(s);
    const auto spec = params.feed();
    const int parts = static_cast<int>(spec.partitions);
    const std::string short_name = std::string(cfg.mode == experiment::checkpoint_mode::at_least_once ? "alo" : cfg.unaligned ? "eo_unaligned" : "eo_aligned") +
                                   (cfg.saturated ? "_saturated" : "");
    const auto p = s.pipeline(short_name, e1b::pipeline_of(params, cfg));
    const std::string job = scope.launch(p, parts);
    const auto in_force = scope.writer.in_force(job, p);
    const std::size_t at = h.record([&](e1b::samples& x) {
        x.configurations.push_back(e1b::start_run(cfg, params, job, in_force, 0));
        return x.configurations.size() - 1;
    });
    const auto fan_in = experiment::fan_in_of(in_force.edges);
    if (auto why = e1b::fan_in_problem(fan_in)) throw live_error(s.flink.where(), "job " + job + ": " + *why + "; the question needs several");
    progress(label + ": job " + job + " runs " + in_force.mode + (in_force.unaligned.value_or(false) ? " unaligned" : "") +
             "; writer input " + fan_in.ship_strategy + ", " + std::to_string(fan_in.upstream_parallelism) + " → " +
             std::to_string(fan_in.writer_parallelism) + " subtasks");

    const std::string writer_vertex = s.flink.writer_vertex(job);  // the plan does not change across restarts
    progress(label + ": generating " + std::to_string(spec.events) + " events");
    const auto pacing = e1b::pacing_of(params);
    const auto steps = plan.of(cfg.name);
    const double rate = cfg.saturated ? 0.0 : pacing.initial_rate(spec.events, steps.size());
    h.record([&](e1b::samples& x) { x.configurations[at].run.rate_per_second = rate; });
    feeder feed(s.stack.kafka(), p.topic, kafka_records(generate(spec)), rate);
    const long long feed_start = now_ms();
    std::string ended = e1b::all_kills_ran;
    long long committed = 0;  // the table's records just before the kill
    run_kill_loop(
        s, job, label, feed, feed_start, steps, cfg.saturated ? std::nullopt : std::optional(pacing),
        {[&](const experiment::fault_step& step, long long last_restored) {
             if (cfg.saturated) await_running_then_delay(s, job, step);
             else await_kill_trigger(s, job, last_restored, step);
             collect_checkpoints(s, job, writer_vertex, at, h);
         },
         // Kills only while data still arrives at the writer: once the table
         // has committed the whole feed, a replay has nothing to repeat. (The
         // committed offsets are no guide: they lag, and stalled for minutes.)
         [&](const experiment::fault_step& step) {
             committed = committed_records(s.catalog, p.ns, p.table);
             if (committed < feed.total() && (cfg.saturated || feed.sent() < feed.total())) return false;
             ended = e1b::writer_caught_up;
             progress(label + ": the feed is " + (committed >= feed.total() ? "in the table" : "sent") + " before kill " +
                      std::to_string(step.index) + "; stopping kills");
             return true;
         },
         [&](const experiment::kill_sample& k) {
             h.record([&](e1b::samples& x) {
                 x.configurations[at].run.kills.push_back(k);
                 x.configurations[at].table_records_at_kills.push_back(committed);
             });
         },
         [&](const experiment::kill_sample&) {
             return "; the table held " + std::to_string(committed) + " of " + std::to_string(feed.total()) + " records";
         }});
    const auto report = finish_and_drain(s, feed, job, p, parts, label, feed_start, std::chrono::seconds(900));
    const long long produced_ms = report.acked_at.empty() ? 0 : report.acked_at.back().second - feed_start;
    collect_checkpoints(s, job, writer_vertex, at, h);
    progress(label + ": reading " + std::to_string(spec.events) + " rows back through Trino");
    const long long read_start = now_ms();
    const auto seen = observe_table(s.trino, p.ns, p.table, spec);
    const long long read_ms = now_ms() - read_start;
    std::vector<e1b::duplicate_copy> copies;  // which checkpoint committed each copy of a duplicated seq
    if (seen.by_seq.duplicate_rows > 0) {
        std::map<long long, std::int64_t> checkpoint_of;  // snapshot id -> the checkpoint that committed it
        for (const auto& snap : s.catalog.load(p.ns, p.table).snapshots) checkpoint_of[snap.snapshot_id] = snap.flink_watermark();
        for (const auto& [seq, snapshot] : duplicate_seq_snapshots(s.trino, p.ns, p.table)) {
            const auto it = checkpoint_of.find(snapshot);
            copies.push_back({static_cast<std::uint64_t>(seq), it == checkpoint_of.end() ? -1 : it->second});
        }
    }
    h.record([&](e1b::samples& x) {
        auto& c = x.configurations[at];
        c.kills_ended = ended, c.produce_ms = produced_ms, c.readback_ms = read_ms;
        auto& run = c.run;
        record_run_end(s, run, report, feed_start, job, seen);
        c.duplicate_copies = copies;
        e1b::attribute_by_checkpoint(c);
        progress(label + ": " + std::to_string(run.rows) + " rows read in " + std::to_string(read_ms) + " ms, " +
                 std::to_string(run.duplicate_rows) + " duplicate seq rows, " + std::to_string(run.missing_runs.size()) +
                 " missing runs, " + std::to_string(c.checkpoints.size()) + " checkpoints recorded");
    });
}

}  // namespace

int run_multi_input(int argc, char** argv) {
    return run_experiment<e1b::definition>(
        argc, argv, "Experiment 1b (rosterrig-e1 --multi-input): at 1.2 M events, whether at-least-once duplicates once "
                    "the Iceberg writer has several input channels, and whether aligned and unaligned exactly-once do not; "
                    "paced feeds for 30 kills each, and saturated ones for sustained backpressure.",
        {{"--kills", "N", "TaskManager kills planned per configuration (default 30, quick 2)", &e1b::parameters::kills_per_configuration},
         {"--events", "N", "events in each configuration's feed (default 1200000, quick 60000); providers are events/6",
          &e1b::parameters::events}},
        [](session& s, const e1b::parameters& params, const experiment::fault_plan& plan, history& h) {
            for (const auto& c : e1b::configurations_of(params)) run_configuration(s, params, c, plan, h);
        });
}
