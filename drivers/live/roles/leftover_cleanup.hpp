// Removing what dead runs left behind (see rosterrig/experiment/leftovers.hpp
// for which runs and which names): each history under a folder read, each
// recorded resource removed by remove_resource, as a run's own clean-up
// removes it, and the history marked failed with what was removed.
// A history that cannot be read is named and left alone.
#ifndef ROSTERRIG_LIVE_LEFTOVER_CLEANUP_HPP
#define ROSTERRIG_LIVE_LEFTOVER_CLEANUP_HPP
#include <filesystem>
#include <string>
#include <vector>

#include <rosterrig/experiment/leftovers.hpp>

#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// Every run history (*.json) under `dir`, recursively, with whether its
// driver still runs (a live pid whose command line names a rosterrig driver).
// Files that are not run histories are skipped and named in `unreadable`.
std::vector<experiment::run_on_disk> runs_on_disk(const std::filesystem::path& dir,
                                                  std::vector<std::string>& unreadable);

struct cleanup_report {
    std::vector<std::string> removed;  // one line per resource: what was done
    std::vector<std::string> failed;   // one line per resource that could not be removed, naming the component
    std::vector<std::string> histories_closed;
};

// Removes every leftover of the dead runs under `dir` (only lists them when
// `dry_run`); a history whose resources were all removed is marked failed,
// saying so, so it is not cleaned twice.
cleanup_report clean_leftovers(const stack_config& stack, const std::filesystem::path& dir, bool dry_run);

}  // namespace rosterrig::live

#endif
