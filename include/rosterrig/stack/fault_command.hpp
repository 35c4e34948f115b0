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
}

}  // namespace rosterrig::stack

#endif
