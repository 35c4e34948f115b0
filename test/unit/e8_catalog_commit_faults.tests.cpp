// Experiment 8's pure parts: what a commit body says, when a trial did what its
// cell needs, and rules that can decide both ways on hand-built samples.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>
#include <utility>

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
                                        "sinkv2-append-short-timeout", "sinkv2-upsert-short-timeout",
                                        "flinksink-upsert", "flinksink-append-no-retries",
                                        "flinksink-upsert-no-retries", "flinksink-append-short-timeout",
                                        "flinksink-upsert-short-timeout"});
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

namespace {

const std::string flink_job = "0123456789abcdef0123456789abcdef";
// A FlinkSink temporary manifest of checkpoint `c`, as iceberg-flink 1.10 names it.
std::string flink_manifest(std::int64_t c) {
    return "metadata/" + flink_job + "-f1e2d3c4b5a6978812345678abcdef01-00000-0-" + std::to_string(c) + "-00001.avro";
}

// A lost reply of checkpoint 7, armed at 10,000 ms and settled at 20,000, in a
// run whose store holds only what `unreferenced` lists beyond the metadata's files.
samples lost_reply_run(std::vector<experiment::stray_file> unreferenced) {
    trial t;
    t.index = 1, t.kind = cell::lose_reply, t.hit_rule = 1, t.exceptions_after = 1;
    t.armed_at_ms = 10000, t.healed_at_ms = 15000, t.settled_at_ms = 20000;
    auto lost = post(10, 1, 11000, 11000, 11050, 200, 0, 7);
    lost.dropped_at_ms = 11060;
    t.requests = {lost};
    samples s;
    s.runs = {run_with(t, {snap(1, 6, 100), snap(2, 7, 100)})};
    s.runs[0].store = experiment::store_check{"listing", 30000, 12, {}, std::move(unreferenced)};
    return s;
}

}  // namespace

// Mutation: in flink_manifest_checkpoint, read the checkpoint from the last
// field (the count) instead of the one before it: this fails.
TEST_CASE("a Flink committer's temporary manifest names its checkpoint, and manifest lists and commit manifests do not",
          "[e8]") {
    CHECK(experiment::flink_manifest_checkpoint(flink_manifest(42)) == 42);
    CHECK(experiment::flink_manifest_checkpoint("s3://w/t/" + flink_manifest(7)) == 7);
    const std::string list = "metadata/snap-5128312358221112345-1-0a1b2c3d-0000-4000-8000-000000012345.avro";
    const std::string manifest = "metadata/0a1b2c3d-1111-4000-8000-000000000001-m0.avro";
    CHECK_FALSE(experiment::flink_manifest_checkpoint(list));
    CHECK_FALSE(experiment::flink_manifest_checkpoint(manifest));
    CHECK_FALSE(
        experiment::flink_manifest_checkpoint("metadata/00012-0a1b2c3d-1111-4000-8000-000000000001.metadata.json"));
    CHECK(experiment::is_manifest_list(list));
    CHECK_FALSE(experiment::is_manifest_list(manifest));
    CHECK(experiment::is_commit_manifest(manifest));
    CHECK_FALSE(experiment::is_commit_manifest(list));
    CHECK_FALSE(experiment::is_commit_manifest(flink_manifest(3)));
}

// Mutation: check_store comparing full paths with the listing's relative ones
// (the location not stripped): every file is then missing and unreferenced, and this fails.
TEST_CASE("the store check names the referenced files the store lacks and the files nothing references", "[e8]") {
    const std::vector<experiment::listed_file> files{
        {"data/a.parquet", 10, 3000}, {"data/b.parquet", 20, 1000}, {"metadata/snap-1-1-x.avro", 5, 2000}};
    const auto c = experiment::check_store(
        files, "s3://w/ns/t",
        {"s3://w/ns/t/data/a.parquet", "s3://w/ns/t/data/gone.parquet", "s3://elsewhere/data/x.parquet"});
    CHECK(c.referenced == 2);
    CHECK(c.referenced_missing == std::vector<std::string>{"data/gone.parquet"});
    REQUIRE(c.unreferenced.size() == 2);
    CHECK(c.unreferenced[0].relative == "data/b.parquet");  // oldest first
    CHECK(c.unreferenced[1].relative == "metadata/snap-1-1-x.avro");
}

// Mutation: strays_of taking a Flink manifest of any checkpoint, not only the
// hit's (`*of == c` dropped: the one of checkpoint 9 counted): this fails.
TEST_CASE("e8: a trial is matched to the Flink manifests of its checkpoint and the commit files written while it ran",
          "[e8]") {
    const auto s = lost_reply_run({{flink_manifest(7), 1, 9000},
                                   {flink_manifest(9), 1, 12000},
                                   {"metadata/snap-9-1-u.avro", 1, 12000},
                                   {"metadata/u-m0.avro", 1, 21500},
                                   {"metadata/v-m0.avro", 1, 7000},
                                   {"metadata/00003-u.metadata.json", 1, 12000}});
    const auto st = strays_of(s.runs[0], s.runs[0].trials[0]);
    CHECK(st.listed);
    CHECK(st.flink_manifests == std::vector<std::string>{flink_manifest(7)});
    CHECK(st.manifest_lists == std::vector<std::string>{"metadata/snap-9-1-u.avro"});
    CHECK(st.commit_manifests.empty());  // 21,500 is past the settle's second; 7,000 before the arming's two
    CHECK(strays_of_no_trial(s.runs[0]) ==
          std::vector<std::string>{flink_manifest(9), "metadata/u-m0.avro", "metadata/v-m0.avro"});
}

// Mutations: judge_unacknowledged_orphans without its lose-reply check, or
// referenced_file_missing returning nothing: this fails.
TEST_CASE(
    "e8: the store rules are refuted by a missing referenced file or a lost reply that left no manifest, and "
    "stay inconclusive while the Connect sink and held replies do not run",
    "[e8]") {
    auto s = lost_reply_run({{flink_manifest(7), 1, 9000}});
    CHECK(judge_unacknowledged_orphans(s).verdict == verdict_kind::inconclusive);
    CHECK(judge_no_referenced_missing(s).verdict == verdict_kind::inconclusive);
    CHECK(judge_no_referenced_missing(s).reason.find("as predicted so far") != std::string::npos);

    auto none_left = lost_reply_run({});
    CHECK(judge_unacknowledged_orphans(none_left).verdict == verdict_kind::refuted);
    CHECK(judge_no_referenced_missing(none_left).verdict == verdict_kind::inconclusive);

    s.runs[0].store->referenced_missing = {"data/gone.parquet"};
    CHECK(judge_no_referenced_missing(s).verdict == verdict_kind::refuted);
    CHECK(judge_unacknowledged_orphans(s).verdict == verdict_kind::refuted);

    s.runs[0].store.reset();  // a run from before the listing: judged as it was
    CHECK(judge_no_referenced_missing(s).reason ==
          "not run: this version does not list the store against the "
          "snapshots' files");
}

// Mutation: the upsert table's lose_reply back at 10 trials in full(), or
// its zombie-late at 4: this fails.
TEST_CASE("e8's full run runs each cell on the append and the upsert table as many times as its prediction asks",
          "[e8]") {
    const auto p = parameters::full();
    const auto trials_of = [](const table_cells& t, cell c) {
        std::uint64_t n = 0;
        for (const auto& x : t.cells)
            if (x.kind == c) n += x.trials;
        return n;
    };
    std::set<experiment::table_kind> short_timeout_kinds;
    for (const auto& t : p.tables()) {
        if (retries_off(t.table)) continue;
        INFO(run_name("writer", t.table));
        if (short_client_timeout(t.table)) {
            CHECK(trials_of(t, cell::held_past_timeout) >= asked_trials(cell::held_past_timeout));
            short_timeout_kinds.insert(kind_of(t.table));
            continue;
        }
        for (const auto c :
             {cell::lose_reply, cell::status_unforwarded, cell::forward_then_504, cell::zombie_409,
              cell::zombie_refresh, cell::held_kill_late_release, cell::zombie_early, cell::zombie_late}) {
            INFO(stem_of(c));
            CHECK(trials_of(t, c) >= asked_trials(c));
        }
    }
    CHECK(short_timeout_kinds.size() == 2);
    CHECK(trials_of(p.tables().front(), cell::held_no_timeout) >= asked_trials(cell::held_no_timeout));
    for (const auto& t : p.tables())
        if (retries_off(t.table)) CHECK(trials_of(t, cell::zombie_refresh) >= asked_trials(cell::zombie_refresh));
    CHECK_FALSE(usage_problem(p, 12));
}

// Mutation: usage_problem without its short-timeout check: the two bad plans
// below pass and this fails.
TEST_CASE("e8 refuses a held-past-timeout cell without the short client timeout, and any other cell with it", "[e8]") {
    auto p = parameters::full();
    p.cells.push_back({cell::held_past_timeout, 1});
    CHECK(usage_problem(p, 12));
    p = parameters::full();
    p.more_tables->push_back({table_variant::append_short_timeout, {{cell::lose_reply, 1}}});
    CHECK(usage_problem(p, 12));
    p = parameters::full();
    p.held_past_timeout_ms = p.short_socket_timeout();  // no longer past the client's timeout
    CHECK(usage_problem(p, 12));
    p = parameters::full();
    p.zombie_early_ms = p.zombie_late();
    CHECK(usage_problem(p, 12));
    CHECK(parameters::full().socket_timeout_of(table_variant::upsert_short_timeout) == 10000);
    CHECK(parameters::full().socket_timeout_of(table_variant::upsert) == parameters::full().socket_timeout_ms);
}

namespace {
// A held_kill_late_release trial as the proxy logs it: the hit (rule 1) of
// checkpoint 7 forwarded at 1000 and applied at 1050, its reply held; the kill
// at 1100; the restored job's commit of checkpoint 9 applied at 20050; the
// reply let go at `released`.
trial held_trial(std::int64_t released) {
    trial t;
    t.index = 1, t.kind = cell::held_kill_late_release, t.hit_rule = 1, t.exceptions_after = 1;
    experiment::kill_record k;
    k.killed_at_ms = 1100;
    t.kill = k;
    auto hit = post(10, 1, 1000, 1000, 1050, 200, 0, 7);
    hit.released_at_ms = released, hit.released_by = "heal";
    t.requests = {hit, get(11, 9000), post(12, 0, 20000, 20000, 20050, 200, 200, 9)};
    return t;
}
}  // namespace

// Mutation: held_validity without its "let go before a later checkpoint
// landed" check (a reply released at 15,000 counted): this fails.
TEST_CASE(
    "e8: a held reply's trial counts only when its commit was applied before the kill and let go after a "
    "later checkpoint landed",
    "[e8]") {
    CHECK(validity_of(held_trial(20100)).valid);
    CHECK_FALSE(validity_of(held_trial(15000)).valid);  // released before checkpoint 9 landed
    auto late = held_trial(20100);
    late.requests[0].upstream_replied_at_ms = 1200;  // applied after the kill
    CHECK_FALSE(validity_of(late).valid);
    auto unheld = held_trial(20100);
    unheld.requests[0].released_at_ms.reset();
    CHECK_FALSE(validity_of(unheld).valid);
    samples s;
    s.runs = {run_with(held_trial(20100), {snap(1, 7, 100), snap(2, 9, 100)})};
    CHECK(judge_cell(s, "sinkv2", cell::held_kill_late_release).verdict == verdict_kind::inconclusive);  // 1 < 30
    s.runs = {run_with(held_trial(20100), {snap(1, 7, 100), snap(2, 7, 100), snap(3, 9, 100)})};
    CHECK(judge_cell(s, "sinkv2", cell::held_kill_late_release).verdict == verdict_kind::refuted);
    CHECK(fault_plan(parameters::quick_run()).steps.at(3).kind == experiment::fault_kind::http_hold_reply);
}

// Mutation: `recorded` not asking whether the run was read (observed): the run
// stopped mid-way counts as done, is not run again, and this fails.
TEST_CASE("a resumed e8 run keeps the writer runs read to their end and redoes the one it stopped in", "[e8]") {
    samples s;
    writer_run done;
    done.writer = "sinkv2", done.observed = true;
    writer_run stopped;
    stopped.writer = "sinkv2", stopped.on_table = table_variant::upsert;
    s.runs = {done, stopped};
    CHECK(recorded(s, "sinkv2"));
    CHECK_FALSE(recorded(s, "sinkv2-upsert"));
    CHECK_FALSE(recorded(s, "flinksink"));
    CHECK(drop_unobserved(s) == 1);
    REQUIRE(s.runs.size() == 1);
    CHECK(run_name(s.runs[0]) == "sinkv2");
}

namespace {
// A run of `n` trials on `v`, the i-th (from 0) and the snapshots it leaves made by `make(i)`.
writer_run run_of(const std::string& writer, table_variant v, std::int64_t n,
                  const std::function<std::pair<trial, std::vector<check::snapshot_entry>>(std::int64_t)>& make) {
    writer_run r;
    r.writer = writer, r.on_table = v, r.observed = true, r.events = 300;
    if (kind_of(v) == experiment::table_kind::upsert) r.rows_sharing_npi = 0, r.missing_npis = 0, r.stale_rows = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        auto [t, snapshots] = make(i);
        t.index = static_cast<std::uint64_t>(i + 1);
        r.trials.push_back(std::move(t));
        r.snapshots.insert(r.snapshots.end(), snapshots.begin(), snapshots.end());
    }
    return r;
}

// A held reply with no kill, as the proxy logs it: the hit (rule 1) of
// checkpoint 7 + 10i forwarded at 1000 and applied at 1050, its reply let go
// at its deadline `held_ms` later with `note`; the next commit at 40050.
trial held_to_deadline(cell c, std::int64_t i, std::int64_t held_ms, std::string note) {
    trial t;
    t.kind = c, t.hit_rule = 1, t.exceptions_after = c == cell::held_past_timeout ? 1 : 0;
    t.failed_checkpoints_before = 3, t.failed_checkpoints_after = 3;
    auto hit = post(10, 1, 1000, 1000, 1050, 200, 0, 7 + 10 * i);
    hit.released_at_ms = 1050 + held_ms, hit.released_by = "deadline", hit.note = std::move(note);
    t.requests = {hit, post(12, 0, 40000, 40000, 40050, 200, 200, 9 + 10 * i)};
    return t;
}

// A zombie outside the window, the kill at 1100. Early: A (rule 1, snapshot
// 1000 + i) delayed from 1000 to 1500 and applied at 1550; the restored job
// reads the table at 5000 and commits a later checkpoint at 9050. Late: the
// restored job's replay (snapshot 2000 + i) applied at 9050; A forwarded at
// 61000 and refused, 409.
trial outside_trial(cell c, std::int64_t i) {
    const auto w = 7 + 10 * i;
    trial t;
    t.kind = c, t.hit_rule = 1, t.exceptions_after = 1;
    experiment::kill_record k;
    k.killed_at_ms = 1100;
    t.kill = k;
    if (c == cell::zombie_early) {
        auto a = post(10, 1, 1000, 1500, 1550, 200, 0, w);
        a.snapshot_id = 1000 + i;
        t.requests = {a, get(11, 5000), post(12, 0, 9000, 9000, 9050, 200, 200, w + 2)};
    } else {
        auto a = post(10, 1, 1000, 61000, 61010, 409, 0, w);
        a.snapshot_id = 1000 + i;
        auto replay = post(12, 0, 9000, 9000, 9050, 200, 200, w);
        replay.snapshot_id = 2000 + i;
        t.requests = {a, get(11, 5000), replay};
    }
    return t;
}
// The one snapshot of that trial's checkpoint: A's when early, the replay's when late.
check::snapshot_entry outside_snapshot(cell c, std::int64_t i) {
    return snap(c == cell::zombie_early ? 1000 + i : 2000 + i, 7 + 10 * i, 100);
}
const std::string client_gave_up = "answering the client failed: it had closed its connection while its reply was held";
}  // namespace

// Mutation: judge_held_past_timeout without its note check (a late reply
// delivered to an open connection): the delivered case reads held and this fails.
TEST_CASE(
    "e8: a reply held past the client's timeout counts when applied and let go at its deadline, and its rule needs "
    "ten per table kind, each undelivered and failing the job once",
    "[e8]") {
    const auto run = [](table_variant v, std::int64_t n, std::string note, std::int64_t failures) {
        return run_of("sinkv2", v, n, [&](std::int64_t i) {
            auto t = held_to_deadline(cell::held_past_timeout, i, 30000, note);
            t.exceptions_after = failures;
            return std::pair{t, std::vector{snap(1 + i, 7 + 10 * i, 100)}};
        });
    };
    CHECK(validity_of(held_to_deadline(cell::held_past_timeout, 0, 30000, client_gave_up)).valid);
    auto released = held_to_deadline(cell::held_past_timeout, 0, 30000, client_gave_up);
    released.requests[0].released_by = "heal";
    CHECK_FALSE(validity_of(released).valid);
    auto refused = held_to_deadline(cell::held_past_timeout, 0, 30000, client_gave_up);
    refused.requests[0].upstream_status = 503;
    CHECK_FALSE(validity_of(refused).valid);
    samples s;
    s.runs = {run(table_variant::append_short_timeout, 10, client_gave_up, 1),
              run(table_variant::upsert_short_timeout, 10, client_gave_up, 1)};
    CHECK(judge_held_past_timeout(s, "sinkv2").verdict == verdict_kind::held);
    s.runs[1] = run(table_variant::upsert_short_timeout, 9, client_gave_up, 1);
    CHECK(judge_held_past_timeout(s, "sinkv2").verdict == verdict_kind::inconclusive);
    s.runs[1] = run(table_variant::upsert_short_timeout, 10, "", 1);  // delivered
    CHECK(judge_held_past_timeout(s, "sinkv2").verdict == verdict_kind::refuted);
    s.runs[1] = run(table_variant::upsert_short_timeout, 10, client_gave_up, 2);
    CHECK(judge_held_past_timeout(s, "sinkv2").verdict == verdict_kind::refuted);
}

// Mutations: outside_validity's early branch without its GET check makes the
// read-first case valid; judge_outside_window's late branch without its 409
// check makes the applied-A case held: each fails this.
TEST_CASE(
    "e8: a zombie outside the window counts only when it landed before the restored read (early) or after the "
    "restored job's first commit (late), and must double nothing",
    "[e8]") {
    CHECK(validity_of(outside_trial(cell::zombie_early, 0)).valid);
    CHECK(validity_of(outside_trial(cell::zombie_late, 0)).valid);
    auto read_first = outside_trial(cell::zombie_early, 0);
    read_first.requests[1].forwarded_at_ms = 1200;  // the restored job read the table before A landed
    CHECK_FALSE(validity_of(read_first).valid);
    auto seen = outside_trial(cell::zombie_early, 0);
    seen.requests[0].answered_at_ms = 1090;  // the committer had A's reply before the kill
    CHECK_FALSE(validity_of(seen).valid);
    auto in_window = outside_trial(cell::zombie_late, 0);
    in_window.requests[0].forwarded_at_ms = 8000;  // before the restored job's first commit was applied
    CHECK_FALSE(validity_of(in_window).valid);

    const auto run = [](table_variant v, const std::function<void(trial&)>& change) {
        return run_of("sinkv2", v, 10, [&](std::int64_t i) {
            const auto c = i < 5 ? cell::zombie_early : cell::zombie_late;
            auto t = outside_trial(c, i);
            if (change) change(t);
            return std::pair{t, std::vector{outside_snapshot(c, i)}};
        });
    };
    samples s;
    s.runs = {run(table_variant::append, {}), run(table_variant::upsert, {})};
    CHECK(judge_outside_window(s, "sinkv2").verdict == verdict_kind::held);
    s.runs[1] = run(table_variant::upsert, [](trial& t) {
        if (t.kind == cell::zombie_late) t.requests[0].upstream_status = 200;  // A applied after the replay
    });
    CHECK(judge_outside_window(s, "sinkv2").verdict == verdict_kind::refuted);
    s.runs[1] = run(table_variant::upsert, [](trial& t) {
        if (t.kind == cell::zombie_early) t.requests[0].snapshot_id = 1;  // the one snapshot is not A's
    });
    CHECK(judge_outside_window(s, "sinkv2").verdict == verdict_kind::refuted);
    s.runs = {run(table_variant::append, {})};
    CHECK(judge_outside_window(s, "sinkv2").verdict == verdict_kind::inconclusive);  // no upsert table yet
}

// Mutation: judge_held_no_timeout without its commit-time check: the case
// committed after the release reads held and this fails.
TEST_CASE(
    "e8: a reply held under the client's timeout must only stall each Flink writer: no failure, no failed "
    "checkpoint, its checkpoint committed once and before the release",
    "[e8]") {
    const auto run = [](const std::string& w, const std::function<void(trial&, check::snapshot_entry&)>& change) {
        return run_of(w, table_variant::append, 5, [&](std::int64_t i) {
            auto t = held_to_deadline(cell::held_no_timeout, i, 20000, "");
            auto committed = snap(1 + i, 7 + 10 * i, 100);
            committed.timestamp_ms = 1040;
            if (change) change(t, committed);
            return std::pair{t, std::vector{committed}};
        });
    };
    CHECK(validity_of(held_to_deadline(cell::held_no_timeout, 0, 20000, "")).valid);
    samples s;
    s.runs = {run("sinkv2", {}), run("flinksink", {})};
    CHECK(judge_held_no_timeout(s).verdict == verdict_kind::held);
    s.runs[1] = run("flinksink", [](trial&, check::snapshot_entry& c) { c.timestamp_ms = 30000; });
    CHECK(judge_held_no_timeout(s).verdict == verdict_kind::refuted);
    s.runs[1] = run("flinksink", [](trial& t, check::snapshot_entry&) { *t.failed_checkpoints_after += 1; });
    CHECK(judge_held_no_timeout(s).verdict == verdict_kind::refuted);
    s.runs[1] = run("flinksink", [](trial& t, check::snapshot_entry&) { t.exceptions_after = 1; });
    CHECK(judge_held_no_timeout(s).verdict == verdict_kind::refuted);
    s.runs[1] = run("flinksink", [](trial& t, check::snapshot_entry&) { t.failed_checkpoints_after.reset(); });
    CHECK(judge_held_no_timeout(s).verdict == verdict_kind::inconclusive);
    s.runs = {run("sinkv2", {})};
    CHECK(judge_held_no_timeout(s).verdict == verdict_kind::inconclusive);  // FlinkSink has none
}

// A result from before these cells is judged as it was recorded; a run of
// this version judges them. Mutation: the rules' wrapper without its
// of_this_version check: the old run is judged and this fails.
TEST_CASE("e8 judges the held, timeout and outside-window cells only on runs that could have them", "[e8]") {
    samples s;
    s.runs = {run_of("sinkv2", table_variant::append_short_timeout, 10,
                     [](std::int64_t i) {
                         return std::pair{held_to_deadline(cell::held_past_timeout, i, 30000, client_gave_up),
                                          std::vector{snap(1 + i, 7 + 10 * i, 100)}};
                     }),
              run_of("sinkv2", table_variant::upsert_short_timeout, 10, [](std::int64_t i) {
                  return std::pair{held_to_deadline(cell::held_past_timeout, i, 30000, client_gave_up),
                                   std::vector{snap(1 + i, 7 + 10 * i, 100)}};
              })};
    const auto judged = [&](const parameters& p) {
        for (const auto& r : rules())
            if (r.id == "e8.held-past-timeout:sinkv2") return r.judge(s, p);
        FAIL("no rule e8.held-past-timeout:sinkv2");
        return experiment::rule_verdict{};
    };
    const auto before = judged(parameters{});
    CHECK(before.verdict == verdict_kind::inconclusive);
    CHECK(before.reason ==
          "not run: this version has no held-reply cell (http_hold_reply with a short client timeout)");
    CHECK(judged(parameters::full()).verdict == verdict_kind::held);
    CHECK(judged(parameters::quick_run()).verdict == verdict_kind::held);
}

namespace {
// A valid zombie-refresh trial on checkpoint 7 + 10i (the shape of the
// zombie-refresh validity case above): A lands between the restored load and
// the replay's refresh.
trial refresh_trial(std::int64_t i) {
    const auto w = 7 + 10 * i;
    trial t;
    t.kind = cell::zombie_refresh, t.hit_rule = 1, t.get_rule = 3, t.exceptions_after = 1;
    experiment::kill_record k;
    k.killed_at_ms = 1100;
    t.kill = k;
    t.requests = {post(10, 1, 1000, 36000, 36050, 200, 0, w), get(11, 25000), get(12, 45000),
                  post(13, 0, 45100, 45100, 45150, 200, 200, w)};
    return t;
}
// A run of five refresh trials on `v`, each checkpoint committed twice (100 records each time).
writer_run doubled_refresh_run(table_variant v) {
    auto r = run_of("sinkv2", v, 5, [](std::int64_t i) {
        return std::pair{refresh_trial(i),
                         std::vector{snap(100 + 2 * i, 7 + 10 * i, 100), snap(101 + 2 * i, 7 + 10 * i, 100)}};
    });
    r.duplicate_rows = 500;
    r.table_properties = std::map<std::string, std::string>{};
    if (retries_off(v)) (*r.table_properties)["commit.retry.num-retries"] = "0";
    return r;
}
}  // namespace

// Mutations: judge_refresh_with_retry_off without its retry-off part holds
// the first case below; explained_duplicates returning 0 refutes the
// no-retries 409 recipe on the refresh trials' duplicates: each fails this.
TEST_CASE(
    "e8's refresh recipe holds only with five doubled trials with the retry off besides those with it on, and their "
    "duplicates do not count against the no-retries 409 recipe",
    "[e8]") {
    samples s;
    s.runs = {doubled_refresh_run(table_variant::append), doubled_refresh_run(table_variant::upsert)};
    s.runs[1].rows_sharing_npi = 0, s.runs[1].missing_npis = 0, s.runs[1].stale_rows = 0;
    CHECK(judge_refresh_with_retry_off(s, "sinkv2").verdict == verdict_kind::inconclusive);  // none with the retry off
    s.runs.push_back(doubled_refresh_run(table_variant::append_no_retries));
    CHECK(judge_refresh_with_retry_off(s, "sinkv2").verdict == verdict_kind::held);
    CHECK(explained_duplicates(s.runs[2]) == 500);
    // The no-retries 409 recipe on that run: no 409 trial, so its table check decides nothing.
    CHECK(judge_no_retries(s, "sinkv2").verdict == verdict_kind::inconclusive);
    s.runs[2].trials.push_back(zombie_409_trial());
    s.runs[2].trials.back().index = 6;
    for (auto& q : s.runs[2].trials.back().requests) q.watermark = 99;  // a checkpoint of its own
    s.runs[2].snapshots.push_back(snap(300, 99, 100));  // the 409 trial's checkpoint committed once, by A
    s.runs[2].trials.back().exceptions_after = 2;
    CHECK(judge_no_retries(s, "sinkv2").verdict != verdict_kind::refuted);
    s.runs[2].duplicate_rows = 600;  // 100 duplicate rows no refresh trial accounts for
    CHECK(judge_no_retries(s, "sinkv2").verdict == verdict_kind::refuted);
}
