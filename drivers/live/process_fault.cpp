#include "process_fault.hpp"

#include <csignal>
#include <cerrno>
#include <fstream>
#include <thread>

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

kill_record kill_and_await_restart(const component_address& who, const std::string& pid_file,
                                   std::chrono::seconds deadline) {
    kill_record r;
    r.pid = read_pid(pid_file);
    if (!process_alive(r.pid)) throw live_error(who, "no live process in " + pid_file + " to kill");
    r.killed_at_ms = now_ms();
    if (::kill(static_cast<pid_t>(r.pid), SIGKILL) != 0)
        throw live_error(who, "SIGKILL of pid " + std::to_string(r.pid) + " failed: errno " + std::to_string(errno));
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < give_up) {
        long long now_pid = read_pid(pid_file);
        if (now_pid != 0 && now_pid != r.pid && process_alive(now_pid)) {
            r.replacement_pid = now_pid;
            r.replaced_at_ms = now_ms();
            return r;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    throw live_error(who, "pid " + std::to_string(r.pid) + " was killed but nothing restarted it within " +
                              std::to_string(deadline.count()) + " s");
}

}  // namespace rosterrig::live
