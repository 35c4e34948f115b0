// Experiment 8's pure parts: what a commit body says, when a trial did what its
// cell needs, and rules that can decide both ways on hand-built samples.
#include <catch2/catch.hpp>

#include <set>

#include <rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp>

using namespace rosterrig;
using namespace rosterrig::e8;

namespace {

table_request post(std::uint64_t event, std::uint64_t rule, std::int64_t received, std::int64_t forwarded,
                   std::int64_t replied, unsigned upstream, unsigned answered, std::int64_t watermark) {
    table_request r;
    r.event = event, r.method = "POST", r.rule = rule, r.received_at_ms = received, r.forwarded_at_ms = forwarded;
    r.upstream_replied_at_ms = replied, r.upstream_status = upstream, r.answered_status = answered,
    r.watermark = watermark;
    r.answered_at_ms = answered ? replied + 1 : 0;
    return r;
}
table_request get(std::uint64_t event, std::int64_t forwarded) {
    table_request r;
    r.event = event, r.method = "GET", r.received_at_ms = forwarded, r.forwarded_at_ms = forwarded;
    r.upstream_replied_at_ms = forwarded + 5, r.upstream_status = 200, r.answered_status = 200;
    return r;
}

// A zombie_409 trial as the proxy logs it: A (rule 1) received at 1000 and
// forwarded at 21000 after the kill at 1100; the replay B (rule 2) received at
// 9000, forwarded at 29000, 409; the retry applied at 29100.
trial zombie_409_trial() {
    trial t;
    t.index = 1, t.kind = cell::zombie_409, t.hit_rule = 1, t.b_rule = 2;
    experiment::kill_record k;
    k.killed_at_ms = 1100;
    t.kill = k;
    t.requests = {post(10, 1, 1000, 21000, 21050, 200, 0, 7), get(11, 8000),
                  post(12, 2, 9000, 29000, 29010, 409, 409, 7), get(13, 29050),
                  post(14, 0, 29100, 29100, 29150, 200, 200, 7)};
    return t;
}

check::snapshot_entry snap(std::int64_t id, std::int64_t watermark, std::int64_t records) {
    return {id, "append", "job", watermark, records, {}};
}

writer_run run_with(trial t, std::vector<check::snapshot_entry> snapshots) {
    writer_run r;
    r.writer = "sinkv2", r.observed = true, r.events = 300;
    r.trials = {std::move(t)};
    r.snapshots = std::move(snapshots);
    return r;
}

}  // namespace

TEST_CASE("e8: a commit body gives the snapshot it adds and that snapshot's watermark", "[e8]") {
    const std::string body = R"({"identifier":{"namespace":["ns"],"name":"t"},"requirements":[],"updates":[
        {"action":"add-snapshot","snapshot":{"snapshot-id":42,"summary":{"operation":"append",
         "flink.max-committed-checkpoint-id":"12","added-records":"100","flink.job-id":"j1"}}},
        {"action":"set-snapshot-ref","ref-name":"main","snapshot-id":42}]})";
    const auto b = commit_body_of(body);
    CHECK(b.snapshot_id == 42);
    CHECK(b.watermark == 12);
    CHECK(b.added_records == 100);
    CHECK(b.writer_id == "j1");
    // A body cut short by the proxy's limit, or not a commit, gives nothing.
    CHECK(commit_body_of(body.substr(0, 40)).watermark == -1);
    CHECK(commit_body_of(R"({"updates":[{"action":"set-properties"}]})").snapshot_id == 0);
}

// Mutation: in validity_of's zombie_409 branch, accept any status from B
// (drop the 409 test): the 200 trial below reads valid and this fails (checked).
TEST_CASE("e8: a zombie-409 trial is valid only when A lands after the kill and the replay gets 409", "[e8]") {
    auto t = zombie_409_trial();
    CHECK(validity_of(t).valid);
    auto landed_first = t;
    landed_first.requests[2].upstream_status = 200;  // the replay came after A had landed: no race
    CHECK_FALSE(validity_of(landed_first).valid);
    auto before_kill = t;
    before_kill.requests[0].forwarded_at_ms = 1050;  // A applied before the kill: not a zombie
    CHECK_FALSE(validity_of(before_kill).valid);
    auto stopped = t;
    stopped.failure = "timed out";
    CHECK_FALSE(validity_of(stopped).valid);
}

TEST_CASE("e8: a zombie-refresh trial needs A to land between the restored load and the replay's refresh, with no 409",
          "[e8]") {
    trial t;
    t.index = 1, t.kind = cell::zombie_refresh, t.hit_rule = 1, t.get_rule = 3;
    experiment::kill_record k;
    k.killed_at_ms = 1100;
    t.kill = k;
    t.requests = {post(10, 1, 1000, 36000, 36050, 200, 0, 7), get(11, 25000), get(12, 45000),
                  post(13, 0, 45100, 45100, 45150, 200, 200, 7)};
    CHECK(validity_of(t).valid);
    auto no_refresh_after = t;
    no_refresh_after.requests[2].forwarded_at_ms = 30000;  // both GETs before A landed: the refresh saw no A
    CHECK_FALSE(validity_of(no_refresh_after).valid);
    auto with_409 = t;
    with_409.requests[3].upstream_status = 409;
    with_409.requests.push_back(post(14, 0, 46000, 46000, 46050, 200, 200, 7));
    CHECK_FALSE(validity_of(with_409).valid);
}

// Mutation: in outcome_of, count only the first snapshot with the watermark
// (ids.size() -> min(1, ids.size())): the doubled run reads clean and this fails (checked).
TEST_CASE(
    "e8: two snapshots carrying the hit checkpoint's watermark are a double commit, and their extra records are counted",
    "[e8]") {
    const auto doubled = run_with(zombie_409_trial(), {snap(1, 6, 100), snap(2, 7, 100), snap(3, 7, 100)});
    const auto o = outcome_of(doubled, doubled.trials[0]);
    CHECK(o.checkpoint == 7);
    CHECK(o.commits_of_checkpoint == 2);
    CHECK(o.doubled());
    CHECK(o.excess_records == 100);
    const auto once = run_with(zombie_409_trial(), {snap(1, 6, 100), snap(2, 7, 200)});
    CHECK_FALSE(outcome_of(once, once.trials[0]).doubled());
}

// The rules decide both ways: a doubling prediction is refuted by a valid
// trial that committed once, a no-doubling one by a valid trial that doubled.
TEST_CASE("e8: the zombie rule is refuted by a valid trial that committed its checkpoint once", "[e8]") {
    samples s;
    s.runs = {run_with(zombie_409_trial(), {snap(1, 6, 100), snap(2, 7, 200)})};
    CHECK(judge_cell(s, "sinkv2", cell::zombie_409).verdict == verdict_kind::refuted);
    s.runs = {run_with(zombie_409_trial(), {snap(1, 6, 100), snap(2, 7, 100), snap(3, 7, 100)})};
    // Doubled as predicted, but one trial on the append table only: not enough to hold.
    CHECK(judge_cell(s, "sinkv2", cell::zombie_409).verdict == verdict_kind::inconclusive);
    CHECK(judge_cell(s, "flinksink", cell::zombie_409).verdict == verdict_kind::inconclusive);
}

TEST_CASE("e8: a lost-reply rule is refuted by a double commit, or by a trial that failed Flink other than once",
          "[e8]") {
    trial t;
    t.index = 1, t.kind = cell::lose_reply, t.hit_rule = 1, t.exceptions_before = 0, t.exceptions_after = 1;
    auto lost = post(10, 1, 1000, 1000, 1050, 200, 0, 7);
    lost.dropped_at_ms = 1060;
    t.requests = {lost};
    samples s;
    s.runs = {run_with(t, {snap(1, 6, 100), snap(2, 7, 100)})};
    CHECK(validity_of(t).valid);
    CHECK(judge_cell(s, "sinkv2", cell::lose_reply).verdict == verdict_kind::inconclusive);  // clean, but 1 < 30
    s.runs = {run_with(t, {snap(1, 6, 100), snap(2, 7, 100), snap(3, 7, 100)})};
    CHECK(judge_cell(s, "sinkv2", cell::lose_reply).verdict == verdict_kind::refuted);
    auto twice = t;
    twice.exceptions_after = 2;
    s.runs = {run_with(twice, {snap(1, 6, 100), snap(2, 7, 100)})};
    CHECK(judge_cell(s, "sinkv2", cell::lose_reply).verdict == verdict_kind::refuted);
}

TEST_CASE("e8: the same seed draws the same plan, every step with a heal, and bad parameters are refused", "[e8]") {
    const auto p = parameters::full();
    CHECK(fault_plan(p) == fault_plan(p));
    auto other = p;
    other.seed = p.seed + 1;
    CHECK_FALSE(fault_plan(other) == fault_plan(p));
    for (const auto& step : fault_plan(p).steps) {
        CHECK_FALSE(step.heal.empty());
        CHECK(step.delay_ms >= 2);
        CHECK(step.delay_ms <= 5);
    }
    CHECK_FALSE(usage_problem(p, 12));
    auto bad = p;
    bad.statuses = {501};
    CHECK(usage_problem(bad, 12));
    bad = p;
    for (auto& c : bad.cells) c.trials = 0;
    bad.more_tables.reset();
    CHECK(usage_problem(bad, 12));
    bad = p;
    bad.more_tables->push_back({table_variant::append, {{cell::lose_reply, 1}}});  // the append table runs `cells`
    CHECK(usage_problem(bad, 12));
    bad = p;
    bad.writers = {"connect"};
    CHECK(usage_problem(bad, 12));
    bad = p;
    bad.zombie_409_timing.a_ms = p.socket_timeout_ms;
    CHECK(usage_problem(bad, 12));
    CHECK(usage_problem(p, 1));
    CHECK(parameters::repro_run("sinkv2-zombie-409"));
    CHECK_FALSE(parameters::repro_run("sinkv2-zombie"));
}

// Mutation: draw the more tables' steps before the append runs', and the append steps change with them.
TEST_CASE("e8: more tables add their steps after the append runs', which stay as the same seed drew them without them",
          "[e8]") {
    auto p = parameters::full();
    REQUIRE(p.more_tables);
    const auto with = fault_plan(p);
    p.more_tables.reset();
    const auto without = fault_plan(p);
    REQUIRE(with.steps.size() > without.steps.size());
    for (std::size_t i = 0; i < without.steps.size(); ++i) CHECK(with.steps[i] == without.steps[i]);
    std::set<std::string> runs;
    for (std::size_t i = without.steps.size(); i < with.steps.size(); ++i)
        runs.insert(with.steps[i].variant.substr(0, with.steps[i].variant.find('/')));
    CHECK(runs == std::set<std::string>{"sinkv2-upsert", "sinkv2-append-no-retries", "sinkv2-upsert-no-retries",
                                        "flinksink-upsert", "flinksink-append-no-retries",
                                        "flinksink-upsert-no-retries"});
    CHECK(run_name("sinkv2", table_variant::append) == "sinkv2");
}

// Mutation: always push_back in keep_trial: the second save of trial 1 makes two records and this fails.
TEST_CASE("e8: a trial saved twice is one record holding its last state, and the next trial is a record of its own",
          "[e8]") {
    e8::writer_run r;
    e8::trial t;
    t.index = 1;
    e8::keep_trial(r, t);
    t.failure = "void";
    e8::keep_trial(r, t);
    REQUIRE(r.trials.size() == 1);
    CHECK(r.trials.at(0).failure == "void");
    t.index = 2, t.failure.clear();
    e8::keep_trial(r, t);
    REQUIRE(r.trials.size() == 2);
    CHECK(r.trials.at(1).index == 2);
}

// Mutation: tables() ignoring the job (the rig's append run and more tables) fails the single run and its name.
TEST_CASE(
    "e8: a user's job runs the cells once, as the writer 'job', on the table kind its template was planned to make",
    "[e8]") {
    auto p = parameters::full();
    p.job = experiment::job_template{"mine.sql", "", "", experiment::template_plan{}};
    p.job->plan->kind = experiment::table_kind::upsert;
    CHECK(p.writer_names() == std::vector<std::string>{"job"});
    REQUIRE(p.tables().size() == 1);
    CHECK(p.tables().front().table == table_variant::upsert);
    CHECK(p.tables().front().cells == p.cells);
    std::set<std::string> runs;
    for (const auto& step : fault_plan(p).steps) runs.insert(step.variant.substr(0, step.variant.find('/')));
    CHECK(runs == std::set<std::string>{"job-upsert"});
    CHECK_FALSE(usage_problem(p, 12));
}
