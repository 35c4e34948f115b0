#include "roles/leftover_cleanup.hpp"

#include <fstream>
#include <map>
#include <set>

#include "adapters/process_fault.hpp"
#include "roles/remove_resource.hpp"

namespace rosterrig::live {

namespace {

bool is_our_driver(long long pid) {
    if (pid <= 0 || !process_alive(pid)) return false;
    std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return cmdline.find("rosterrig") != std::string::npos;
}

// What was done, or throws naming the component; a kind this code does not
// know is left alone, and said so.
std::string remove_one(const stack_config& stack, const result::created_resource& c) {
    const auto kind = experiment::resource_kind_of(c.kind);
    if (!kind) return c.kind + " " + c.name + ": not a kind clean-up knows; left alone";
    return remove_resource(stack, *kind, c.name);
}

}  // namespace

std::vector<experiment::run_on_disk> runs_on_disk(const std::filesystem::path& dir,
                                                  std::vector<std::string>& unreadable) {
    std::vector<experiment::run_on_disk> out;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return out;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file() || it->path().extension() != ".json") continue;
        experiment::run_on_disk r;
        r.path = it->path().string();
        try {
            const auto env = result::read_result(r.path);
            r.status = env.status_or_complete();
            r.created = env.created.value_or(std::vector<result::created_resource>{});
        } catch (const std::exception& e) {
            unreadable.push_back(r.path + ": " + e.what());
            continue;
        }
        r.pid = experiment::pid_in_history_name(r.path);
        r.driver_alive = is_our_driver(r.pid);
        out.push_back(std::move(r));
    }
    return out;
}

cleanup_report clean_leftovers(const stack_config& stack, const std::filesystem::path& dir, bool dry_run) {
    cleanup_report report;
    const auto runs = runs_on_disk(dir, report.failed);
    const auto items = experiment::leftovers(runs);
    std::map<std::string, std::vector<std::string>> done_by_history;
    std::set<std::string> incomplete;
    for (const auto& l : items) {
        if (dry_run) {
            report.removed.push_back("would remove " + l.what.kind + " " + l.what.name + " (recorded by " + l.history +
                                     ")");
            continue;
        }
        try {
            const auto line = remove_one(stack, l.what);
            report.removed.push_back(line);
            done_by_history[l.history].push_back(line);
        } catch (const std::exception& e) {
            report.failed.push_back(l.what.kind + " " + l.what.name + " (recorded by " + l.history + "): " + e.what());
            incomplete.insert(l.history);
        }
    }
    if (dry_run) return report;
    for (const auto& r : runs) {
        if (r.status != result::run_status::running || r.driver_alive || incomplete.count(r.path)) continue;
        auto env = result::read_result(r.path);
        std::string what;
        for (const auto& line : done_by_history[r.path]) what += (what.empty() ? "" : "; ") + line;
        env.status = result::run_status::failed;
        env.failure = "the driver (pid " + std::to_string(r.pid) +
                      ") was gone with the run unfinished; rosterrig-clean removed what it recorded creating: " +
                      (what.empty() ? std::string("nothing was recorded") : what);
        result::write_result(r.path, env);
        report.histories_closed.push_back(r.path);
    }
    return report;
}

}  // namespace rosterrig::live
