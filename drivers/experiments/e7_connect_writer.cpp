// rosterrig-e7: experiments 1 and 3's questions asked of Kafka Connect's
// Iceberg sink. Part 1: the worker SIGKILLed while a paced feed arrives.
// Part 2: rewind the connector's group behind it, kill the worker, delete and
// recreate the connector, with and without the group rewound. Part 3: the
// commit interval's dial. Parts 1 and 2 are in drivers/live/jobs/
// (connect_restart, connect_offsets); everything else is in
// include/rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp.
#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/commit_cell_run.hpp"
#include "roles/connect_writer.hpp"
#include "jobs/connect_offsets.hpp"
#include "jobs/connect_restart.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e7::definition>;

namespace {

void run_dial_cell(session& s, const e7::parameters& params, std::int64_t interval_ms,
                   const std::vector<kafka_record>& records, const roster_spec& spec, history& h) {
    const std::string cell = e7::cell_name(interval_ms), label = "e7[" + cell + "]";
    connect_scope scope(s);
    const auto p =
        s.pipeline("dial_" + experiment::seconds_text(interval_ms), e7::pipeline_of(interval_ms, params.tasks));
    experiment::cell_run run;
    run.cell = cell, run.interval_ms = interval_ms, run.parallelism = params.tasks, run.events = params.dial_events;
    run.job_id = scope.launch(p, static_cast<int>(spec.partitions));
    const auto x = scope.writer.connect_settings(run.job_id, p);
    run.in_force = {"kafka_connect_transactions", x.commit_interval_ms, x.tasks_running, "IcebergSinkConnector tasks",
                    std::nullopt};
    progress(label + ": connector " + run.job_id + " commits every " + std::to_string(x.commit_interval_ms) +
             " ms with " + std::to_string(x.tasks_running) + " tasks");
    // The sink marks its commits with kafka.connect.commit-id: those are the writer's commits.
    measure_commit_cell(
        s, scope.writer, p, label, records, spec, params.dial_rate(), params.freshness_bucket_ms,
        [&](const iceberg_snapshot& snap) {
            return snap.summary_text("kafka.connect.commit-id").empty() ? std::string() : run.job_id;
        },
        run);
    h.record([&](e7::samples& all) { all.dial.push_back(std::move(run)); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e7::definition>(
        argc, argv,
        "Experiment 7: experiments 1 and 3's questions asked of Kafka Connect's Iceberg sink: what a worker "
        "kill replays, whether the connector's consumer-group offsets are the truth, and what the commit "
        "interval does to files and freshness.",
        {{"--kills", "N", "worker kills in part 1 (default 30, quick 1)", &e7::parameters::kills},
         {"--intervals", "MS,MS,..", "commit intervals of part 3, in ms (default 2000,10000,30000)",
          &e7::parameters::dial_intervals_ms}},
        [](session& s, const e7::parameters& params, const experiment::fault_plan& plan, history& h) {
            connect_rest(s.stack.connect())
                .version();  // a worker that does not answer stops the run before anything is created
            run_connect_restart(s, params, plan, h);
            run_connect_offsets(s, params, h);
            const auto spec = params.dial_feed();
            const auto records = kafka_records(generate(spec));
            for (const auto interval : params.dial_intervals_ms) run_dial_cell(s, params, interval, records, spec, h);
        });
}
