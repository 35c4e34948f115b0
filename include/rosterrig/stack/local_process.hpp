// rosterrig/stack/local_process.hpp: each fault target as the local stack
// runs it (compose/<component>/component.sh): the pid file that names its
// process, whether a supervisor restarts it when it dies, and the component
// `compose/stack up` takes to start it again. And, for any stack, what heals
// a kill of it. Pure: the driver reads the pid files and runs the commands.
#ifndef ROSTERRIG_STACK_LOCAL_PROCESS_HPP
#define ROSTERRIG_STACK_LOCAL_PROCESS_HPP

#include <string>
#include <vector>

#include "rosterrig/experiment/fault.hpp"

namespace rosterrig::stack {

struct local_process {
    std::string pid_name;     ///< <state>/pids/<pid_name>.pid, <state>/logs/<pid_name>.log
    bool supervised = false;  ///< a supervisor script starts a new process when this one dies
    std::string component;    ///< what `compose/stack up <component>` starts again
};

/// The local stack's process for `target` (the TaskManager and the Connect
/// worker: the first of theirs; the others differ in pid_name only).
inline local_process local_process_of(experiment::fault_target target) {
    using experiment::fault_target;
    switch (target) {
        case fault_target::flink_jobmanager:
            return {"flink-jobmanager", false, "flink"};
        case fault_target::flink_taskmanager:
            return {"flink-taskmanager", true, "flink"};  // compose/flink/tm-supervisor.sh
        case fault_target::sql_gateway:
            return {"flink-sql-gateway", false, "flink"};
        case fault_target::iceberg_catalog:
            return {"catalog", false, "catalog"};
        case fault_target::object_store:
            return {"s3", false, "s3"};
        case fault_target::kafka_broker:
            return {"kafka", false, "kafka"};
        case fault_target::connect_worker:
            return {"connect", true, "connect"};  // compose/connect's supervisor
        case fault_target::trino:
            return {"trino", false, "trino"};
    }
    return {};
}

/// What brings a killed (or stopped) component back.
enum class kill_heal {
    supervisor_replaces,  ///< wait for the supervisor's new process (locally, a new pid in the pid file)
    experiment_starts,    ///< the experiment starts it: `compose/stack up`, or the description's start command
    cluster_brings_back   ///< a described cluster without a start command: wait for its came_back
};

/// The heal of a kill of `target`: on the local stack by its supervisor, if
/// it has one, else by `compose/stack up`; on a described cluster by its start
/// command when the description gives one, else by the cluster itself.
inline kill_heal heal_of_kill(experiment::fault_target target, bool described, bool described_start_given) {
    if (described) return described_start_given ? kill_heal::experiment_starts : kill_heal::cluster_brings_back;
    return local_process_of(target).supervised ? kill_heal::supervisor_replaces : kill_heal::experiment_starts;
}

/// The `compose/stack` arguments that start the local process `pid_name` of
/// `target` again, its supervisor with it: an extra Connect worker
/// ("connect-w2", "connect-w3") is `connect-worker up N` (compose/stack: `up
/// connect` starts the stack's own worker only); any other, `up <component>`,
/// which starts whatever of the component is not running.
inline std::vector<std::string> start_arguments(experiment::fault_target target, const std::string& pid_name) {
    const std::string extra_worker = "connect-w";
    if (target == experiment::fault_target::connect_worker && pid_name.rfind(extra_worker, 0) == 0 &&
        pid_name.size() == extra_worker.size() + 1)
        return {"connect-worker", "up", pid_name.substr(extra_worker.size())};
    return {"up", local_process_of(target).component};
}

/// The flag file (under the state folder) that tells the supervisor of the
/// local process `pid_name` not to start it again when it exits: the one
/// compose/flink/tm-supervisor.sh is given for the TaskManagers and the
/// Connect workers (`<state>/<name>.stop`; `compose/stack up` removes it when
/// it starts the supervisor again).
inline std::string supervisor_stop_flag(const std::string& pid_name) { return pid_name + ".stop"; }

}  // namespace rosterrig::stack

#endif
