// A run's connection to the stack: the clients, a run id that makes every
// name it creates unique, and the naming of a variant's topic, group and table.
#ifndef ROSTERRIG_LIVE_SESSION_HPP
#define ROSTERRIG_LIVE_SESSION_HPP
#include <string>

#include <rosterrig/experiment/pipeline_config.hpp>
#include <rosterrig/experiment/table_check.hpp>

#include "adapters/flink_rest.hpp"
#include "adapters/iceberg_catalog.hpp"
#include "adapters/kafka_admin.hpp"
#include "roles/observe_table.hpp"
#include "roles/pipeline.hpp"
#include "adapters/stack_config.hpp"
#include "adapters/trino_client.hpp"

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

    // Topic <topic prefix><tag>_<label>_<run> (prefix rr_ unless the stack
    // description names another), the same group, table <tag>_<label>_<run> in
    // the description's namespace; the label is lower-cased with anything but
    // [a-z0-9] turned into '_'.
    pipeline_spec pipeline(const std::string& label, const experiment::pipeline_config& config) const;

    // Told of every topic, table and job before it is created (the runner
    // writes them into the run's history).
    created_resources::recorder on_created;
    // --keep-tables: a run's tables outlive it, for the user to inspect.
    bool keep_tables = false;
    // --table-check: how the run's table reads check rows (observe_table);
    // its models are recorded through on_created and dropped before the clients go.
    run_table_checks table_checks;

    // A TaskManager as a fault target: its address, Flink's id and data port,
    // and on the local stack the pid file its supervisor keeps ("" elsewhere).
    struct taskmanager_process {
        component_address address;
        std::string pid_file;
        std::string id;
        int data_port = 0;
    };
    // The one running `job`'s subtasks (the lowest data port when they span
    // two); throws, naming Flink, when no subtask runs on a TaskManager Flink lists
    // (on the local stack: on one of ours).
    taskmanager_process taskmanager_of(const std::string& job) const;
    // Every supervised TaskManager is registered.
    bool all_taskmanagers_registered() const;
    // The recovery settings in force: Flink's from its configuration entries,
    // the TaskManager JVMs' and supervisors' from their command lines and environments.
    experiment::recovery_settings recovery_in_force(
        const std::vector<std::pair<std::string, std::string>>& flink_config_entries) const;
    // A TaskManager besides the one a job runs on is registered (with one
    // TaskManager, that one): where a kill's job can go at once.
    bool spare_taskmanager_registered() const;

    // Throws when the catalog namespace already holds a table carrying this
    // run's id: a name the run would create exists, so it is not the run's to drop.
    void refuse_if_run_id_taken() const;

private:
    std::string tag_;
    mutable int most_taskmanagers_seen_ = 0;
    int registered_noting_most()
        const;  // Flink's registered TaskManagers, noting the most seen  // a described stack's TaskManagers: as many as Flink ever listed
};

}  // namespace rosterrig::live

#endif
