// Claims about drivers/live/adapters/process_pause.hpp, on a child process of the test
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

#include "adapters/process_pause.hpp"

using namespace rosterrig::live;

namespace {

// A sleeping child and a pid file naming it, as the stack writes them; killed at the end.
struct sleeping_child {
    pid_t pid = ::fork();
    std::string pid_file;
    explicit sleeping_child(std::string file = (std::filesystem::temp_directory_path() /
                                                ("rr-pause-" + std::to_string(::getpid()) + ".pid"))
                                                   .string())
        : pid_file(std::move(file)) {
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

namespace {
// A stack state folder of the test's own, with its pids/ folder, removed at the end.
struct state_folder {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("rr-heal-" + std::to_string(::getpid()));
    state_folder() { std::filesystem::create_directories(dir / "pids"); }
    ~state_folder() { std::filesystem::remove_all(dir); }
    std::string pid_file(const std::string& name) const { return (dir / "pids" / (name + ".pid")).string(); }
};
}  // namespace

TEST_CASE("a stack process a dead driver left paused is resumed while no run holds the stack", "[nemesis][pause]") {
    state_folder state;
    sleeping_child paused(state.pid_file("catalog"));
    sleeping_child running(state.pid_file("trino"));
    REQUIRE(settled_state(paused.pid, "S") == 'S');
    REQUIRE(settled_state(running.pid, "S") == 'S');
    ::kill(paused.pid, SIGSTOP);  // as a SIGKILLed driver leaves it: in no table of this process
    REQUIRE(settled_state(paused.pid, "T") == 'T');
    CHECK(resume_all_paused() == 0);

    const auto listed = heal_paused_leftovers(state.dir.string(), true);
    REQUIRE(listed.size() == 1);
    CHECK_THAT(listed[0], Catch::StartsWith("catalog (pid " + std::to_string(paused.pid) + ")") &&
                              Catch::Contains("would resume"));
    CHECK(settled_state(paused.pid, "T") == 'T');  // a dry run signals nothing

    // Mutation: drop the SIGCONT in heal_paused_leftovers and the child stays 'T'.
    const auto healed = heal_paused_leftovers(state.dir.string());
    REQUIRE(healed.size() == 1);  // the running one is not listed
    CHECK_THAT(healed[0], Catch::Contains("resumed"));
    CHECK(settled_state(paused.pid, "S") == 'S');
    CHECK(heal_paused_leftovers(state.dir.string()).empty());
}

TEST_CASE("while a run holds the stack's lock, a paused stack process is left to that run", "[nemesis][pause]") {
    state_folder state;
    sleeping_child child(state.pid_file("catalog"));
    REQUIRE(settled_state(child.pid, "S") == 'S');
    ::kill(child.pid, SIGSTOP);
    REQUIRE(settled_state(child.pid, "T") == 'T');
    {
        const run_lock a_run(state.dir.string());
        CHECK(run_lock::held_by_a_run(state.dir.string()));
        // Mutation: heal_paused_leftovers ignoring held_by_a_run resumes the child here.
        const auto lines = heal_paused_leftovers(state.dir.string());
        REQUIRE(lines.size() == 1);
        CHECK_THAT(lines[0], Catch::Contains("left to that run"));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        CHECK(process_state(child.pid) == 'T');
    }
    CHECK_FALSE(run_lock::held_by_a_run(state.dir.string()));
    CHECK(heal_paused_leftovers(state.dir.string()).size() == 1);
    CHECK(settled_state(child.pid, "S") == 'S');
}
