// rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp: experiment 6, the consumer
// poll-interval trap, as data: parameters, the runs, the raw samples, the
// rules and the report.
//
// A consumer is watched by two clocks: heartbeats (alive) and the time
// between polls (max.poll.interval.ms: working). A member that takes a batch
// of B records and calls a dependency of latency L per record needs B x L
// between polls; once that exceeds the interval, the member leaves the group
// on its own, its partitions go to the other member, which fetches the same
// uncommitted records and leaves too, and the late commits fail. The runs:
// healthy, degraded (B x L = twice the interval), and the three fixes under
// the degraded latency (a larger interval; B small enough; pause the
// partitions, keep polling and process on a worker), each with our C++
// member (librdkafka) and the Java client with both group protocols.
// Everything is counted exactly from the members' own logs (every record
// processed, every commit and what the application was told) and from the
// broker (the group's committed offsets and lag, sampled).
//
// This file: the definition (id, tag, files, hooks, rules, report, figures); the pieces, each
// including the one before: parameters.hpp, samples.hpp, rules.hpp, report.hpp.

#ifndef ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_E6_POLL_INTERVAL_HPP
#define ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_E6_POLL_INTERVAL_HPP

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiments/e6_poll_interval/report.hpp"

namespace rosterrig::e6 {

struct definition {
    using parameters = e6::parameters;
    using samples = e6::samples;
    static constexpr const char* id = "e6_poll_interval";
    static constexpr const char* tag = "e6";
    static constexpr const char* predictions_file = "predictions/e6_poll_interval.json";
    static constexpr const char* results_file = "results/e6_poll_interval.json";
    static constexpr experiment::hooks<parameters> hooks{
        .problems = &experiment::slot_problems<parameters, &e6::usage_problem>, .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e6::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e6::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e6::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) { return timelines(s); }
};

}  // namespace rosterrig::e6

#endif
