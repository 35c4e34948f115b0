#include "roles/session.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <unistd.h>

#include "adapters/process_fault.hpp"

namespace rosterrig::live {

session::session(stack_config s, std::string experiment_tag)
    : stack(std::move(s)),
      flink(stack.flink()),
      trino(stack.trino(), stack.described.trino_user),
      admin(stack.kafka()),
      catalog(stack.catalog()),
      run_id(std::to_string(::getpid()) + "_" + std::to_string(now_ms() % 100000000)),
      table_checks(trino, run_id,
                   [this](const std::string& kind, const std::string& name) {
                       if (on_created) on_created(kind, name);
                   }),
      tag_(std::move(experiment_tag)) {}

pipeline_spec session::pipeline(const std::string& label, const experiment::pipeline_config& config) const {
    std::string safe;
    for (char c : label) {
        const auto u = static_cast<unsigned char>(c);
        safe += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
    }
    pipeline_spec p;
    p.topic = stack.described.topic_prefix + tag_ + "_" + safe + "_" + run_id;
    p.group = p.topic;
    p.ns = stack.described.ns;
    p.table = tag_ + "_" + safe + "_" + run_id;
    p.config = config;
    return p;
}

namespace {
struct taskmanager_slot {
    const char* name;
    const char* rpc_port_key;
    const char* data_port_key;
};
// The stack's TaskManagers (compose/flink/component.sh, _flink_tm_ports).
constexpr taskmanager_slot taskmanagers[] = {
    {"flink-taskmanager", "RR_FLINK_TM_RPC_PORT", "RR_FLINK_TM_DATA_PORT"},
    {"flink-taskmanager-2", "RR_FLINK_TM2_RPC_PORT", "RR_FLINK_TM2_DATA_PORT"},
    {"flink-taskmanager-3", "RR_FLINK_TM3_RPC_PORT", "RR_FLINK_TM3_DATA_PORT"},
};

// How many TaskManagers the stack runs: those whose supervisor is alive.
int supervised_taskmanagers(const stack_config& stack) {
    int n = 0;
    for (const auto& tm : taskmanagers)
        n += process_alive(read_pid(stack.pid_file(std::string(tm.name) + "-supervisor")));
    return n;
}
}  // namespace

session::taskmanager_process session::taskmanager_of(const std::string& job) const {
    const auto ports = flink.job_taskmanager_data_ports(job);
    if (stack.local()) {
        for (int port : ports)
            for (const auto& tm : taskmanagers)
                if (std::to_string(port) == stack.get(tm.data_port_key)) {
                    component_address a{tm.name,
                                        stack.get("RR_HOST"),
                                        static_cast<unsigned short>(std::stoi(stack.get(tm.rpc_port_key))),
                                        stack.log_file(tm.name),
                                        {},
                                        {}};
                    std::string id;  // Flink's id for it: <host>:<rpc port>-<suffix>
                    for (const auto& e : flink.taskmanagers())
                        if (e.data_port == port) id = e.id;
                    return {a, stack.pid_file(tm.name), id, port};
                }
    } else {
        const auto listed = flink.taskmanagers();
        for (int port : ports)
            for (const auto& e : listed)
                if (e.data_port == port)
                    return {{"flink-taskmanager " + e.id, e.host, static_cast<unsigned short>(e.rpc_port), "", {}, {}},
                            "",
                            e.id,
                            port};
    }
    std::string seen;
    for (int port : ports) seen += (seen.empty() ? "" : ", ") + std::to_string(port);
    throw live_error(stack.flink(), "job " + job + " runs on no TaskManager " +
                                        (stack.local() ? "of this stack" : "Flink lists") +
                                        " (data ports seen: " + (seen.empty() ? std::string("none") : seen) + ")");
}

// A described stack's TaskManagers are as many as Flink ever listed in this session.
int session::registered_noting_most() const {
    const int registered = flink.registered_taskmanagers();
    most_taskmanagers_seen_ = std::max(most_taskmanagers_seen_, registered);
    return registered;
}

bool session::all_taskmanagers_registered() const {
    if (!stack.local()) {
        const int registered = registered_noting_most();
        return registered > 0 && registered >= most_taskmanagers_seen_;
    }
    const int registered = flink.registered_taskmanagers();
    const int ours = supervised_taskmanagers(stack);
    return ours > 0 && registered >= ours;
}

void session::refuse_if_run_id_taken() const {
    for (const auto& t : catalog.list_tables(stack.described.ns))
        if (t.find(run_id) != std::string::npos)
            throw live_error(stack.catalog(), "namespace " + stack.described.ns + " already holds table " + t +
                                                  ", which carries this run's id " + run_id +
                                                  ": the run will not create, or drop, a name it does not own");
}

namespace {
// The NUL-separated /proc/<pid>/cmdline or environ of a process ("" when gone).
std::vector<std::string> proc_strings(long long pid, const char* what) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/" + what, std::ios::binary);
    std::vector<std::string> out;
    for (std::string s; std::getline(in, s, '\0');) out.push_back(s);
    return out;
}
}  // namespace

experiment::recovery_settings session::recovery_in_force(
    const std::vector<std::pair<std::string, std::string>>& flink_config_entries) const {
    auto r = experiment::recovery_settings_of(flink_config_entries);
    r.taskmanagers_registered = flink.registered_taskmanagers();
    for (const auto& tm : taskmanagers) {
        for (const auto& arg : proc_strings(read_pid(stack.pid_file(tm.name)), "cmdline"))
            if (arg.rfind("-XX:SharedArchiveFile=", 0) == 0) ++r.taskmanagers_sharing_classes;
        for (const auto& var : proc_strings(read_pid(stack.pid_file(std::string(tm.name) + "-supervisor")), "environ"))
            if (var.rfind("TM_RESTART_PAUSE=", 0) == 0) r.supervisor_restart_pause = var.substr(17);
    }
    return r;
}

bool session::spare_taskmanager_registered() const {
    if (!stack.local()) {
        const int registered = registered_noting_most();
        return registered >= std::min(2, std::max(1, most_taskmanagers_seen_));
    }
    const int registered = flink.registered_taskmanagers();
    const int ours = supervised_taskmanagers(stack);
    return ours > 0 && registered >= std::min(2, ours);
}

}  // namespace rosterrig::live
