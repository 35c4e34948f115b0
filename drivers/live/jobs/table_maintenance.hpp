// Table maintenance run through Trino against a table a Flink job is still
// writing, as experiment 4 records it: the call with the table's state before
// and after (from the catalog and Trino's metadata tables), what the job
// reported, and the table read back and checked against the seed.
#ifndef ROSTERRIG_LIVE_TABLE_MAINTENANCE_HPP
#define ROSTERRIG_LIVE_TABLE_MAINTENANCE_HPP
#include <chrono>
#include <functional>
#include <string>

#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>

#include "roles/flink_sql_writer.hpp"
#include "roles/job_waits.hpp"
#include "roles/observe_table.hpp"
#include "roles/pipeline.hpp"
#include "adapters/process_fault.hpp"
#include "runner/progress.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

// Runs `ALTER TABLE … EXECUTE <execute>`; a failure of the procedure is
// recorded (ok false, Trino's message), not thrown. `t0_ms`: the run's start.
e4::procedure_call run_procedure(session& s, const pipeline_spec& p, const std::string& job, const std::string& execute,
                                 long long t0_ms);

// Trino's minimum retentions for expire_snapshots and remove_orphan_files,
// as its session reports them (SHOW SESSION).
e4::trino_settings trino_min_retentions(const trino_client& trino);

// State, restarts, exceptions and checkpoint counts, as Flink reports them.
e4::job_health job_health_of(session& s, const std::string& job);

// The whole table read through Trino and checked against the feed; a scan
// that fails is recorded with Trino's message. The current snapshot's files
// are checked against the store's own listing.
e4::table_check check_table(session& s, const pipeline_spec& p, const roster_spec& spec, const std::string& kind);

// One run's topic, table and exactly-once job, all dropped when it ends,
// with the moments every part waits for and what every part records last.
struct job_on_table {
    job_on_table(session& s_, const e4::parameters& params, const e4::run_plan& plan,
                 const std::string& table_property = {}, const std::string& value = {})
        : s(s_),
          scope(s_),
          p(s_.pipeline(plan.part + "_" + plan.store + "_" + plan.variant, e4::pipeline_of(params, plan))),
          parts(static_cast<int>(params.partitions)) {
        if (!table_property.empty()) p.table_properties[table_property] = value;
        job = scope.launch(p, parts);
        interval_ms = scope.writer.in_force(job, p).interval_ms;  // throws unless Flink runs the requested interval
        t0 = now_ms();
    }
    long long snapshots() const { return snapshot_count(s.catalog, p.ns, p.table); }
    void wait_for(std::chrono::seconds deadline, const std::string& what, const std::function<bool()>& done) const {
        wait_table_until(s.catalog, p.table, deadline, what, done);
    }
    void wait_snapshots(long long n, std::chrono::seconds deadline) const {
        wait_for(deadline, std::to_string(n) + " snapshots", [&] { return snapshots() >= n; });
    }
    void wait_next_commit(std::chrono::seconds deadline) const {
        const auto n = snapshots();
        wait_for(deadline, "the job's next commit", [&] { return snapshots() > n; });
    }
    e4::procedure_call call(const std::string& execute) { return run_procedure(s, p, job, execute, t0); }
    // The plan's record with this job's id and the interval Flink reported.
    template <class Run>
    Run run_of(const e4::run_plan& plan) const {
        auto run = e4::run_of<Run>(plan);
        run.job_id = job, run.interval_ms = interval_ms;
        return run;
    }
    // The job drained (unless it is broken), then its report and the table checked against the seed.
    template <class Run>
    void finish(Run& run, const roster_spec& spec, const std::string& kind) {
        drain_if_healthy(s.flink, s.admin, job, p.group, p.topic, parts,
                         std::chrono::seconds(interval_ms * 3 / 1000 + 90), run.name);
        run.health = job_health_of(s, job);
        run.table = check_table(s, p, spec, kind);
        progress(run.name + ": " + e4::health_text(run.health) + "; " + e4::table_text(run.table));
    }

    session& s;
    pipeline_scope scope;
    pipeline_spec p;
    int parts;
    std::string job;
    std::int64_t interval_ms = 0;
    long long t0 = 0;
};

}  // namespace rosterrig::live

#endif
