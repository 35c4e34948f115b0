// rosterrig/experiments/e4_maintenance/e4_maintenance.hpp: experiment 4, what table
// maintenance run from Trino does to a table a Flink job is still writing, as
// data: parameters, the runs, the raw samples, the rules and the report.
//
// Parts, each on the object store (S3Proxy) and a local filesystem unless
// said otherwise:
// 1. expire_snapshots at retention zero, then a TaskManager SIGKILL: plain
//    (the job's own commit is the newest snapshot) and after a compaction
//    (Trino's optimize committed between two of the job's checkpoints, so
//    another writer's snapshot is the newest one the expire keeps).
// 2. remove_orphan_files at retention zero inside a checkpoint interval,
//    while the writer holds records in open files; the store listed through
//    its own API (or directory walk) before and after, independently of Iceberg.
// 3. optimize against a live writer, append and upsert (object store only).
//
// This file: the definition (id, tag, files, hooks, rules, report, figures); the pieces, each
// including the one before: parameters.hpp, samples.hpp, rules.hpp, report.hpp.

#ifndef ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_E4_MAINTENANCE_HPP
#define ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_E4_MAINTENANCE_HPP

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiments/e4_maintenance/report.hpp"

namespace rosterrig::e4 {

struct definition {
    using parameters = e4::parameters;
    using samples = e4::samples;
    static constexpr const char* id = "e4_maintenance";
    static constexpr const char* tag = "e4";
    static constexpr const char* predictions_file = "predictions/e4_maintenance.json";
    static constexpr const char* results_file = "results/e4_maintenance.json";
    static constexpr experiment::hooks<parameters> hooks{
        .resumable = true,
        .problems = &experiment::slot_problems<parameters, &e4::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e4::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e4::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e4::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace rosterrig::e4

#endif
