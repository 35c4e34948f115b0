#include "jobs/connect_restart.hpp"

#include <thread>

#include <rosterrig/generate/generator.hpp>

#include "roles/connect_writer.hpp"
#include "roles/feeder.hpp"
#include "roles/observe_table.hpp"

namespace rosterrig::live {

namespace {

e7::connect_settings settings_of(const connect_in_force& x) {
    return {x.commit_interval_ms, x.tasks_max, x.tasks_running, x.control_topic, x.consumer_group, x.worker_version};
}

}  // namespace

void run_connect_restart(session& s, const e7::parameters& params, const experiment::fault_plan& plan,
                         history_writer<e7::definition>& h) {
    const std::string label = std::string("e7[") + e7::restart_name + "]";
    connect_scope scope(s);
    const auto spec = params.feed();
    const int parts = static_cast<int>(spec.partitions);
    const auto p = s.pipeline("restart", e7::pipeline_of(params.commit_interval_ms, params.tasks));
    const auto name = scope.launch(p, parts);
    const auto in_force = scope.writer.in_force(name, p);
    const auto pacing = e7::pacing_of(params);
    const double rate = pacing.initial_rate(spec.events, params.kills);
    feeder feed(s.stack.kafka(), p.topic, kafka_records(generate(spec)), rate);
    const long long feed_start = now_ms();
    h.record([&](e7::samples& x) {
        x.restart =
            e7::start_restart(params, name, in_force, settings_of(scope.writer.connect_settings(name, p)), rate);
    });
    progress(label + ": connector " + name + ": " + in_force.sink + ", commit every " +
             std::to_string(in_force.interval_ms) + " ms");

    const long long restarts_at_start = connect_worker_restarts(s.stack);
    long long snapshots_at_recovery = 0;
    // The first table commit after the previous recovery: the trigger, and that kill's last figure.
    const auto await_first_commit = [&] {
        const auto commit = await_commit_after(s, p, snapshots_at_recovery, std::chrono::seconds(60));
        if (commit)
            h.record([&](e7::samples& x) {
                auto& r = *x.restart;
                if (!r.worker_kills.empty() && r.worker_kills.back().first_commit_after_ms < 0)
                    r.worker_kills.back().first_commit_after_ms =
                        commit->timestamp_ms - r.run.kills.back().killed_at_ms;
            });
        return commit.has_value();
    };
    const auto steps = plan.of(e7::restart_name);
    for (const auto& step : steps) {
        e7::worker_kill w;
        w.commit_seen_before = await_first_commit();  // then the planned delay
        std::this_thread::sleep_for(std::chrono::milliseconds(step.delay_ms));
        if (feed.sent() >= feed.total()) {
            progress(label + ": the feed ended before kill " + std::to_string(step.index) + "; stopping kills");
            break;
        }
        const auto before = commit_state(s, p);
        w.table_records_before = committed_records(s.catalog, p.ns, p.table);
        const auto sent = static_cast<std::uint64_t>(feed.sent()),
                   acked = static_cast<std::uint64_t>(feed.acknowledged());
        const auto killed = kill_connect_worker(s, scope.writer.rest, name);
        w.index = step.index, w.snapshots_before = before.completed;
        if (before.latest_completed_at_ms > 0)
            w.ms_since_last_commit = killed.process.killed_at_ms - before.latest_completed_at_ms;
        w.rest_back_after_ms = killed.rest_back_at_ms - killed.process.killed_at_ms;
        // Experiment 1's record, with this writer's analogues (e7::restart_run says which).
        const auto k = experiment::kill_sample_of(step, before, killed.as_kill_record(), sent, acked, feed_start, name);
        snapshots_at_recovery = static_cast<long long>(s.catalog.load(p.ns, p.table).snapshots.size());
        h.record([&](e7::samples& x) { x.restart->run.kills.push_back(k), x.restart->worker_kills.push_back(w); });
        progress(label + ": " + e7::describe(k, w, steps.size()));
        // The first cycle is short (the first commit comes seconds after the
        // start); the later ones wait out the restart's commit timeout, so the
        // guess is the floor of the measured mean.
        const double elapsed_s = std::max(static_cast<double>(now_ms() - feed_start) / 1000.0,
                                          pacing.guessed_cycle_s * static_cast<double>(step.index));
        feed.pace(pacing.rate_after(spec.events, static_cast<std::uint64_t>(feed.sent()), elapsed_s, step.index,
                                    steps.size()));
    }
    const auto report = feed.finish();
    progress(label + ": feed done (" + std::to_string(report.acknowledged) + " acknowledged); waiting for the table");
    await_first_commit();  // the last kill's
    await_connect_landed(s, p, parts, report.acknowledged, std::chrono::seconds(180));
    const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
    h.record([&](e7::samples& x) {
        auto& run = x.restart->run;
        run.acknowledged = static_cast<std::uint64_t>(report.acknowledged),
        run.feed_duration_ms = now_ms() - feed_start;
        run.feed_sha256 = report.feed_sha256;
        const auto st = scope.writer.rest.status(name);
        run.final_job_state = st ? st->state : "absent";
        run.restarts_reported = connect_worker_restarts(s.stack) - restarts_at_start;
        experiment::record_table(run, seen);
        progress(label + ": " + std::to_string(run.rows) + " rows, " + std::to_string(run.duplicate_rows) +
                 " duplicate seq rows");
    });
}

}  // namespace rosterrig::live
