// One planned fault on a stack process, applied and healed: a pause held for
// its length and resumed, or a SIGKILL and the supervisor's replacement. For
// a fault on a process that is not Flink's (experiment 7b's Connect workers);
// the process comes from its pid file, and what was seen is returned.
#ifndef ROSTERRIG_LIVE_PROCESS_FAULT_HEALED_HPP
#define ROSTERRIG_LIVE_PROCESS_FAULT_HEALED_HPP
#include <cstdint>
#include <string>

#include <rosterrig/experiment/fault.hpp>

#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct healed_fault {
    long long pid = 0;
    long long fault_at_ms = 0;      // SIGSTOP or SIGKILL sent, epoch ms
    std::string state_seen_paused;  // pause: the state letter after SIGSTOP, read until T (at most 2 s)
    long long replacement_pid = 0;  // kill: the supervisor's new process
    long long healed_at_ms = 0;     // pause: SIGCONT sent; kill: the replacement seen
};

// `pause`: SIGSTOP, `pause_ms` stopped, SIGCONT. Any other kind: SIGKILL, and
// the supervisor's replacement awaited up to 60 s. `name` starts the progress
// line (the label and the process, "e7b[...]: worker 2").
healed_fault fault_and_heal(experiment::fault_kind kind, const component_address& who, const std::string& pid_file,
                            std::int64_t pause_ms, const std::string& name);

}  // namespace rosterrig::live

#endif
