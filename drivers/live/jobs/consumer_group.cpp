#include "jobs/consumer_group.hpp"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>

#include "adapters/child_process.hpp"
#include "adapters/kafka_admin.hpp"
#include "roles/periodic.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

namespace {

long long now_epoch_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::vector<std::string> member_command(const session& s, const group_spec& g, const e6::member_settings& m,
                                        const std::string& name, const std::string& log_file) {
    std::vector<std::string> flags{"--bootstrap",
                                   s.stack.kafka_bootstrap(),
                                   "--topic",
                                   g.topic,
                                   "--group",
                                   g.group,
                                   "--member",
                                   name,
                                   "--batch",
                                   std::to_string(m.batch),
                                   "--latency-ms",
                                   std::to_string(m.latency_ms),
                                   "--max-poll-interval-ms",
                                   std::to_string(m.max_poll_interval_ms),
                                   "--protocol",
                                   m.protocol,
                                   "--mode",
                                   m.mode,
                                   "--run-ms",
                                   std::to_string(g.run_ms),
                                   "--log",
                                   log_file};
    if (m.client == "cpp") {
        // Built beside this driver.
        const auto self = std::filesystem::read_symlink("/proc/self/exe").parent_path();
        flags.insert(flags.begin(), (self / "rosterrig-e6-member").string());
        return flags;
    }
    std::string line =
        ". '" + s.stack.compose_dir + "/lib.sh' && . '" + s.stack.compose_dir + "/kafka/component.sh' && kafka_member";
    for (const auto& f : flags) line += " '" + f + "'";
    return {"bash", "-c", line};
}

// Lines of a client's standard error about the poll interval: how many, and one of each kind.
void count_poll_warnings(const std::filesystem::path& file, e6::consumer_run& run) {
    std::ifstream in(file);
    std::string line;
    std::set<std::string> kinds(run.client_warning_examples.begin(), run.client_warning_examples.end());
    while (std::getline(in, line)) {
        if (!e6::is_poll_warning(line)) continue;
        ++run.client_poll_warnings;
        auto kind = experiment::error_kind(line);
        if (kinds.insert(kind).second) run.client_warning_examples.push_back(kind);
    }
}

}  // namespace

void run_consumer_group(session& s, const group_spec& g, e6::consumer_run& run) {
    std::filesystem::create_directories(g.log_dir);
    std::vector<std::filesystem::path> logs, errs;
    std::vector<std::unique_ptr<child_process>> members;
    std::mutex m;
    kafka_admin admin(s.stack.kafka());  // the sampler's own: one thread uses it
    const auto start = periodic::clock::now();
    run.started_at_ms = now_epoch_ms();
    for (std::uint64_t i = 1; i <= g.members; ++i) {
        const std::string name = std::string("m").append(std::to_string(i));
        logs.push_back(g.log_dir / (name + ".jsonl"));
        errs.push_back(g.log_dir / (name + ".stderr"));
        members.push_back(std::make_unique<child_process>(
            member_command(s, g, run.settings, name, logs.back().string()), errs.back().string()));
    }
    auto sample = [&](long long t_ms) {
        const auto committed = admin.committed_offsets_sum(g.group, g.topic, g.partitions);
        const auto end = admin.end_offsets_sum(g.topic, g.partitions);
        std::lock_guard lock(m);
        run.offsets.push_back({t_ms, committed, end - committed});
        if (t_ms / 10000 != (run.offsets.size() > 1 ? run.offsets[run.offsets.size() - 2].t_ms / 10000 : -1))
            progress(std::string("e6[")
                         .append(run.run)
                         .append("]: ")
                         .append(std::to_string(t_ms / 1000))
                         .append(" s, committed ")
                         .append(std::to_string(committed))
                         .append(", lag ")
                         .append(std::to_string(end - committed)));
    };
    periodic sampler(std::chrono::milliseconds(g.sample_every_ms), start, sample);
    const auto deadline = std::chrono::milliseconds(g.run_ms + run.settings.batch_ms() + 60000);
    for (auto& member : members) {
        const auto code = member->wait(
            deadline - std::chrono::duration_cast<std::chrono::milliseconds>(periodic::clock::now() - start));
        run.exit_codes.push_back(code.value_or(-1));  // -1: still running at the deadline, killed
    }
    sampler.stop();
    sample(std::chrono::duration_cast<std::chrono::milliseconds>(periodic::clock::now() - start)
               .count());  // after every member left
    for (std::size_t i = 0; i < logs.size(); ++i) {
        std::ifstream in(logs[i]);
        if (!in)
            throw live_error("member " + std::to_string(i + 1) + " of " + run.run + " wrote no log; read " +
                             errs[i].string());
        auto events = experiment::parse_consumer_log(in, logs[i].string());
        for (const auto& e : events)
            if (e.kind == "start") run.clients.push_back(e.detail);
        run.log.insert(run.log.end(), events.begin(), events.end());
        count_poll_warnings(errs[i], run);
    }
    std::stable_sort(run.log.begin(), run.log.end(), [](const auto& a, const auto& b) { return a.t_ms < b.t_ms; });
}

}  // namespace rosterrig::live
