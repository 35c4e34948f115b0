#include "adapters/process_fault.hpp"

#include <csignal>
#include <cerrno>
#include <fstream>
#include <thread>

#include "runner/progress.hpp"

namespace rosterrig::live {

long long now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

long long read_pid(const std::string& pid_file) {
    std::ifstream in(pid_file);
    long long pid = 0;
    if (in >> pid) return pid;
    return 0;
}

bool process_alive(long long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

kill_record kill_process(const component_address& who, const std::string& pid_file) {
    kill_record r;
    r.pid = read_pid(pid_file);
    if (!process_alive(r.pid)) throw live_error(who, "no live process in " + pid_file + " to kill");
    r.killed_at_ms = now_ms();
    if (::kill(static_cast<pid_t>(r.pid), SIGKILL) != 0)
        throw live_error(who, "SIGKILL of pid " + std::to_string(r.pid) + " failed: errno " + std::to_string(errno));
    return r;
}

long long replacement_of(const kill_record& r, const std::string& pid_file) {
    const long long now_pid = read_pid(pid_file);
    return now_pid != 0 && now_pid != r.pid && process_alive(now_pid) ? now_pid : 0;
}

void await_replacement(const component_address& who, const std::string& pid_file, kill_record& r,
                       std::chrono::seconds deadline) {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < give_up) {
        // Ctrl-C or SIGTERM ends the wait at once: a component whose supervisor
        // is gone never comes back, and the run's clean-up must not wait for it.
        throw_if_interrupted();
        if (const long long pid = replacement_of(r, pid_file)) {
            r.replacement_pid = pid;
            if (r.replaced_at_ms == 0) r.replaced_at_ms = now_ms();
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    throw live_error(who, "pid " + std::to_string(r.pid) + " was killed but nothing restarted it within " +
                              std::to_string(deadline.count()) + " s");
}

kill_record kill_and_await_restart(const component_address& who, const std::string& pid_file,
                                   std::chrono::seconds deadline) {
    auto r = kill_process(who, pid_file);
    await_replacement(who, pid_file, r, deadline);
    return r;
}

}  // namespace rosterrig::live
