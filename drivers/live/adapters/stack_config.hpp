// Where each component of the stack listens and logs, how a client reaches it,
// and the names the rig may create there. Without a stack description file the
// local stack is described from compose/ports.env (the one place ports are
// kept), so the drivers and the shell scripts cannot disagree (ROSTERRIG_*
// environment variables override single keys); with `--stack FILE` every
// component comes from the file (rosterrig/stack/description.hpp, docs/STACK.md).
#ifndef ROSTERRIG_LIVE_STACK_CONFIG_HPP
#define ROSTERRIG_LIVE_STACK_CONFIG_HPP
#include <map>
#include <optional>
#include <string>

#include <rosterrig/stack/description.hpp>

#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct stack_config {
    std::string compose_dir;                    // compose/ of the checkout
    std::string state_dir;                      // .stack/ (logs, pids, data)
    std::map<std::string, std::string> values;  // KEY=VALUE from ports.env, env-overridden
    stack::description described;               // from the file, or the local stack's, generated from `values`
    std::string description_file;               // "" for the local stack

    // Whether the stack is this checkout's own (its pid files and supervisors are ours to read).
    bool local() const { return description_file.empty(); }

    component_address kafka() const;
    component_address flink() const;  // JobManager REST
    component_address sql_gateway() const;
    component_address catalog() const;  // Iceberg REST catalog
    component_address trino() const;
    component_address s3() const;
    // The Kafka Connect worker's REST API (compose/connect/): the local stack's
    // only; a stack description names no worker yet, so it throws there.
    component_address connect() const;

    std::string get(const std::string& key) const;  // throws when absent
    std::string kafka_bootstrap() const { return kafka().where(); }
    std::string log_file(const std::string& name) const { return state_dir + "/logs/" + name + ".log"; }
    std::string pid_file(const std::string& name) const { return state_dir + "/pids/" + name + ".pid"; }
    // The TaskManagers the stack may run (compose/flink/component.sh, _flink_tms): one, or three.
    static constexpr const char* taskmanagers[] = {"flink-taskmanager", "flink-taskmanager-2", "flink-taskmanager-3"};
    std::string data_dir() const { return state_dir + "/data"; }

    // Reads compose/ports.env under ROSTERRIG_COMPOSE or the source tree the
    // driver was built from, and the description file when one is given (a
    // description that cannot be used throws stack::description_error).
    static stack_config load(const std::string& description_file = {});
};

}  // namespace rosterrig::live

#endif
