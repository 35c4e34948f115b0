// rosterrig-e4: what does table maintenance run from Trino do to a table a
// Flink job is still writing?
//
// Per run: a fresh topic, table and exactly-once job in the run's store; the
// seeded feed; one maintenance procedure at a chosen moment (expire_snapshots
// then a TaskManager kill; remove_orphan_files with records in flight, the
// store listed around it; optimize calls while the feed arrives); then the
// job's report and the whole table checked against the seed. The calls and
// the listings are in drivers/live/table_maintenance and table_store; the
// rest is in include/rosterrig/experiments/e4_maintenance.hpp.
#include <rosterrig/experiments/e4_maintenance.hpp>
#include <rosterrig/generate/generator.hpp>

#include "faults.hpp"
#include "feeder.hpp"
#include "flink_sql_writer.hpp"
#include "job_waits.hpp"
#include "observe_table.hpp"
#include "poll.hpp"
#include "runner.hpp"
#include "table_maintenance.hpp"
#include "table_store.hpp"

#include <thread>

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e4::definition>;
using std::chrono::seconds;

namespace {

const std::string expire_call = "expire_snapshots(retention_threshold => '0s')";
const std::string orphan_call = "remove_orphan_files(retention_threshold => '0s')";

long long snapshots(session& s, const pipeline_spec& p) { return snapshot_count(s.catalog, p.ns, p.table); }

void wait_table(session& s, const pipeline_spec& p, seconds deadline, const std::string& what, const std::function<bool()>& done) {
    wait_table_until(s.catalog, p.table, deadline, what, done);
}

void settle(session& s, const pipeline_spec& p, const std::string& job, int parts, std::int64_t interval_ms, const std::string& label) {
    drain_if_healthy(s.flink, s.admin, job, p.group, p.topic, parts, seconds(interval_ms * 3 / 1000 + 90), label);
}

template <class Run>
void finish_run(session& s, const pipeline_spec& p, const roster_spec& spec, const std::string& kind, Run& run) {
    run.health = job_health_of(s, run.job_id);
    run.table = check_table(s, p, spec, kind);
    progress(run.name + ": " + e4::health_text(run.health) + "; " + e4::table_text(run.table));
}

void run_expire(session& s, const e4::parameters& params, const e4::run_plan& plan, const experiment::fault_plan& faults,
                const std::vector<kafka_record>& records, const roster_spec& spec, history& h) {
    pipeline_scope scope(s);
    const int parts = static_cast<int>(params.partitions);
    const auto p = s.pipeline(plan.part + "_" + plan.store + "_" + plan.variant, e4::pipeline_of(params, plan));
    auto run = e4::run_of<e4::expire_run>(plan);
    run.job_id = scope.launch(p, parts);
    run.interval_ms = scope.writer.in_force(run.job_id, p).interval_ms;
    const long long t0 = now_ms();
    feeder feed(s.stack.kafka(), p.topic, records, params.feed_rate());
    const auto deadline = seconds(params.feed_ms / 1000 + run.interval_ms * 3 / 1000 + 60);
    if (plan.variant == "plain") {
        wait_table(s, p, deadline, std::to_string(params.expire_after_snapshots) + " snapshots",
                   [&] { return snapshots(s, p) >= params.expire_after_snapshots; });
    } else {
        // Right after one of the job's commits, so optimize and expire land before its next.
        wait_table(s, p, deadline, std::to_string(params.expire_after_snapshots - 2) + " snapshots",
                   [&] { return snapshots(s, p) >= params.expire_after_snapshots - 2; });
        const auto n = snapshots(s, p);
        wait_table(s, p, deadline, "the next commit", [&] { return snapshots(s, p) > n; });
        run.compaction = run_procedure(s, p, run.job_id, "optimize", t0);
    }
    run.expire = run_procedure(s, p, run.job_id, expire_call, t0);
    progress(run.name + ": expire " + (run.expire.ok ? "ok" : run.expire.error) + ", snapshots " +
             std::to_string(run.expire.snapshots_before) + " -> " + std::to_string(run.expire.snapshots_after) +
             ", job's watermark " + (run.expire.after_has_job_watermark ? "kept" : "gone"));
    run.exceptions_before_kill = static_cast<std::int64_t>(s.flink.exceptions(run.job_id).size());
    run.kill = kill_taskmanager(s, run.job_id, faults.of(plan.name()).at(0), seconds(60));
    feed.finish();
    settle(s, p, run.job_id, parts, run.interval_ms, run.name);
    finish_run(s, p, spec, "append", run);
    h.record([&](e4::samples& x) { x.expires.push_back(run); });
}

void run_orphans(session& s, const e4::parameters& params, const e4::run_plan& plan, const std::vector<kafka_record>& records,
                 const roster_spec& spec, history& h) {
    pipeline_scope scope(s);
    const int parts = static_cast<int>(params.partitions);
    auto p = s.pipeline(plan.part + "_" + plan.store + "_" + plan.variant, e4::pipeline_of(params, plan));
    if (plan.variant == "small-row-group") p.table_properties[e4::row_group_property] = std::to_string(params.small_row_group_bytes);
    auto run = e4::run_of<e4::orphan_run>(plan);
    run.job_id = scope.launch(p, parts);
    run.interval_ms = scope.writer.in_force(run.job_id, p).interval_ms;
    const auto props = s.catalog.load(p.ns, p.table).properties;
    if (auto it = props.find(e4::row_group_property); it != props.end()) run.row_group_bytes = std::stoll(it->second);
    const long long t0 = now_ms();
    const auto first = static_cast<long long>(params.events - params.orphan_in_flight_events);
    feeder(s.stack.kafka(), p.topic, {records.begin(), records.begin() + first}, 0).finish();
    wait_table_counts(s.catalog, p.ns, p.table, first, seconds(run.interval_ms * 3 / 1000 + 60));
    const long long committed_at = now_ms();
    feeder(s.stack.kafka(), p.topic, {records.begin() + first, records.end()}, 0).finish();
    std::this_thread::sleep_for(std::chrono::milliseconds(std::max<long long>(0, committed_at + params.orphan_call_after_ms - now_ms())));
    const auto location = s.catalog.load(p.ns, p.table).location;
    run.acknowledged_at_call = params.events;
    run.committed_records_at_call = committed_records(s.catalog, p.ns, p.table);
    run.in_flight_records = static_cast<std::int64_t>(params.events) - run.committed_records_at_call;
    run.call_after_checkpoint_ms = now_ms() - committed_at;
    run.before = listing_of(list_location(s, location), location, referenced_paths(s.trino, p.ns, p.table));
    run.call = run_procedure(s, p, run.job_id, orphan_call, t0);
    const auto after = list_location(s, location);
    run.after = listing_of(after, location, referenced_paths(s.trino, p.ns, p.table));
    run.deleted_data_files = experiment::deleted_between(run.before, after.files);
    progress(run.name + ": " + e4::orphan_text(run));
    settle(s, p, run.job_id, parts, run.interval_ms, run.name);
    finish_run(s, p, spec, "append", run);
    h.record([&](e4::samples& x) { x.orphans.push_back(run); });
}

void run_compaction(session& s, const e4::parameters& params, const e4::run_plan& plan, const std::vector<kafka_record>& records,
                    const roster_spec& spec, history& h) {
    pipeline_scope scope(s);
    const int parts = static_cast<int>(params.partitions);
    const auto p = s.pipeline(plan.part + "_" + plan.variant, e4::pipeline_of(params, plan));
    auto run = e4::run_of<e4::compaction_run>(plan);
    run.job_id = scope.launch(p, parts);
    run.interval_ms = scope.writer.in_force(run.job_id, p).interval_ms;
    const long long t0 = now_ms();
    feeder feed(s.stack.kafka(), p.topic, records, params.feed_rate());
    // The calls spread over the feed, each after the job has committed again.
    for (std::uint64_t i = 0; i < params.compactions_per_run; ++i) {
        const auto n = snapshots(s, p);
        wait_table(s, p, seconds(run.interval_ms * 3 / 1000 + 60), "a commit", [&] { return snapshots(s, p) > n; });
        run.calls.push_back(run_procedure(s, p, run.job_id, "optimize", t0));
        progress(run.name + ": optimize " + std::to_string(i + 1) + (run.calls.back().ok ? " committed" : " failed: " + run.calls.back().error));
        const auto gap = params.feed_ms / static_cast<std::int64_t>(params.compactions_per_run + 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(std::max<long long>(0, t0 + gap * static_cast<long long>(i + 1) - now_ms())));
    }
    feed.finish();
    settle(s, p, run.job_id, parts, run.interval_ms, run.name);
    finish_run(s, p, spec, plan.variant, run);
    h.record([&](e4::samples& x) { x.compactions.push_back(run); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e4::definition>(
        argc, argv, "Experiment 4: what expire_snapshots, remove_orphan_files and optimize, run from Trino, do to a table "
                    "a Flink job is still writing, on the object store and on a local filesystem.",
        {{"--repeats", "N", "repeats of every run (default 3, quick 1)", &e4::parameters::repeats}},
        [](session& s, const e4::parameters& params, const experiment::fault_plan& faults, history& h) {
            const auto spec = params.feed();
            const auto records = kafka_records(generate(spec));
            const auto retention = s.trino.query("SHOW SESSION LIKE 'iceberg.%_min_retention'").rows;
            h.record([&](e4::samples& x) {
                for (const auto& row : retention) {
                    const std::string name(row.at(0).as_string()), value(row.at(1).as_string());
                    if (name == "iceberg.expire_snapshots_min_retention") x.trino.expire_snapshots_min_retention = value;
                    if (name == "iceberg.remove_orphan_files_min_retention") x.trino.remove_orphan_files_min_retention = value;
                }
            });
            // A resumed run (--resume) keeps the runs it recorded.
            for (const auto& plan : e4::runs_of(params)) {
                if (h.read([&](const e4::samples& x) { return e4::recorded(x, plan.name()); })) continue;
                progress("e4: " + plan.name());
                if (plan.part == "expire") run_expire(s, params, plan, faults, records, spec, h);
                else if (plan.part == "orphans") run_orphans(s, params, plan, records, spec, h);
                else run_compaction(s, params, plan, records, spec, h);
            }
        });
}
