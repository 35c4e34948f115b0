// rosterrig/experiment/leftovers.hpp: what a dead run left on the stack.
//
// A driver records everything it creates (each a resource_kind) in its
// history before creating it and removes them itself however it ends, except
// when it cannot: SIGKILL, an OOM kill, a closed terminal. Its history then
// still reads "running" while its process is gone. Clean-up takes exactly what
// such histories recorded, and nothing else: never a name no history holds,
// never from a run whose driver still runs or that ended on its own.
#ifndef ROSTERRIG_EXPERIMENT_LEFTOVERS_HPP
#define ROSTERRIG_EXPERIMENT_LEFTOVERS_HPP

#include <algorithm>
#include <string>
#include <vector>

#include "rosterrig/experiment/resource_kind.hpp"
#include "rosterrig/result/envelope.hpp"

namespace rosterrig::experiment {

/// A history file as clean-up sees it.
struct run_on_disk {
    std::string path;
    result::run_status status = result::run_status::complete;
    std::vector<result::created_resource> created;
    long long pid = 0;          ///< from the file name <start>_<pid>.json; 0 if it names none
    bool driver_alive = false;  ///< a live process with that pid that is one of our drivers
};

struct leftover {
    std::string history;  ///< the run that recorded it
    result::created_resource what;
};

/// The pid in a history's file name (`2026-11-30T03-58-20.585Z_7063.json`), or 0.
inline long long pid_in_history_name(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const auto underscore = name.find_last_of('_'), dot = name.rfind(".json");
    if (underscore == std::string::npos || dot == std::string::npos || dot <= underscore + 1) return 0;
    const std::string digits = name.substr(underscore + 1, dot - underscore - 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) || digits.size() > 9)
        return 0;
    return std::stoll(digits);
}

/// Everything to remove: each resource recorded by a run still marked
/// running whose driver is gone, once, in the order of resource_kind (a kind
/// it does not name last).
inline std::vector<leftover> leftovers(const std::vector<run_on_disk>& runs) {
    std::vector<leftover> out;
    for (const auto& r : runs) {
        if (r.status != result::run_status::running || r.driver_alive) continue;
        for (const auto& c : r.created) {
            const bool seen = std::any_of(out.begin(), out.end(), [&](const leftover& l) { return l.what == c; });
            if (!seen) out.push_back({r.path, c});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const leftover& a, const leftover& b) {
        return removal_rank(a.what.kind) < removal_rank(b.what.kind);
    });
    return out;
}

}  // namespace rosterrig::experiment

#endif
