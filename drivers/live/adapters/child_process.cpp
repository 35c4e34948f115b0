#include "adapters/child_process.hpp"

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

#include "adapters/live_error.hpp"
#include "adapters/poll.hpp"

extern char** environ;

namespace rosterrig::live {

child_process::child_process(const std::vector<std::string>& argv, const std::string& stderr_file) {
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attrs;
    posix_spawn_file_actions_init(&files);
    posix_spawnattr_init(&attrs);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, stderr_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawnattr_setflags(&attrs, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attrs, 0);  // a group of its own, killed whole
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int rc = posix_spawnp(&pid_, args[0], &files, &attrs, args.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attrs);
    if (rc != 0) throw live_error("cannot start " + argv.front() + ": " + std::strerror(rc));
}

child_process::~child_process() {
    if (pid_ > 0 && !reaped_) {
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
}

std::optional<int> child_process::wait(std::chrono::milliseconds deadline) {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            reaped_ = true;
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        if (std::chrono::steady_clock::now() > give_up) {
            ::kill(-pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
            reaped_ = true;
            return std::nullopt;
        }
        throw_if_interrupted();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

}  // namespace rosterrig::live
