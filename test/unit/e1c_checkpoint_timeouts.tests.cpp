// Experiment 1c's rules on hand-built runs: each can hold, fail and stay
// undecided on the data it judges.
#include <catch2/catch.hpp>

#include <algorithm>

#include <rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp>

using namespace rosterrig;

namespace {
const auto all_cells = e1c::cells();

experiment::checkpoint_outcome failed(std::int64_t id, std::string why = "Checkpoint expired before completing.") {
    return {id, "FAILED", std::move(why), 0, 400};
}

/// A run of `cell` read back, with `timeouts` timed-out checkpoints and `missing` seqs missing.
e1c::cell_run run(const e1c::cell& c, std::int64_t timeouts, std::uint64_t missing, std::uint64_t repeat = 1) {
    e1c::cell_run r;
    r.name = c.name;
    r.repeat = repeat;
    r.observed = true;
    r.writer_parallelism = 2;
    r.timeout_requested_ms = c.short_timeout ? 400 : 600'000;
    r.totals = {40, timeouts};
    for (std::int64_t i = 0; i < timeouts; ++i) r.checkpoints.push_back(failed(i + 1));
    r.events = 1000, r.rows = 1000 - missing, r.distinct_seq = 1000 - missing, r.missing_seq = missing;
    if (missing) r.missing_runs.push_back({1, missing});
    return r;
}

verdict_kind judge(const std::string& id, const e1c::samples& s) {
    for (const auto& r : e1c::rules())
        if (r.id == id) return r.judge(s, e1c::parameters::full()).verdict;
    FAIL("no rule " << id);
    return verdict_kind::inconclusive;
}
}  // namespace

// Mutation: `loses` holding on timeouts alone (without a missing seq) makes the refuted case fail.
TEST_CASE("e1c: the unaligned FlinkSink loss is held by a missing seq, refuted by 30 clean timeouts, undecided below",
          "[e1c]") {
    const std::string id = "e1c.loses:" + all_cells[0].name;
    CHECK(judge(id, {{run(all_cells[0], 31, 12)}, {}}) == verdict_kind::held);
    CHECK(judge(id, {{run(all_cells[0], 30, 0)}, {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{run(all_cells[0], 29, 0)}, {}}) == verdict_kind::inconclusive);
    CHECK(judge(id, {{}, {}}) == verdict_kind::inconclusive);
}

// Mutation: `loses_nothing` ignoring missing_seq makes the refuted case fail.
TEST_CASE("e1c: a no-loss prediction is refuted by one missing seq and needs 30 timeouts to hold", "[e1c]") {
    const std::string id = "e1c.loses-nothing:" + all_cells[2].name;
    CHECK(judge(id, {{run(all_cells[2], 30, 0)}, {}}) == verdict_kind::held);
    CHECK(judge(id, {{run(all_cells[2], 30, 1)}, {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{run(all_cells[2], 12, 0)}, {}}) == verdict_kind::inconclusive);
}

// Mutation: dropping the writer-parallelism guard in cannot_answer makes the last check fail.
TEST_CASE("e1c: a run whose writer had one subtask cannot answer", "[e1c]") {
    auto r = run(all_cells[0], 31, 12);
    r.writer_parallelism = 1;
    CHECK(judge("e1c.loses:" + all_cells[0].name, {{r}, {}}) == verdict_kind::inconclusive);
}

// Mutation: timeouts_of counting every failure as a timeout makes the count check fail.
TEST_CASE("e1c: failures that are not timeouts are not counted as timeouts", "[e1c]") {
    auto r = run(all_cells[1], 30, 0);
    r.checkpoints[0] = failed(1, "Checkpoint was declined (task is closing)");
    CHECK(e1c::timeouts_of(r) == 29);
    CHECK(judge("e1c.loses-nothing:" + all_cells[1].name, {{r}, {}}) == verdict_kind::inconclusive);
}

// Mutation: control_exact ignoring timed-out checkpoints makes the inconclusive case fail.
TEST_CASE("e1c: the control holds only when no checkpoint timed out", "[e1c]") {
    CHECK(judge("e1c.control-loses-nothing", {{run(all_cells[4], 0, 0)}, {}}) == verdict_kind::held);
    CHECK(judge("e1c.control-loses-nothing", {{run(all_cells[4], 2, 0)}, {}}) == verdict_kind::inconclusive);
    CHECK(judge("e1c.control-loses-nothing", {{run(all_cells[4], 0, 5)}, {}}) == verdict_kind::refuted);
}

// Mutation: timeouts_of returning Flink's failed count (the run at 3869baf
// counted a checkpoint refused at the job's start as a timeout) fails it.
TEST_CASE(
    "e1c: a checkpoint refused at its trigger, failed in Flink's count but absent from its history, is no timeout",
    "[e1c]") {
    auto control = run(all_cells[4], 0, 0);
    control.totals.failed = 1;
    for (std::int64_t id = 1; id <= 40; ++id) control.checkpoints.push_back({id, "COMPLETED", "", 0, 100});
    CHECK(e1c::timeouts_of(control) == 0);
    CHECK(e1c::history_gaps(control) == 0);
    CHECK(judge("e1c.control-loses-nothing", {{control}, {}}) == verdict_kind::held);
    control.checkpoints.erase(control.checkpoints.begin() + 5);
    CHECK(e1c::history_gaps(control) == 1);
}

// Mutation: no_duplicates skipping a cell makes the refuted case fail.
TEST_CASE("e1c: one duplicate seq row in any cell refutes no-duplicates", "[e1c]") {
    auto dup = run(all_cells[3], 30, 0);
    dup.duplicate_rows = 1;
    CHECK(judge("e1c.no-duplicates", {{run(all_cells[0], 30, 0), run(all_cells[3], 30, 0)}, {}}) == verdict_kind::held);
    CHECK(judge("e1c.no-duplicates", {{run(all_cells[0], 30, 0), dup}, {}}) == verdict_kind::refuted);
}

// Mutation: timeouts_applied ignoring restarts makes the second check fail.
TEST_CASE("e1c: the fault counts as applied only with 30 timeouts per short cell and no restart", "[e1c]") {
    CHECK(judge("e1c.timeouts-applied", {{run(all_cells[0], 30, 0), run(all_cells[4], 0, 0)}, {}}) ==
          verdict_kind::held);
    auto restarted = run(all_cells[0], 30, 0);
    restarted.restarts_reported = 1;
    CHECK(judge("e1c.timeouts-applied", {{restarted}, {}}) == verdict_kind::refuted);
    CHECK(judge("e1c.timeouts-applied", {{run(all_cells[0], 3, 0)}, {}}) == verdict_kind::refuted);
    CHECK(judge("e1c.timeouts-applied", {{run(all_cells[4], 0, 0)}, {}}) == verdict_kind::inconclusive);
}

// Mutation: timeouts_applied counting an unreported numRestarts (-1) as a restart (`restarts_reported != 0`)
// makes the inconclusive check fail.
TEST_CASE("e1c: a restart count Flink never reported leaves timeouts-applied inconclusive, not refuted", "[e1c]") {
    auto unreported = run(all_cells[0], 30, 0);
    unreported.restarts_reported = -1;
    CHECK(judge("e1c.timeouts-applied", {{unreported}, {}}) == verdict_kind::inconclusive);
    CHECK(judge("e1c.timeouts-applied", {{unreported, run(all_cells[1], 3, 0)}, {}}) == verdict_kind::refuted);
}

// Mutation: `loses` judging the first run's missing seqs alone makes the held case fail.
TEST_CASE("e1c: a cell that lost in one run of three holds its loss and refutes a no-loss prediction", "[e1c]") {
    const auto& lossy = all_cells[0];
    CHECK(judge("e1c.loses:" + lossy.name, {{run(lossy, 31, 0, 1), run(lossy, 31, 0, 2), run(lossy, 31, 7, 3)}, {}}) ==
          verdict_kind::held);
    const auto& clean = all_cells[3];
    CHECK(judge("e1c.loses-nothing:" + clean.name,
                {{run(clean, 31, 0, 1), run(clean, 31, 0, 2), run(clean, 31, 7, 3)}, {}}) == verdict_kind::refuted);
    // Named, not a temporary: runs_of points into the samples.
    const e1c::samples lost_once{{run(lossy, 31, 0, 1), run(lossy, 31, 0, 2), run(lossy, 31, 7, 3)}, {}};
    const auto runs = e1c::runs_of(lost_once, lossy.name);
    CHECK(e1c::cell_loss_text(runs).rfind("lost in 1 of 3 repeats (seqs missing 0 / 0 / 7)", 0) == 0);
}

// Mutation: `total_of` not summing timeouts over the runs makes the held case inconclusive.
TEST_CASE("e1c: a no-loss prediction's bound counts the timeouts of every run of its cell", "[e1c]") {
    const auto& c = all_cells[2];
    const e1c::samples three{{run(c, 10, 0, 1), run(c, 10, 0, 2), run(c, 10, 0, 3)}, {}};
    CHECK(e1c::total_of(e1c::runs_of(three, c.name)).timeouts == 30);
    CHECK(judge("e1c.loses-nothing:" + c.name, three) == verdict_kind::held);
    CHECK(judge("e1c.loses-nothing:" + c.name, {{run(c, 10, 0, 1), run(c, 10, 0, 2)}, {}}) ==
          verdict_kind::inconclusive);
}

// Mutation: `timeouts_applied` judging a cell's runs together (or its first run
// alone) makes the refuted case fail.
TEST_CASE("e1c: the fault counts as applied only when every run of a short cell saw its timeouts", "[e1c]") {
    const auto& c = all_cells[1];
    CHECK(judge("e1c.timeouts-applied", {{run(c, 30, 0, 1), run(c, 30, 0, 2)}, {}}) == verdict_kind::held);
    CHECK(judge("e1c.timeouts-applied", {{run(c, 30, 0, 1), run(c, 29, 0, 2)}, {}}) == verdict_kind::refuted);
}

namespace {
/// A run of an upsert cell: the catalog reports upsert on npi; `without_latest`
/// NPIs only on older rows, `extra` rows on an NPI already on a row.
e1c::cell_run upsert_run(const e1c::cell& c, std::int64_t timeouts, std::uint64_t without_latest, std::uint64_t extra) {
    auto r = run(c, timeouts, 0);
    e1c::upsert_observation u;
    u.table_in_force.write_upsert_enabled = "true";
    u.table_in_force.identifier_fields = {"npi"};
    u.npis_expected = 200, u.npis_without_latest = without_latest, u.rows_sharing_npi = extra;
    u.stale_rows = without_latest + extra;
    r.upsert = u;
    return r;
}
const auto& flinksink_upsert = all_cells[5];
const auto& sinkv2_unaligned_upsert = all_cells[6];
const auto& sinkv2_aligned_upsert = all_cells[7];
}  // namespace

TEST_CASE("e1c: the upsert cells are the ones the rules name", "[e1c]") {
    CHECK(flinksink_upsert.kind == experiment::table_kind::upsert);
    CHECK(flinksink_upsert.sink == experiment::iceberg_sink::flink_sink);
    CHECK((sinkv2_unaligned_upsert.unaligned && sinkv2_unaligned_upsert.kind == experiment::table_kind::upsert));
    CHECK((!sinkv2_aligned_upsert.unaligned && sinkv2_aligned_upsert.sink == experiment::iceberg_sink::sink_v2));
    CHECK(e1c::short_name_of(sinkv2_unaligned_upsert) == "sinkv2_unaligned_short_upsert");
}

// Mutation: lost_of reading missing_seq for upsert runs (always 0 here) makes the held case fail.
TEST_CASE("e1c: an upsert loss is an NPI without its last record, held by one and refuted by 30 clean timeouts",
          "[e1c]") {
    const std::string id = "e1c.loses:" + flinksink_upsert.name;
    CHECK(judge(id, {{upsert_run(flinksink_upsert, 31, 1, 0)}, {}}) == verdict_kind::held);
    CHECK(judge(id, {{upsert_run(flinksink_upsert, 30, 0, 5)}, {}}) ==
          verdict_kind::refuted);  // doubled rows are no loss
    CHECK(judge(id, {{upsert_run(flinksink_upsert, 12, 0, 0)}, {}}) == verdict_kind::inconclusive);
    const std::string none = "e1c.loses-nothing:" + sinkv2_aligned_upsert.name;
    CHECK(judge(none, {{upsert_run(sinkv2_aligned_upsert, 30, 1, 0)}, {}}) == verdict_kind::refuted);
    CHECK(judge(none, {{upsert_run(sinkv2_aligned_upsert, 30, 0, 0)}, {}}) == verdict_kind::held);
}

// Mutation: keys_doubled counting stale rows instead of rows on a shared NPI
// makes the refuted case (an NPI only on an older row) fail.
TEST_CASE("e1c: an NPI on two rows holds the doubled-key prediction and refutes the no-doubled-key one", "[e1c]") {
    const std::string doubled = "e1c.key-on-two-rows:" + sinkv2_unaligned_upsert.name;
    CHECK(judge(doubled, {{upsert_run(sinkv2_unaligned_upsert, 30, 0, 3)}, {}}) == verdict_kind::held);
    CHECK(judge(doubled, {{upsert_run(sinkv2_unaligned_upsert, 30, 1, 0)}, {}}) == verdict_kind::refuted);
    CHECK(judge(doubled, {{upsert_run(sinkv2_unaligned_upsert, 4, 0, 0)}, {}}) == verdict_kind::inconclusive);
    const std::string none = "e1c.no-key-on-two-rows:" + sinkv2_aligned_upsert.name;
    CHECK(judge(none, {{upsert_run(sinkv2_aligned_upsert, 30, 0, 1)}, {}}) == verdict_kind::refuted);
    CHECK(judge(none, {{upsert_run(sinkv2_aligned_upsert, 30, 0, 0)}, {}}) == verdict_kind::held);
    CHECK(judge(none, {{run(sinkv2_aligned_upsert, 30, 0)}, {}}) == verdict_kind::inconclusive);  // no upsert record
}

// Mutation: dropping the upsert-settings guard in cannot_answer makes this fail.
TEST_CASE("e1c: an upsert run whose table the catalog does not report as upsert on npi cannot answer", "[e1c]") {
    auto r = upsert_run(flinksink_upsert, 31, 4, 0);
    r.upsert->table_in_force.write_upsert_enabled = "false";
    CHECK(judge("e1c.loses:" + flinksink_upsert.name, {{r}, {}}) == verdict_kind::inconclusive);
}

// Mutation: control_exact ignoring rows on a shared NPI (upsert) makes the refuted case fail.
TEST_CASE("e1c: the upsert control is refuted by an NPI on two rows and undecided when its checkpoints timed out",
          "[e1c]") {
    const auto& control = all_cells[9];
    REQUIRE(!control.short_timeout);
    CHECK(judge("e1c.upsert-control-exact", {{upsert_run(control, 0, 0, 0)}, {}}) == verdict_kind::held);
    CHECK(judge("e1c.upsert-control-exact", {{upsert_run(control, 0, 0, 2)}, {}}) == verdict_kind::refuted);
    CHECK(judge("e1c.upsert-control-exact", {{upsert_run(control, 0, 1, 0)}, {}}) == verdict_kind::refuted);
    CHECK(judge("e1c.upsert-control-exact", {{upsert_run(control, 1, 0, 0)}, {}}) == verdict_kind::inconclusive);
}

// Mutation: record_table counting the NPIs seen as the NPIs expected (without
// adding those on no row and removing those the feed never had) makes the
// upsert count check fail; copying missing seqs into an upsert run fails the last.
TEST_CASE("e1c: a read-back fills an append run's missing seqs and an upsert run's NPI counts, settings kept",
          "[e1c]") {
    experiment::writer_settings in_force;
    in_force.mode = "exactly_once", in_force.checkpoint_timeout_ms = 100;
    in_force.table = experiment::table_settings{"true", 2, {"npi"}};
    experiment::table_observation o;
    o.by_seq.rows = 90, o.by_seq.distinct_seq = 88, o.by_seq.duplicate_rows = 2;
    o.by_seq.missing_seq = 12, o.by_seq.missing_runs = {{5, 16}};
    o.by_npi.distinct_npis = 50, o.by_npi.unexpected_npis = {7, 9}, o.by_npi.missing_npis = {3};
    o.by_npi.npis_without_latest = 4, o.by_npi.rows_sharing_npi = 6, o.by_npi.stale_rows = 8,
    o.by_npi.unexpected_rows = 2;

    auto append = e1c::started_run(e1c::parameters::full(), all_cells[0], 2, "job", "ns.t", in_force, 100);
    CHECK((!append.upsert && !append.observed && append.repeat == 2 && append.timeout_requested_ms == 100));
    e1c::record_table(append, o);
    CHECK((append.observed && append.rows == 90 && append.duplicate_rows == 2));
    CHECK((append.missing_seq == 12 && append.missing_runs.size() == 1));

    auto upsert = e1c::started_run(e1c::parameters::full(), flinksink_upsert, 1, "job", "ns.t", in_force, 100);
    REQUIRE(upsert.upsert);
    e1c::record_table(upsert, o);
    CHECK(experiment::reports_upsert_on(upsert.upsert->table_in_force, "npi"));
    CHECK(upsert.upsert->npis_expected == 49);
    CHECK((upsert.upsert->npis_missing == 1 && upsert.upsert->npis_without_latest == 4 &&
           upsert.upsert->rows_sharing_npi == 6));
    CHECK((upsert.upsert->stale_rows == 8 && upsert.upsert->unexpected_rows == 2));
    CHECK((upsert.missing_seq == 0 && upsert.missing_runs.empty()));
}

namespace {
/// `run` with its feed paced at `rate` (0: produced at once) and one backpressure sample per second of a 60 s drain.
e1c::cell_run sampled(e1c::cell_run r, double rate, double backpressure_ms_per_s) {
    r.feed_rate = rate;
    r.drained_ms = 60'000;
    r.source_backpressure.emplace();
    for (std::int64_t t = 0; t <= r.drained_ms; t += 1000) r.source_backpressure->push_back({t, backpressure_ms_per_s});
    return r;
}
}  // namespace

// Mutation: leave the paced cells out of cells_of (return `all`'s first ten) and the first check fails; drop the
// paced_seconds guard and the second does.
TEST_CASE("e1c: a full run has five paced cells, a run recorded before them has none, a quick run one", "[e1c]") {
    const auto paced = [](const std::vector<e1c::cell>& cs) {
        return std::count_if(cs.begin(), cs.end(), [](const e1c::cell& c) { return c.paced; });
    };
    CHECK(paced(e1c::cells_of(e1c::parameters::full())) == 5);
    e1c::parameters before = e1c::parameters::full();
    before.paced_seconds.reset(), before.paced_events_per_second.reset(), before.paced_upsert_events_per_second.reset();
    before.kills_per_run.reset();
    CHECK(paced(e1c::cells_of(before)) == 0);
    CHECK(e1c::cells_of(before).size() == 10);
    CHECK(paced(e1c::cells_of(e1c::parameters::quick_run())) == 1);
}

// Mutation: feed_of ignoring the pace (p.feed(c.kind) for every cell) makes the first check fail.
TEST_CASE("e1c: a paced cell's feed is its rate times the paced seconds, at the rate its table kind asks", "[e1c]") {
    const auto p = e1c::parameters::full();
    const auto c = e1c::cells();
    CHECK(e1c::feed_of(p, c[10]).events == 15'000 * 60);
    CHECK(e1c::rate_of(p, c[10]) == 15'000);
    CHECK(e1c::feed_of(p, c[12]).events == 8'000 * 60);
    CHECK(e1c::rate_of(p, c[0]) == 0);
    CHECK(e1c::feed_of(p, c[0]).events == p.events);
    CHECK(e1c::short_name_of(c[12]) == "flinksink_unaligned_short_upsert_paced");
}

// Mutation: summarize_backpressure ignoring its window (taking every sample) makes the median check fail.
TEST_CASE("e1c: backpressure is summarized over the drain only, and a run without samples has no summary", "[e1c]") {
    const std::vector<experiment::backpressure_sample> xs{{0, 1000}, {1000, 1000}, {2000, 10}, {3000, 0}, {9000, 1000}};
    const auto b = experiment::summarize_backpressure(xs, 1500, 3000);
    REQUIRE(b.has_value());
    CHECK(b->samples == 2);
    CHECK(b->median_ms_per_s == 5);
    CHECK(b->max_ms_per_s == 10);
    CHECK_FALSE(experiment::summarize_backpressure(xs, 4000, 8000).has_value());
}

// Mutation: compare the at-once runs against paced_at_most (not at_once_at_least) and the held case fails.
TEST_CASE("e1c: paced runs must show no backpressure and runs produced at once must show it, else refuted", "[e1c]") {
    const auto c = e1c::cells();
    const std::string id = "e1c.paced-without-backpressure";
    const auto paced = run(c[10], 30, 0), at_once = run(c[0], 30, 0);
    CHECK(judge(id, {{sampled(paced, 15'000, 5), sampled(at_once, 0, 950)}, {}}) == verdict_kind::held);
    CHECK(judge(id, {{sampled(paced, 15'000, 300), sampled(at_once, 0, 950)}, {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{sampled(paced, 15'000, 5), sampled(at_once, 0, 200)}, {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{sampled(paced, 15'000, 5), at_once}, {}}) == verdict_kind::inconclusive);  // no sample
    CHECK(judge(id, {{sampled(at_once, 0, 950)}, {}}) == verdict_kind::inconclusive);            // no paced run
}

// Mutation: `!(sa < sb)` turned into `sa > sb` makes the equal-share case hold and this fails.
TEST_CASE("e1c: a paced cell must time out a smaller share of its checkpoints than its twin produced at once",
          "[e1c]") {
    const auto c = e1c::cells();
    const std::string id = "e1c.paced-times-out-less";
    REQUIRE(e1c::at_once_twin(c[10])->name == c[0].name);
    REQUIRE(e1c::at_once_twin(c[14])->name == c[7].name);
    CHECK(judge(id, {{run(c[10], 5, 0), run(c[0], 30, 0)}, {}}) == verdict_kind::held);
    CHECK(judge(id, {{run(c[10], 30, 0), run(c[0], 30, 0)}, {}}) == verdict_kind::refuted);
    CHECK(judge(id, {{run(c[0], 30, 0)}, {}}) == verdict_kind::inconclusive);
}

// Mutation: drop the paced skip in timeouts_applied and the held check fails (a paced run with 3 timeouts).
TEST_CASE("e1c: the fault-applied prediction is about the backpressured cells and leaves the paced ones out", "[e1c]") {
    const auto c = e1c::cells();
    CHECK(judge("e1c.timeouts-applied", {{run(c[0], 30, 0), sampled(run(c[10], 3, 0), 15'000, 5)}, {}}) ==
          verdict_kind::held);
}

// Mutation: fault_plan returning no steps (as before the kill cells) and the first check fails; planning the kill
// steps for every cell, not only the kill cells, and the count does.
TEST_CASE("e1c: the full run plans three kills per run of each of the three kill cells, the quick run none", "[e1c]") {
    const auto full = e1c::parameters::full();
    const auto plan = e1c::fault_plan(full);
    CHECK(plan.steps.size() == 3 * 3 * 3);
    const auto c = e1c::cells();
    const auto first = plan.of(c[15].name + " #1");
    REQUIRE(first.size() == 3);
    CHECK(first.front().index == 1);
    CHECK(first.front().kind == experiment::fault_kind::kill_taskmanager);
    CHECK_FALSE(first.front().heal.empty());
    CHECK(plan.of(c[0].name + " #1").empty());
    CHECK(e1c::fault_plan(e1c::parameters::quick_run()).steps.empty());
    CHECK(std::count_if(c.begin(), c.end(), [](const e1c::cell& x) { return x.kill_after_timeout; }) == 3);
}

// Mutation: drop the kill-run skip in no_duplicates and the held check fails (a kill run's duplicate counts there).
TEST_CASE("e1c: a kill run's duplicates are judged by the kill prediction, not by no-duplicates", "[e1c]") {
    const auto c = e1c::cells();
    auto killed = run(c[15], 30, 0);
    killed.kills.emplace(1);
    killed.duplicate_rows = 1, killed.rows += 1;
    CHECK(judge("e1c.no-duplicates", {{run(c[0], 30, 0), killed}, {}}) == verdict_kind::held);
    CHECK(judge("e1c.kill-after-timeout-no-duplicates", {{run(c[0], 30, 0), killed}, {}}) == verdict_kind::refuted);
}

TEST_CASE("e1c: a kill's delay after its checkpoint expired is read from Flink's history, or said to be unknown",
          "[e1c]") {
    auto r = run(all_cells.at(0), 0, 0);
    r.checkpoints.push_back({7, "FAILED", "Checkpoint expired before completing.", 10'000, 100});
    e1c::timeout_kill k;
    k.timed_out_checkpoint = 7, k.kill.killed_at_ms = 12'600;
    // Mutation: measuring from the trigger (not trigger + end to end) gives 2,600; tried, fails.
    CHECK(e1c::kill_after_expiry_ms(r, k) == 2'500);
    k.timed_out_checkpoint = 8;
    CHECK_FALSE(e1c::kill_after_expiry_ms(r, k));
}

namespace {
/// An append run that recorded where its seqs are: seq 11 missing inside what
/// snapshot 200 (checkpoint 7) added of partition 0, seq 19 after the last
/// commit (snapshot 300, checkpoint 8); checkpoints 4, 5 and 9 timed out.
e1c::cell_run placed_run() {
    auto r = run(all_cells.at(0), 0, 0);
    r.checkpoints.clear();
    for (std::int64_t id : {4, 5, 9}) r.checkpoints.push_back(failed(id));
    r.missing_seq = 2, r.missing_runs = {{11, 11}, {19, 19}};
    for (auto [id, w] : {std::pair<std::int64_t, std::int64_t>{100, 3}, {200, 7}, {300, 8}}) {
        check::snapshot_entry s;
        s.snapshot_id = id, s.watermark = w;
        r.snapshots.push_back(s);
    }
    r.placement = experiment::seq_placement{{{100, 0, 1, 5, 3}, {200, 0, 7, 13, 3}, {300, 0, 15, 17, 2}},
                                            {{0, 0, 11, 11, 1}, {1, 0, 19, 19, 1}}};
    return r;
}
}  // namespace

// Mutation: dropping the loop that appends attribution_text to the section
// fails the first two checks; `attribution_of` returning an empty attribution
// (not nullopt) for a run without placement fails the last two.
TEST_CASE(
    "e1c: the report names the commit that should have carried each missing run of a run that recorded where its seqs are, and nothing for one that did not",
    "[e1c]") {
    e1c::samples s;
    s.runs.push_back(placed_run());
    const auto section = e1c::report_section(result::result_envelope{}, s, e1c::parameters::full());
    CHECK_THAT(section,
               Catch::Contains("holes in what snapshot 200 added: its commit, checkpoint 7, should have "
                               "carried them (exact); among the checkpoints that commit spanned, timed out: 4-5"));
    CHECK_THAT(section, Catch::Contains("after snapshot 300 (checkpoint 8) no commit carries a later seq of their "
                                        "partition: lost at the end, checkpoint 8 or later (a bound); after it, timed "
                                        "out: 9"));
    auto before = placed_run();
    before.placement.reset();
    CHECK(e1c::attribution_text(before, {}).empty());
    e1c::samples old;
    old.runs.push_back(before);
    CHECK(e1c::report_section(result::result_envelope{}, old, e1c::parameters::full()).find("should have carried") ==
          std::string::npos);
}

// Mutation: leaving `placement` out of cell_run's BOOST_DESCRIBE_STRUCT drops
// it from the JSON, and the read-back holds none.
TEST_CASE(
    "e1c: a run's placement of its seqs is written and read back strictly, and a run from before it reads without one",
    "[e1c]") {
    const auto written = boost::json::value_from(placed_run());
    const auto back = result::strict_value_to<e1c::cell_run>(written);
    REQUIRE(back.placement);
    CHECK(back.placement->spans.size() == 3);
    CHECK((back.placement->missing.size() == 2 && back.placement->missing[1].first_seq == 19));
    auto old = written;
    old.as_object().erase("placement");
    CHECK_FALSE(result::strict_value_to<e1c::cell_run>(old).placement);
}

// Mutation: dropping the cut to attribution_lines_shown prints all 14 groups
// (the line count fails); dropping the sort by seqs leaves the groups by
// checkpoint, so the 3-seq hole of checkpoint 14 is among those cut.
TEST_CASE(
    "e1c: a run's attribution totals its missing seqs by kind and shows its largest groups, the rest as one count",
    "[e1c]") {
    auto r = run(all_cells.at(0), 0, 0);
    r.checkpoints.clear();
    r.missing_seq = 0;
    r.placement.emplace();
    for (std::uint64_t k = 1; k <= 14; ++k) {
        check::snapshot_entry s;
        s.snapshot_id = static_cast<std::int64_t>(1000 + k), s.watermark = static_cast<std::int64_t>(k);
        r.snapshots.push_back(s);
        const std::uint64_t width = k == 14 ? 3 : 1;  // checkpoint 14's commit lost three seqs, the others one
        r.missing_runs.push_back({10 * k + 4, 10 * k + 3 + width});
        r.missing_seq += width;
        r.placement->spans.push_back({s.snapshot_id, 0, 10 * k + 1, 10 * k + 9, 9 - width});
        r.placement->missing.push_back({k - 1, 0, 10 * k + 4, 10 * k + 3 + width, width});
    }
    const auto text = e1c::attribution_text(r, {});
    CHECK_THAT(text, Catch::Contains("its 16 missing seqs (14 runs)"));
    CHECK_THAT(text, Catch::Contains("16 in holes inside what one commit added of their partition (exact)"));
    CHECK_THAT(text, Catch::Contains("The 12 largest of 14 groups:"));
    CHECK_THAT(text, Catch::Contains("- 3 seqs of partition 0 (1 runs): holes in what snapshot 1014 added"));
    CHECK_THAT(text, Catch::EndsWith("- and 2 seqs in the other groups.\n"));
    CHECK(std::count(text.begin(), text.end(), '\n') == 2 + 12 + 1);
}

// Mutation: printing every hole as "(exact)" (p.exact ignored in the hole's line) fails the second check.
TEST_CASE("e1c: a hole in a commit that another commit's seqs interleave with is reported as not exact", "[e1c]") {
    auto r = placed_run();
    check::snapshot_entry x;
    x.snapshot_id = 50, x.watermark = 2;
    r.snapshots.insert(r.snapshots.begin(), x);
    r.placement->spans.push_back({50, 0, 9, 9, 1});  // inside snapshot 200's 7-13
    const auto text = e1c::attribution_text(r, {});
    CHECK_THAT(text, Catch::Contains("1 in holes inside what one commit added of their partition, not exact"));
    CHECK_THAT(text, Catch::Contains("its commit, checkpoint 7, should have carried them (not exact: commits "
                                     "interleave there, or its checkpoint is unknown)"));
}

// Mutations: record_placement storing pieces_of(...) again fails the first
// check; attribution_of using the stored (empty) pieces without deriving them
// fails the piece checks; a feed of another size not refused fails the last.
TEST_CASE(
    "e1c: a run stores no missing pieces, and its attribution splits the missing runs by the partitions of its cell's seeded feed",
    "[e1c]") {
    auto p = e1c::parameters::quick_run();
    p.events = 2000;
    const auto spec = e1c::feed_of(p, all_cells.at(0));
    const auto partition_of_seq = experiment::partition_by_seq(generate(spec));
    auto r = run(all_cells.at(0), 0, 0);
    r.events = spec.events, r.missing_seq = 9, r.missing_runs = {{5, 9}, {1500, 1503}};
    e1c::record_placement(r, {{100, 1, 4, 0}, {100, 10, 1499, 0}, {100, 1504, 2000, 0}}, partition_of_seq);
    REQUIRE(r.placement);
    CHECK(r.placement->missing.empty());
    const auto attributed = e1c::attribution_of(r, e1c::partitions_of_feed(r, p));
    REQUIRE(attributed);
    const auto expected = experiment::pieces_of(r.missing_runs, partition_of_seq);
    std::vector<experiment::missing_piece> got;
    for (const auto& run : *attributed)
        for (const auto& a : run.pieces) got.push_back(a.piece);
    REQUIRE(got.size() == expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
        CHECK(got[k].run == expected[k].run);
        CHECK(got[k].partition == expected[k].partition);
        CHECK(got[k].first_seq == expected[k].first_seq);
        CHECK(got[k].last_seq == expected[k].last_seq);
        CHECK(got[k].seqs == expected[k].seqs);
    }
    r.events = 1999;
    CHECK_THROWS_AS(e1c::partitions_of_feed(r, p), std::logic_error);
}
