// rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp: experiment 7, experiments 1
// and 3's questions asked of the second common writer, Kafka Connect with
// Apache Iceberg's own sink connector, as data. Its exactly-once rests on a
// coordinator task, a control topic and Kafka transactions that carry the
// source offsets of the connector's consumer group with the data files: so
// for this writer the group's offsets may be the truth, where for Flink they
// are monitoring.
//
// Part 1 (restart replay, experiment 1's): the Connect worker SIGKILLed at
// randomized moments while a paced feed arrives; duplicates per kill, the
// bound, missing seqs, as for Flink. Part 2 (offsets, experiment 1's second
// part): rewind the group behind the running connector, kill the worker,
// delete and recreate the connector under the same name, then with the group
// rewound while it is away. Part 3 (the commit interval, experiment 3's
// dial): commits, files per commit, mean file bytes, freshness per interval.
// Reuses experiment 1's kill and table records and experiment 3's cell record.
//
// This header holds the definition (e7's id, tag, files, rules(), report_section(),
// hooks) and is the one others include; parameters.hpp, samples.hpp, rules.hpp and
// report.hpp in this folder hold the rest, each including the one before.
#ifndef ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_E7_CONNECT_WRITER_HPP
#define ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_E7_CONNECT_WRITER_HPP

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiments/e7_connect_writer/report.hpp"

namespace rosterrig::e7 {

struct definition {
    using parameters = e7::parameters;
    using samples = e7::samples;
    static constexpr const char* id = "e7_connect_writer";
    static constexpr const char* tag = "e7";
    static constexpr const char* predictions_file = "predictions/e7_connect_writer.json";
    static constexpr const char* results_file = "results/e7_connect_writer.json";
    static constexpr experiment::hooks<parameters> hooks{};  // none: every default
    static std::vector<rule> rules() { return e7::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e7::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p,
                                      const std::string& beside = {}) {
        return e7::report_section(env, s, p, beside);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace rosterrig::e7

#endif
