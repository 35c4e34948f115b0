#include "provenance.hpp"

#include "stack_versions.hpp"

namespace rosterrig::live {

namespace {
std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}
std::string git(const stack_config& stack) { return "git -C '" + source_dir(stack) + "' "; }
}  // namespace

std::string source_dir(const stack_config& stack) { return stack.compose_dir + "/.."; }

std::string code_commit(const stack_config& stack) {
    std::string head = trim(run_command(git(stack) + "rev-parse HEAD"));
    std::string dirty =
        trim(run_command(git(stack) + "status --porcelain --untracked-files=no -- include drivers sql compose"));
    return dirty.empty() ? head : head + "-dirty";
}

std::string commit_that_recorded(const stack_config& stack, const std::string& file) {
    std::string c = trim(run_command(git(stack) + "log -1 --format=%H -- '" + file + "'"));
    if (c.empty()) throw live_error("the prediction file " + file + " is not committed: commit it before the run");
    std::string dirty = trim(run_command(git(stack) + "status --porcelain -- '" + file + "'"));
    if (!dirty.empty()) throw live_error("the prediction file " + file + " has uncommitted changes: commit them first");
    return c;
}

}  // namespace rosterrig::live
