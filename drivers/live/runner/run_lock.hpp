// While a driver runs it holds the stack's runs.lock shared, so
// `compose/stack down` (which takes it exclusive, without waiting) refuses to
// take the stack away under a run; several drivers may hold it at once. The
// kernel drops the lock when the process ends, however it ends.
#ifndef ROSTERRIG_LIVE_RUN_LOCK_HPP
#define ROSTERRIG_LIVE_RUN_LOCK_HPP
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "adapters/live_error.hpp"

namespace rosterrig::live {

class run_lock {
public:
    explicit run_lock(const std::string& state_dir) {
        std::filesystem::create_directories(state_dir);
        const std::string path = state_dir + "/runs.lock";
        fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0 || ::flock(fd_, LOCK_SH) != 0) throw live_error("cannot take the stack's run lock " + path);
    }
    ~run_lock() {
        if (fd_ >= 0) ::close(fd_);
    }
    run_lock(const run_lock&) = delete;
    run_lock& operator=(const run_lock&) = delete;

    /// Whether some driver holds the lock now (it cannot be taken exclusive
    /// without waiting). False when there is no lock file yet.
    static bool held_by_a_run(const std::string& state_dir) {
        const std::string path = state_dir + "/runs.lock";
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return false;
        const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
        ::close(fd);  // drops the exclusive lock, if it was taken
        return held;
    }

private:
    int fd_ = -1;
};

}  // namespace rosterrig::live

#endif
