// Faults against stack processes by pid: the local stack's answer to `docker kill`.
// The pid comes from the pid file the stack wrote, so we only ever signal a
// process we started.
#ifndef ROSTERRIG_LIVE_PROCESS_FAULT_HPP
#define ROSTERRIG_LIVE_PROCESS_FAULT_HPP
#include <chrono>
#include <string>
#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct kill_record {
    long long pid = 0;
    long long killed_at_ms = 0;  // wall clock, epoch milliseconds
    long long replacement_pid = 0;
    long long replaced_at_ms = 0;
};

// Reads a pid file; 0 when absent or unreadable.
long long read_pid(const std::string& pid_file);
bool process_alive(long long pid);

// SIGKILLs the process named by pid_file (pid and time in the record).
kill_record kill_process(const component_address& who, const std::string& pid_file);

// The supervisor's replacement of r.pid: a different live pid in pid_file,
// or 0 while there is none yet.
long long replacement_of(const kill_record& r, const std::string& pid_file);

// Waits until the supervisor has written a replacement pid (and the time it
// was seen, unless r already holds one), within deadline.
void await_replacement(const component_address& who, const std::string& pid_file, kill_record& r,
                       std::chrono::seconds deadline);

// kill_process, then await_replacement.
kill_record kill_and_await_restart(const component_address& who, const std::string& pid_file,
                                   std::chrono::seconds deadline = std::chrono::seconds(60));

// Current wall-clock time in epoch milliseconds.
long long now_ms();

}  // namespace rosterrig::live

#endif
