// A program the driver starts and waits for (experiment 6's group members):
// its own process group, so a wrapper script and what it starts go together;
// standard error to a file; killed with the group if the driver gives up on
// it or unwinds.
#ifndef ROSTERRIG_LIVE_CHILD_PROCESS_HPP
#define ROSTERRIG_LIVE_CHILD_PROCESS_HPP
#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rosterrig::live {

class child_process {
public:
    // Starts argv[0] (looked up in PATH) with standard output discarded and
    // standard error appended to `stderr_file`; throws naming the program.
    child_process(const std::vector<std::string>& argv, const std::string& stderr_file);
    ~child_process();  // kills the process group if it still runs
    child_process(const child_process&) = delete;
    child_process& operator=(const child_process&) = delete;

    // The exit code once it has ended within `deadline`; otherwise the group
    // is killed and std::nullopt returned. A signal's death is 128 + signal.
    std::optional<int> wait(std::chrono::milliseconds deadline);
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
};

}  // namespace rosterrig::live

#endif
