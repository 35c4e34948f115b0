// Experiment 4's pure pieces on hand-built data: how a store's listing is
// classified against the table's metadata, what counts as deleted, which
// runs each rule judges, and that each rule bites on the one fact it is about.
#include <catch2/catch.hpp>

#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>

using namespace rosterrig;

namespace {
const std::string loc = "s3://bucket/warehouse/ns/t";

e4::table_check exact_table(std::uint64_t events) {
    e4::table_check t;
    t.kind = "append", t.events = events, t.scan_ok = true, t.rows = events, t.distinct_seq = events;
    t.referenced_data_files = 2, t.referenced_missing = 0;
    return t;
}

e4::job_health running() {
    e4::job_health h;
    h.state = "RUNNING";
    return h;
}

e4::orphan_run local_small_run() {
    e4::orphan_run r;
    r.name = "orphans/local/small-row-group #1", r.store = "local", r.variant = "small-row-group";
    r.in_flight_records = 500;
    r.before.location_listed = true, r.before.data_files = 4, r.before.data_unreferenced = 2;
    r.before.data_unreferenced_names = {"a.parquet", "b.parquet"};
    r.deleted_data_files = {"a.parquet", "b.parquet"};
    r.health = running();
    r.table = exact_table(2000);
    r.table.scan_ok = false, r.table.scan_error = "ICEBERG_CANNOT_OPEN_SPLIT", r.table.referenced_missing = 2;
    return r;
}
}  // namespace

TEST_CASE("a listed data file no metadata references is unreferenced, and checksum files are neither data nor metadata",
          "[e4]") {
    const std::vector<experiment::listed_file> files{{"data/a.parquet", 100},      {"data/b.parquet", 50},
                                                     {"data/.b.parquet.crc", 8},   {"metadata/v1.metadata.json", 10},
                                                     {"metadata/snap-1.avro", 10}, {"metadata/x.stats", 3}};
    const std::set<std::string> refs{loc + "/data/a.parquet", loc + "/metadata/v1.metadata.json",
                                     loc + "/metadata/snap-1.avro", "s3://bucket/elsewhere/data/b.parquet"};
    const auto l = experiment::classify(files, loc, refs);
    CHECK(l.data_files == 2);
    CHECK(l.data_bytes == 150);
    // Mutation: compare whole paths without the location's prefix, and b (referenced only elsewhere) and a both count.
    CHECK(l.data_unreferenced == 1);
    CHECK(l.data_unreferenced_bytes == 50);
    CHECK(l.data_unreferenced_names == std::vector<std::string>{"b.parquet"});
    CHECK(l.metadata_files == 3);
    CHECK(l.metadata_unreferenced == 1);  // the statistics file Trino's tables do not list
    CHECK(l.other_files == 1);
}

TEST_CASE("what a call deleted is what was unreferenced before it and is not listed after it", "[e4]") {
    experiment::store_listing before;
    before.data_unreferenced_names = {"a.parquet", "b.parquet"};
    CHECK(experiment::deleted_between(before, {{"data/a.parquet", 1}}) == std::vector<std::string>{"b.parquet"});
    // A referenced file that disappears is not the call's deletion of an orphan.
    CHECK(experiment::deleted_between(before, {{"data/a.parquet", 1}, {"data/b.parquet", 1}}).empty());
}

TEST_CASE("every run of the full plan is named once and every expire run has its one kill", "[e4]") {
    const auto p = e4::parameters::full();
    const auto runs = e4::runs_of(p);
    CHECK(runs.size() ==
          p.repeats * (p.expire_stores.size() * p.expire_variants.size() +
                       p.orphan_stores.size() * p.orphan_row_groups.size() + p.compaction_tables.size()));
    std::set<std::string> names;
    for (const auto& r : runs) names.insert(r.name());
    CHECK(names.size() == runs.size());
    const auto plan = e4::fault_plan(p);
    for (const auto& r : runs) CHECK(plan.of(r.name()).size() == (r.part == "expire" ? 1u : 0u));
}

TEST_CASE("parameters that cannot run are refused naming what is wrong", "[e4]") {
    auto p = e4::parameters::full();
    CHECK_FALSE(e4::usage_problem(p, 4).has_value());
    CHECK(e4::usage_problem(p, 1).value().find("task slots") != std::string::npos);
    p.orphan_call_after_ms = p.orphan_interval_ms;
    CHECK(e4::usage_problem(p, 4).value().find("inside the interval") != std::string::npos);
    p = e4::parameters::full();
    p.orphan_stores = {"gcs"};
    CHECK(e4::usage_problem(p, 4).value().find("'gcs'") != std::string::npos);
}

TEST_CASE("the small row group variant and only it sets the row-group property's run name", "[e4]") {
    const auto p = e4::parameters::full();
    const auto runs = e4::runs_of(p);
    CHECK(std::count_if(runs.begin(), runs.end(), [](const e4::run_plan& r) {
              return r.variant == "small-row-group";
          }) == static_cast<long>(p.repeats * p.orphan_stores.size()));
    CHECK(e4::pipeline_of(p, {"orphans", "local", "small-row-group", 1}).store == experiment::warehouse::local);
    CHECK(e4::pipeline_of(p, {"compaction", "s3", "upsert", 1}).table == experiment::table_kind::upsert);
    CHECK(e4::pipeline_of(p, {"expire", "s3", "after-compaction", 1}).checkpoint_interval_ms ==
          p.expire_compaction_interval_ms);
}

TEST_CASE("the expire keeps the watermark only while the job's commit stays the newest snapshot", "[e4][verdict]") {
    e4::samples s;
    e4::expire_run r;
    r.name = "expire/s3/plain #1", r.variant = "plain", r.job_id = "job";
    r.expire.current_writer_before = r.expire.current_writer_after = "job";
    r.expire.watermark_before = 4, r.expire.watermark_after = 4;
    s.expires.push_back(r);
    CHECK(e4::expire_keeps_the_watermark(s).verdict == verdict_kind::held);
    // Mutation: the newest snapshot after the call is another writer's.
    s.expires[0].expire.current_writer_after = "";
    CHECK(e4::expire_keeps_the_watermark(s).verdict == verdict_kind::refuted);
}

namespace {
// An after-compaction run whose watermark was gone before the kill.
e4::expire_run after_compaction_run() {
    e4::expire_run r;
    r.name = "expire/s3/after-compaction #1", r.variant = "after-compaction", r.job_id = "job";
    r.compaction = e4::procedure_call{};
    r.compaction->ok = true;
    r.expire.after_has_job_watermark = false;
    return r;
}
const std::string no_resource =
    "java.util.concurrent.CompletionException: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: "
    "Could not acquire the minimum required resources.";
}  // namespace

// Mutation: put back the old rule's "at most 1 exception after the kill" in
// e4::restart_was_clean and the healthy restart with four exceptions is
// judged broken (held): this fails.
TEST_CASE(
    "a healthy restart with four NoResourceAvailable exceptions is judged clean and refutes the broken-restart prediction",
    "[e4][verdict]") {
    e4::samples s;
    auto r = after_compaction_run();
    // As the shipped plain expire runs restored: the same job RUNNING again,
    // 4 restarts and 4 exceptions, each waiting for the replacement TaskManager.
    r.kill.same_job_running = true, r.kill.running_after_ms = 15477, r.kill.restored_checkpoint_id = 7;
    r.health = running();
    r.health.restarts = 4, r.health.exceptions = 4;
    r.health.exception_names = {no_resource, no_resource, no_resource};
    r.table = exact_table(12000);
    s.expires.push_back(r);
    CHECK(e4::restart_was_clean(s.expires[0]));
    CHECK(e4::expire_after_compaction_breaks_the_restart(s).verdict == verdict_kind::refuted);
    // A run whose watermark survived decides nothing.
    s.expires[0].expire.after_has_job_watermark = true;
    CHECK(e4::expire_after_compaction_breaks_the_restart(s).verdict == verdict_kind::inconclusive);
}

// Mutation: reduce e4::restart_was_clean to the kill loop's same_job_running
// (drop the final state and the table check) and the job that came back once,
// then went on restarting with rows missing, is judged clean: this fails.
TEST_CASE("a job left RESTARTING with rows missing is judged broken and holds the broken-restart prediction",
          "[e4][verdict]") {
    e4::samples s;
    auto r = after_compaction_run();
    // Came back once after the kill, then failed again on the expired
    // manifest and was RESTARTING when the table was read, 3,618 rows short.
    r.kill.same_job_running = true, r.kill.running_after_ms = 9000;
    r.health.state = "RESTARTING", r.health.restarts = 2, r.health.exceptions = 2;
    r.table = exact_table(12000);
    r.table.rows = r.table.distinct_seq = 8382;
    r.table.missing_runs.push_back({8383, 12000});
    s.expires.push_back(r);
    CHECK_FALSE(e4::restart_was_clean(s.expires[0]));
    CHECK(e4::expire_after_compaction_breaks_the_restart(s).verdict == verdict_kind::held);
    // Still broken when it ends RUNNING with the rows missing: the table decides.
    s.expires[0].health.state = "RUNNING";
    CHECK(e4::expire_after_compaction_breaks_the_restart(s).verdict == verdict_kind::held);
    // And when the job never came back, whatever the table holds.
    s.expires[0].table = exact_table(12000);
    s.expires[0].kill.same_job_running = false;
    CHECK(e4::expire_after_compaction_breaks_the_restart(s).verdict == verdict_kind::held);
}

TEST_CASE("a local orphan run that lost its in-flight file holds the prediction only while the job stays silent",
          "[e4][verdict]") {
    e4::samples s;
    s.orphans.push_back(local_small_run());
    CHECK(e4::orphans_small_row_group_local_loses_the_in_flight_file(s).verdict == verdict_kind::held);
    CHECK(e4::orphans_local_commit_references_missing_files(s).verdict == verdict_kind::held);
    // Mutation: the job noticed (an exception in its history).
    s.orphans[0].health.exceptions = 1;
    CHECK(e4::orphans_small_row_group_local_loses_the_in_flight_file(s).verdict == verdict_kind::refuted);
    CHECK(e4::orphans_local_commit_references_missing_files(s).verdict == verdict_kind::refuted);
}

TEST_CASE("the object-store orphan prediction is refuted by one unreferenced object or one open upload",
          "[e4][verdict]") {
    e4::samples s;
    e4::orphan_run r;
    r.name = "orphans/s3/small-row-group #1", r.store = "s3", r.variant = "small-row-group";
    r.in_flight_records = 500;
    r.before.location_listed = true, r.before.multipart_uploads = 0, r.before.writer_staging_files = 2;
    r.health = running();
    r.table = exact_table(2000);
    s.orphans.push_back(r);
    CHECK(e4::orphans_s3_nothing_to_take(s).verdict == verdict_kind::held);
    CHECK(e4::orphans_small_row_group_s3_stages_on_the_taskmanager(s).verdict == verdict_kind::held);
    // Mutation: record one open multipart upload under the table.
    s.orphans[0].before.multipart_uploads = 1;
    CHECK(e4::orphans_s3_nothing_to_take(s).verdict == verdict_kind::refuted);
    CHECK(e4::orphans_small_row_group_s3_stages_on_the_taskmanager(s).verdict == verdict_kind::refuted);
    // A run with nothing in flight is not judged at all.
    s.orphans[0].in_flight_records = 0;
    CHECK(e4::orphans_s3_nothing_to_take(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("one stale row after a compaction refutes the no-resurrection prediction", "[e4][verdict]") {
    e4::samples s;
    e4::compaction_run r;
    r.name = "compaction/s3/upsert #1", r.table_kind = "upsert";
    r.calls.resize(3);
    r.calls[0].ok = true, r.calls[1].ok = false, r.calls[1].error = "conflict", r.calls[2].ok = true;
    r.health = running();
    r.table = exact_table(2000);
    r.table.kind = "upsert";
    s.compactions.push_back(r);
    CHECK(e4::compaction_upsert_no_resurrection(s).verdict == verdict_kind::held);
    CHECK(e4::compaction_upsert_conflicts(s).verdict == verdict_kind::held);
    s.compactions[0].table.stale_rows = 1;  // Mutation: a superseded row came back.
    CHECK(e4::compaction_upsert_no_resurrection(s).verdict == verdict_kind::refuted);
    for (auto& c : s.compactions[0].calls) c.ok = true;  // Mutation: every call committed.
    CHECK(e4::compaction_upsert_conflicts(s).verdict == verdict_kind::refuted);
}
