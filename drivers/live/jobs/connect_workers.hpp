// The stack's Kafka Connect workers as an experiment that moves tasks between
// them needs them (experiment 7b): the second worker started or stopped
// through compose/stack, every worker JVM started anew on demand, and what a
// worker appended to its log since a mark.
#ifndef ROSTERRIG_LIVE_CONNECT_WORKERS_HPP
#define ROSTERRIG_LIVE_CONNECT_WORKERS_HPP
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "adapters/connect_rest.hpp"
#include "adapters/poll.hpp"
#include "adapters/process_fault.hpp"
#include "roles/process_faults.hpp"
#include "runner/progress.hpp"
#include "roles/session.hpp"
#include "adapters/stack_versions.hpp"

namespace rosterrig::live {

inline std::string worker_name(int w) { return w == 1 ? "connect" : "connect-w" + std::to_string(w); }

// What a worker appended to its log since the mark (a restarted JVM appends to the same file).
struct log_tail {
    std::string file;
    std::uintmax_t at = 0;
    explicit log_tail(std::string f) : file(std::move(f)) {
        std::error_code ec;
        at = std::filesystem::exists(file, ec) ? std::filesystem::file_size(file, ec) : 0;
    }
    std::string appended() const {
        std::ifstream in(file, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(at));
        return {std::istreambuf_iterator<char>(in), {}};
    }
};

// The group's workers as the experiment needs them: the second started or
// stopped per cell, every JVM started anew before each trial (a coordinator
// thread can outlive its connector, so only a new JVM is a clean start), and
// at the end started anew once more and the second left as it was found.
class connect_workers {
public:
    explicit connect_workers(session& s) : s_(s), was_up_(up()) {}
    ~connect_workers() {
        try {
            fresh();  // no coordinator of ours runs on after the run
            set(was_up_);
        } catch (const std::exception& e) {
            progress(std::string("could not leave the Connect workers as found: ") + e.what());
        }
    }
    // SIGKILLs every running worker JVM; each supervisor starts a new one, which must rejoin the group.
    void fresh() {
        std::vector<std::pair<component_address, std::string>> running{
            {s_.stack.connect(), s_.stack.pid_file("connect")}};
        if (up()) running.emplace_back(address(), s_.stack.pid_file("connect-w2"));
        // Through the one interface for process faults: all killed first, then each replacement awaited.
        std::vector<process_kill> killed;
        for (const auto& [who, pid_file] : running)
            killed.push_back(kill_target(s_.stack, {experiment::fault_target::connect_worker, who, pid_file, {}}));
        for (std::size_t i = 0; i < running.size(); ++i) {
            const auto& who = running[i].first;
            await_supervisor_replacement(killed[i], std::chrono::seconds(60));
            poll_until(
                who, std::chrono::seconds(120), [&] { return connect_rest(who).healthy(); },
                [] { return std::string("the new worker JVM answering GET /health with 200"); });
        }
    }
    bool up() const { return connect_rest(address()).answers(); }
    void set(bool want) {
        if (up() == want) return;
        progress(std::string("") + (want ? "starting" : "stopping") +
                 " the second Connect worker (compose/stack connect-worker)");
        run_command("'" + s_.stack.compose_dir + "/stack' connect-worker " + (want ? "up" : "down") + " 2 >&2");
    }
    component_address address() const {
        auto a = s_.stack.connect();
        a.name = "connect-w2", a.port = static_cast<unsigned short>(std::stoi(s_.stack.get("RR_CONNECT_WORKER2_PORT")));
        a.log_file = s_.stack.log_file("connect-w2");
        return a;
    }

private:
    session& s_;
    bool was_up_;
};

}  // namespace rosterrig::live

#endif
