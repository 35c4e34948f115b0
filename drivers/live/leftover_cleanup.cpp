#include "leftover_cleanup.hpp"

#include "table_store.hpp"

#include <fstream>
#include <map>
#include <set>

#include "connect_rest.hpp"
#include "flink_rest.hpp"
#include "iceberg_catalog.hpp"
#include "kafka_admin.hpp"
#include "kafka_transactions.hpp"
#include "process_fault.hpp"

namespace rosterrig::live {

namespace {

bool is_our_driver(long long pid) {
    if (pid <= 0 || !process_alive(pid)) return false;
    std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return cmdline.find("rosterrig") != std::string::npos;
}

// What was done, or throws naming the component.
std::string remove_one(const stack_config& stack, const result::created_resource& c) {
    if (c.kind == "job") {
        flink_rest flink(stack.flink());
        std::string state;
        for (const auto& [id, st] : flink.jobs())
            if (id == c.name) state = st;
        auto checkpoints = [&] { return remove_job_folders(stack, c.name) > 0 ? ", its checkpoint and savepoint folders removed" : ""; };
        if (state.empty()) return "job " + c.name + ": not known to Flink (gone)" + checkpoints();
        if (state == "CANCELED" || state == "FINISHED" || state == "FAILED") return "job " + c.name + ": already " + state + checkpoints();
        flink.cancel(c.name);
        flink.wait_for_state(c.name, {"CANCELED", "FAILED", "FINISHED"}, std::chrono::seconds(60));
        return "job " + c.name + ": cancelled (was " + state + ")" + checkpoints();
    }
    if (c.kind == "transactional-id-prefix") {
        std::vector<std::string> open;
        for (const auto& t : list_transactions(stack, c.name))
            if (t.state == "Ongoing" || t.state == "PrepareCommit" || t.state == "PrepareAbort") open.push_back(t.id);
        abort_transactions(stack.kafka(), open);
        return "transactions of " + c.name + ": " + std::to_string(open.size()) + " open, aborted";
    }
    if (c.kind == "table") {
        const auto dot = c.name.find('.');
        if (dot == std::string::npos) throw live_error(stack.catalog(), "recorded table " + c.name + " has no namespace");
        iceberg_catalog(stack.catalog()).drop_table(c.name.substr(0, dot), c.name.substr(dot + 1), true);
        const auto n = remove_table_files(stack, c.name.substr(0, dot), c.name.substr(dot + 1));
        return "table " + c.name + ": dropped with purge" + (n > 0 ? ", " + std::to_string(n) + " files the purge left removed" : std::string());
    }
    if (c.kind == "connector") {
        const bool existed = connect_rest(stack.connect()).remove(c.name);
        return "connector " + c.name + (existed ? ": deleted" : ": not known to the Connect worker (gone)");
    }
    if (c.kind == "consumer-group") {  // fails while a dead run's member still runs: it stops on its own, clean again then
        kafka_admin(stack.kafka()).delete_group(c.name);
        return "consumer group " + c.name + ": deleted";
    }
    if (c.kind == "topic") {
        kafka_admin(stack.kafka()).delete_topic(c.name);
        return "topic " + c.name + ": deleted";
    }
    return c.kind + " " + c.name + ": not a kind clean-up knows; left alone";
}

}  // namespace

std::vector<experiment::run_on_disk> runs_on_disk(const std::filesystem::path& dir, std::vector<std::string>& unreadable) {
    std::vector<experiment::run_on_disk> out;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return out;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != std::filesystem::recursive_directory_iterator();
         it.increment(ec)) {
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
            report.removed.push_back("would remove " + l.what.kind + " " + l.what.name + " (recorded by " + l.history + ")");
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
        env.failure = "the driver (pid " + std::to_string(r.pid) + ") was gone with the run unfinished; rosterrig-clean removed what it recorded creating: " +
                      (what.empty() ? std::string("nothing was recorded") : what);
        result::write_result(r.path, env);
        report.histories_closed.push_back(r.path);
    }
    return report;
}

}  // namespace rosterrig::live
