// A run's connection to the stack: the clients, a run id that makes every
// name it creates unique, and the naming of a variant's topic, group and table.
#ifndef ROSTERRIG_LIVE_SESSION_HPP
#define ROSTERRIG_LIVE_SESSION_HPP
#include <string>

#include <rosterrig/experiment/pipeline_config.hpp>

#include "flink_rest.hpp"
#include "iceberg_catalog.hpp"
#include "kafka_admin.hpp"
#include "pipeline.hpp"
#include "stack_config.hpp"
#include "trino_client.hpp"

namespace rosterrig::live {

class session {
public:
    session(stack_config stack, std::string experiment_tag);

    const stack_config stack;
    flink_rest flink;
    trino_client trino;
    kafka_admin admin;
    iceberg_catalog catalog;
    const std::string run_id;  // <pid>_<ms>: two runs never share a name

    // Topic rr_<tag>_<label>_<run>, the same group, table <tag>_<label>_<run>;
    // the label is lower-cased with anything but [a-z0-9] turned into '_'.
    pipeline_spec pipeline(const std::string& label, const experiment::pipeline_config& config) const;

    // Told of every topic, table and job before it is created (the runner
    // writes them into the run's history).
    created_resources::recorder on_created;
    // --keep-tables: a run's tables outlive it, for the user to inspect.
    bool keep_tables = false;

    // The supervised TaskManager, as a fault target.
    component_address taskmanager() const;
    std::string taskmanager_pid_file() const { return stack.pid_file("flink-taskmanager"); }

private:
    std::string tag_;
};

}  // namespace rosterrig::live

#endif
