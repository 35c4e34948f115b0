// The verdicts are computed by code from the saved samples: these tests pin
// the judge and every rule on hand-built samples, so a verdict cannot drift
// from what the samples say.
#include <catch2/catch.hpp>

#include <stdexcept>

#include <rosterrig/experiment/rule.hpp>
#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>
#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>

using namespace rosterrig;

namespace {
e1::configuration_run clean_run(const std::string& name, std::uint64_t kills) {
    e1::configuration_run r;
    r.name = name;
    r.table_kind =
        name.find("upsert") != std::string::npos ? experiment::table_kind::upsert : experiment::table_kind::append;
    r.events = 100 * kills;
    r.job_id = "job";
    std::vector<check::snapshot_entry> log;
    for (std::uint64_t k = 0; k < kills; ++k) {
        e1::kill_sample s;
        s.index = k + 1;
        s.sent_before_kill = 100 * (k + 1);
        s.killed_at_ms = 1000 * static_cast<std::int64_t>(k + 1);
        r.kills.push_back(s);
        // Checkpoint k+1 committed 100 records half a second after kill k+1.
        log.push_back({static_cast<std::int64_t>(k + 1),
                       "append",
                       "job",
                       static_cast<std::int64_t>(k + 1),
                       100,
                       {},
                       1000 * static_cast<std::int64_t>(k + 1) + 500});
    }
    r.snapshot_log = log;
    return r;
}
struct no_params {};
using toy_rule = experiment::rule<int, no_params>;
}  // namespace

TEST_CASE("a prediction no rule knows is inconclusive, not held and not dropped", "[judge]") {
    std::vector<toy_rule> rules{{"known", [](const int&, const no_params&) { return experiment::held({}, "ok"); }}};
    auto out = experiment::judge(1, no_params{}, {{"known", "t", "m"}, {"unknown", "t", "m"}}, rules);
    REQUIRE(out.size() == 2);
    CHECK(out[0].verdict == verdict_kind::held);
    // Mutation: default an unmatched prediction to held and this fails.
    CHECK(out[1].verdict == verdict_kind::inconclusive);
    CHECK(out[1].reason == "no rule in the code judges this prediction");
}

TEST_CASE("a rule that throws judges its prediction inconclusive with the message", "[judge]") {
    std::vector<toy_rule> rules{{"p", [](const int&, const no_params&) -> experiment::rule_verdict {
                                     throw std::out_of_range("no such configuration");
                                 }}};
    auto out = experiment::judge(1, no_params{}, {{"p", "t", "m"}}, rules);
    // Mutation: let the exception escape the judge and this test errors.
    CHECK(out.at(0).verdict == verdict_kind::inconclusive);
    CHECK(out.at(0).facts->at("error") == "no such configuration");
}

// A run stopped halfway (a full run resumed over several sittings) is judged
// only on what more trials cannot change: one failing trial refutes an
// every-trial rule for good, one trial showing it holds an in-some-trial rule
// for good. Mutation: drop before_completion from judge() and the "so far"
// verdicts below come back held and refuted; make before_completion ignore
// `lasting` (downgrade every held, as --analyze once did) and the in-some-trial
// held case fails.
TEST_CASE("a run that did not complete gives only the verdicts more trials cannot change", "[judge]") {
    using experiment::held_by_any_trial;
    std::vector<toy_rule> rules{
        {"every-held", [](const int&, const no_params&) { return experiment::held({}, "all so far"); }},
        {"every-refuted", [](const int&, const no_params&) { return experiment::refuted({}, "one failed"); }},
        {"some-held", [](const int&, const no_params&) { return held_by_any_trial(experiment::held({}, "one")); }},
        {"some-refuted",
         [](const int&, const no_params&) { return held_by_any_trial(experiment::refuted({}, "none so far")); }},
    };
    const std::vector<result::prediction> ps{
        {"every-held", "t", "m"}, {"every-refuted", "t", "m"}, {"some-held", "t", "m"}, {"some-refuted", "t", "m"}};
    const auto partial = experiment::judge(1, no_params{}, ps, rules, false);
    CHECK(partial.at(0).verdict == verdict_kind::inconclusive);
    CHECK(partial.at(0).reason == "the run did not complete; so far held: all so far");
    CHECK(partial.at(1).verdict == verdict_kind::refuted);
    CHECK(partial.at(2).verdict == verdict_kind::held);
    CHECK(partial.at(3).verdict == verdict_kind::inconclusive);
    CHECK(partial.at(3).reason == "the run did not complete; so far refuted: none so far");
    // A completed run keeps every verdict its rule gave.
    const auto complete = experiment::judge(1, no_params{}, ps, rules);
    CHECK(complete.at(0).verdict == verdict_kind::held);
    CHECK(complete.at(3).verdict == verdict_kind::refuted);
}

TEST_CASE("a prediction over a group holds only if it holds for each, and an empty group is inconclusive", "[judge]") {
    auto label = [](int x) { return std::to_string(x); };
    auto even = [](int x) { return experiment::held_if(x % 2 == 0, {{"x", x}}, "{x}"); };
    CHECK(experiment::for_each_of(std::vector<int>{2, 4}, label, even, "none").verdict == verdict_kind::held);
    CHECK(experiment::for_each_of(std::vector<int>{2, 3}, label, even, "none").verdict == verdict_kind::refuted);
    CHECK(experiment::for_each_of(std::vector<int>{}, label, even, "none").verdict == verdict_kind::inconclusive);
}

TEST_CASE("thirty clean kills hold the no-duplicates prediction, three are inconclusive", "[e1][verdict]") {
    const auto thirty = clean_run("exactly-once + append", 30), three = clean_run("exactly-once + append", 3);
    CHECK(e1::no_duplicates(&thirty).verdict == verdict_kind::held);
    // Mutation: judge held whenever no kill duplicated, ignoring the bound, and
    // this fails: three kills bound the probability only at 0.63.
    CHECK(e1::no_duplicates(&three).verdict == verdict_kind::inconclusive);
    CHECK(e1::no_duplicates(nullptr).verdict == verdict_kind::inconclusive);
}

TEST_CASE("one duplicated seq refutes the no-duplicates prediction and is attributed to its kill", "[e1][verdict]") {
    auto run = clean_run("exactly-once + append", 30);
    run.duplicate_rows = 1;
    run.duplicate_seqs.push_back({250, 2});
    e1::attribute(run);
    CHECK(run.kills[2].duplicates == 1);  // sent_before_kill 300 is the first >= 250
    auto s = e1::summarize(run);
    CHECK(s.kills_with_duplicates == 1);
    CHECK(e1::no_duplicates(&run).verdict == verdict_kind::refuted);
}

TEST_CASE("every e1 prediction id has exactly one rule", "[e1][verdict]") {
    const auto rules = e1::rules();
    CHECK(rules.size() == 12);
    for (const auto& c : e1::configurations()) {
        int n = 0;
        for (const auto& r : rules) n += r.id == "e1.no-duplicates:" + c.name;
        CHECK(n == 1);
    }
}

TEST_CASE("the tight bound holds only when all four configurations made 99 clean kills or more", "[e1][verdict]") {
    e1::samples s;
    for (const auto& c : e1::configurations()) s.configurations.push_back(clean_run(c.name, 100));
    CHECK(e1::tight_bound_everywhere(s).verdict == verdict_kind::held);
    // Mutation: judge with the 0.10 target instead of 0.030, and this fails:
    // 30 clean kills bound the probability at 0.095 only.
    s.configurations[1] = clean_run(e1::configurations()[1].name, 30);
    CHECK(e1::tight_bound_everywhere(s).verdict == verdict_kind::inconclusive);
    // Mutation: skip the duplicate check, and this fails.
    s.configurations[1] = clean_run(e1::configurations()[1].name, 100);
    s.configurations[1].duplicate_rows = 1;
    CHECK(e1::tight_bound_everywhere(s).verdict == verdict_kind::refuted);
    s.configurations[1].duplicate_rows = 0;
    // An upsert table is judged on its snapshots: a checkpoint committed twice
    // refutes it although its rows hold no duplicate seq.
    // Mutation: judge upsert tables on duplicate seqs again, and this fails.
    s.configurations[2].snapshot_log->push_back({1000, "append", "job", 7, 100, {}, 7800});
    CHECK(e1::tight_bound_everywhere(s).verdict == verdict_kind::refuted);
    s.configurations[2] = clean_run(e1::configurations()[2].name, 100);
    s.configurations.pop_back();
    CHECK(e1::tight_bound_everywhere(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("an upsert table's duplicate seqs judge nothing: no-duplicates is inconclusive there and no-replay judges",
          "[e1][verdict]") {
    auto run = clean_run("exactly-once + upsert", 30);
    // Mutation: judge upsert no-duplicates on its seqs again, and this fails (it would hold with a bound).
    CHECK(e1::no_duplicates_seen(&run).verdict == verdict_kind::inconclusive);
    run.duplicate_rows = 2;  // a seq on two rows of an upsert table is still a failure
    CHECK(e1::no_duplicates_seen(&run).verdict == verdict_kind::refuted);
    run.duplicate_rows = 0;
    CHECK(e1::no_replay(&run).verdict == verdict_kind::held);
    const auto append = clean_run("exactly-once + append", 30);
    CHECK(e1::no_duplicates_seen(&append).verdict == verdict_kind::held);
}

TEST_CASE("a checkpoint committed twice refutes no-replay and names the kill it followed", "[e1][verdict]") {
    auto run = clean_run("at-least-once + upsert", 30);
    // Checkpoint 12 again, committed 0.3 s after kill 20 (killed at 20,000 ms).
    run.snapshot_log->push_back({999, "append", "job", 12, 100, {}, 20300});
    const auto r = experiment::replays_of(run);
    REQUIRE(r);
    // Mutation: attribute a copy to the first kill after it instead of the last before it, and this fails.
    CHECK(r->kills_naming_a_replay == std::vector<std::uint64_t>{20});
    CHECK(r->kills_replayed_at_least() == 1);
    const auto v = e1::no_replay(&run);
    CHECK(v.verdict == verdict_kind::refuted);
    CHECK(v.facts.at("after_kills") == boost::json::array{20});
}

TEST_CASE(
    "records added beyond the events sent refute no-replay, too few refute it as a loss, and no log is inconclusive",
    "[e1][verdict]") {
    auto run = clean_run("exactly-once + upsert", 30);
    // A replay that repeats no watermark: one snapshot added 3 records too many.
    (*run.snapshot_log)[4].added_records += 3;
    // Mutation: compare only watermarks (not the records added), and this fails.
    CHECK(e1::no_replay(&run).verdict == verdict_kind::refuted);
    CHECK(experiment::replays_of(run)->kills_replayed_at_least() == 1);
    (*run.snapshot_log)[4].added_records -= 5;
    const auto lost = e1::no_replay(&run);
    CHECK(lost.verdict == verdict_kind::refuted);
    CHECK(lost.facts.at("records_never_landed") == 2);
    run.snapshot_log.reset();
    CHECK(e1::no_replay(&run).verdict == verdict_kind::inconclusive);
    // Mutation: judge held on a clean log without the bound, and this fails: 3 kills bound it at 0.63 only.
    const auto three = clean_run("exactly-once + upsert", 3);
    CHECK(e1::no_replay(&three).verdict == verdict_kind::inconclusive);
    CHECK(e1::no_replay(nullptr).verdict == verdict_kind::inconclusive);
}

TEST_CASE("the snapshots agree with the rows on an append table, and disagree when a duplicate row has no extra record",
          "[e1][verdict]") {
    e1::samples s;
    s.configurations.push_back(clean_run("exactly-once + append", 30));
    CHECK(e1::snapshots_agree_with_rows(s).verdict == verdict_kind::held);
    // One seq twice in the rows and one record too many in the snapshots: they agree.
    s.configurations[0].duplicate_rows = 1;
    (*s.configurations[0].snapshot_log)[0].added_records += 1;
    CHECK(e1::snapshots_agree_with_rows(s).verdict == verdict_kind::held);
    // A missing seq as well: the rows say 1 - 1 = 0 beyond, the snapshots 1.
    // Mutation: leave the missing seqs out of the rows' side, and this fails.
    s.configurations[0].missing_runs.push_back({5, 5});
    CHECK(e1::snapshots_agree_with_rows(s).verdict == verdict_kind::refuted);
    s.configurations[0].table_kind = experiment::table_kind::upsert;
    CHECK(e1::snapshots_agree_with_rows(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("an upsert table with a stale row refutes upsert-holds-latest, and with no upsert run it is inconclusive",
          "[e1][verdict]") {
    e1::samples s;
    s.configurations.push_back(clean_run("exactly-once + upsert", 30));
    CHECK(e1::upsert_holds_latest(s).verdict == verdict_kind::held);
    s.configurations[0].stale_rows = 1;
    CHECK(e1::upsert_holds_latest(s).verdict == verdict_kind::refuted);
    s.configurations[0].table_kind = experiment::table_kind::append;
    CHECK(e1::upsert_holds_latest(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("the offsets predictions need a real rewind before they can hold", "[e1][verdict]") {
    e1::samples s;
    s.offsets.events = 6000;
    s.offsets.steps = {{"landed", 6000, 6000, 6000, 0, "j", 0, -1},
                       {"rewound", 0, 6000, 6000, 0, "j", 0, -1},
                       {"restored_from_checkpoint", 6000, 6000, 6000, 0, "j", 1, 7},
                       {"fresh_from_group_offsets", 6000, 6000, 12000, 6000, "k", 0, -1}};
    std::vector<result::prediction> preds{{"e1.recovery-ignores-offsets", "", ""},
                                          {"e1.fresh-job-replays-log", "", ""}};
    auto judged = experiment::judge(s, e1::parameters{}, preds, e1::rules());
    CHECK(judged[0].verdict == verdict_kind::held);
    CHECK(judged[1].verdict == verdict_kind::held);
    // Mutation (data): the rewind did not take; the recovery claim proves nothing.
    s.offsets.steps[1].committed_offsets_sum = 6000;
    CHECK(experiment::judge(s, e1::parameters{}, preds, e1::rules())[0].verdict == verdict_kind::inconclusive);
    // Mutation (data): the fresh job replayed only part of the log.
    s.offsets.steps[3].duplicate_rows = 5999;
    CHECK(experiment::judge(s, e1::parameters{}, preds, e1::rules())[1].verdict == verdict_kind::refuted);
    // Mutation (data): the restored job replayed one row.
    s.offsets.steps[1].committed_offsets_sum = 0;
    s.offsets.steps[2].duplicate_rows = 1;
    CHECK(experiment::judge(s, e1::parameters{}, preds, e1::rules())[0].verdict == verdict_kind::refuted);
}

TEST_CASE("the same seed gives the same kill plan, and each kill's delay lies in its bounds", "[e1][faults]") {
    auto p = e1::parameters::full();
    const auto a = e1::fault_plan(p), b = e1::fault_plan(p);
    CHECK(a == b);
    REQUIRE(a.steps.size() == 4 * p.kills_per_configuration);
    for (const auto& s : a.steps) {
        CHECK(s.delay_ms >= p.kill_delay_min_ms);
        CHECK(s.delay_ms <= p.kill_delay_max_ms);
    }
    CHECK(a.of("exactly-once + upsert").size() == p.kills_per_configuration);
    p.seed = 2;
    CHECK(e1::fault_plan(p) != a);
}

namespace {
e2::sample sample(std::int64_t t, std::string state, std::int64_t ckpt, std::int64_t lag, std::int64_t snap,
                  std::int64_t wm, std::int64_t records, std::int64_t failed = 0) {
    e2::sample s;
    s.t_ms = t, s.job_state = std::move(state), s.newest_checkpoint_id = ckpt, s.lag = lag, s.snapshot_id = snap,
    s.max_committed_checkpoint_id = wm, s.total_records = records, s.failed_checkpoints = failed;
    return s;
}
// A FlinkSink append restore as the seed describes it: savepoint at 4,
// watermark 19, frozen while RUNNING with lag 0, unfrozen by checkpoint 20.
e2::restore_run frozen_append_run() {
    e2::restore_run r;
    r.variant = "append-flinksink", r.repeat = 1, r.snapshot_before = 10, r.watermark_before = 19;
    r.total_records_before = 16000, r.duplicate_rows = 3000, r.restore_requested_at_ms = 1'000'000;
    r.samples = {sample(0, "", -1, 4000, 10, 19, 16000),        sample(500, "RUNNING", 6, 4000, 10, 19, 16000),
                 sample(1000, "RUNNING", 12, 0, 10, 19, 16000), sample(1500, "RUNNING", 19, 0, 10, 19, 16000),
                 sample(2000, "RUNNING", 20, 0, 11, 20, 32000), sample(2500, "RUNNING", 21, 0, 11, 20, 32000)};
    r.snapshots_after = {{11, 1'001'800, 20, "j", "append", 16000, 32000}};
    return r;
}
}  // namespace

TEST_CASE("the freeze is the interval between the last old sample and the first new one", "[e2][freeze]") {
    auto r = frozen_append_run();
    auto a = e2::analyze(r);
    CHECK(a.table_moved);
    CHECK(a.last_old_ms == 1500);
    CHECK(a.first_new_ms == 2000);
    CHECK(a.ended_by_checkpoint == 20);
    CHECK(a.lump_records == 16000);
    CHECK(a.lag_zero_while_stale);
    // The commit's own timestamp, 1.8 s after the request, lies inside the sample bound.
    REQUIRE(a.first_commit_ms);
    CHECK(*a.first_commit_ms == 1800);
    // Mutation (data): the table moves one sample earlier, at checkpoint 19.
    r.samples[3].snapshot_id = 11, r.samples[3].max_committed_checkpoint_id = 19;
    auto b = e2::analyze(r);
    CHECK(b.first_new_ms == 1500);
    CHECK(b.ended_by_checkpoint == 19);
}

TEST_CASE("the FlinkSink append rule holds on a frozen restore and fails on each broken part", "[e2][verdict]") {
    e2::samples s;
    s.runs.push_back(frozen_append_run());
    CHECK(e2::flinksink_append_freezes_then_lumps(s).verdict == verdict_kind::held);
    // Mutation (rule): dropping `ended_by_checkpoint == watermark_before + 1`
    // from the rule makes this one hold.
    auto early = s;
    early.runs[0].samples[4].max_committed_checkpoint_id = 22;
    CHECK(e2::flinksink_append_freezes_then_lumps(early).verdict == verdict_kind::refuted);
    auto busy = s;  // the lag never reached zero while the table was stale
    for (auto& x : busy.runs[0].samples) x.lag = 5;
    CHECK(e2::flinksink_append_freezes_then_lumps(busy).verdict == verdict_kind::refuted);
    auto failed = s;  // a failed checkpoint marked the freeze
    failed.runs[0].samples[4].failed_checkpoints = 1;
    CHECK(e2::flinksink_append_freezes_then_lumps(failed).verdict == verdict_kind::refuted);
    auto lost = s;
    lost.runs[0].missing_runs.push_back({5, 9});
    CHECK(e2::flinksink_append_freezes_then_lumps(lost).verdict == verdict_kind::refuted);
    CHECK(e2::flinksink_append_freezes_then_lumps(e2::samples{}).verdict == verdict_kind::inconclusive);
}

TEST_CASE("the upsert rule needs the same freeze and a table without a trace of the replay", "[e2][verdict]") {
    e2::samples s;
    s.runs.push_back(frozen_append_run());
    s.runs[0].variant = "upsert-flinksink", s.runs[0].duplicate_rows = 0;
    CHECK(e2::flinksink_upsert_freezes_replay_invisible(s).verdict == verdict_kind::held);
    s.runs[0].stale_rows = 1;
    CHECK(e2::flinksink_upsert_freezes_replay_invisible(s).verdict == verdict_kind::refuted);
}

TEST_CASE("the SinkV2 rule holds when the table moves at or below the old watermark", "[e2][verdict]") {
    e2::samples s;
    s.runs.push_back(frozen_append_run());
    s.runs[0].variant = "append-sinkv2";
    // Moved at 20 > 19: a freeze, which the SinkV2 prediction says does not happen.
    CHECK(e2::sinkv2_append_no_freeze_duplicates(s).verdict == verdict_kind::refuted);
    s.runs[0].samples[2].snapshot_id = 11, s.runs[0].samples[2].max_committed_checkpoint_id = 12;
    CHECK(e2::sinkv2_append_no_freeze_duplicates(s).verdict == verdict_kind::held);
}

TEST_CASE("sampling settles once the table moved, the lag is zero and three more checkpoints passed", "[e2][settle]") {
    e2::settle_watch w{10};
    CHECK_FALSE(w.settled(sample(0, "RUNNING", 5, 0, 10, 19, 0)));
    CHECK_FALSE(w.settled(sample(500, "RUNNING", 20, 0, 11, 20, 0)));  // moved at checkpoint 20
    CHECK_FALSE(w.settled(sample(1000, "RUNNING", 22, 0, 11, 20, 0)));
    CHECK_FALSE(w.settled(sample(1500, "RUNNING", 23, 7, 11, 20, 0)));  // lag back
    CHECK(w.settled(sample(2000, "RUNNING", 23, 0, 11, 20, 0)));
}

// Mutation: settle_watch_of ignoring quick (always 3): the quick watch stays unsettled at checkpoint 22 and this fails.
TEST_CASE("a quick run's sampling settles two checkpoints after the table moved, a full run's three", "[e2][settle]") {
    e2::parameters full = e2::parameters::full(), quick = e2::parameters::quick_run();
    auto wf = e2::settle_watch_of(full, 10), wq = e2::settle_watch_of(quick, 10);
    for (auto* w : {&wf, &wq})
        CHECK_FALSE(w->settled(sample(500, "RUNNING", 20, 0, 11, 20, 0)));  // moved at checkpoint 20
    CHECK(wq.settled(sample(1000, "RUNNING", 22, 0, 11, 20, 0)));
    CHECK_FALSE(wf.settled(sample(1000, "RUNNING", 22, 0, 11, 20, 0)));
    CHECK(wf.settled(sample(1500, "RUNNING", 23, 0, 11, 20, 0)));
}

TEST_CASE("a batch written after the freeze must land once: its seqs counted out of the whole read-back",
          "[e2][verdict]") {
    experiment::table_observation o;
    o.by_seq.missing_runs = {{5, 9}, {98, 103}};
    o.by_seq.duplicates = {{50, 2}, {101, 3}, {120, 2}};
    const auto b = e2::landing_of(o, 100, 110, 40000);
    CHECK(b.missing_seqs == 4);    // 100..103 of the run 98..103
    CHECK(b.duplicate_rows == 2);  // seq 101, three copies
    e2::samples s;
    s.runs.push_back(frozen_append_run());
    CHECK(e2::post_freeze_batch_lands_once(s).verdict == verdict_kind::inconclusive);  // no run wrote one
    s.runs[0].third_batch = e2::landing_of({}, 100, 110, 40000);
    CHECK(e2::post_freeze_batch_lands_once(s).verdict == verdict_kind::held);
    // Mutation (data): one seq of the batch duplicated.
    s.runs[0].third_batch->duplicate_rows = 1;
    CHECK(e2::post_freeze_batch_lands_once(s).verdict == verdict_kind::refuted);
    // An upsert table misses most seqs by design; its NPIs decide.
    s.runs[0].table_kind = experiment::table_kind::upsert, s.runs[0].third_batch = b,
    s.runs[0].third_batch->duplicate_rows = 0;
    CHECK(e2::post_freeze_batch_lands_once(s).verdict == verdict_kind::held);
    s.runs[0].missing_npis = 1;
    CHECK(e2::post_freeze_batch_lands_once(s).verdict == verdict_kind::refuted);
}

TEST_CASE("the commit burst stops where the batch written after the freeze begins", "[e2][freeze]") {
    auto r = frozen_append_run();
    r.variant = "append-sinkv2";
    r.snapshots_after = {{11, 1'001'800, 5, "j", "append", 1000, 17000},
                         {12, 1'002'900, 6, "j", "append", 1000, 18000},
                         {13, 1'040'500, 9, "j", "append", 2000, 20000}};  // the third batch, written 40 s in
    r.third_batch = e2::batch_landing{14001, 16000, 0, 0, 40000};
    const auto a = e2::analyze(r);
    // Mutation: drop the third-batch cut and the burst counts three snapshots, 4,000 records.
    CHECK(a.burst_snapshots == 2);
    CHECK(a.burst_records == 2000);
    r.third_batch.reset();
    CHECK(e2::analyze(r).burst_snapshots == 3);
}

// Mutation: count a kill with one read of -1 among those with both reads (drop
// the `continue` in e1::restart_counts_of) and this fails.
TEST_CASE(
    "numRestarts reads of -1 are counted as not reported, and only kills with both reads say whether the count moved",
    "[e1][report]") {
    e1::configuration_run a, b;
    auto kill = [](std::int64_t before, std::int64_t after) {
        e1::kill_sample k;
        k.restarts_before = before, k.restarts_after = after;
        return k;
    };
    a.kills = {kill(-1, -1), kill(0, 1), kill(1, 1)};
    b.kills = {kill(2, -1), kill(-1, 3)};
    const std::vector<e1::configuration_run> runs{a, b};
    const auto r =
        e1::restart_counts_of(runs, [](const e1::configuration_run& c) -> const e1::configuration_run& { return c; });
    CHECK(r.reads == 10);
    CHECK(r.not_reported == 4);
    CHECK(r.kills_with_both == 2);
    CHECK(r.moved == 1);
    CHECK(e1::restart_count_sentence(r).find(
              "4 of 10 reads were -1; of the 2 kills with both reads, the count moved in 1.") != std::string::npos);
}
