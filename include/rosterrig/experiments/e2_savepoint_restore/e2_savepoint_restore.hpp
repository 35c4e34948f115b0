// rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp: experiment 2, restoring
// from a savepoint older than the table, as data: parameters (full and quick),
// the three variants, the raw samples, the analysis that finds the freeze, the
// lump and what the on-call signals did, the verdict rules and the report
// section.
#ifndef ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_E2_SAVEPOINT_RESTORE_HPP
#define ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_E2_SAVEPOINT_RESTORE_HPP

#include "rosterrig/experiments/e2_savepoint_restore/report.hpp"

namespace rosterrig::e2 {

/// Experiment 2 as the runner, the report and the claim tests see it.
struct definition {
    using parameters = e2::parameters;
    using samples = e2::samples;
    static constexpr const char* id = "e2_savepoint_restore";
    static constexpr const char* tag = "e2";
    static constexpr const char* predictions_file = "predictions/e2_savepoint_restore.json";
    static constexpr const char* results_file = "results/e2_savepoint_restore.json";
    static constexpr experiment::hooks<parameters> hooks{.warehouse = &parameters::warehouse};
    static std::vector<rule> rules() { return e2::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e2::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e2::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) {
        return {{"docs/e2_timeline.svg", timeline_svg(s)}};
    }
};

}  // namespace rosterrig::e2

#endif
