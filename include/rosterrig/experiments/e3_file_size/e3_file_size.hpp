// rosterrig/experiments/e3_file_size/e3_file_size.hpp: experiment 3, what decides the size
// of the files a streaming writer produces and what small files and equality
// deletes cost a reader, as data: parameters (full and quick), the cells, the
// raw samples, the analysis, the verdict rules, the report section and plot.
//
// Part A (the dial): the same seeded feed, paced to the same duration, into an
// append table at each checkpoint interval x writer parallelism, plus a 1 GB
// target, a positive control whose target is small enough that the writer
// must roll files inside one checkpoint, and repeats of the baseline cell.
// Part B (the reader): the feed's latest row per NPI as an upsert table written
// at a short and a long interval and as an append table written once, each
// checked against the model, then timed through Trino, before and after
// Trino's optimize.
//
// This file: the definition (id, tag, files, hooks, rules, report, figures); the pieces, each
// including the one before: parameters.hpp, samples.hpp, rules.hpp, report.hpp.

#ifndef ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_E3_FILE_SIZE_HPP
#define ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_E3_FILE_SIZE_HPP

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiments/e3_file_size/report.hpp"

namespace rosterrig::e3 {

/// Experiment 3 as the runner, the report and the claim tests see it.
struct definition {
    using parameters = e3::parameters;
    using samples = e3::samples;
    static constexpr const char* id = "e3_file_size";
    static constexpr const char* tag = "e3";
    static constexpr const char* predictions_file = "predictions/e3_file_size.json";
    static constexpr const char* results_file = "results/e3_file_size.json";
    static constexpr experiment::hooks<parameters> hooks{
        // Cells and the reader part are independent: a stopped run continues.
        .resumable = true,
        .warehouse = &parameters::warehouse,
        .problems = &experiment::slot_problems<parameters, &e3::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e3::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e3::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e3::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters& p) {
        return {{"docs/e3_dial.svg", dial_svg(s, p)}};
    }
};

}  // namespace rosterrig::e3

#endif
