// Experiment 7b's pure parts: its rules on hand-built trials (each must be
// able to hold, fail and stay undecided), the worker-log counts and the plan.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

using namespace rosterrig;

namespace {
// A trial whose fault applied, `committed` of 1,000 acknowledged records
// committed in the window (all of them: landed), read back exactly unless changed.
e7b::trial trial(const char* cell, std::int64_t committed, std::uint64_t duplicates = 0, std::uint64_t missing = 0) {
    e7b::trial t;
    t.cell = cell, t.index = 1, t.target_pid = 42, t.acknowledged = 1000;
    t.final_state = "RUNNING";  // recorded to its end
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
    for (const auto& r : e7b::hypotheses())
        if (r.id == id) return r.judge(s, e7b::parameters::full()).verdict;
    FAIL("no rule " << id);
    return verdict_kind::inconclusive;
}
// A trial that lost `missing` of its 1,000 records, with `snapshots` snapshots before its fault.
e7b::trial lossy_trial(const char* cell, std::uint64_t missing, std::int64_t snapshots = 0) {
    auto t = trial(cell, 1000 - static_cast<std::int64_t>(missing), 0, missing);
    t.snapshots_before_fault = snapshots, t.source_lag_at_window_end = 0;
    return t;
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

// A full run goes on over several sittings; --analyze on its history judges it
// before coordinator-kill has run all its trials. Mutation: drop
// held_by_any_trial from in_some_trial and the unfinished run refutes "leaves
// two coordinators" on one trial (as it did on the 12-cell run's history).
TEST_CASE("e7b: an unfinished run refutes no in-some-trial prediction, and holds one on the trial that shows it",
          "[e7b]") {
    auto one = trial(e7b::coordinator_kill, 0);
    one.coordinators_started = 3, one.coordinators_stopped = 2;
    auto two = one;
    two.coordinators_stopped = 1;
    const std::vector<result::prediction> ps{{"e7b.coordinator-kill-leaves-two-coordinators", "t", "m"},
                                             {"e7b.worker-leave-exact", "t", "m"}};
    auto leave = trial(e7b::worker_leave, 1000, 0, 4);
    const e7b::samples so_far{{one, leave}, "", {}};
    const auto partial = experiment::judge(so_far, e7b::parameters::full(), ps, e7b::rules(), false);
    CHECK(partial.at(0).verdict == verdict_kind::inconclusive);
    CHECK(partial.at(1).verdict == verdict_kind::refuted);  // a loss refutes "every trial exact" for good
    const e7b::samples showing{{one, two}, "", {}};
    CHECK(experiment::judge(showing, e7b::parameters::full(), ps, e7b::rules(), false).at(0).verdict ==
          verdict_kind::held);
    // The same trials, the run complete: none showing it refutes.
    CHECK(experiment::judge(so_far, e7b::parameters::full(), ps, e7b::rules()).at(0).verdict == verdict_kind::refuted);
}

// A full run stopped by SIGINT mid-trial leaves that trial recorded halfway:
// nothing committed, nothing read back. Mutation: judge the samples as
// written in rules() (no drop_unfinished) and the halfway trial holds "the
// kill stalls commits" (as --analyze on the 12-cell run's history once did).
TEST_CASE("e7b: a trial recorded only halfway judges no prediction", "[e7b]") {
    auto halfway = trial(e7b::coordinator_kill, 0);
    halfway.final_state.clear();
    const std::string id = "e7b.coordinator-kill-stalls-commits";
    CHECK(judge(id, {{halfway}, "", {}}) == verdict_kind::inconclusive);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000), halfway}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 0), halfway}, "", {}}) == verdict_kind::held);
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
        CHECK(s.kind == e7b::kind_of(s.variant));
    }
    CHECK(plan == e7b::fault_plan(p));
    auto bad = p;
    bad.cells = {"nope"};
    CHECK(e7b::usage_problem(bad, 0).has_value());
    CHECK_FALSE(e7b::usage_problem(p, 0).has_value());
}

// Mutation: give worker-leave the kill (kind_of) and its kind check fails.
TEST_CASE(
    "e7b: the added cells pause the coordinator's worker, stop the other, start a second, and kill with four tasks",
    "[e7b]") {
    using experiment::fault_kind;
    CHECK(e7b::kind_of(e7b::coordinator_pause) == fault_kind::pause);
    CHECK(e7b::kind_of(e7b::zombie_pause) == fault_kind::pause);
    CHECK(e7b::kind_of(e7b::worker_leave) == fault_kind::stop);
    CHECK(e7b::kind_of(e7b::worker_join) == fault_kind::start);
    CHECK(e7b::kind_of(e7b::tasks_4) == fault_kind::kill);
    // Mutation: leave config-update to the default SIGKILL (kind_of) and this fails.
    CHECK(e7b::kind_of(e7b::config_update) == fault_kind::reconfigure);
    CHECK(e7b::workers_of(e7b::config_update) == 1);
    CHECK(e7b::kind_of(e7b::task_restart) == fault_kind::restart_task);
    CHECK(e7b::workers_of(e7b::task_restart) == 1);
    const auto p = e7b::parameters::full();
    for (const auto& s : e7b::fault_plan(p).steps) {
        if (s.variant == e7b::worker_leave)
            CHECK(s.heal == experiment::heal_of(fault_kind::stop, experiment::fault_target::connect_worker));
        if (s.variant == e7b::worker_join) CHECK(s.heal.rfind("none: ", 0) == 0);
    }
    // Whom the fault hits, from the worker whose log elected the coordinator.
    // Mutation: target the coordinator's worker in worker-leave and the second line fails.
    CHECK(e7b::target_worker_of(e7b::coordinator_pause, 2) == 2);
    CHECK(e7b::target_worker_of(e7b::worker_leave, 2) == 1);
    CHECK(e7b::target_worker_of(e7b::zombie_pause, 1) == 2);
    CHECK(e7b::target_worker_of(e7b::worker_join, 1) == 2);
    CHECK(e7b::target_worker_of(e7b::tasks_4, 1) == 1);
    // The workers at the connector's start and after the heal; tasks.max per cell.
    CHECK(e7b::workers_of(e7b::worker_join) == 1);
    CHECK(e7b::workers_after_heal(e7b::worker_join) == 2);
    CHECK(e7b::workers_of(e7b::worker_leave) == 2);
    CHECK(e7b::tasks_of(p, e7b::tasks_4) == 4);
    CHECK(e7b::tasks_of(p, e7b::coordinator_kill) == p.tasks);
    CHECK(e7b::pipeline_of(p, e7b::tasks_4).parallelism == 4);
    auto few = p;
    few.partitions = 2;
    CHECK(e7b::usage_problem(few, 0).has_value());  // four tasks need four partitions
    few.cells = {e7b::coordinator_kill};
    CHECK_FALSE(e7b::usage_problem(few, 0).has_value());
}

// Mutation: seed each cell by its place in p.cells (as before the added cells)
// and the lone cell draws other delays: the first check fails.
TEST_CASE("e7b: a cell run alone draws the delays it draws in the full run, and the quick run's plan is unchanged",
          "[e7b]") {
    const auto full = e7b::fault_plan(e7b::parameters::full());
    for (const auto& cell : {e7b::worker_join, e7b::coordinator_pause}) {
        auto one = e7b::parameters::full();
        one.cells = {cell};
        CHECK(e7b::fault_plan(one).steps == full.of(cell));
    }
    // The quick run: one coordinator-kill, the first cell, as every quick run before drew it.
    const auto quick = e7b::parameters::quick_run();
    REQUIRE(quick.cells == std::vector<std::string>{e7b::coordinator_kill});
    experiment::schedule_spec spec;
    spec.variants = {e7b::coordinator_kill};
    spec.count = quick.trials;
    spec.kinds = {experiment::fault_kind::kill};
    spec.targets = {experiment::fault_target::connect_worker};
    spec.min_delay_ms = quick.fault_delay_min_ms, spec.max_delay_ms = quick.fault_delay_max_ms;
    spec.trigger = "the feed's start";
    CHECK(e7b::fault_plan(quick).steps == experiment::plan_faults((quick.seed ^ 0x653762u) + 0, spec).plan().steps);
}

// Mutation: read the first election's stamp (find, not rfind) and last_elected_worker says worker 2.
TEST_CASE("e7b: the last coordinator election is found by its line's timestamp across the workers' logs", "[e7b]") {
    const std::string w1 =
        "[2026-12-05 10:00:01,000] INFO Task elected leader, starting commit coordinator (x)\n"
        "[2026-12-05 10:00:09,500] INFO Task elected leader, starting commit coordinator (x)\n"
        "[2026-12-05 10:00:10,000] INFO Commit 4 initiated (org.apache.iceberg.connect.channel.Coordinator)\n";
    const std::string w2 = "[2026-12-05 10:00:05,000] INFO Task elected leader, starting commit coordinator (x)\n";
    CHECK(e7b::last_election_stamp(w1) == "2026-12-05 10:00:09,500");
    CHECK(e7b::last_election_stamp("") == "");
    CHECK(e7b::last_election_stamp("no bracket Task elected leader, starting commit coordinator") == "");
    CHECK(e7b::last_elected_worker({w1, w2}) == 1);
    CHECK(e7b::last_elected_worker({"", w2}) == 2);
    CHECK(e7b::last_elected_worker({"", ""}) == 0);
    CHECK(e7b::electing_workers({"", w2}) == std::vector<std::int64_t>{2});
    CHECK(e7b::electing_workers({w1, w2}) == std::vector<std::int64_t>{1, 2});
}

// Mutation: keep the first generation found (not the highest) and the check for 7 fails.
TEST_CASE("e7b: the group's generation is the highest the workers logged joining at", "[e7b]") {
    const std::string w1 =
        "[2026-12-05 04:27:45,292] INFO [Worker clientId=connect-127.0.0.1:28084, groupId=rosterrig-connect] Joined "
        "group at generation 5 with protocol version 2 and got assignment: Assignment{error=0} with rebalance delay: 0 "
        "(org.apache.kafka.connect.runtime.distributed.DistributedHerder)\n"
        "[2026-12-05 04:27:50,000] INFO [Worker clientId=connect-127.0.0.1:28084, groupId=rosterrig-connect] Joined "
        "group at generation 7 with protocol version 2 (x)\n";
    const std::string w2 =
        "[2026-12-05 04:27:49,000] INFO [Worker ...] Joined group at generation 6 with protocol (x)\n";
    CHECK(e7b::latest_group_generation({w1, w2}) == 7);
    CHECK(e7b::latest_group_generation({w2}) == 6);
    CHECK_FALSE(e7b::latest_group_generation({"", "nothing joined"}).has_value());
}

// Mutation: drop the check for the other worker (hold whenever any election was logged) and the
// trial where only the paused worker elected holds instead of refuting.
TEST_CASE("e7b: coordinator-pause's premise needs the worker not paused to elect a coordinator during the pause",
          "[e7b]") {
    const std::string id = "e7b.coordinator-pause-moves-coordinator";
    auto moved = trial(e7b::coordinator_pause, 1000);
    moved.coordinator_worker = 1, moved.target_worker = 1, moved.elected_during_fault = std::vector<std::int64_t>{2};
    auto stayed = moved;
    stayed.elected_during_fault = std::vector<std::int64_t>{1};
    CHECK(judge(id, {{moved}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{moved, stayed}, "", {}}) == verdict_kind::refuted);
    auto unrecorded = moved;
    unrecorded.elected_during_fault.reset();
    CHECK(judge(id, {{unrecorded}, "", {}}) == verdict_kind::inconclusive);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000)}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: judge the pause's stall over coordinator-kill's trials (the cell constant) and the
// refuted case holds (the coordinator-kill trial stalled).
TEST_CASE(
    "e7b: coordinator-pause stalls when one of its trials is short at the window's end, and shows two coordinators by the broker's samples",
    "[e7b]") {
    const std::string stall = "e7b.coordinator-pause-stalls-commits";
    CHECK(judge(stall, {{trial(e7b::coordinator_pause, 1000), trial(e7b::coordinator_pause, 300)}, "", {}}) ==
          verdict_kind::held);
    CHECK(judge(stall, {{trial(e7b::coordinator_pause, 1000), trial(e7b::coordinator_kill, 0)}, "", {}}) ==
          verdict_kind::refuted);
    CHECK(judge(stall, {{trial(e7b::zombie_pause, 0)}, "", {}}) == verdict_kind::inconclusive);
    // Mutation: read coord_group_max_members >= 1 (one coordinator) as two and the refuted case holds.
    const std::string two = "e7b.coordinator-pause-two-coordinators";
    auto one_member = trial(e7b::coordinator_pause, 1000);
    one_member.coord_group_samples = 30, one_member.coord_group_max_members = 1;
    auto two_members = one_member;
    two_members.coord_group_max_members = 2, two_members.coord_group_samples_with_two = 4;
    CHECK(judge(two, {{one_member, two_members}, "", {}}) == verdict_kind::held);
    CHECK(judge(two, {{one_member}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(two, {{}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: drop the tasks.max == 4 filter and the trial stored with 2 tasks that stalled makes
// the refuted case hold.
TEST_CASE("e7b: the tasks-4 stall counts only connectors the worker stored with tasks.max 4", "[e7b]") {
    const std::string id = "e7b.tasks-4-kill-stalls-commits";
    auto four_landed = trial(e7b::tasks_4, 1000);
    four_landed.tasks_max = 4;
    auto four_stalled = trial(e7b::tasks_4, 0, 0, 1000);
    four_stalled.tasks_max = 4;
    auto two_stalled = trial(e7b::tasks_4, 0, 0, 1000);
    two_stalled.tasks_max = 2;
    CHECK(judge(id, {{four_landed, four_stalled}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{four_landed, two_stalled}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{two_stalled}, "", {}}) == verdict_kind::inconclusive);
    auto unrecorded = four_stalled;
    unrecorded.tasks_max.reset();
    CHECK(judge(id, {{unrecorded}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: leave out no_join (judge every worker-join trial) and the one-worker trial refutes
// instead of staying undecided.
TEST_CASE(
    "e7b: worker-leave and worker-join must commit within the window and read back exactly, a join only once two workers answer",
    "[e7b]") {
    const std::string leave = "e7b.worker-leave-exact";
    CHECK(judge(leave, {{trial(e7b::worker_leave, 1000)}, "", {}}) == verdict_kind::held);
    CHECK(judge(leave, {{trial(e7b::worker_leave, 1000), trial(e7b::worker_leave, 800, 0, 200)}, "", {}}) ==
          verdict_kind::refuted);
    CHECK(judge(leave, {{trial(e7b::worker_leave, 1000, 5)}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(leave, {{trial(e7b::worker_join, 1000)}, "", {}}) == verdict_kind::inconclusive);
    const std::string join = "e7b.worker-join-exact";
    auto joined = trial(e7b::worker_join, 1000);
    joined.workers_at_window_end = 2;
    auto lost = trial(e7b::worker_join, 0, 0, 1000);
    lost.workers_at_window_end = 2;
    auto alone = lost;
    alone.workers_at_window_end = 1;
    CHECK(judge(join, {{joined}, "", {}}) == verdict_kind::held);
    CHECK(judge(join, {{joined, lost}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(join, {{alone}, "", {}}) == verdict_kind::inconclusive);
    CHECK(judge(join, {{trial(e7b::worker_join, 1000)}, "", {}}) == verdict_kind::inconclusive);  // not recorded
}

// Mutation: judge config-update's loss by records_at_window_end (short before the restart) instead
// of missing_seq (the final read-back) and the refuted case holds.
TEST_CASE(
    "e7b: a config update shows two coordinators when the worker logged two left running, and loses records only by the final read-back",
    "[e7b]") {
    const std::string two = "e7b.config-update-two-coordinators";
    auto one = trial(e7b::config_update, 1000);
    one.coordinators_started = 2, one.coordinators_stopped = 1;
    auto zombie = one;
    zombie.coordinators_started = 3;
    CHECK(judge(two, {{one, zombie}, "", {}}) == verdict_kind::held);
    CHECK(judge(two, {{one}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(two, {{trial(e7b::worker_join, 1000)}, "", {}}) == verdict_kind::inconclusive);
    const std::string lost = "e7b.config-update-loses-records";
    auto recovered = trial(e7b::config_update, 0);  // short at the window's end, whole after the restart
    CHECK(judge(lost, {{trial(e7b::config_update, 1000), recovered}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(lost, {{recovered, trial(e7b::config_update, 0, 0, 1000)}, "", {}}) == verdict_kind::held);
    auto not_applied = trial(e7b::config_update, 0, 0, 1000);
    not_applied.target_pid = 0;
    CHECK(judge(lost, {{not_applied}, "", {}}) == verdict_kind::inconclusive);
    // The task restart's two rules judge its own cell, not config-update's.
    // Mutation: judge task-restart's rules over config_update and the held case refutes.
    auto restarted = zombie;
    restarted.cell = e7b::task_restart;
    CHECK(judge("e7b.task-restart-two-coordinators", {{one, restarted}, "", {}}) == verdict_kind::held);
    CHECK(judge("e7b.task-restart-loses-records", {{zombie}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: count every task-restart-in-commit trial, aimed or not (drop the erase_if), and the
// unaimed trial's loss makes the refuted case hold.
TEST_CASE("e7b: the restart aimed inside a commit round is judged only on trials whose restart followed a round",
          "[e7b]") {
    using experiment::fault_kind;
    CHECK(e7b::kind_of(e7b::task_restart_in_commit) == fault_kind::restart_task);
    CHECK(e7b::aimed_at_commit_round(e7b::task_restart_in_commit));
    CHECK_FALSE(e7b::aimed_at_commit_round(e7b::task_restart));
    const std::string id = "e7b.task-restart-in-commit-loses-records";
    auto aimed_whole = trial(e7b::task_restart_in_commit, 1000);
    aimed_whole.aimed_in_commit = true;
    auto aimed_short = trial(e7b::task_restart_in_commit, 0, 0, 600);
    aimed_short.aimed_in_commit = true;
    auto unaimed_short = aimed_short;
    unaimed_short.aimed_in_commit = false;
    CHECK(judge(id, {{aimed_whole, aimed_short}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{aimed_whole, unaimed_short}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{unaimed_short}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: render the movements table whatever the trials recorded and the first check fails
// (the shipped README section would change).
TEST_CASE("e7b: the report shows where the coordinator went only for trials that recorded it", "[e7b]") {
    const auto p = e7b::parameters::full();
    const result::result_envelope env;
    e7b::samples old{{trial(e7b::coordinator_kill, 1000)}, "4.3.1", {}};
    const auto before = e7b::report_section(env, old, p);
    CHECK(before.find("Where the coordinator and the group went") == std::string::npos);
    CHECK(before.find("tasks.max as the worker stored it") == std::string::npos);
    auto t = trial(e7b::coordinator_pause, 1000);
    t.coordinator_worker = 1, t.target_worker = 1, t.tasks_max = 2,
    t.elected_during_fault = std::vector<std::int64_t>{2};
    t.coordinator_worker_after = 2, t.group_generation_before_fault = 5, t.group_generation_at_window_end = 8;
    t.workers = 2, t.workers_at_window_end = 2, t.fault_at_ms = 1000, t.healed_at_ms = 21000;
    e7b::samples now{{trial(e7b::coordinator_kill, 1000), t}, "4.3.1", {}};
    const auto after = e7b::report_section(env, now, p);
    CHECK(after.find("Where the coordinator and the group went") != std::string::npos);
    CHECK(
        after.find(
            "| coordinator-pause | 1 | 2 (0) | 2 / 2 | worker 1: pause, 20.0 s | worker 1 → worker 2 | 2 | 5 → 8 |") !=
        std::string::npos);
    CHECK(after.find("tasks.max as the worker stored it: 2 (coordinator-pause).") != std::string::npos);
    CHECK(after.find("coordinator-pause: the coordinator's worker SIGSTOPped for 20 s, then SIGCONT.") !=
          std::string::npos);
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

// Mutation: `recorded` not asking finished() (a trial recorded halfway kept
// as done): the stopped trial is not run again and this fails.
TEST_CASE("a resumed e7b run keeps the trials recorded to their end and runs again the one stopped halfway", "[e7b]") {
    e7b::samples s;
    for (std::uint64_t i = 1; i <= 3; ++i) {
        auto t = e7b::planned_trial({i, e7b::worker_join, experiment::fault_kind::start, "", 1000, ""});
        if (i < 3) t.final_state = "RUNNING";  // the third was stopped after its fault
        s.trials.push_back(t);
    }
    const experiment::fault_step second{2, e7b::worker_join, experiment::fault_kind::start, "", 1000, ""};
    const experiment::fault_step third{3, e7b::worker_join, experiment::fault_kind::start, "", 1000, ""};
    const experiment::fault_step other_cell{2, e7b::worker_leave, experiment::fault_kind::stop, "", 1000, ""};
    CHECK(e7b::recorded(s, second));
    CHECK_FALSE(e7b::recorded(s, third));
    CHECK_FALSE(e7b::recorded(s, other_cell));
    CHECK(e7b::drop_unfinished(s) == 1);
    CHECK(s.trials.size() == 2);
    CHECK(e7b::drop_unfinished(s) == 0);
}

// docs/E7B_HYPOTHESES.md, hypothesis 1. Mutations: hypothesis_trials keeping
// the cells the hypotheses were read from makes the worker-leave case refuted;
// keeping unfinished trials makes the halfway case refuted; every_lossy_trial
// judging every trial (not only lossy ones) makes the first case refuted.
TEST_CASE(
    "e7b hypothesis 1 is refuted by one lossy trial with a snapshot before its fault, in a cell it was not read from",
    "[e7b]") {
    const std::string id = "e7b.hypothesis.loss-needs-a-table-without-a-snapshot";
    auto exact_after_snapshot = trial(e7b::coordinator_kill_after_commit, 1000);
    exact_after_snapshot.snapshots_before_fault = 3;
    CHECK(judge(id, {{lossy_trial(e7b::coordinator_kill, 1000, 0), exact_after_snapshot}, "", {}}) ==
          verdict_kind::held);
    CHECK(judge(id,
                {{lossy_trial(e7b::coordinator_kill, 1000, 0), lossy_trial(e7b::coordinator_kill_after_commit, 20, 1)},
                 "",
                 {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{lossy_trial(e7b::coordinator_kill, 1000, 0), lossy_trial(e7b::worker_leave, 20, 1)}, "", {}}) ==
          verdict_kind::held);
    auto halfway = lossy_trial(e7b::zombie_pause, 20, 1);
    halfway.final_state = "";
    CHECK(judge(id, {{lossy_trial(e7b::coordinator_kill, 1000, 0), halfway}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{exact_after_snapshot}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: every_lossy_trial judging every lossy trial on a refutation (not
// only the refuting ones) makes the reason begin with the trial that agrees.
TEST_CASE("a refuted e7b hypothesis names the lossy trials that refute it and only counts those that agree", "[e7b]") {
    const std::string id = "e7b.hypothesis.loss-needs-a-table-without-a-snapshot";
    e7b::samples s{
        {lossy_trial(e7b::coordinator_kill, 1000, 0), lossy_trial(e7b::coordinator_kill_after_commit, 20, 1)}, "", {}};
    s.trials.back().index = 7;
    const auto hypotheses = e7b::hypotheses();
    const auto it = std::find_if(hypotheses.begin(), hypotheses.end(), [&](const auto& r) { return r.id == id; });
    REQUIRE(it != hypotheses.end());
    const auto v = it->judge(s, e7b::parameters::full());
    CHECK(v.verdict == verdict_kind::refuted);
    INFO(v.reason);
    CHECK(v.reason.rfind(std::string(e7b::coordinator_kill_after_commit) + " #7: ", 0) == 0);
    CHECK(v.reason.find(std::string(e7b::coordinator_kill) + " #1") == std::string::npos);
    CHECK(v.reason.find("1 other lossy trial(s) not named") != std::string::npos);
}

// Hypothesis 2. Mutation: dropping the snapshots filter makes the
// after-a-snapshot case held.
TEST_CASE("e7b hypothesis 2 holds on one coordinator kill before the first snapshot that lost records", "[e7b]") {
    const std::string id = "e7b.hypothesis.coordinator-kill-before-first-snapshot-can-lose";
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000), lossy_trial(e7b::coordinator_kill, 1000, 0)}, "", {}}) ==
          verdict_kind::held);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000)}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000), lossy_trial(e7b::coordinator_kill, 1000, 2)}, "", {}}) ==
          verdict_kind::refuted);
    CHECK(judge(id, {{lossy_trial(e7b::coordinator_kill, 1000, 2)}, "", {}}) == verdict_kind::inconclusive);
}

// Hypothesis 3. Mutation: judging landed_exactly (the committed prediction's
// measure) instead of the final read-back makes the restarted case refuted.
TEST_CASE(
    "e7b hypothesis 3 is refuted by one earliest-reset trial missing seqs after its restart, and judges only "
    "connectors stored with that reset",
    "[e7b]") {
    const std::string id = "e7b.hypothesis.earliest-reset-closes-it";
    auto restarted = trial(e7b::coordinator_kill_earliest, 0);             // short at the window's end...
    restarted.restarted = true, restarted.landed_after_restart_ms = 9000;  // ...all landed after the restart
    CHECK(judge(id, {{restarted, trial(e7b::coordinator_kill_earliest, 1000)}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{restarted, lossy_trial(e7b::coordinator_kill_earliest, 5)}, "", {}}) == verdict_kind::refuted);
    auto latest = lossy_trial(e7b::coordinator_kill_earliest, 5);
    latest.control_offset_reset = "latest";
    CHECK(judge(id, {{latest}, "", {}}) == verdict_kind::inconclusive);
}

// Hypothesis 4. Mutation: dropping the unread-lag check (-1 judged as a
// lag) makes the unread case refuted, not inconclusive.
TEST_CASE("e7b hypothesis 4 is refuted by one lossy trial whose sink still had lag at the window's end", "[e7b]") {
    const std::string id = "e7b.hypothesis.loss-silent-to-lag";
    auto lagging = lossy_trial(e7b::zombie_pause, 300);
    lagging.source_lag_at_window_end = 300;
    auto unread = lossy_trial(e7b::zombie_pause, 300);
    unread.source_lag_at_window_end = -1;
    CHECK(judge(id, {{lossy_trial(e7b::coordinator_kill, 1000)}, "", {}}) == verdict_kind::held);
    CHECK(judge(id, {{lossy_trial(e7b::coordinator_kill, 1000), lagging}, "", {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{lossy_trial(e7b::coordinator_kill, 1000), unread}, "", {}}) == verdict_kind::inconclusive);
    CHECK(judge(id, {{trial(e7b::coordinator_kill, 1000)}, "", {}}) == verdict_kind::inconclusive);
}

// Mutation: judge_hypotheses judging as if every run completed makes the
// unfinished case held (hypothesis 1 is an every-lossy-trial rule: one more
// trial can refute it).
TEST_CASE(
    "e7b's hypotheses are judged beside its predictions, never among them, and an unfinished run gives only "
    "their lasting verdicts",
    "[e7b]") {
    experiment::history<e7b::definition> h;
    h.parameters = e7b::parameters::full();
    h.samples.trials = {lossy_trial(e7b::coordinator_kill, 1000, 0)};
    h.samples.predictions = experiment::unjudged({{"e7b.coordinator-kill-stalls-commits", "t", "m"}});
    const auto predictions = experiment::rejudge(h);
    REQUIRE(predictions.size() == 1);
    CHECK(predictions.front().verdict == verdict_kind::held);
    const auto hypotheses = experiment::judge_hypotheses(h);
    REQUIRE(hypotheses.size() == 4);
    CHECK(hypotheses.at(0).id == "e7b.hypothesis.loss-needs-a-table-without-a-snapshot");
    CHECK(hypotheses.at(0).verdict == verdict_kind::held);
    CHECK(hypotheses.at(1).verdict == verdict_kind::held);  // in-some-trial: lasting once held
    h.envelope.status = result::run_status::running;        // a history whose run is under way, or was stopped
    CHECK(experiment::judge_hypotheses(h).at(0).verdict == verdict_kind::inconclusive);
    CHECK(experiment::judge_hypotheses(h).at(1).verdict == verdict_kind::held);
}

// Mutation: hypotheses_table without its test for the cells the hypotheses
// were read from: the run from before them shows the table and this fails.
TEST_CASE("the e7b report judges the hypotheses only on a run that has the cells they were read from", "[e7b]") {
    const result::result_envelope env;
    const e7b::samples before{{lossy_trial(e7b::coordinator_kill, 1000, 0)}, "", {}};
    CHECK(e7b::hypotheses_table(env, before, e7b::parameters::full()).empty());
    const e7b::samples with{
        {lossy_trial(e7b::coordinator_kill, 1000, 0), trial(e7b::task_restart_in_commit, 1000)}, "", {}};
    const auto table = e7b::hypotheses_table(env, with, e7b::parameters::full());
    CHECK(table.find("| Hypothesis | Verdict | Why |") != std::string::npos);
    CHECK(table.find("`e7b.hypothesis.loss-needs-a-table-without-a-snapshot` | held") != std::string::npos);
}

// Mutation: every_lossy_trial returning judge_trials on a hold (each trial
// named) makes the reason name coordinator-kill #1.
TEST_CASE("a held e7b hypothesis counts the lossy trials that agree instead of naming each", "[e7b]") {
    const std::string id = "e7b.hypothesis.loss-silent-to-lag";
    const auto hypotheses = e7b::hypotheses();
    const auto it = std::find_if(hypotheses.begin(), hypotheses.end(), [&](const auto& r) { return r.id == id; });
    REQUIRE(it != hypotheses.end());
    const auto v =
        it->judge({{lossy_trial(e7b::coordinator_kill, 1000), lossy_trial(e7b::one_worker_kill, 20, 1)}, "", {}},
                  e7b::parameters::full());
    CHECK(v.verdict == verdict_kind::held);
    CHECK(v.reason == "all 2 trials that missed acknowledged seqs: source lag 0 at the window's end");
}

// Mutation: counting every lossy trial as lost whole makes the row read "2 (2)".
TEST_CASE(
    "the e7b per-cell summary counts the trials that landed, landed only after the restart, and lost records, with "
    "what the lossy ones had",
    "[e7b]") {
    auto after_restart = trial(e7b::coordinator_kill, 0);
    after_restart.restarted = true, after_restart.landed_after_restart_ms = 9000;
    const e7b::samples s{{trial(e7b::coordinator_kill, 1000), after_restart, lossy_trial(e7b::coordinator_kill, 1000),
                          lossy_trial(e7b::coordinator_kill, 5, 1)},
                         "",
                         {}};
    auto p = e7b::parameters::full();
    p.cells = {e7b::coordinator_kill};
    const auto table = e7b::cells_summary_table(s, p);
    INFO(table);
    CHECK(table.find("| coordinator-kill | 4 | 1 (30.0–30.0) | 1 | 2 (1) | 1 | 2 | 0 (0) | 0 |") != std::string::npos);
}
