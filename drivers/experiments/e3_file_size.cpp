// rosterrig-e3: what decides the size of the files a streaming writer
// produces, and what do small files and equality deletes cost a reader?
//
// Part A: per cell, a fresh topic and append table, a job at the cell's
// checkpoint interval and writer parallelism (and table target size), the
// same seeded feed paced to the same duration; once the table holds every
// record the job is stopped and the table read from its metadata: commits,
// files, bytes, and for every row the snapshot that made it visible.
// Part B: one topic, two upsert jobs (a short and a long interval), an append
// copy of the short one's content, all checked, timed, optimized, timed again.
// Everything else is in include/rosterrig/experiments/e3_file_size/e3_file_size.hpp.
#include <chrono>

#include <rosterrig/check/expected_state.hpp>
#include <rosterrig/experiments/e3_file_size/e3_file_size.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/commit_cell_run.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/job_waits.hpp"
#include "roles/observe_table.hpp"
#include "jobs/reader_cost.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e3::definition>;

namespace {

void run_cell(session& s, const e3::parameters& params, const e3::cell& c, const std::vector<kafka_record>& records,
              const roster_spec& spec, history& h) {
    const std::string label = e3::label_of(c);
    pipeline_scope scope(s);
    auto p = s.pipeline(c.name, e3::pipeline_of(params, c));
    if (c.target_bytes) p.table_properties["write.target-file-size-bytes"] = std::to_string(*c.target_bytes);
    auto run = e3::planned_run(params, c);
    run.job_id = scope.launch(p, static_cast<int>(params.partitions));
    // Each setting asked of the component that holds it; in_force throws unless Flink runs the requested mode and interval.
    const auto writer = scope.writer.in_force(run.job_id, p);
    const auto writer_vertex = s.flink.writer_parallelism(run.job_id);
    run.in_force = e3::settings_from(writer, writer_vertex, s.catalog.load(p.ns, p.table).properties);
    progress(label + ": " + e3::settings_text(run));

    // The writer's own snapshots carry its job id.
    measure_commit_cell(
        s, scope.writer, p, label, records, spec, params.feed_rate(), params.freshness_bucket_ms,
        [](const iceberg_snapshot& snap) { return snap.summary_text("flink.job-id"); }, run);
    h.record([&](e3::samples& x) { x.cells.push_back(std::move(run)); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e3::definition>(
        argc, argv,
        "Experiment 3: what decides the size of the files a streaming writer produces (checkpoint interval, "
        "writer parallelism, target file size), what freshness it costs, and what small files and equality "
        "deletes cost a reader.",
        {{"--intervals", "MS,MS,..", "checkpoint intervals of the grid, in ms (default 5000,30000,120000)",
          &e3::parameters::intervals_ms},
         {"--parallelisms", "N,N,..", "writer parallelisms of the grid (default 1,2,4)",
          &e3::parameters::parallelisms}},
        [](session& s, const e3::parameters& params, const experiment::fault_plan&, history& h) {
            const auto spec = params.feed();
            const auto events = generate(spec);
            const auto records = kafka_records(events);
            // A resumed run (--resume) keeps the cells it recorded and runs the rest.
            for (const auto& c : e3::cells(params))
                if (!h.read([&](const e3::samples& x) { return e3::find_cell(x, c.name) != nullptr; }))
                    run_cell(s, params, c, records, spec, h);
                else
                    progress(e3::label_of(c) + ": recorded before the resume; kept");
            const auto recorded = h.read([](const e3::samples& x) { return e3::reader_runs(x).size(); });
            for (auto k = recorded + 1; k <= params.reader_repeats.value_or(1); ++k) {
                run_reader_part(s, params, records, events, spec, k, [&](e3::reader_cost&& rc) {
                    h.record([&](e3::samples& x) { e3::record_reader_run(x, std::move(rc)); });
                });
            }
        });
}
