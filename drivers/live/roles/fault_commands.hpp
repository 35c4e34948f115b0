// Faults as commands, from a stack description: the command that injects a
// fault and the one that says the component came back, run with their
// placeholders filled (rosterrig/stack/fault_command.hpp), each bounded by the
// fault's deadline, standard error appended to logs/fault-commands.log.
#ifndef ROSTERRIG_LIVE_FAULT_COMMANDS_HPP
#define ROSTERRIG_LIVE_FAULT_COMMANDS_HPP
#include <string>

#include <rosterrig/stack/fault_command.hpp>

#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// The description's commands for a fault kind, or nullptr: the built-in path.
const stack::fault_commands* fault_commands_for(const stack_config& stack, const std::string& kind);

// Runs the fault's command; throws naming the command and the log unless it
// exits 0 within the deadline.
void run_fault_command(const stack_config& stack, const stack::fault_commands& fault,
                       const stack::placeholder_values& target);

// Runs the fault's came_back command once: whether it exited 0 (within the deadline).
bool fault_target_came_back(const stack_config& stack, const stack::fault_commands& fault,
                            const stack::placeholder_values& target);

// argv[0] as a program: a relative path with a '/' is taken from the directory
// of the description file; a bare name is looked up in PATH.
std::string fault_program(const stack_config& stack, const std::string& program);

// The log the commands' standard error goes to.
std::string fault_command_log(const stack_config& stack);

}  // namespace rosterrig::live

#endif
