// What clean-up takes from dead runs: exactly what their histories recorded.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/leftovers.hpp>

using namespace rosterrig;
using experiment::run_on_disk;
using result::run_status;

namespace {
run_on_disk run(const std::string& path, run_status status, bool alive, std::vector<result::created_resource> created) {
    return {path, status, std::move(created), experiment::pid_in_history_name(path), alive};
}
}  // namespace

TEST_CASE("clean-up never removes a name it did not record", "[leftovers]") {
    const std::vector<run_on_disk> runs{
        run("runs/e1/2026-11-30T01-00-00.000Z_111.json", run_status::running, false,
            {{"topic", "rr_e1_a"}, {"table", "rosterrig.e1_a"}, {"job", "j1"}}),
        run("runs/e1/2026-11-30T02-00-00.000Z_222.json", run_status::running, true,
            {{"topic", "rr_e1_b"}, {"job", "j2"}}),
        run("runs/e1/2026-11-30T03-00-00.000Z_333.json", run_status::complete, false, {{"topic", "rr_e1_c"}}),
        run("runs/e5/2026-11-30T04-00-00.000Z_444.json", run_status::failed, false, {{"topic", "rr_e5_d"}}),
        run("runs/e5/2026-11-30T05-00-00.000Z_555.json", run_status::running, false,
            {{"transactional-id-prefix", "rr_e5_e_tx"}, {"topic", "rr_e5_e"}, {"job", "j5"}}),
    };
    const auto out = experiment::leftovers(runs);
    std::vector<std::string> names;
    for (const auto& l : out) names.push_back(l.what.kind + " " + l.what.name);
    // Only the two dead running runs, and every name is one they recorded.
    // Mutation: let a failed or complete run's names in (drop the status
    // test), or a live driver's (drop `driver_alive`), and this fails.
    CHECK(names == std::vector<std::string>{"job j1", "job j5", "transactional-id-prefix rr_e5_e_tx",
                                            "table rosterrig.e1_a", "topic rr_e1_a", "topic rr_e5_e"});
    for (const auto& l : out) {
        const auto& from = *std::find_if(runs.begin(), runs.end(), [&](const auto& r) { return r.path == l.history; });
        CHECK(std::find(from.created.begin(), from.created.end(), l.what) != from.created.end());
    }
}

TEST_CASE("a name two dead runs recorded is removed once", "[leftovers]") {
    const std::vector<run_on_disk> runs{
        run("a_1.json", run_status::running, false, {{"topic", "t"}}),
        run("b_2.json", run_status::running, false, {{"topic", "t"}}),
    };
    CHECK(experiment::leftovers(runs).size() == 1);
}

TEST_CASE("the driver's pid comes from the history's file name", "[leftovers]") {
    CHECK(experiment::pid_in_history_name("/x/runs/e5/2026-11-30T03-58-20.585Z_7063.json") == 7063);
    CHECK(experiment::pid_in_history_name("results/e1_restart_replay.json") == 0);  // "replay" is not a pid
    CHECK(experiment::pid_in_history_name("quick.json") == 0);
    CHECK(experiment::pid_in_history_name("a_.json") == 0);
}
