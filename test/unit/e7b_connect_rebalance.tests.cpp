// Experiment 7b's pure parts: its rules on hand-built trials (each must be
// able to hold, fail and stay undecided), the worker-log counts and the plan.
#include <catch2/catch.hpp>

#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

using namespace rosterrig;

namespace {
// A trial whose fault applied, `committed` of 1,000 acknowledged records
// committed in the window (all of them: landed), read back exactly unless changed.
e7b::trial trial(const char* cell, std::int64_t committed, std::uint64_t duplicates = 0, std::uint64_t missing = 0) {
    e7b::trial t;
    t.cell = cell, t.index = 1, t.target_pid = 42, t.acknowledged = 1000;
    if (const auto props = e7b::connector_properties_of(cell); props.count("iceberg.kafka.auto.offset.reset"))
        t.control_offset_reset = props.at("iceberg.kafka.auto.offset.reset");
    t.records_at_window_end = committed;
    t.landed_after_ms = committed >= 1000 ? 30000 : -1;
    t.rows = 1000 + duplicates - missing, t.distinct_seq = 1000 - missing, t.duplicate_rows = duplicates,
    t.missing_seq = missing;
    return t;
}
verdict_kind judge(const std::string& id, const e7b::samples& s) {
    for (const auto& r : e7b::rules())
        if (r.id == id) return r.judge(s, e7b::parameters::full()).verdict;
    FAIL("no rule " << id);
    return verdict_kind::inconclusive;
}
}  // namespace

// Mutation: `stalled` reading landed_after_ms alone (ignoring the records
// committed) still passes; `in_some_trial` counting trials whose fault never
// applied makes the inconclusive case fail.
TEST_CASE(
    "e7b: the stall rule holds on one uncommitted trial, fails when every trial landed, and needs an applied fault",
    "[e7b]") {
    const std::string id = "e7b.coordinator-kill-stalls-commits";
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000), trial(e7b::coordinator_kill, 0)}, "", {}}) ==
          verdict_kind::held);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000), trial(e7b::coordinator_kill, 1000)}, "", {}}) ==
          verdict_kind::refuted);
    auto never = trial(e7b::coordinator_kill, 0);
    never.target_pid = 0;
    CHECK(judge(id, {{never}, "", {}}) == verdict_kind::inconclusive);
    CHECK(judge(id, {{trial(e7b::zombie_pause, 0)}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: coordinators_left as started alone makes the refuted case fail.
TEST_CASE("e7b: two coordinators need two more starts than stops in the workers' logs", "[e7b]") {
    const std::string id = "e7b.coordinator-kill-leaves-two-coordinators";
    auto two = trial(e7b::coordinator_kill, 0);
    two.coordinators_started = 3, two.coordinators_stopped = 1;
    auto one = trial(e7b::coordinator_kill, 0);
    one.coordinators_started = 3, one.coordinators_stopped = 2;
    CHECK(judge(id, {{one, two}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{one}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: `exact` without the missing count makes the restarted-but-missing case hold.
TEST_CASE("e7b: the restart rule fails on a trial with a seq missing or doubled, whatever the window said", "[e7b]") {
    const std::string id = "e7b.restart-recovers-exactly";
    auto restarted = trial(e7b::coordinator_kill, 0);
    restarted.restarted = true, restarted.landed_after_restart_ms = 5000;
    CHECK(judge(id, {{restarted, trial(e7b::coordinator_kill, 1000)}, "", {}}) == verdict_kind::held);
    auto never_restarted = trial(e7b::coordinator_kill, 0, 0, 1000);
    CHECK(judge(id, {{never_restarted}, "", {}}) == verdict_kind::inconclusive);  // the quick run has no restart window
    never_restarted.restarted = true;
    CHECK(judge(id, {{never_restarted}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000, 3)}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: the zombie rule without landed_in_window makes the late case hold.
TEST_CASE("e7b: the zombie, control and earliest cells must commit within the window and read back exactly", "[e7b]") {
    const std::map<std::string, std::string> rule_of{{e7b::zombie_pause, "e7b.zombie-pause-exact"},
                                                     {e7b::one_worker_kill, "e7b.one-worker-kill-exact"},
                                                     {e7b::coordinator_kill_earliest, "e7b.earliest-recovers-exactly"}};
    for (const auto& [cell, id] : rule_of) {
        CHECK(judge(id, {{trial(cell.c_str(), 1000)}, "", {}}) == verdict_kind::held);
        auto late = trial(cell.c_str(), 1000);
        late.landed_after_ms = -1;  // committed, but only after the window (the restart's doing)
        CHECK(judge(id, {{late}, "", {}}) == verdict_kind::refuted);
        CHECK(judge(id, {{trial(cell.c_str(), 1000, 2)}, "", {}}) == verdict_kind::refuted);
        CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000)}, "", {}}) == verdict_kind::inconclusive);
    }
}

// Mutation: summing duplicates only over coordinator-kill trials makes the refuted case hold.
TEST_CASE("e7b: one duplicate seq row in any cell refutes no-duplicate", "[e7b]") {
    const std::string id = "e7b.no-duplicate";
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000), trial(e7b::zombie_pause, 1000)}, "", {}}) ==
          verdict_kind::held);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000), trial(e7b::zombie_pause, 1000, 1)}, "", {}}) ==
          verdict_kind::refuted);
    auto unread = trial(e7b::coordinator_kill, 0);
    unread.rows = 0;
    CHECK(judge(id, {{unread}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: counting "Starting Coordinator" (the committer's line just before
// the election) as a start makes `started` 3 and fails it.
TEST_CASE("e7b: the coordinator lines are counted as the Iceberg sink 1.10 writes them", "[e7b]") {
    const std::string log =
        "[2026-12-03 16:01:02,559] INFO Committer received leader partition. Starting Coordinator. (org.apache.iceberg.connect.channel.CommitterImpl)\n"
        "[2026-12-03 16:01:02,559] INFO Task elected leader, starting commit coordinator (org.apache.iceberg.connect.channel.CommitterImpl)\n"
        "[2026-12-03 16:01:05,739] INFO Commit 4dc62480-21d1-4a54-bca9-c231ce4977b3 initiated (org.apache.iceberg.connect.channel.Coordinator)\n"
        "[2026-12-03 16:01:35,777] INFO Commit timeout reached. Commit ID: 4dc62480 (org.apache.iceberg.connect.channel.CommitState)\n"
        "[2026-12-03 16:01:36,831] WARN Received commit ready when no commit in progress, this can happen during recovery. Commit ID: 43 (x)\n"
        "[2026-12-03 16:01:40,855] INFO Committer t-0 lost leader partition. Stopping Coordinator. (org.apache.iceberg.connect.channel.CommitterImpl)\n"
        "[2026-12-03 16:01:40,855] INFO Stopping worker t-0. (org.apache.iceberg.connect.channel.CommitterImpl)\n"
        "[2026-12-03 16:01:41,000] INFO Task elected leader, starting commit coordinator (org.apache.iceberg.connect.channel.CommitterImpl)\n";
    const auto c = e7b::count_coordinator_lines(log);
    CHECK(c.started == 2);
    CHECK(c.stopped == 1);
    CHECK(c.rounds == 1);
    CHECK(c.timeouts == 1);
    CHECK(c.stray == 1);
    CHECK(e7b::count_coordinator_lines("").started == 0);
}

TEST_CASE(
    "e7b: the plan gives every cell its trials, the zombie a pause of pause_ms, and is the same for the same seed",
    "[e7b]") {
    const auto p = e7b::parameters::full();
    const auto plan = e7b::fault_plan(p);
    CHECK(plan.steps.size() == p.trials * p.cells.size());
    for (const auto& s : plan.steps) {
        CHECK((s.delay_ms >= p.fault_delay_min_ms && s.delay_ms <= p.fault_delay_max_ms));
        CHECK(s.kind ==
              (s.variant == e7b::zombie_pause ? experiment::fault_kind::pause : experiment::fault_kind::kill));
    }
    CHECK(plan == e7b::fault_plan(p));
    auto bad = p;
    bad.cells = {"nope"};
    CHECK(e7b::usage_problem(bad, 0).has_value());
    CHECK_FALSE(e7b::usage_problem(p, 0).has_value());
}

// Mutation: reading coord_members_after_delete >= 0 (the group read, empty) as a leak makes the refuted case hold.
TEST_CASE("e7b: a coordinator outliving its deleted connector is a member of its group 10 s after the deletion",
          "[e7b]") {
    const std::string id = "e7b.deleted-connector-leaves-coordinators";
    auto leaked = trial(e7b::coordinator_kill, 0);
    leaked.coord_members_after_delete = 2;
    auto clean = trial(e7b::coordinator_kill, 1000);
    clean.coord_members_after_delete = 0;
    CHECK(judge(id, {{clean, leaked}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{clean, clean}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{trial(e7b::one_worker_kill, 0)}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: dropping the snapshots_before_fault check makes the before-the-first-commit case refuted, not inconclusive.
TEST_CASE("e7b: the after-commit rule judges only kills that came after the table's first snapshot", "[e7b]") {
    const std::string id = "e7b.kill-after-first-commit-exact";
    auto after = trial(e7b::coordinator_kill_after_commit, 1000);
    after.snapshots_before_fault = 2;
    auto lost = trial(e7b::coordinator_kill_after_commit, 400, 0, 600);
    lost.snapshots_before_fault = 1;
    auto too_soon = trial(e7b::coordinator_kill_after_commit, 0, 0, 1000);  // the kill came before any snapshot
    CHECK(judge(id, {{after, after}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{after, lost}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{too_soon}, "", {}}) == verdict_kind::inconclusive);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000)}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: counting trials that landed (not only stalled ones) makes the held case refuted by the landed trial's lag.
TEST_CASE(
    "e7b: a stalled trial with its source offsets at the log end holds the offsets rule, and one with lag left refutes it",
    "[e7b]") {
    const std::string id = "e7b.stalled-sink-committed-its-offsets";
    auto stalled_at_end = trial(e7b::coordinator_kill, 0, 0, 1000);
    stalled_at_end.source_lag_at_window_end = 0;
    auto stalled_lagging = trial(e7b::one_worker_kill, 300, 0, 700);
    stalled_lagging.source_lag_at_window_end = 700;
    auto landed_lagging = trial(e7b::zombie_pause, 1000);  // landed: not judged, whatever its lag read
    landed_lagging.source_lag_at_window_end = 5;
    CHECK(judge(id, {{stalled_at_end, landed_lagging}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{stalled_at_end, stalled_lagging}, "", {}}) == verdict_kind::refuted);
    auto unread = trial(e7b::coordinator_kill, 0, 0, 1000);  // source_lag_at_window_end -1: not read
    CHECK(judge(id, {{unread, landed_lagging}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: dropping the stored-setting check makes the unset case refuted, not inconclusive.
TEST_CASE("e7b: the earliest rule judges only connectors the worker stored with the earliest reset", "[e7b]") {
    auto unset = trial(e7b::coordinator_kill_earliest, 0, 0, 1000);
    unset.control_offset_reset = "";
    CHECK(judge("e7b.earliest-recovers-exactly", {{unset}, "", {}}) == verdict_kind::inconclusive);
    CHECK(judge("e7b.earliest-recovers-exactly", {{trial(e7b::coordinator_kill_earliest, 0, 0, 1000)}, "", {}}) ==
          verdict_kind::refuted);
}
