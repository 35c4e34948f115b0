// test/claims/rule_cases/e1.cpp: experiment 1's rules, each refuted by one
// change to its shipped run (the four configurations and the offsets part).
#include "../rule_cases.hpp"

#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>

namespace rosterrig::claims_test {
namespace {
// One checkpoint committed twice, 1,000 records each time, after the run's last kill.
void commit_a_checkpoint_twice(e1::configuration_run& c) {
    if (!c.snapshot_log) c.snapshot_log.emplace();
    const auto after = c.kills.empty() ? 0 : c.kills.back().killed_at_ms + 1;
    c.snapshot_log->push_back({-1, "append", c.job_id, 1'000'000, 1000, {}, after});
    c.snapshot_log->push_back({-2, "append", c.job_id, 1'000'000, 1000, {}, after + 1});
}
}  // namespace

template <>
std::vector<rule_case<e1::definition>> rule_cases<e1::definition>() {
    using S = e1::samples;
    using P = e1::parameters;
    std::vector<rule_case<e1::definition>> out;
    for (const auto& c : e1::configurations()) {
        out.push_back({"e1.no-duplicates:" + c.name, "the table holds seq 1 twice, after the first kill",
                       [name = c.name](S& s, P&) {
                           auto& r = named(s.configurations, name, &e1::configuration_run::name);
                           r.duplicate_rows = 1;
                           r.duplicate_seqs.push_back({1, 2});
                           e1::attribute(r);
                       },
                       verdict_kind::refuted});
        if (c.table == experiment::table_kind::upsert)
            out.push_back({"e1.no-replay:" + c.name, "one checkpoint is committed by two snapshots",
                           [name = c.name](S& s, P&) {
                               commit_a_checkpoint_twice(named(s.configurations, name, &e1::configuration_run::name));
                           },
                           verdict_kind::refuted});
    }
    out.push_back({"e1.tight-bound", "the upsert table's job committed one checkpoint twice (its rows cannot show it)",
                   [](S& s, P&) {
                       auto& r = named(s.configurations, "exactly-once + upsert", &e1::configuration_run::name);
                       commit_a_checkpoint_twice(r);
                   },
                   verdict_kind::refuted});
    out.push_back({"e1.snapshots-agree-with-rows",
                   "an append table's snapshots added one record the rows do not hold twice",
                   [](S& s, P&) {
                       auto& r = named(s.configurations, "exactly-once + append", &e1::configuration_run::name);
                       if (!r.snapshot_log)  // a run from before snapshots were recorded: one snapshot of every event
                           r.snapshot_log = std::vector<check::snapshot_entry>{
                               {-2, "append", r.job_id, -1, static_cast<std::int64_t>(r.events), {}, 0}};
                       r.snapshot_log->push_back({-1, "append", r.job_id, -1, 1, {}, 0});
                   },
                   verdict_kind::refuted});
    out.push_back({"e1.upsert-holds-latest", "one NPI's row holds an older record than its last",
                   [](S& s, P&) {
                       named(s.configurations, "at-least-once + upsert", &e1::configuration_run::name).stale_rows = 1;
                   },
                   verdict_kind::refuted});
    out.push_back({"e1.recovery-ignores-offsets", "the restored job replayed 50 rows",
                   [](S& s, P&) {
                       named(s.offsets.steps, "restored_from_checkpoint", &e1::offsets_step::step).duplicate_rows = 50;
                   },
                   verdict_kind::refuted});
    out.push_back({"e1.fresh-job-replays-log", "the fresh job replayed one event fewer than the log holds",
                   [](S& s, P&) {
                       auto& x = named(s.offsets.steps, "fresh_from_group_offsets", &e1::offsets_step::step);
                       x.duplicate_rows = s.offsets.events - 1;
                   },
                   verdict_kind::refuted});
    out.push_back({"e1.your-job-lands-exactly-once", "a user's upsert job leaves one NPI holding an older record",
                   [](S& s, P&) {
                       auto& r = named(s.configurations, "exactly-once + upsert", &e1::configuration_run::name);
                       r.name = "your job: upsert.sql";
                       r.stale_rows = 1;
                   },
                   verdict_kind::refuted});
    out.push_back({"e1.your-job-lands-exactly-once", "a user's append job lands every seq once after its kills",
                   [](S& s, P&) {
                       auto& r = named(s.configurations, "exactly-once + append", &e1::configuration_run::name);
                       r.name = "your job: append.sql";
                   },
                   verdict_kind::held});
    return out;
}

}  // namespace rosterrig::claims_test

namespace rosterrig::claims_test {
template <>
std::set<std::string> rules_not_run<e1::definition>() {
    return {};
}
}  // namespace rosterrig::claims_test
