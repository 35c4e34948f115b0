// rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp: experiment 8, a table
// commit whose reply is lost, answered by a fault, or that lands late.
//
// The Flink writers' catalog client goes through the fault proxy; one commit
// POST per trial is hit (docs/E8_DESIGN.md §5). The samples keep every request
// to the table's path the proxy saw in the trial (commit POSTs with the snapshot
// id and watermark their bodies carried), the kill when the cell has one, and,
// per writer run, the table as Trino reads it and the writer's snapshots as the
// catalog lists them. Whether a trial did what its cell needs (valid) and whether
// it doubled its checkpoint are computed here from those, never by the driver.
//
// This header holds the definition (e8's id, tag, files, rules(), report_section(),
// hooks) and is the one others include; parameters.hpp, samples.hpp, rules.hpp and
// report.hpp in this folder hold the rest, each including the one before.
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_E8_CATALOG_COMMIT_FAULTS_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_E8_CATALOG_COMMIT_FAULTS_HPP

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiments/e8_catalog_commit_faults/report.hpp"

namespace rosterrig::e8 {

struct definition {
    using parameters = e8::parameters;
    using samples = e8::samples;
    static constexpr const char* id = "e8_catalog_commit_faults";
    static constexpr const char* tag = "e8";
    static constexpr const char* predictions_file = "predictions/e8_catalog_commit_faults.json";
    static constexpr const char* results_file = "results/e8_catalog_commit_faults.json";
    static constexpr experiment::hooks<parameters> hooks{
        .resumable = true,
        .warehouse = &parameters::warehouse,
        .repro_run = &parameters::repro_run,
        .repro_names = &parameters::repro_names,
        // The session a user's job template is planned and run in (--job FILE).
        // The sink is the template's: the session sets Iceberg's default (FlinkSink, use-v2-sink=false), which its own SET may change.
        .job_config =
            [](const parameters& p) {
                return pipeline_of(p, experiment::iceberg_sink::flink_sink, table_variant::append);
            },
        // Why a described cluster is refused (exit 2, before anything is created).
        .local_stack_only =
            "experiment 8 runs only on the local stack: its fault proxy listens on this machine's 127.0.0.1, which a described "
            "cluster's Flink cannot reach",
        .problems = &experiment::slot_problems<parameters, &e8::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e8::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e8::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e8::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) {
        return {{"docs/e8_commits.svg", commits_svg(s)}};
    }
};

}  // namespace rosterrig::e8

#endif
