// Progress lines on stderr (phase, counts), and Ctrl-C turned into an exception
// at the next checkpoint of a loop, so cleanup always runs.
#ifndef ROSTERRIG_LIVE_PROGRESS_HPP
#define ROSTERRIG_LIVE_PROGRESS_HPP
#include <atomic>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <string>

#include "adapters/process_pause.hpp"

namespace rosterrig::live {

inline void progress(const std::string& line) {
    std::time_t t = std::time(nullptr);
    char stamp[16];
    std::strftime(stamp, sizeof stamp, "%H:%M:%S", std::localtime(&t));
    std::fprintf(stderr, "[%s] %s\n", stamp, line.c_str());
    std::fflush(stderr);
}

inline std::atomic<bool>& interrupted_flag() {
    static std::atomic<bool> flag{false};
    return flag;
}

struct interrupted : std::runtime_error {
    interrupted() : std::runtime_error("interrupted (SIGINT/SIGTERM)") {}
};

inline void install_interrupt_handler() {
    // A paused component is resumed at once: the clean-up that follows needs it.
    auto handler = +[](int) {
        interrupted_flag().store(true);
        resume_all_paused();
    };
    std::signal(SIGINT, handler);
    std::signal(SIGTERM, handler);
}

inline void throw_if_interrupted() {
    if (interrupted_flag().load()) throw interrupted();
}

}  // namespace rosterrig::live

#endif
