// rosterrig-clean: removes what dead runs left on the stack. A driver killed
// with SIGKILL (or an OOM kill, or a closed terminal) cannot undo what it
// created; its history still reads "running" and lists every topic, table,
// job and transactional-id prefix it recorded before creating them. This
// removes exactly those, for runs whose driver is gone, says what it removed,
// and marks each such history failed; and, while no driver holds the stack,
// resumes any stack process left paused. Every driver does the same at start.
// Exit 0 when nothing is left, 1 when something could not be removed, 2 on a
// bad flag.
#include <iostream>

#include <rosterrig/cli/arg_parser.hpp>

#include "roles/leftover_cleanup.hpp"
#include "adapters/process_pause.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;

int main(int argc, char** argv) {
    std::string runs;
    bool dry_run = false;
    cli::arg_parser args{"rosterrig-clean",
                         "Removes the topics, tables, jobs and open transactions that runs killed "
                         "mid-way recorded creating, and nothing else; resumes a stack process they left paused."};
    args.option("--runs", runs, "DIR", "where the run histories are (default: runs/ in the checkout)");
    args.flag("--dry-run", dry_run, "list what would be removed; remove nothing");
    std::string stack_file;
    args.option("--stack", stack_file, "FILE",
                "the stack the runs ran against, described in a file (default: the local stack)");
    try {
        if (!args.parse(argc, argv)) return 0;
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-clean: " << e.what() << "\n" << args.usage();
        return 2;
    }
    try {
        const auto stack = live::stack_config::load(stack_file);
        const auto dir = std::filesystem::weakly_canonical(
            runs.empty() ? std::filesystem::path(live::source_dir(stack)) / "runs" : std::filesystem::path(runs));
        const auto r = live::clean_leftovers(stack, dir, dry_run);
        for (const auto& line : r.removed) std::cerr << "rosterrig-clean: " << line << "\n";
        for (const auto& h : r.histories_closed) std::cerr << "rosterrig-clean: marked " << h << " failed\n";
        for (const auto& line : r.failed) std::cerr << "rosterrig-clean: not removed: " << line << "\n";
        const auto paused = live::heal_paused_leftovers(stack.state_dir, dry_run);
        for (const auto& line : paused) std::cerr << "rosterrig-clean: " << line << "\n";
        if (r.removed.empty() && r.failed.empty() && paused.empty())
            std::cerr << "rosterrig-clean: no dead run left anything under " << dir.string() << "\n";
        return r.failed.empty() ? 0 : 1;
    } catch (const stack::description_error& e) {
        std::cerr << "rosterrig-clean: --stack: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-clean: " << e.what() << "\n";
        return 1;
    }
}
