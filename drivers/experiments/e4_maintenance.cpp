// rosterrig-e4: what does table maintenance run from Trino do to a table a
// Flink job is still writing?
//
// Per run: a fresh topic, table and exactly-once job in the run's store; the
// seeded feed; one maintenance procedure at a chosen moment (expire_snapshots
// then a TaskManager kill; remove_orphan_files with records in flight, the
// store listed around it; optimize calls while the feed arrives); then the
// job's report and the whole table checked against the seed. The job on its
// table and the calls are in drivers/live/jobs/table_maintenance, the orphan
// run with its listings in jobs/orphan_files; the rest is in
// include/rosterrig/experiments/e4_maintenance/e4_maintenance.hpp.
#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/faults.hpp"
#include "roles/feeder.hpp"
#include "roles/observe_table.hpp"
#include "runner/runner.hpp"
#include "jobs/orphan_files.hpp"
#include "jobs/table_maintenance.hpp"

#include <thread>

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e4::definition>;
using std::chrono::seconds;

namespace {

void run_expire(session& s, const e4::parameters& params, const e4::run_plan& plan,
                const experiment::fault_plan& faults, const std::vector<kafka_record>& records, const roster_spec& spec,
                history& h) {
    job_on_table j(s, params, plan);
    auto run = j.run_of<e4::expire_run>(plan);
    feeder feed(s.stack.kafka(), j.p.topic, records, params.feed_rate());
    const auto deadline = seconds(params.feed_ms / 1000 + j.interval_ms * 3 / 1000 + 60);
    if (plan.variant == "plain")
        j.wait_snapshots(params.expire_after_snapshots, deadline);
    else {
        // Right after one of the job's commits, so optimize and expire land before its next. When the
        // job committed during the optimize, its snapshot is the newest again: call it again after the next.
        j.wait_snapshots(params.expire_after_snapshots - 2, deadline);
        for (std::uint64_t call = 1;; ++call) {
            j.wait_next_commit(deadline);
            run.compaction = j.call("optimize");
            run.optimize_calls = call;
            if (!run.compaction->ok || run.compaction->current_writer_after != j.job ||
                call >= params.optimize_attempts.value_or(1))
                break;
            progress(run.name + ": the job committed during optimize " + std::to_string(call) +
                     "; again after its next commit");
        }
    }
    run.expire = j.call(e4::expire_call);
    progress(run.name + ": " + e4::expire_text(run.expire));
    run.exceptions_before_kill = static_cast<std::int64_t>(s.flink.exceptions(j.job).size());
    run.kill = kill_taskmanager(s, j.job, faults.of(plan.name()).at(0), seconds(60));
    feed.finish();
    j.finish(run, spec, "append");
    h.record([&](e4::samples& x) { x.expires.push_back(run); });
}

void run_compaction(session& s, const e4::parameters& params, const e4::run_plan& plan,
                    const std::vector<kafka_record>& records, const roster_spec& spec, history& h) {
    job_on_table j(s, params, plan);
    auto run = j.run_of<e4::compaction_run>(plan);
    feeder feed(s.stack.kafka(), j.p.topic, records, params.feed_rate());
    // The calls spread over the feed, each right after one of the job's commits.
    const auto gap = params.feed_ms / static_cast<std::int64_t>(params.compactions_per_run + 1);
    for (std::uint64_t i = 0; i < params.compactions_per_run; ++i) {
        j.wait_next_commit(seconds(j.interval_ms * 3 / 1000 + 60));
        run.calls.push_back(j.call("optimize"));
        progress(run.name + ": optimize " + std::to_string(i + 1) +
                 (run.calls.back().ok ? " committed" : " failed: " + run.calls.back().error));
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::max<long long>(0, j.t0 + gap * static_cast<long long>(i + 1) - now_ms())));
    }
    feed.finish();
    j.finish(run, spec, plan.variant);
    h.record([&](e4::samples& x) { x.compactions.push_back(run); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e4::definition>(
        argc, argv,
        "Experiment 4: what expire_snapshots, remove_orphan_files and optimize, run from Trino, do to a table "
        "a Flink job is still writing, on the object store and on a local filesystem.",
        {{"--repeats", "N", "repeats of every run (default 3, quick 1)", &e4::parameters::repeats}},
        [](session& s, const e4::parameters& params, const experiment::fault_plan& faults, history& h) {
            const auto spec = params.feed();
            const auto records = kafka_records(generate(spec));
            const auto retention = trino_min_retentions(s.trino);
            h.record([&](e4::samples& x) { x.trino = retention; });
            // A resumed run (--resume) keeps the runs it recorded.
            for (const auto& plan : e4::runs_of(params)) {
                if (h.read([&](const e4::samples& x) { return e4::recorded(x, plan.name()); })) continue;
                progress("e4: " + plan.name());
                if (plan.part == "expire")
                    run_expire(s, params, plan, faults, records, spec, h);
                else if (plan.part == "orphans")
                    run_orphans(s, params, plan, records, spec, h);
                else
                    run_compaction(s, params, plan, records, spec, h);
            }
        });
}
