// The writer under test, as a role: start a pipeline that lands a topic in a
// table, stop it, take a savepoint, restore from one, and say what is in force,
// asked of the engine that holds it. Flink SQL's Iceberg sink implements it
// now; another writer (Kafka Connect's Iceberg sink) plugs in here.
#ifndef ROSTERRIG_LIVE_WRITER_HPP
#define ROSTERRIG_LIVE_WRITER_HPP
#include <string>
#include <vector>

#include <rosterrig/experiment/job_plan.hpp>

#include "roles/job_waits.hpp"
#include "roles/pipeline.hpp"

namespace rosterrig::live {

using writer_in_force = experiment::writer_settings;

class writer {
public:
    virtual ~writer() = default;
    // Submits the pipeline (creating its table when asked) and returns the job
    // id at once, before its tasks run, so a sampler can watch the start-up.
    // A spec with restore_from starts from that savepoint or checkpoint.
    virtual std::string start(const pipeline_spec& spec, bool create_table) = 0;
    virtual void stop(const std::string& job) = 0;
    virtual savepoint_taken savepoint(const std::string& job) = 0;
    // What runs, from the engine; throws when it is not what `spec` asked for.
    virtual writer_in_force in_force(const std::string& job, const pipeline_spec& spec) = 0;
};

}  // namespace rosterrig::live

#endif
