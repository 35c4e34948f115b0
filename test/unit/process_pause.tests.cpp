// Claims about drivers/live/process_pause.hpp, on a child process of the test
// (no stack): a pause stops the process, a resume or the heal-all resumes it,
// and nothing stays stopped. "Mutation:" names the change that makes a case
// fail (each made, seen failing, reverted).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "process_pause.hpp"

using namespace rosterrig::live;

namespace {

// A sleeping child and a pid file naming it, as the stack writes them; killed at the end.
struct sleeping_child {
    pid_t pid = ::fork();
    std::string pid_file = (std::filesystem::temp_directory_path() / ("rr-pause-" + std::to_string(::getpid()) + ".pid")).string();
    sleeping_child() {
        if (pid == 0) {
            ::execl("/bin/sleep", "sleep", "60", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        std::ofstream(pid_file) << pid << "\n";
    }
    ~sleeping_child() {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        std::filesystem::remove(pid_file);
    }
};

// The state letter once it has settled on one of `wanted` (a signal is delivered asynchronously).
char settled_state(pid_t pid, const std::string& wanted) {
    char s = '?';
    for (int i = 0; i < 200; ++i) {
        s = process_state(pid);
        if (wanted.find(s) != std::string::npos) return s;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return s;
}

const component_address who{"test-child", "127.0.0.1", 0, "", "", {}};

}  // namespace

TEST_CASE("a paused process is stopped until it is resumed", "[nemesis][pause]") {
    sleeping_child child;
    REQUIRE(child.pid > 0);
    REQUIRE(settled_state(child.pid, "S") == 'S');
    auto r = pause_process(who, child.pid_file);
    CHECK(r.pid == child.pid);
    CHECK(r.paused_at_ms > 0);
    // Mutation: send SIGCONT instead of SIGSTOP in pause_process and this is 'S'.
    CHECK(settled_state(child.pid, "T") == 'T');
    resume_process(who, r);
    CHECK(r.resumed_at_ms >= r.paused_at_ms);
    CHECK(settled_state(child.pid, "S") == 'S');
    CHECK(resume_all_paused() == 0);  // resumed is forgotten
}

TEST_CASE("the heal on exit resumes every process still paused", "[nemesis][pause]") {
    sleeping_child child;
    REQUIRE(settled_state(child.pid, "S") == 'S');
    pause_process(who, child.pid_file);
    REQUIRE(settled_state(child.pid, "T") == 'T');
    // Mutation: let pause_process forget to record the pid and nothing is resumed here.
    CHECK(resume_all_paused() == 1);
    CHECK(settled_state(child.pid, "S") == 'S');
    CHECK(resume_all_paused() == 0);
}

TEST_CASE("a pid file naming no process is refused naming the component", "[nemesis][pause]") {
    const std::string empty = (std::filesystem::temp_directory_path() / "rr-pause-empty.pid").string();
    std::ofstream(empty) << "";
    CHECK_THROWS_WITH(pause_process(who, empty), Catch::Contains("test-child") && Catch::Contains("no pid"));
    std::filesystem::remove(empty);
}

TEST_CASE("a run's heal guard resumes what is still paused when it goes out of scope", "[nemesis][pause]") {
    sleeping_child child;
    REQUIRE(settled_state(child.pid, "S") == 'S');
    {
        const heal_paused_on_exit heal;
        pause_process(who, child.pid_file);
        REQUIRE(settled_state(child.pid, "T") == 'T');
    }
    // Mutation: empty the guard's destructor and the child stays stopped.
    CHECK(settled_state(child.pid, "S") == 'S');
}
