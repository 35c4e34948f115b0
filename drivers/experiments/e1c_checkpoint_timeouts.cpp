// rosterrig-e1c: experiment 1c, do checkpoints that time out under
// backpressure lose or duplicate rows, with FlinkSink and SinkV2, aligned and
// unaligned?
//
// Each cell: one exactly-once job on an append or upsert table (4 source
// subtasks, 2 writer subtasks), the whole feed produced at once (or paced, so
// that the writer keeps up), the cell's checkpoint timeout and tolerable
// failures read back from Flink; the checkpoint history and the source's
// backpressure polled every second while the job drains (in the kill cells,
// the TaskManager SIGKILLed right after a checkpoint times out); then the table
// read back through Trino, the writer's snapshots from the catalog, and the
// store's data files matched against the ones the table references, and where each seq is.
// Everything else is in include/rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp.
#include <rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp>
#include <rosterrig/generate/generator.hpp>

#include "jobs/kills_after_timeouts.hpp"
#include "roles/checkpoint_sampler.hpp"
#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/job_waits.hpp"
#include "roles/observe_table.hpp"
#include "runner/runner.hpp"
#include "adapters/table_store.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e1c::definition>;

namespace {

void run_cell(session& s, const e1c::parameters& params, const experiment::fault_plan& plan, const e1c::cell& c,
              std::uint64_t repeat, history& h) {
    const std::string label =
        "e1c[" + c.name + " #" + std::to_string(repeat) + "/" + std::to_string(params.repeats) + "]";
    pipeline_scope scope(s);
    const auto spec = e1c::feed_of(params, c);
    const double rate = e1c::rate_of(params, c);
    const int parts = static_cast<int>(spec.partitions);
    const auto p = s.pipeline(e1c::short_name_of(c), e1c::pipeline_of(params, c));
    const std::string job = scope.launch(p, parts);
    const auto in_force = scope.writer.in_force(job, p);
    const auto fan_in = experiment::fan_in_of(in_force.edges);
    const std::size_t at = h.record([&](e1c::samples& x) {
        x.runs.push_back(e1c::started_run(params, c, repeat, job, p.ns + "." + p.table, in_force, spec.events));
        return x.runs.size() - 1;
    });
    progress(label + ": job " + job + " runs " + in_force.mode +
             (in_force.unaligned.value_or(false) ? " unaligned" : " aligned") + ", timeout " +
             std::to_string(in_force.checkpoint_timeout_ms) + " ms, writer " + experiment::fan_in_text(fan_in));

    // The history from the job's start (its first checkpoints fall while the
    // feed is generated), backpressure from the feed's start.
    checkpoint_sampler sampler(s.stack.flink(), job,
                               checkpoint_sampler::source_group{s.stack.kafka(), p.group, p.topic, parts});
    progress(label + ": generating " + std::to_string(spec.events) + " events" +
             (rate > 0 ? ", paced at " + std::to_string(static_cast<long long>(rate)) + " per second" : ""));
    auto records = kafka_records(generate(spec));
    const auto partition_of_seq = experiment::partition_by_seq(records);
    const long long feed_start = now_ms();
    sampler.feed_started(feed_start);
    feeder feed(s.stack.kafka(), p.topic, std::move(records), rate);
    if (c.kill_after_timeout)
        kill_after_timeouts(
            s, job, sampler, plan.of(c.name + " #" + std::to_string(repeat)), std::chrono::seconds(60), label,
            [&](const e1c::timeout_kill& k) { h.record([&](e1c::samples& x) { x.runs[at].kills->push_back(k); }); });
    auto report = feed.finish();
    const long long produced_ms = report.acked_at.empty() ? 0 : report.acked_at.back().second - feed_start;
    progress(label + ": " + std::to_string(report.acknowledged) + " events produced in " + std::to_string(produced_ms) +
             " ms; draining");
    // A few completed checkpoints after the source's offsets reach the end: whatever the writer still held is committed.
    wait_until_drained(s.flink, s.admin, job, p.group, p.topic, parts, std::chrono::seconds(600), 3);
    const long long drained_ms = now_ms() - feed_start;
    sampler.stop();
    // Counts first, history after: the history then holds every checkpoint counted.
    const auto counts = s.flink.checkpoints(job);
    const auto seen = sampler.last_reading();

    progress(label + ": reading " + std::to_string(spec.events) + " rows back through Trino");
    const auto table_seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
    const auto state = s.catalog.load(p.ns, p.table);
    const auto islands = c.kind == experiment::table_kind::append ? seq_islands(s.trino, p.ns, p.table)
                                                                  : std::vector<experiment::seq_island>{};
    const auto location = table_location(s.stack, p);
    const auto store = listing_of(list_location(s, location), location, referenced_paths(s.trino, p.ns, p.table));
    h.record([&](e1c::samples& x) {
        auto& r = x.runs[at];
        r.feed_sha256 = report.feed_sha256, r.acknowledged = static_cast<std::uint64_t>(report.acknowledged);
        r.produce_ms = produced_ms, r.drained_ms = drained_ms;
        r.final_job_state = s.flink.job_state(job), r.restarts_reported = s.flink.restarts(job);
        r.totals = {counts.completed, counts.failed};
        r.checkpoints = seen.checkpoints;
        e1c::record_table(r, table_seen);
        e1c::record_placement(r, islands, partition_of_seq);
        for (const auto& sn : state.snapshots) r.snapshots.push_back(replay_entry_of(sn));
        r.store = store;
        r.source_backpressure = seen.backpressure;
        r.source_offsets = seen.offsets;
        progress(label + ": " + e1c::backpressure_text(r));
        progress(label + ": " + e1c::loss_text(r) + "; " + std::to_string(r.duplicate_rows) + " duplicate seq rows");
        if (const auto at = e1c::attribution_text(r, partition_of_seq); !at.empty()) progress(label + ": " + at);
    });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e1c::definition>(
        argc, argv,
        "Experiment 1c: whether checkpoints that time out under backpressure lose or duplicate rows, for "
        "FlinkSink and SinkV2 with aligned and unaligned checkpoints and a multi-input committer.",
        {{"--events", "N", "events in each cell's feed, produced at once (default 4800000, quick 400000)",
          &e1c::parameters::events},
         {"--repeats", "N", "rounds of every cell, one after the other (default 3, quick 1)",
          &e1c::parameters::repeats}},
        [](session& s, const e1c::parameters& params, const experiment::fault_plan& plan, history& h) {
            for (std::uint64_t round = 1; round <= params.repeats; ++round)
                for (const auto& c : e1c::cells_of(params)) run_cell(s, params, plan, c, round, h);
        });
}
