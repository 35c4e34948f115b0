#include "roles/fault_commands.hpp"

#include <filesystem>

#include "adapters/child_process.hpp"

namespace rosterrig::live {

const stack::fault_commands* fault_commands_for(const stack_config& stack, const std::string& kind) {
    const auto it = stack.described.faults.find(kind);
    return it == stack.described.faults.end() ? nullptr : &it->second;
}

std::string fault_program(const stack_config& stack, const std::string& program) {
    if (program.find('/') == std::string::npos || program.front() == '/' || stack.description_file.empty())
        return program;
    return (std::filesystem::path(stack.description_file).parent_path() / program).lexically_normal().string();
}

std::string fault_command_log(const stack_config& stack) { return stack.log_file("fault-commands"); }

namespace {
std::optional<int> run(const stack_config& stack, std::vector<std::string> argv, std::uint64_t deadline_s) {
    argv.front() = fault_program(stack, argv.front());
    std::filesystem::create_directories(std::filesystem::path(fault_command_log(stack)).parent_path());
    child_process p(argv, fault_command_log(stack));
    return p.wait(std::chrono::seconds(deadline_s));
}

std::string shown(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
    return out;
}
}  // namespace

void run_fault_command(const stack_config& stack, const stack::fault_commands& fault,
                       const stack::placeholder_values& target) {
    const auto argv = stack::fill_placeholders(fault.command, target);
    const auto code = run(stack, argv, fault.deadline_seconds);
    const component_address who{"fault command", "", 0, fault_command_log(stack), shown(argv), {}};
    if (!code) throw live_error(who, "did not finish within " + std::to_string(fault.deadline_seconds) + " s; killed");
    if (*code != 0) throw live_error(who, "exited " + std::to_string(*code) + ": the fault was not injected");
}

bool fault_target_came_back(const stack_config& stack, const stack::fault_commands& fault,
                            const stack::placeholder_values& target) {
    const auto code = run(stack, stack::fill_placeholders(fault.came_back, target), fault.deadline_seconds);
    return code && *code == 0;
}

}  // namespace rosterrig::live
