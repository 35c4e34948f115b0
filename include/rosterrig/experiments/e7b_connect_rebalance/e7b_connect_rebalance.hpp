// rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp: experiment 7b, Kafka
// Connect's Iceberg sink when its tasks move between workers, as data.
//
// Experiment 7 killed the only worker of a group: its tasks came back on the
// same worker and nothing was lost or doubled. Users of the sink run several
// workers, and what they report (apache/iceberg#17637, #16016, #16282) starts
// with a rebalance that moves the task owning the topic's first partition,
// the one that runs the commit coordinator. Each trial here: a fresh
// connector with two tasks on the group's workers, a paced feed, one fault at
// a seeded moment, then a settle window in which every acknowledged record
// should be committed to the table. A connector that has not committed
// everything by the window's end is restarted through the worker's REST API
// (what an operator does) and watched for a second window; then every row is
// read back. Cells: the coordinator's worker SIGKILLed (two workers), before
// the connector's first table commit and, in a second cell, after it; the
// other worker paused past its session timeouts and resumed (a zombie); and
// the control, one worker SIGKILLed (experiment 7's fault). Added for issue
// 35, full run only: the coordinator's worker paused past its session
// timeouts and resumed (the coordinator moves while the old one is a zombie),
// the first cell's kill with tasks.max 4, the other worker leaving cleanly and
// started again, and a second worker joining mid-cycle. The coordinators the
// workers started and stopped are counted from their own log lines, and where
// the coordinator and the worker group went (the last election after the
// fault, the group's generation) from the same logs.
//
// This header holds the definition (e7b's id, tag, files, rules(), hypotheses(),
// report_section(), hooks) and is the one others include; parameters.hpp,
// samples.hpp, rules.hpp and report.hpp in this folder hold the rest, each
// including the one before, and hypotheses.hpp the hypotheses, after rules.hpp.
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_E7B_CONNECT_REBALANCE_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_E7B_CONNECT_REBALANCE_HPP

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiments/e7b_connect_rebalance/hypotheses.hpp"
#include "rosterrig/experiments/e7b_connect_rebalance/report.hpp"

namespace rosterrig::e7b {

struct definition {
    using parameters = e7b::parameters;
    using samples = e7b::samples;
    static constexpr const char* id = "e7b_connect_rebalance";
    static constexpr const char* tag = "e7b";
    static constexpr const char* predictions_file = "predictions/e7b_connect_rebalance.json";
    static constexpr const char* results_file = "results/e7b_connect_rebalance.json";
    static constexpr experiment::hooks<parameters> hooks{
        .resumable = true,
        .repro_run = &parameters::repro_run,
        .repro_names = &parameters::repro_names,
        .problems = &experiment::slot_problems<parameters, &e7b::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e7b::rules(); }
    /// docs/E7B_HYPOTHESES.md, over the cells the full run had not run when it was committed.
    static std::vector<rule> hypotheses() { return e7b::hypotheses(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e7b::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e7b::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace rosterrig::e7b

#endif
