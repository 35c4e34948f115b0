// rosterrig/stack/fault_command.hpp: a fault command's arguments with their
// placeholders filled in for one fault. A fault command names its target
// through what Flink reports about it, so the same description works for pid
// files, `docker kill` and `kubectl delete pod`:
//
//   {taskmanager.id}         Flink's resource id of the TaskManager running the job
//   {taskmanager.host}       the host it registered with
//   {taskmanager.rpc_port}   its RPC port
//   {taskmanager.data_port}  its data (shuffle) port
//   {job.id}                 the job under test
//
// A process fault on another component target (process_faults) names it by
// what the description says about it:
//
//   {component.name}  the target's name (iceberg_catalog, flink_jobmanager, ...)
//   {component.host}  the host of its address in the description
//   {component.port}  the port of that address
//
// (the Kafka broker: the first of kafka.bootstrap; the Connect worker has no
// address in a description, so only {component.name}; the TaskManager's are
// its {taskmanager.*} ones, as for kill_taskmanager).
//
// An unknown or unclosed placeholder is an error, not an argument passed on.
#ifndef ROSTERRIG_STACK_FAULT_COMMAND_HPP
#define ROSTERRIG_STACK_FAULT_COMMAND_HPP

#include <map>
#include <string>
#include <vector>

#include "rosterrig/stack/description.hpp"

namespace rosterrig::stack {

using placeholder_values = std::map<std::string, std::string>;

/// The placeholders a fault command may use, for `description` checks.
inline const std::vector<std::string>& fault_placeholders() {
    static const std::vector<std::string> names{"taskmanager.id", "taskmanager.host", "taskmanager.rpc_port",
                                                "taskmanager.data_port", "job.id"};
    return names;
}

/// The {component.*} values of a process fault on `target`, from the
/// description's addresses.
inline placeholder_values component_placeholders(const description& d, experiment::fault_target target) {
    using experiment::fault_target;
    placeholder_values v{{"component.name", experiment::name_of(target)}};
    const auto with = [&](const std::string& host, const std::string& port) {
        v["component.host"] = host, v["component.port"] = port;
    };
    const auto at = [&](const endpoint& e) { with(e.host, std::to_string(e.port)); };
    switch (target) {
        case fault_target::flink_jobmanager:
            at(d.flink);
            break;
        case fault_target::sql_gateway:
            at(d.sql_gateway);
            break;
        case fault_target::iceberg_catalog:
            at(d.catalog);
            break;
        case fault_target::object_store:
            at(d.object_store);
            break;
        case fault_target::trino:
            at(d.trino);
            break;
        case fault_target::kafka_broker: {
            const auto first = d.kafka_bootstrap.substr(0, d.kafka_bootstrap.find(','));
            const auto colon = first.rfind(':');
            if (colon != std::string::npos) with(first.substr(0, colon), first.substr(colon + 1));
            break;
        }
        case fault_target::flink_taskmanager:  // its own {taskmanager.*}, from what Flink reports
        case fault_target::connect_worker:     // a description names no Connect worker address
            break;
    }
    return v;
}

/// Every placeholder a process fault's commands on `target` may use, each
/// with a stand-in value: for checking a file when it is read.
inline placeholder_values placeholders_allowed(const description& d, experiment::fault_target target) {
    auto v = component_placeholders(d, target);
    if (target == experiment::fault_target::flink_taskmanager)
        for (const auto& n : fault_placeholders()) v[n] = "x";
    return v;
}

/// `argument` with each {name} replaced by values.at(name).
inline std::string fill_placeholders(const std::string& argument, const placeholder_values& values) {
    std::string out;
    for (std::size_t i = 0; i < argument.size();) {
        if (argument[i] != '{') {
            out += argument[i++];
            continue;
        }
        const auto close = argument.find('}', i);
        if (close == std::string::npos)
            throw description_error("fault command argument \"" + argument + "\": unclosed {");
        const auto name = argument.substr(i + 1, close - i - 1);
        const auto it = values.find(name);
        if (it == values.end())
            throw description_error("fault command argument \"" + argument + "\": unknown placeholder {" + name + "}");
        out += it->second;
        i = close + 1;
    }
    return out;
}

inline std::vector<std::string> fill_placeholders(const std::vector<std::string>& argv,
                                                  const placeholder_values& values) {
    std::vector<std::string> out;
    for (const auto& a : argv) out.push_back(fill_placeholders(a, values));
    return out;
}

/// Checks every argument of every fault command against the known placeholders
/// (with dummy values), so a typo fails when the file is read, not at the first fault.
inline void check_placeholders(const description& d) {
    placeholder_values dummy;
    for (const auto& n : fault_placeholders()) dummy[n] = "x";
    for (const auto& [kind, c] : d.faults) {
        try {
            fill_placeholders(c.command, dummy);
            fill_placeholders(c.came_back, dummy);
        } catch (const description_error& e) {
            throw description_error(d.name + ": faults." + kind + ": " + e.what());
        }
    }
    for (const auto& [target_name, actions] : d.process_faults) {
        const auto target = experiment::parse_name<experiment::fault_target>(target_name);
        if (!target) throw description_error(d.name + ": process_faults." + target_name + ": no such fault target");
        const auto allowed = placeholders_allowed(d, *target);
        for (const auto& [action, c] : actions) {
            try {
                fill_placeholders(c.command, allowed);
                fill_placeholders(c.came_back, allowed);
            } catch (const description_error& e) {
                throw description_error(d.name + ": process_faults." + target_name + "." + action + ": " + e.what());
            }
        }
    }
}

}  // namespace rosterrig::stack

#endif
