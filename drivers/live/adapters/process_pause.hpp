// Pausing a stack process (SIGSTOP) and resuming it (SIGCONT): the nemesis's
// pause fault. A paused process is the worst leftover there is (everything
// that talks to it hangs), so every pause is remembered in a fixed table until
// it is resumed, and resume_all_paused() resumes whatever is still in it; it
// uses only kill(2) and atomics, so a signal handler may call it. The pid
// comes from the pid file the stack wrote: we only ever signal a process we
// started.
#ifndef ROSTERRIG_LIVE_PROCESS_PAUSE_HPP
#define ROSTERRIG_LIVE_PROCESS_PAUSE_HPP

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "adapters/live_error.hpp"
#include "runner/run_lock.hpp"

namespace rosterrig::live {

struct pause_record {
    long long pid = 0;
    long long paused_at_ms = 0;   // wall clock, epoch milliseconds
    long long resumed_at_ms = 0;  // 0 while paused
};

namespace detail {
// The pids paused and not yet resumed; 0 is a free slot.
inline std::array<std::atomic<long long>, 64> paused_pids{};

inline long long wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}
}  // namespace detail

/// The state letter of /proc/<pid>/stat (R, S, D, T stopped, Z, ...); '?' when unreadable.
inline char process_state(long long pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) return '?';
    const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
    return close != std::string::npos && close + 2 < line.size() ? line[close + 2] : '?';
}

/// SIGSTOPs the process whose pid `pid_file` holds, and remembers it until resumed.
inline pause_record pause_process(const component_address& who, const std::string& pid_file) {
    pause_record r;
    std::ifstream in(pid_file);
    if (!(in >> r.pid) || r.pid <= 0) throw live_error(who, "no pid in " + pid_file + " to pause");
    std::size_t slot = 0;
    for (; slot < detail::paused_pids.size(); ++slot) {
        long long free = 0;
        if (detail::paused_pids[slot].compare_exchange_strong(free, r.pid)) break;
    }
    if (slot == detail::paused_pids.size()) throw live_error(who, "too many processes paused at once");
    r.paused_at_ms = detail::wall_ms();
    if (::kill(static_cast<pid_t>(r.pid), SIGSTOP) != 0) {
        const int e = errno;
        detail::paused_pids[slot].store(0);
        throw live_error(who, "SIGSTOP of pid " + std::to_string(r.pid) + " failed: errno " + std::to_string(e));
    }
    return r;
}

/// SIGCONTs a paused process and forgets it. A process that died while paused
/// (a supervisor may have replaced it) is forgotten too.
inline void resume_process(const component_address& who, pause_record& r) {
    for (auto& slot : detail::paused_pids) {
        long long pid = r.pid;
        if (slot.compare_exchange_strong(pid, 0)) break;
    }
    if (::kill(static_cast<pid_t>(r.pid), SIGCONT) != 0 && errno != ESRCH)
        throw live_error(who, "SIGCONT of pid " + std::to_string(r.pid) + " failed: errno " + std::to_string(errno));
    r.resumed_at_ms = detail::wall_ms();
}

/// Resumes every process still paused (the heal on every exit path); returns
/// how many it signalled. Async-signal-safe.
inline std::size_t resume_all_paused() noexcept {
    std::size_t n = 0;
    for (auto& slot : detail::paused_pids) {
        const long long pid = slot.exchange(0);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), SIGCONT) == 0) ++n;
    }
    return n;
}

/// A stack process that is stopped (state T), by the pid file that names it.
struct stopped_process {
    std::string name;  ///< the pid file's name: catalog, flink-taskmanager-2, ...
    long long pid = 0;
};
/// Every process named by a pid file (<name>.pid) in `pid_dir` that is stopped.
inline std::vector<stopped_process> stopped_in(const std::filesystem::path& pid_dir) {
    std::vector<stopped_process> out;
    std::error_code ec;  // no folder: nothing stopped
    for (const auto& f : std::filesystem::directory_iterator(pid_dir, ec)) {
        long long pid = 0;
        std::ifstream in(f.path());
        if (f.path().extension() == ".pid" && (in >> pid) && pid > 0 && process_state(pid) == 'T')
            out.push_back({f.path().stem().string(), pid});
    }
    return out;
}

/// The heal for a paused process a driver left behind when it died by SIGKILL
/// (its in-process table of pauses died with it). While no driver holds the
/// stack's run lock, no pause is any run's fault in progress, so every stopped
/// stack process is a leftover and is resumed (listed only, with `dry_run`).
/// Read from the processes themselves, not from a history, so a pause the
/// history never got to record is healed too. While a run holds the lock,
/// nothing is signalled and each line says so. One line per stopped process.
inline std::vector<std::string> heal_paused_leftovers(const std::string& state_dir, bool dry_run = false) {
    const bool a_run_holds_the_stack = run_lock::held_by_a_run(state_dir);
    std::vector<std::string> lines;
    for (const auto& p : stopped_in(std::filesystem::path(state_dir) / "pids")) {
        const std::string who = p.name + " (pid " + std::to_string(p.pid) + ") is paused (state T)";
        if (a_run_holds_the_stack)
            lines.push_back(who + ", and a run holds " + state_dir + "/runs.lock: left to that run");
        else if (dry_run)
            lines.push_back(who + ": would resume it");
        else if (::kill(static_cast<pid_t>(p.pid), SIGCONT) == 0)
            lines.push_back(who + ", a leftover: resumed");
        else
            lines.push_back(who + ", a leftover: SIGCONT failed, errno " + std::to_string(errno));
    }
    return lines;
}

/// Resumes every paused process when it goes out of scope: declared after the
/// session in a run, it is destroyed first, so the clean-up never talks to a
/// stopped component, whether the run ended, threw or was interrupted.
struct heal_paused_on_exit {
    heal_paused_on_exit() = default;
    heal_paused_on_exit(const heal_paused_on_exit&) = delete;
    heal_paused_on_exit& operator=(const heal_paused_on_exit&) = delete;
    ~heal_paused_on_exit() { resume_all_paused(); }
};

}  // namespace rosterrig::live

#endif
