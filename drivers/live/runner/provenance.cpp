#include "runner/provenance.hpp"

#include "adapters/stack_versions.hpp"

#include "build_commit.hpp"

namespace rosterrig::live {

namespace {
std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}
std::string git(const stack_config& stack) { return "git -C '" + source_dir(stack) + "' "; }
}  // namespace

std::string source_dir(const stack_config& stack) { return stack.compose_dir + "/.."; }

namespace {
bool code_is_dirty(const stack_config& stack) {
    return !trim(run_command(git(stack) + "status --porcelain --untracked-files=no -- " + experiment::code_paths))
                .empty();
}
}  // namespace

std::string code_commit(const stack_config& stack) {
    std::string head = trim(run_command(git(stack) + "rev-parse HEAD"));
    return code_is_dirty(stack) ? head + "-dirty" : head;
}

experiment::run_permission run_permission_here(const stack_config& stack, bool quick) {
    std::string head;
    bool dirty = true;  // what git cannot confirm clean is not clean
    try {
        head = trim(run_command(git(stack) + "rev-parse HEAD 2>/dev/null"));
        dirty = code_is_dirty(stack);
    } catch (const std::exception&) {
    }
    return experiment::may_run(experiment::parse_binary_commit(build_commit()), head, dirty, quick);
}

std::string binary_code_commit() {
    return experiment::recorded_commit(experiment::parse_binary_commit(build_commit()));
}

std::string commit_that_recorded(const stack_config& stack, const std::string& file) {
    std::string c = trim(run_command(git(stack) + "log -1 --format=%H -- '" + file + "'"));
    if (c.empty()) throw live_error("the prediction file " + file + " is not committed: commit it before the run");
    std::string dirty = trim(run_command(git(stack) + "status --porcelain -- '" + file + "'"));
    if (!dirty.empty()) throw live_error("the prediction file " + file + " has uncommitted changes: commit them first");
    return c;
}

}  // namespace rosterrig::live
