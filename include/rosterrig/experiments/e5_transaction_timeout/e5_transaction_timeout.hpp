// rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp: experiment 5, what a
// Kafka transaction timeout shorter than the checkpoint interval costs a job
// that writes to Kafka at exactly-once, as data: parameters, the runs, the raw
// samples, the rules and the report.
//
// The rule under test: checkpoint interval + checkpoint duration + restart
// time < transaction.timeout.ms <= the broker's transaction.max.timeout.ms.
// Parts: the reference study's pair (one interval, a timeout far below and
// far above it); the boundary (timeouts at ratios to a shorter interval, each
// repeated); the restart term (a transaction a savepoint pre-committed, whose
// commit waits for the job to come back: a restore within the timeout and one
// after it); a timeout above the broker's maximum; and the other cost of a
// long timeout, a transaction left open by a cancelled job that holds every
// read_committed reader of its partitions back.
//
// This file: the definition (id, tag, files, hooks, rules, report, figures); the pieces, each
// including the one before: parameters.hpp, samples.hpp, rules.hpp, report.hpp.

#ifndef ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_E5_TRANSACTION_TIMEOUT_HPP
#define ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_E5_TRANSACTION_TIMEOUT_HPP

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiments/e5_transaction_timeout/report.hpp"

namespace rosterrig::e5 {

struct definition {
    using parameters = e5::parameters;
    using samples = e5::samples;
    static constexpr const char* id = "e5_transaction_timeout";
    static constexpr const char* tag = "e5";
    static constexpr const char* predictions_file = "predictions/e5_transaction_timeout.json";
    static constexpr const char* results_file = "results/e5_transaction_timeout.json";
    static constexpr experiment::hooks<parameters> hooks{
        .problems =
            [](const parameters& p, const experiment::preflight_facts& f) {
                const auto broker_max = f.broker_transaction_max_timeout_ms;
                return experiment::problems_found(
                    {e5::usage_problem(p, f.slots_or_unlimited()),
                     broker_max ? e5::transaction_timeout_problem(p, *broker_max) : std::nullopt});
            },
        .reads = {.task_slots = true, .broker_transaction_max_timeout_ms = true}};
    static std::vector<rule> rules() { return e5::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e5::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e5::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) {
        return {{"docs/e5_boundary.svg", boundary_svg(s)}};
    }
};

}  // namespace rosterrig::e5

#endif
