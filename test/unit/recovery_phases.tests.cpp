// A recovery's phases from the moments Flink and the polls reported: counted
// from the kill, in order, and a moment nobody reported stays empty.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/recovery_phases.hpp>

using namespace rosterrig;

TEST_CASE("a recovery's phases are counted from the kill and an unreported one stays empty", "[recovery]") {
    experiment::recovery_moments m;
    m.failure_seen_at_ms = 11300;
    m.taskmanager_registered_at_ms = 15100;
    m.tasks_running_at_ms = 18400;
    const auto phases = experiment::recovery_phases(10000, 13400, 11200, m);
    REQUIRE(phases.size() == 7);
    CHECK(phases[0] == std::make_pair(std::string("failure_seen"), std::optional<std::int64_t>(1300)));
    CHECK(phases[1].second == 3400);  // restarting
    CHECK(phases[2].second == 1200);  // process_replaced
    CHECK(phases[3].second == 5100);  // taskmanager_registered
    // Mutation: report an absent moment as 0 ms after the kill, and these fail.
    CHECK_FALSE(phases[4].second.has_value());  // tasks_deploying not reported
    CHECK_FALSE(phases[5].second.has_value());  // restored not reported
    CHECK(phases[6].second == 8400);
}

TEST_CASE("the phase summary takes the median and the max over the recoveries that reported each phase", "[recovery]") {
    experiment::recovery_moments a, b, c;
    a.tasks_running_at_ms = 18000, b.tasks_running_at_ms = 19000, c.tasks_running_at_ms = 30000;
    a.failure_seen_at_ms = 11000;
    const auto s = experiment::summarize_phases({experiment::recovery_phases(10000, 0, 0, a),
                                                 experiment::recovery_phases(10000, 0, 0, b),
                                                 experiment::recovery_phases(10000, 0, 0, c)});
    REQUIRE(s.size() == 2);  // failure_seen (one recovery) and tasks_running (three); the rest reported by none
    CHECK(s[0].phase == "failure_seen");
    CHECK(s[0].recoveries == 1);
    CHECK(s[1].phase == "tasks_running");
    CHECK(s[1].median_ms == 9000);
    CHECK(s[1].max_ms == 20000);
}
