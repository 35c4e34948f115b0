#include "roles/process_fault_healed.hpp"

#include <chrono>
#include <thread>

#include "adapters/poll.hpp"
#include "adapters/process_fault.hpp"
#include "adapters/process_pause.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

healed_fault fault_and_heal(experiment::fault_kind kind, const component_address& who, const std::string& pid_file,
                            std::int64_t pause_ms, const std::string& name) {
    healed_fault f;
    if (kind == experiment::fault_kind::pause) {
        auto r = pause_process(who, pid_file);
        f.pid = r.pid, f.fault_at_ms = r.paused_at_ms;
        elapsed_until(now_ms(), 2000, [&] { return process_state(r.pid) == 'T'; }, std::chrono::milliseconds(20));
        f.state_seen_paused = std::string(1, process_state(r.pid));
        progress(name + " paused for " + std::to_string(pause_ms / 1000) + " s");
        std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
        resume_process(who, r);
        f.healed_at_ms = now_ms();
    } else {
        auto k = kill_process(who, pid_file);
        f.pid = k.pid, f.fault_at_ms = k.killed_at_ms;
        progress(name + " (pid " + std::to_string(k.pid) + ") SIGKILLed");
        await_replacement(who, pid_file, k, std::chrono::seconds(60));
        f.replacement_pid = k.replacement_pid, f.healed_at_ms = k.replaced_at_ms;
    }
    return f;
}

}  // namespace rosterrig::live
