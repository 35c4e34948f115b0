// Experiment 5's rules on hand-built samples: which runs each prediction
// judges, and that a rule bites on the one fact it is about.
#include <catch2/catch.hpp>

#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>

#include <map>

using namespace rosterrig;

namespace {
e5::txn_run run_with(std::int64_t interval, std::int64_t timeout, std::uint64_t committed, bool aborts) {
    e5::txn_run r;
    r.part = "boundary";
    r.name = std::to_string(timeout) + "/" + std::to_string(interval);
    r.interval_ms = interval, r.requested_timeout_ms = timeout, r.registered_timeout_ms = timeout;
    r.events = 100;
    r.committed.distinct_seq = committed;
    if (committed < 100) r.committed.missing_runs.push_back({committed + 1, 100});
    r.uncommitted.distinct_seq = 100;
    r.signals.state = "RUNNING";
    r.states.push_back({0, "tx-0-1", "Ongoing"});
    if (aborts) r.states.push_back({3000, "tx-0-1", "CompleteAbort"});
    return r;
}
}  // namespace

TEST_CASE(
    "the full plan repeats the pair three times, runs the seed's condition three times, each boundary ratio three times and half the interval five",
    "[e5]") {
    const auto p = e5::parameters::full();
    const auto runs = e5::runs_of(p);
    std::map<std::string, std::size_t> per_cell;
    for (const auto& r : runs) ++per_cell[e5::cell_of(r.name)];
    CHECK(per_cell.at("pair: 5 s timeout, 120 s interval") == 3);
    CHECK(per_cell.at("pair: 300 s timeout, 120 s interval") == 3);
    CHECK(per_cell.at("seed condition: 5 s timeout, 120 s interval, feed at once") == 3);
    CHECK(per_cell.at("boundary x0.5") == 5);
    for (const char* c : {"boundary x0.9", "boundary x1.1", "boundary x1.5", "boundary x3.0"})
        CHECK(per_cell.at(c) == 3);
    CHECK(runs.size() == 6 + 3 + 5 + 4 * 3);
    // Only the seed's condition writes its feed at once.
    for (const auto& r : runs) CHECK((e5::feed_rate_of(r, p) == 0.0) == (r.part == "seed-condition"));
    CHECK(runs.back().timeout_ms == 10000);  // the last two repeats are half the interval's: 0.5 x 20 s
}

TEST_CASE("a plan without repeat counts, as older results record it, runs the pair once and no seed condition",
          "[e5]") {
    auto p = e5::parameters::full();
    p.pair_repeats.reset(), p.seed_condition_repeats.reset(), p.half_ratio_repeats.reset();
    p.boundary_repeats = 2;
    const auto runs = e5::runs_of(p);
    CHECK(runs.size() == p.pair_timeouts_ms.size() + p.boundary_ratios.size() * 2);
    CHECK(runs.front().name == "pair: 5 s timeout, 120 s interval");
}

TEST_CASE("the first abort is bounded by the sample that showed it and the sample before", "[e5]") {
    std::vector<e5::transaction_state> xs{{100, "a", "Empty"},
                                          {2500, "a", "Ongoing"},
                                          {2500, "b", "Ongoing"},
                                          {6100, "a", "CompleteAbort"},
                                          {9000, "b", "PrepareAbort"}};
    const auto w = e5::first_abort(xs);
    REQUIRE(w);
    CHECK(w->after_ms == 2500);
    CHECK(w->by_ms == 6100);
    xs.erase(xs.begin() + 3, xs.end());
    CHECK_FALSE(e5::first_abort(xs));
}

TEST_CASE("the seed's condition is judged only when the feed was over before the abort's earliest moment",
          "[e5][verdict]") {
    e5::samples s;
    auto r = run_with(120000, 5000, 0, true);  // Ongoing at 0, CompleteAbort at 3000
    r.part = "seed-condition";
    r.feed_done_ms = 0;
    s.runs.push_back(r);
    CHECK(e5::seed_condition_is_silent(s).verdict == verdict_kind::held);
    // Mutation: the feed is acknowledged between the last quiet sample and
    // the abort: the abort may have come first, so it is not the seed's condition.
    s.runs[0].feed_done_ms = 1000;
    CHECK(e5::seed_condition_is_silent(s).verdict == verdict_kind::inconclusive);
    s.runs[0].feed_done_ms = 0;
    // An exception in the job's history refutes "silent".
    s.runs[0].signals.exceptions = 1;
    CHECK(e5::seed_condition_is_silent(s).verdict == verdict_kind::refuted);
    // The seed's condition is not the failover prediction's case.
    CHECK(e5::far_under_interval_job_fails_over(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("the spread of a cell's repeats counts how often a reader got everything and how often nothing", "[e5]") {
    std::vector<e5::txn_run> runs{run_with(20000, 10000, 0, true), run_with(20000, 10000, 100, true),
                                  run_with(20000, 10000, 40, true)};
    for (auto& r : runs) r.name = "boundary x0.5 #" + std::to_string(&r - runs.data() + 1);
    runs[1].committed.missing_runs.clear();
    runs[2].signals.exceptions = 2;
    const auto cells = e5::spread_by_cell<e5::txn_run>(runs, [](const e5::txn_run& r) { return e5::cell_of(r.name); });
    REQUIRE(cells.size() == 1);
    CHECK(cells[0].cell == "boundary x0.5");
    CHECK(cells[0].runs == 3);
    CHECK(cells[0].committed == stats::summary{0, 40, 100, 3});
    CHECK(cells[0].all_once == 1);
    CHECK(cells[0].none == 1);
    CHECK(cells[0].with_exceptions == 1);
}

TEST_CASE("a reader that saw records at read_committed refutes the far-under prediction", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 10000, 0, true));
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::held);
    // Mutation: count the output at read_uncommitted (what every record written
    // shows) in place of read_committed, and the prediction is refuted.
    s.runs[0].committed = s.runs[0].uncommitted;
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::refuted);
}

TEST_CASE("without an abort observed at the broker, lost records are not explained as aborted", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 10000, 0, true));
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::held);
    // Mutation: drop CompleteAbort from the observed states and this is refuted.
    s.runs[0].states.pop_back();
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::refuted);
}

TEST_CASE("each prediction judges only the runs on its side of the interval", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 18000, 90, false));   // 0.9
    s.runs.push_back(run_with(20000, 22000, 100, false));  // 1.1
    s.runs.push_back(run_with(20000, 30000, 100, false));  // 1.5
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::inconclusive);
    CHECK(e5::just_under_interval_loses_records(s).verdict == verdict_kind::held);
    CHECK(e5::just_above_interval_suffices(s).verdict == verdict_kind::held);
    CHECK(e5::above_interval_delivers_once(s).verdict == verdict_kind::held);
    s.runs[2].committed.duplicate_rows = 1;
    CHECK(e5::above_interval_delivers_once(s).verdict == verdict_kind::refuted);
    CHECK(e5::just_above_interval_suffices(s).verdict == verdict_kind::held);
}

TEST_CASE("a registered timeout other than the request refutes the broker prediction", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 30000, 100, false));
    CHECK(e5::broker_registered_the_request(s).verdict == verdict_kind::held);
    s.runs[0].registered_timeout_ms = 60000;
    CHECK(e5::broker_registered_the_request(s).verdict == verdict_kind::refuted);
    s.runs[0].registered_timeout_ms.reset();
    CHECK(e5::broker_registered_the_request(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("the stuck transaction must hide the plain records for most of the rest of its timeout", "[e5][verdict]") {
    e5::samples s;
    e5::stuck_run st;
    st.ending = "kill-then-cancel";
    st.requested_timeout_ms = 30000;
    st.open_for_ms_at_cancel = 5000;
    st.plain_acked_after_cancel_ms = 1000;
    st.open_at_cancel = {"tx-0-1"};
    st.visibility = {{2000, 0}, {20000, 0}, {24000, 100}};
    st.all_visible_after_ms = 24000;
    s.stuck = {st};
    CHECK(e5::stuck_transaction_blocks_readers(s).verdict == verdict_kind::held);
    CHECK(e5::cancel_aborts_its_transaction(s).verdict == verdict_kind::inconclusive);  // judges the other ending only
    // Visible after 2 s: the transaction held nothing back.
    s.stuck[0].visibility = {{2000, 100}};
    s.stuck[0].all_visible_after_ms = 2000;
    CHECK(e5::stuck_transaction_blocks_readers(s).verdict == verdict_kind::refuted);
    s.stuck[0].ending = "cancel";
    CHECK(e5::cancel_aborts_its_transaction(s).verdict == verdict_kind::held);
}

namespace {
e5::restart_run restart_with(const std::string& ending, std::int64_t open_for, std::int64_t to_running, bool lost) {
    e5::restart_run r;
    r.ending = ending;
    r.interval_ms = 20000, r.requested_timeout_ms = 60000;
    r.events = 100;
    r.pending_at_savepoint = {"tx-0-3", "tx-1-3"};
    r.pending_open_for_ms_at_savepoint = open_for, r.savepoint_to_restored_running_ms = to_running;
    r.committed.distinct_seq = lost ? 80 : 100;
    if (lost) r.committed.missing_runs.push_back({41, 60});
    r.uncommitted.distinct_seq = 100;
    r.signals.state = "RUNNING";
    r.signals.log_warnings = lost ? 2 : 0;
    return r;
}
}  // namespace

TEST_CASE("a late restore is judged only when it ran after the pending transaction's timeout", "[e5][verdict]") {
    e5::samples s;
    s.restarts.push_back(restart_with("late", 6000, 95000, true));  // 101 s old against 60 s
    CHECK(e5::restart_late_loses_the_pending_transaction(s).verdict == verdict_kind::held);
    CHECK(e5::restart_late_is_silent_but_for_the_logs(s).verdict == verdict_kind::held);
    // Mutation: the restore ran 50 s after the savepoint, inside the timeout:
    // the kill was not where the prediction needs it, and the rule says so.
    s.restarts[0].savepoint_to_restored_running_ms = 50000;
    CHECK(e5::restart_late_loses_the_pending_transaction(s).verdict == verdict_kind::inconclusive);
    // No pending transaction at the savepoint: nothing to judge either.
    s.restarts[0] = restart_with("late", 6000, 95000, true);
    s.restarts[0].pending_at_savepoint.clear();
    CHECK(e5::restart_late_loses_the_pending_transaction(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("a late restore that delivered everything refutes the restart-term prediction", "[e5][verdict]") {
    e5::samples s;
    s.restarts.push_back(restart_with("late", 6000, 95000, false));
    CHECK(e5::restart_late_loses_the_pending_transaction(s).verdict == verdict_kind::refuted);
    // An exception in the restored job's history refutes "silent".
    s.restarts[0] = restart_with("late", 6000, 95000, true);
    s.restarts[0].signals.exceptions = 1;
    CHECK(e5::restart_late_is_silent_but_for_the_logs(s).verdict == verdict_kind::refuted);
}

TEST_CASE("a prompt restore must deliver every record once, within the timeout", "[e5][verdict]") {
    e5::samples s;
    s.restarts.push_back(restart_with("prompt", 6000, 20000, false));
    CHECK(e5::restart_prompt_delivers_once(s).verdict == verdict_kind::held);
    s.restarts[0] = restart_with("prompt", 6000, 20000, true);
    CHECK(e5::restart_prompt_delivers_once(s).verdict == verdict_kind::refuted);
    s.restarts[0] = restart_with("prompt", 6000, 50000, false);  // 56 s of 60: too close to call
    CHECK(e5::restart_prompt_delivers_once(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("a killed writer's transaction holds back only the partitions it wrote", "[e5][verdict]") {
    e5::samples s;
    e5::stuck_run st;
    st.ending = "kill-then-cancel";
    st.requested_timeout_ms = 30000, st.open_for_ms_at_cancel = 5000, st.plain_acked_after_cancel_ms = 1000;
    st.open_at_cancel = {"tx-0-1"};
    st.partitions = {{0, true, 25, 23500}, {1, false, 25, 1200}, {2, true, 25, 23600}, {3, false, 25, 0}};
    s.stuck.push_back(st);
    CHECK(e5::stuck_transaction_holds_only_its_partitions(s).verdict == verdict_kind::held);
    // Mutation: a partition no open transaction wrote stays hidden as long as the others.
    s.stuck[0].partitions[1].all_visible_after_ms = 23500;
    CHECK(e5::stuck_transaction_holds_only_its_partitions(s).verdict == verdict_kind::refuted);
    // Every partition written by an open transaction: nothing to compare.
    for (auto& p : s.stuck[0].partitions) p.held_by_open_transaction = true, p.all_visible_after_ms = 23500;
    CHECK(e5::stuck_transaction_holds_only_its_partitions(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("a timeout above the broker's maximum is refused for every run but the above-maximum one", "[e5]") {
    auto p = e5::parameters::full();
    CHECK_FALSE(e5::transaction_timeout_problem(p, 900000).has_value());  // Kafka's default maximum, 15 min
    p.pair_timeouts_ms = {5000, 1000000};
    const auto why = e5::transaction_timeout_problem(p, 900000);
    REQUIRE(why.has_value());
    CHECK(why->find("900000") != std::string::npos);
    p = e5::parameters::full();
    p.restart_timeout_ms = 900001;
    CHECK(e5::transaction_timeout_problem(p, 900000).has_value());
}

TEST_CASE("a transaction warning naming another run's id is not counted for this run", "[e5]") {
    const std::string ours = "rr_e5_boundary_3_7_9_tx";
    const std::string zombie =
        "2026-11-30 04:03:53,203 WARN  org.apache.kafka.clients.NetworkClient [] - [Producer "
        "clientId=producer-rr_e5_pair_0_7_9_tx-1-1, transactionalId=rr_e5_pair_0_7_9_tx-1-1] Error "
        "while fetching metadata";
    const std::string mine =
        "2026-11-30 04:00:07,068 ERROR org.apache.flink.connector.kafka.sink.KafkaCommitter [] - Unable "
        "to commit transaction (committable=KafkaCommittable{transactionalId=rr_e5_boundary_3_7_9_tx-0-1})";
    const std::string anonymous = "2026-11-30 04:00:07,068 WARN  x [] - Transaction aborted";
    CHECK(e5::is_transaction_warning(zombie));
    // Mutation: count every transaction warning (is_transaction_warning) and the zombie line is counted.
    CHECK_FALSE(e5::is_transaction_warning_of(zombie, ours));
    CHECK(e5::is_transaction_warning_of(mine, ours));
    CHECK(e5::is_transaction_warning_of(anonymous, ours));
    CHECK_FALSE(e5::is_transaction_warning_of("2026-11-30 04:00:07,068 INFO x [] - Transaction aborted", ours));
}

TEST_CASE("only a partition an open transaction wrote is marked held and each counts its own plain records", "[e5]") {
    const std::map<std::uint64_t, int> plain{{101, 0}, {102, 2}, {103, 2}, {104, 3}};
    const auto parts = e5::partitions_before_wait(4, {2}, plain);
    REQUIRE(parts.size() == 4);
    // Mutation: mark every partition held (held_by_open_transaction = true for all) and this fails.
    CHECK_FALSE(parts[0].held_by_open_transaction);
    CHECK(parts[2].held_by_open_transaction);
    CHECK(parts[0].plain_records == 1);
    CHECK(parts[1].plain_records == 0);
    CHECK(parts[2].plain_records == 2);
    CHECK(parts[3].all_visible_after_ms == -1);
}

TEST_CASE("a partition counts as visible at the first read that shows every plain record written to it", "[e5]") {
    const std::map<std::uint64_t, int> plain{{101, 0}, {102, 1}, {103, 1}};
    e5::stuck_run st;
    st.plain_records = 3;
    st.partitions = e5::partitions_before_wait(2, {1}, plain);
    // Partition 0's record and one of partition 1's are visible; seq 7 is the job's, not a plain record.
    CHECK_FALSE(e5::note_committed_read(st, plain, {7, 101, 102}, 2000));
    CHECK(st.partitions[0].all_visible_after_ms == 2000);
    // Mutation: mark a partition visible once any of its records is (`> 0` for `>= plain_records`) and this fails.
    CHECK(st.partitions[1].all_visible_after_ms == -1);
    CHECK(st.all_visible_after_ms == -1);
    CHECK(e5::note_committed_read(st, plain, {7, 101, 102, 103}, 4000));
    CHECK(st.partitions[0].all_visible_after_ms == 2000);  // the first time it showed them, not the last
    CHECK(st.partitions[1].all_visible_after_ms == 4000);
    CHECK(st.all_visible_after_ms == 4000);
    REQUIRE(st.visibility.size() == 2);
    CHECK(st.visibility[0].visible == 2);
    CHECK(st.visibility[1].visible == 3);
}

TEST_CASE("only a transaction begun before the savepoint was triggered is pending at the savepoint", "[e5]") {
    e5::restart_run r;
    // Begun at 1000 (before the trigger at 5000), at 6000 (after it), and one with no open transaction.
    e5::note_pending_at_savepoint(r, {{"tx-0-1", 1000, 60000}, {"tx-1-2", 6000, 60000}, {"tx-1-1", -1, 60000}}, 5000,
                                  8000);
    // Mutation: drop the `start_ms >= triggered_at` test and tx-1-2 counts as pending.
    CHECK(r.pending_at_savepoint == std::vector<std::string>{"tx-0-1"});
    CHECK(r.pending_open_for_ms_at_savepoint == 7000);  // 8000 - 1000
    CHECK(r.registered_timeout_ms == std::optional<std::int64_t>(60000));
}

TEST_CASE("a run's record starts from what its plan asked for and the broker's maximum", "[e5]") {
    const auto p = e5::parameters::full();
    const auto plan = e5::above_max_plan(p, 900000);
    CHECK(plan.timeout_ms == 900000 + p.above_max_by_ms);
    CHECK(plan.interval_ms == p.boundary_interval_ms);
    const auto run = e5::planned_run(plan, p, 900000);
    CHECK(run.part == "above-max");
    // Mutation: leave the requested timeout out of the record (0) and this fails.
    CHECK(run.requested_timeout_ms == plan.timeout_ms);
    CHECK(run.broker_max_timeout_ms == 900000);
    CHECK(run.events == p.events);
    CHECK(e5::planned_restart(p, "late", 2).requested_timeout_ms == p.restart_timeout_ms);
    CHECK(e5::planned_restart(p, "late", 2).repeat == 2u);
    const auto st = e5::planned_stuck(p, "cancel", "fixed", 500);
    CHECK(st.sink_partitioner == "fixed");
    CHECK(st.plain_records == 500);
    CHECK(st.requested_timeout_ms == p.stuck_timeout_ms);
}

// Mutation: split at the first character instead of the slash (substr(0, 1)): this fails.
TEST_CASE("e5: each stuck run splits into its ending and its partitioner, in the order given", "[e5]") {
    e5::parameters p;
    p.stuck_runs = {"cancel/fixed", "kill-then-cancel/round-robin"};
    const auto cells = e5::stuck_cells(p);
    REQUIRE(cells.size() == 2);
    CHECK(cells.at(0) == std::pair<std::string, std::string>{"cancel", "fixed"});
    CHECK(cells.at(1) == std::pair<std::string, std::string>{"kill-then-cancel", "round-robin"});
}

TEST_CASE("every repeat of a restore is judged: one late restore that delivered everything refutes", "[e5][verdict]") {
    e5::samples s;
    s.restarts.push_back(restart_with("late", 6000, 95000, true));
    s.restarts.push_back(restart_with("late", 6000, 95000, true));
    CHECK(e5::restart_late_loses_the_pending_transaction(s).verdict == verdict_kind::held);
    // Mutation: judge only the first repeat and this passes.
    s.restarts[1] = restart_with("late", 6000, 95000, false);
    CHECK(e5::restart_late_loses_the_pending_transaction(s).verdict == verdict_kind::refuted);
}
