// The writer under test, as a role: start a pipeline that lands a topic in a
// table, stop it, take a savepoint, restore from one, and say what is in force,
// asked of the engine that holds it. Flink SQL's Iceberg sink implements it
// now; another writer (Kafka Connect's Iceberg sink) plugs in here.
#pragma once
#include <string>
#include <vector>

#include <rosterrig/experiment/job_plan.hpp>

#include "pipeline.hpp"

namespace rosterrig::live {

struct writer_in_force {
    std::string mode;           // as the engine reports it, e.g. "exactly_once"
    long long interval_ms = 0;  // checkpoint (commit) interval in force
    std::vector<experiment::plan_edge> edges;
    std::string writer_input;   // how the writer's input arrives (experiment::writer_input)
    std::string sink;           // which sink implementation runs
};

class writer {
public:
    virtual ~writer() = default;
    // Submits the pipeline (creating its table when asked) and returns the job
    // id at once, before its tasks run, so a sampler can watch the start-up.
    // A spec with restore_from starts from that savepoint or checkpoint.
    virtual std::string start(const pipeline_spec& spec, bool create_table) = 0;
    virtual void stop(const std::string& job) = 0;
    virtual std::string savepoint(const std::string& job) = 0;
    // What runs, from the engine; throws when it is not what `spec` asked for.
    virtual writer_in_force in_force(const std::string& job, const pipeline_spec& spec) = 0;
};

}  // namespace rosterrig::live
