// Experiment 6's accounting over member logs and its rules, on hand-built
// logs: each count is exact, and a rule bites on the one fact it is about.
#include <catch2/catch.hpp>

#include <sstream>

#include <rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp>

using namespace rosterrig;

namespace {
experiment::consumer_event record(const std::string& member, std::int64_t partition, std::int64_t offset) {
    experiment::consumer_event e;
    e.member = member, e.kind = "record", e.partition = partition, e.offset = offset, e.seq = offset + 1;
    return e;
}
experiment::consumer_event commit(const std::string& member, bool ok) {
    experiment::consumer_event e;
    e.member = member, e.kind = "commit", e.ok = ok;
    if (!ok) e.error = "CommitFailedException: generation 7 is stale";
    return e;
}

// Two members that each processed offsets 0..2 of partition 0 and failed to commit.
e6::consumer_run livelocked_run(const std::string& client) {
    e6::consumer_run r;
    r.run = client + "/classic/degraded";
    r.settings = e6::settings_of(e6::parameters::full(), r.run);
    r.events = 100;
    r.run_ms = 5000;
    for (const char* m : {"m1", "m2"}) {
        for (int o = 0; o < 3; ++o) r.log.push_back(record(m, 0, o));
        r.log.push_back(commit(m, false));
    }
    r.offsets = {{1000, 0, 100}, {2000, 0, 100}};
    r.client_poll_warnings = 2;
    if (client == "cpp") {
        experiment::consumer_event e;
        e.member = "m1", e.kind = "error", e.where = "poll";
        e.error = "Local: Maximum application poll interval (max.poll.interval.ms) exceeded";
        r.log.push_back(e);
    }
    return r;
}

e6::consumer_run healthy_run() {
    e6::consumer_run r;
    r.run = "java/consumer/healthy";
    r.settings = e6::settings_of(e6::parameters::full(), r.run);
    r.events = 4;
    r.run_ms = 5000;
    for (int o = 0; o < 4; ++o) r.log.push_back(record("m1", o % 2, o / 2));
    r.log.push_back(commit("m1", true));
    r.offsets = {{1000, 2, 2}, {2000, 4, 0}};
    return r;
}
}  // namespace

TEST_CASE("a member's log line is read back field by field, and a bad line names its number", "[e6]") {
    std::istringstream in(
        "{\"t\":5,\"member\":\"m1\",\"kind\":\"record\",\"partition\":2,\"offset\":17,\"seq\":1234}\n"
        "{\"t\":6,\"member\":\"m1\",\"kind\":\"commit\",\"ok\":false,\"offsets\":{\"2\":18},\"error\":\"Broker: Unknown member\"}\n"
        "{\"t\":7,\"member\":\"m2\",\"kind\":\"start\",\"client\":\"java\",\"protocol\":\"consumer\",\"mode\":\"plain\",\"client_version\":\"kafka-clients 4.3.1\"}\n");
    const auto events = experiment::parse_consumer_log(in, "m1.jsonl");
    REQUIRE(events.size() == 3);
    CHECK(events[0].partition == 2);
    CHECK(events[0].offset == 17);
    CHECK(events[0].seq == 1234);
    CHECK_FALSE(events[1].ok);
    CHECK(events[1].offsets.at("2") == 18);
    CHECK(events[1].error == "Broker: Unknown member");
    CHECK(events[2].detail == "java consumer plain kafka-clients 4.3.1");
    std::istringstream bad("{\"t\":5,\"member\":\"m1\",\"kind\":\"record\"}\nnot json\n");
    CHECK_THROWS_WITH(experiment::parse_consumer_log(bad, "m1.jsonl"), Catch::Contains("m1.jsonl:2"));
}

TEST_CASE("the accounting counts a record processed by two members once per processing", "[e6]") {
    const auto a = experiment::account(livelocked_run("java").log);
    CHECK(a.processed == 6);
    CHECK(a.distinct_records == 3);
    CHECK(a.processed_more_than_once == 3);
    CHECK(a.most_times_processed == 2);
    CHECK(a.commits_ok == 0);
    CHECK(a.commits_failed == 2);
    // One error kind: the digits that differ between occurrences do not split it.
    REQUIRE(a.errors_seen.size() == 1);
    CHECK(a.errors_seen.begin()->second == 2);
}

TEST_CASE("the livelock holds only while the broker never shows a committed offset", "[e6][verdict]") {
    e6::samples s;
    s.runs = {livelocked_run("cpp"), livelocked_run("java")};
    CHECK(e6::degraded_livelocks(s).verdict == verdict_kind::held);
    // Mutation: the committed offsets advance in one sample, and it is refuted.
    s.runs[1].offsets[1].committed = 3;
    CHECK(e6::degraded_livelocks(s).verdict == verdict_kind::refuted);
}

TEST_CASE("the seed's silent livelock is refuted by a failed commit handed to the application", "[e6][verdict]") {
    e6::samples s;
    s.runs = {livelocked_run("java")};
    CHECK(e6::seed_silent_livelock(s).verdict == verdict_kind::refuted);
    // Mutation: the application is told its commits succeeded (the failure is
    // not handed to it) while the broker still shows none: the seed's silent
    // livelock, held.
    for (auto& e : s.runs[0].log)
        if (e.kind == "commit") e.ok = true, e.error.clear();
    CHECK(e6::seed_silent_livelock(s).verdict == verdict_kind::held);
}

TEST_CASE("a failed commit dropped from the log turns the livelock into an unexplained one", "[e6][verdict]") {
    e6::samples s;
    s.runs = {livelocked_run("cpp")};
    CHECK(e6::degraded_livelocks(s).verdict == verdict_kind::held);
    // Mutation: remove the failed-commit lines; no commit failed, so the
    // prediction (which needs them) is refuted.
    std::erase_if(s.runs[0].log, [](const experiment::consumer_event& e) { return e.kind == "commit"; });
    CHECK(e6::degraded_livelocks(s).verdict == verdict_kind::refuted);
}

TEST_CASE("the C++ and Java predictions judge only their own client's runs", "[e6][verdict]") {
    e6::samples s;
    s.runs = {livelocked_run("cpp"), livelocked_run("java")};
    CHECK(e6::cpp_poll_reports_the_interval(s).verdict == verdict_kind::held);
    CHECK(e6::java_poll_stays_quiet(s).verdict == verdict_kind::held);
    // Mutation: Java's poll throws; the Java prediction is refuted, the C++ one unchanged.
    s.runs[1].log.push_back(s.runs[0].log.back());
    CHECK(e6::java_poll_stays_quiet(s).verdict == verdict_kind::refuted);
    CHECK(e6::cpp_poll_reports_the_interval(s).verdict == verdict_kind::held);
    e6::samples none;
    CHECK(e6::cpp_poll_reports_the_interval(none).verdict == verdict_kind::inconclusive);
}

TEST_CASE("a healthy run holds only when every record is committed once", "[e6][verdict]") {
    e6::samples s;
    s.runs = {healthy_run()};
    CHECK(e6::healthy_progresses_once(s).verdict == verdict_kind::held);
    // Mutation: the last sample stops short of the end of the topic.
    s.runs[0].offsets.back().committed = 3;
    CHECK(e6::healthy_progresses_once(s).verdict == verdict_kind::refuted);
}

TEST_CASE("a run the parameters cannot mean is refused before anything is created", "[e6]") {
    auto p = e6::parameters::full();
    CHECK_FALSE(e6::usage_problem(p, 0));
    p.batch = 0;
    CHECK(e6::usage_problem(p, 0));
    p = e6::parameters::full();
    p.degraded_latency_ms = 0;
    CHECK(e6::usage_problem(p, 0));
    p = e6::parameters::full();
    p.runs = {"cpp/consumer/degraded"};  // librdkafka 2.0 has no consumer protocol
    CHECK(e6::usage_problem(p, 0));
    CHECK(e6::settings_of(e6::parameters::full(), "java/classic/fix-batch").batch == 5);
    CHECK(e6::settings_of(e6::parameters::full(), "java/classic/fix-pause").mode == "pause");
    CHECK(e6::settings_of(e6::parameters::full(), "cpp/classic/fix-interval").max_poll_interval_ms == 60000);
}

TEST_CASE("the full run repeats every configuration three times and the quick run once, and 0 repeats is refused",
          "[e6]") {
    CHECK(e6::parameters::full().repeat_count() == 3);
    CHECK(e6::parameters::quick_run().repeat_count() == 1);
    CHECK_FALSE(e6::parameters::quick_run().repeats.has_value());  // a quick run's samples carry no repeat number
    auto p = e6::parameters::full();
    p.repeats = 0;
    CHECK(e6::usage_problem(p, 0));
}

TEST_CASE("the repeats table gives each configuration's clean count and the least and most of each count",
          "[e6][report]") {
    e6::samples s;
    for (std::uint64_t k = 1; k <= 3; ++k) {
        auto r = healthy_run();
        r.repeat = k;
        if (k == 2) r.log.push_back(r.log.front());  // repeat 2 processes its first record twice
        s.runs.push_back(r);
    }
    const auto table = e6::spread_table(s);
    // Mutation: spread_text giving only the least (or clean counting every
    // repeat) turns "0–1" into "0" (or "2 of 3" into "3 of 3").
    CHECK_THAT(table, Catch::Contains("| java / consumer | healthy | 3 | 2 of 3 | 0–1 | 0 | 4 (4) |"));
    CHECK(e6::run_label(s.runs[1]) == "java/consumer/healthy #2");
    s.runs[1].repeat.reset();
    CHECK(e6::run_label(s.runs[1]) == "java/consumer/healthy");
}

TEST_CASE("the repeat rule judges only repeated configurations and says inconclusive when none repeated",
          "[e6][verdict]") {
    e6::samples s;
    s.runs = {healthy_run()};
    s.runs[0].run = e6::predicted_to_vary;
    CHECK(e6::only_the_predicted_configuration_varies(s).verdict == verdict_kind::inconclusive);
    auto again = s.runs[0];
    s.runs[0].repeat = 1, again.repeat = 2;
    s.runs.push_back(again);
    // Two clean repeats of the configuration predicted to vary: refuted.
    CHECK(e6::only_the_predicted_configuration_varies(s).verdict == verdict_kind::refuted);
    // Mutation: the second repeat processes a record twice; now it varied, as predicted.
    s.runs[1].log.push_back(s.runs[1].log.front());
    CHECK(e6::only_the_predicted_configuration_varies(s).verdict == verdict_kind::held);
}
