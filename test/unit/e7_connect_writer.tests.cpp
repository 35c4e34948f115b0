// Experiment 7's pure parts: the rules that judge the Kafka Connect writer,
// at their edges.
#include <catch2/catch.hpp>

#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>

using namespace rosterrig;

namespace {
e7::offsets_step step(const char* name, std::uint64_t rows, std::uint64_t duplicates) {
    e7::offsets_step s;
    s.step = name, s.rows = rows, s.duplicate_rows = duplicates;
    return s;
}

// A dial cell with `commits` commits of `files` files of `bytes` each, and a
// freshness histogram whose every row waited `fresh_ms`.
experiment::cell_run cell(std::int64_t interval_ms, int commits, std::int64_t bytes, std::int64_t fresh_ms) {
    experiment::cell_run c;
    c.cell = e7::cell_name(interval_ms), c.interval_ms = interval_ms, c.job_id = "sink";
    c.in_force.interval_ms = interval_ms;
    c.events = c.rows = 100;
    for (int i = 0; i < commits; ++i) {
        c.snapshots.push_back({i + 1, 0, "append", "sink", 1, 1, 1});
        experiment::file_entry f;
        f.snapshot_id = i + 1, f.content = 0, f.bytes = bytes, f.records = 1;
        c.files.push_back(f);
    }
    c.freshness = experiment::histogram_of(std::vector<std::int64_t>(100, fresh_ms), 100);
    return c;
}
}  // namespace

// Mutation: judging by rows == 2 x duplicate_rows, without the feed's size, makes it fail.
TEST_CASE("a rewound group replays everything only when every seq is in the table twice", "[e7]") {
    e7::samples s;
    s.offsets.events = 1000;
    CHECK(e7::rewound_group_replays_everything(s).verdict == verdict_kind::inconclusive);
    s.offsets.steps = {step(e7::step_rewound_recreated, 2000, 1000)};
    CHECK(e7::rewound_group_replays_everything(s).verdict == verdict_kind::held);
    s.offsets.steps = {step(e7::step_rewound_recreated, 1000, 0)};
    CHECK(e7::rewound_group_replays_everything(s).verdict == verdict_kind::refuted);
    s.offsets.steps = {step(e7::step_rewound_recreated, 1500, 500)};
    CHECK(e7::rewound_group_replays_everything(s).verdict == verdict_kind::refuted);
    s.offsets.steps = {step(e7::step_rewound_recreated, 1000, 500)};  // half the feed twice, half of it gone
    CHECK(e7::rewound_group_replays_everything(s).verdict == verdict_kind::refuted);
}

// Mutation: judging only the worker_killed step makes it fail (the recreate duplicated).
TEST_CASE("a kill and a same-name recreate replay nothing only when neither duplicated", "[e7]") {
    e7::samples s;
    s.offsets.events = 1000;
    s.offsets.steps = {step(e7::step_worker_killed, 1000, 0)};
    CHECK(e7::restarts_replay_nothing(s).verdict == verdict_kind::inconclusive);
    s.offsets.steps.push_back(step(e7::step_recreated, 1000, 0));
    CHECK(e7::restarts_replay_nothing(s).verdict == verdict_kind::held);
    s.offsets.steps.back().duplicate_rows = 3;
    CHECK(e7::restarts_replay_nothing(s).verdict == verdict_kind::refuted);
}

TEST_CASE("a rewind the broker applied refutes the refusal, an untried one decides nothing", "[e7]") {
    e7::samples s;
    CHECK(e7::rewind_refused_while_running(s).verdict == verdict_kind::inconclusive);
    s.offsets.rewind_while_running_tried = true;
    CHECK(e7::rewind_refused_while_running(s).verdict == verdict_kind::refuted);
    s.offsets.rewind_while_running_refused = "UNKNOWN_MEMBER_ID";
    CHECK(e7::rewind_refused_while_running(s).verdict == verdict_kind::held);
}

// Mutation: `<=` instead of `<` on the commit counts makes the flat case hold.
TEST_CASE("larger files with a longer interval need both fewer commits and larger files at each step", "[e7]") {
    e7::samples s;
    s.dial = {cell(2000, 40, 10000, 1000), cell(10000, 9, 40000, 5000)};
    CHECK(e7::longer_interval_larger_files(s).verdict == verdict_kind::inconclusive);
    s.dial.push_back(cell(30000, 3, 120000, 15000));
    CHECK(e7::longer_interval_larger_files(s).verdict == verdict_kind::held);
    s.dial.back() = cell(30000, 9, 120000, 15000);  // as many commits as the 10 s cell
    CHECK(e7::longer_interval_larger_files(s).verdict == verdict_kind::refuted);
}

// Mutation: dropping the interval + 5 s ceiling makes the slow case hold.
TEST_CASE("freshness follows the interval when its median grows and stays within interval plus 5 s", "[e7]") {
    e7::samples s;
    s.dial = {cell(2000, 40, 1, 1500), cell(10000, 9, 1, 6000), cell(30000, 3, 1, 16000)};
    CHECK(e7::freshness_follows_interval(s).verdict == verdict_kind::held);
    s.dial[1] = cell(10000, 9, 1, 16000);  // above 10 s + 5 s
    CHECK(e7::freshness_follows_interval(s).verdict == verdict_kind::refuted);
}

TEST_CASE("the restart rule is experiment 1's, and without part 1 it gives no verdict, while a duplicate refutes",
          "[e7]") {
    e7::samples s;
    CHECK(e7::restart_no_duplicates(s).verdict == verdict_kind::inconclusive);
    s.restart.emplace();
    s.restart->run.kills.resize(30);
    CHECK(e7::restart_no_duplicates(s).verdict == verdict_kind::held);
    s.restart->run.duplicate_rows = 1;
    CHECK(e7::restart_no_duplicates(s).verdict == verdict_kind::refuted);
}
