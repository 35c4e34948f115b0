// rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp: experiment 1, what a restart
// replays, as data: its parameters (full and quick), its four configurations,
// the fault plan, the sample schema, the analysis that turns raw per-kill
// records into the per-configuration table, the verdict rules, and the report
// section. Pure, so the driver, `--analyze`, the report and the claim tests all
// run the same code on the same saved samples.
#ifndef ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_E1_RESTART_REPLAY_HPP
#define ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_E1_RESTART_REPLAY_HPP

#include "rosterrig/experiments/e1_restart_replay/report.hpp"

namespace rosterrig::e1 {

/// Experiment 1 as the runner, the report and the claim tests see it.
struct definition {
    using parameters = e1::parameters;
    using samples = e1::samples;
    static constexpr const char* id = "e1_restart_replay";
    static constexpr const char* tag = "e1";
    static constexpr const char* predictions_file = "predictions/e1_restart_replay.json";
    static constexpr const char* results_file = "results/e1_restart_replay.json";
    static constexpr experiment::hooks<parameters> hooks{
        .warehouse = &parameters::warehouse,
        // The session a user's job template is planned and run in (--job FILE).
        .job_config = [](const parameters& p) { return pipeline_of(p, configurations_of(p).front()); }};
    static std::vector<rule> rules() { return e1::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e1::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e1::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace rosterrig::e1

#endif
