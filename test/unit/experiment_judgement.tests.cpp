// The verdicts are computed by code from the results: these tests pin that code
// on hand-built samples, so a verdict cannot drift from what the samples say.
#include <catch2/catch.hpp>

#include "experiments/e1_results.hpp"
#include "experiments/e2_results.hpp"

using namespace rosterrig;

namespace {
e1::configuration_run clean_run(const std::string& name, std::uint64_t kills) {
    e1::configuration_run r;
    r.name = name;
    r.table_kind = name.find("upsert") != std::string::npos ? "upsert" : "append";
    for (std::uint64_t k = 0; k < kills; ++k) {
        e1::kill_sample s;
        s.index = k + 1;
        s.sent_before_kill = 100 * (k + 1);
        r.kills.push_back(s);
    }
    return r;
}
const result::prediction no_dups{"e1.no-duplicates:exactly-once + append", "text", "measure"};
}  // namespace

TEST_CASE("thirty clean kills hold the no-duplicates prediction, three are inconclusive", "[e1][verdict]") {
    auto held = e1::judge_no_duplicates(no_dups, &(const e1::configuration_run&)clean_run("exactly-once + append", 30));
    CHECK(held.verdict == verdict_kind::held);
    auto few = e1::judge_no_duplicates(no_dups, &(const e1::configuration_run&)clean_run("exactly-once + append", 3));
    // Mutation: judge held whenever no kill duplicated, ignoring the bound, and
    // this fails: three kills bound the probability only at 0.63.
    CHECK(few.verdict == verdict_kind::inconclusive);
}

TEST_CASE("one duplicated seq refutes the no-duplicates prediction and is attributed to its kill", "[e1][verdict]") {
    auto run = clean_run("exactly-once + append", 30);
    run.duplicate_rows = 1;
    run.duplicate_seqs.push_back({250, 2});
    e1::attribute(run);
    CHECK(run.kills[2].duplicates == 1);  // sent_before_kill 300 is the first >= 250
    auto s = e1::summarize(run);
    CHECK(s.kills_with_duplicates == 1);
    CHECK(e1::judge_no_duplicates(no_dups, &run).verdict == verdict_kind::refuted);
}

TEST_CASE("the offsets predictions need a real rewind before they can hold", "[e1][verdict]") {
    e1::samples s;
    s.offsets.events = 6000;
    s.offsets.steps = {{"landed", 6000, 6000, 6000, 0, "j", 0, -1},
                       {"rewound", 0, 6000, 6000, 0, "j", 0, -1},
                       {"restored_from_checkpoint", 6000, 6000, 6000, 0, "j", 1, 7},
                       {"fresh_from_group_offsets", 6000, 6000, 12000, 6000, "k", 0, -1}};
    std::vector<result::prediction> preds{{"e1.recovery-ignores-offsets", "", ""}, {"e1.fresh-job-replays-log", "", ""}};
    auto judged = e1::judge(s, preds);
    CHECK(judged.predictions[0].verdict == verdict_kind::held);
    CHECK(judged.predictions[1].verdict == verdict_kind::held);
    // Mutation (data): the rewind did not take; the recovery claim proves nothing.
    s.offsets.steps[1].committed_offsets_sum = 6000;
    CHECK(e1::judge(s, preds).predictions[0].verdict == verdict_kind::inconclusive);
    // Mutation (data): the fresh job replayed only part of the log.
    s.offsets.steps[3].duplicate_rows = 5999;
    CHECK(e1::judge(s, preds).predictions[1].verdict == verdict_kind::refuted);
}

TEST_CASE("the freeze is the interval between the last old sample and the first new one", "[e2][freeze]") {
    e2::restore_run r;
    r.snapshot_before = 10;
    r.watermark_before = 19;
    r.total_records_before = 16000;
    auto sample = [](std::int64_t t, std::string state, std::int64_t ckpt, std::int64_t lag, std::int64_t snap,
                     std::int64_t wm, std::int64_t records) {
        e2::sample s;
        s.t_ms = t, s.job_state = std::move(state), s.newest_checkpoint_id = ckpt, s.lag = lag, s.snapshot_id = snap,
        s.max_committed_checkpoint_id = wm, s.total_records = records;
        return s;
    };
    r.samples = {sample(0, "", -1, 4000, 10, 19, 16000), sample(500, "RUNNING", 6, 4000, 10, 19, 16000),
                 sample(1000, "RUNNING", 12, 0, 10, 19, 16000), sample(1500, "RUNNING", 19, 0, 10, 19, 16000),
                 sample(2000, "RUNNING", 20, 0, 11, 20, 32000), sample(2500, "RUNNING", 21, 0, 11, 20, 32000)};
    auto a = e2::analyze(r);
    CHECK(a.table_moved);
    CHECK(a.last_old_ms == 1500);
    CHECK(a.first_new_ms == 2000);
    CHECK(a.ended_by_checkpoint == 20);
    CHECK(a.lump_records == 16000);
    CHECK(a.lag_zero_while_stale);
    // Mutation (data): the table moves one sample earlier, at checkpoint 19.
    r.samples[3].snapshot_id = 11, r.samples[3].max_committed_checkpoint_id = 19;
    auto b = e2::analyze(r);
    CHECK(b.first_new_ms == 1500);
    CHECK(b.ended_by_checkpoint == 19);
}
