// rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp: experiment 1b, experiment 1's
// question at 100× the feed with a writer that has several input channels, as
// data. Experiment 1's append writers were chained with the source (one input
// channel: no barrier alignment for at-least-once to skip), so the mode could
// not matter there. Here the source runs one subtask per partition and the
// writer at another parallelism, so every writer subtask is fed through an
// exchange by every source subtask; at-least-once then processes records that
// arrived after a barrier before the last barrier, and a restore from that
// checkpoint replays them. Reuses experiment 1's kill samples, table
// read-back, attribution and bounds.
#ifndef ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_E1B_MULTI_INPUT_HPP
#define ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_E1B_MULTI_INPUT_HPP

#include "rosterrig/experiments/e1b_multi_input/report.hpp"

namespace rosterrig::e1b {

struct definition {
    using parameters = e1b::parameters;
    using samples = e1b::samples;
    static constexpr const char* id = "e1b_multi_input";
    static constexpr const char* tag = "e1b";
    static constexpr const char* predictions_file = "predictions/e1b_multi_input.json";
    static constexpr const char* results_file = "results/e1b_multi_input.json";
    static constexpr experiment::hooks<parameters> hooks{
        .command = "rosterrig-e1 --multi-input",
        .warehouse = &parameters::warehouse,
        // The session a user's job template is planned and run in (--job FILE).
        .job_config = [](const parameters& p) { return pipeline_of(p, configurations().front()); },
        .problems = &e1b::job_problems};
    static std::vector<rule> rules() { return e1b::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e1b::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e1b::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace rosterrig::e1b

#endif
