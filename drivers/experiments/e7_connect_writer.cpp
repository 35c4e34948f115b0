// rosterrig-e7: experiments 1 and 3's questions asked of Kafka Connect's
// Iceberg sink. Part 1: the worker SIGKILLed while a paced feed arrives.
// Part 2: rewind the connector's group behind it, kill the worker, delete and
// recreate the connector, with and without the group rewound. Part 3: the
// commit interval's dial. Everything else is in
// include/rosterrig/experiments/e7_connect_writer.hpp.
#include <thread>

#include <rosterrig/experiments/e7_connect_writer.hpp>
#include <rosterrig/generate/generator.hpp>

#include "connect_writer.hpp"
#include "feeder.hpp"
#include "observe_table.hpp"
#include "runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e7::definition>;

namespace {

e7::connect_settings settings_of(const connect_in_force& x) {
    return {x.commit_interval_ms, x.tasks_max, x.tasks_running, x.control_topic, x.consumer_group, x.worker_version};
}

void run_restart(session& s, const e7::parameters& params, const experiment::fault_plan& plan, history& h) {
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
        x.restart = e7::start_restart(params, name, in_force, settings_of(scope.writer.connect_settings(name, p)), rate);
    });
    progress(label + ": connector " + name + ": " + in_force.sink + ", commit every " + std::to_string(in_force.interval_ms) + " ms");

    const long long restarts_at_start = connect_worker_restarts(s.stack);
    long long snapshots_at_recovery = 0;
    // The first table commit after the previous recovery: the trigger, and that kill's last figure.
    const auto await_first_commit = [&] {
        const auto commit = await_commit_after(s, p, snapshots_at_recovery, std::chrono::seconds(60));
        if (commit)
            h.record([&](e7::samples& x) {
                auto& r = *x.restart;
                if (!r.worker_kills.empty() && r.worker_kills.back().first_commit_after_ms < 0)
                    r.worker_kills.back().first_commit_after_ms = commit->timestamp_ms - r.run.kills.back().killed_at_ms;
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
        const auto sent = static_cast<std::uint64_t>(feed.sent()), acked = static_cast<std::uint64_t>(feed.acknowledged());
        const auto killed = kill_connect_worker(s, scope.writer.rest, name);
        w.index = step.index, w.snapshots_before = before.completed;
        if (before.latest_completed_at_ms > 0) w.ms_since_last_commit = killed.process.killed_at_ms - before.latest_completed_at_ms;
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
        feed.pace(pacing.rate_after(spec.events, static_cast<std::uint64_t>(feed.sent()), elapsed_s, step.index, steps.size()));
    }
    const auto report = feed.finish();
    progress(label + ": feed done (" + std::to_string(report.acknowledged) + " acknowledged); waiting for the table");
    await_first_commit();  // the last kill's
    await_connect_landed(s, p, parts, report.acknowledged, std::chrono::seconds(180));
    const auto seen = observe_table(s.trino, p.ns, p.table, spec);
    h.record([&](e7::samples& x) {
        auto& run = x.restart->run;
        run.acknowledged = static_cast<std::uint64_t>(report.acknowledged), run.feed_duration_ms = now_ms() - feed_start;
        run.feed_sha256 = report.feed_sha256;
        const auto st = scope.writer.rest.status(name);
        run.final_job_state = st ? st->state : "absent";
        run.restarts_reported = connect_worker_restarts(s.stack) - restarts_at_start;
        experiment::record_table(run, seen);
        progress(label + ": " + std::to_string(run.rows) + " rows, " + std::to_string(run.duplicate_rows) + " duplicate seq rows");
    });
}

void run_offsets(session& s, const e7::parameters& params, history& h) {
    connect_scope scope(s);
    const auto spec = params.offsets_feed();
    const int parts = static_cast<int>(spec.partitions);
    const auto events = static_cast<long long>(spec.events);
    const auto p = s.pipeline("offsets", e7::pipeline_of(params.commit_interval_ms, params.tasks));
    const auto group = connect_names::of(p).consumer_group;
    const auto name = scope.launch(p, parts);
    scope.writer.in_force(name, p);
    const auto fed = feeder(s.stack.kafka(), p.topic, kafka_records(generate(spec)), 0).finish();
    h.record([&](e7::samples& x) { x.offsets.events = spec.events, x.offsets.feed_sha256 = fed.feed_sha256; });
    // After each action: the group's offsets right away, then offsets and the
    // table's records every 500 ms for the watch window (a replay is waited
    // for until it lands, at most 60 s), then every row read back.
    auto record = [&](const std::string& step, const std::string& note) {
        e7::offsets_step x;
        x.step = step, x.note = note;
        x.committed_after_action = s.admin.committed_offsets_sum(group, p.topic, parts);
        const auto from = std::chrono::steady_clock::now();
        for (;;) {
            throw_if_interrupted();
            const auto t = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - from).count();
            const e7::offsets_watch_sample w{t, s.admin.committed_offsets_sum(group, p.topic, parts),
                                             committed_records(s.catalog, p.ns, p.table)};
            x.watch.push_back(w);
            if (e7::watch_done(t, *x.committed_after_action, w, events, params)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
        const auto seen = observe_table(s.trino, p.ns, p.table, spec);
        const auto st = scope.writer.rest.status(name);
        x.committed_offsets_sum = s.admin.committed_offsets_sum(group, p.topic, parts);
        x.end_offsets_sum = s.admin.end_offsets_sum(p.topic, parts);
        x.rows = seen.by_seq.rows, x.distinct_seq = seen.by_seq.distinct_seq, x.duplicate_rows = seen.by_seq.duplicate_rows;
        x.connector_state = st ? st->state : "";
        h.record([&](e7::samples& all) { all.offsets.steps.push_back(x); });
        progress("e7[offsets]: " + e7::step_text(x, spec.events) + " (" + note + "; offsets right after: " +
                 std::to_string(*x.committed_after_action) + ")");
    };
    await_connect_landed(s, p, parts, events, std::chrono::seconds(120));
    record(e7::step_landed, "the feed produced at once and committed");
    std::string refusal;  // 1. behind the running connector's back: its tasks are the group's members
    try {
        s.admin.rewind_committed_offsets(group, p.topic, parts);
    } catch (const std::exception& e) {
        refusal = e.what();
    }
    h.record([&](e7::samples& x) {
        x.offsets.rewind_while_running_tried = true;
        if (!refusal.empty()) x.offsets.rewind_while_running_refused = refusal;
    });
    record(e7::step_rewind_running, refusal.empty() ? "the broker applied the rewind" : "the broker refused the rewind");
    kill_connect_worker(s, scope.writer.rest, name);  // 2.
    record(e7::step_worker_killed, "worker SIGKILLed and restarted by its supervisor");
    scope.writer.stop(name);  // 3. the same name, so the same group
    scope.writer.recreate(p);
    scope.writer.rest.wait_running(name, std::chrono::seconds(120));
    record(e7::step_recreated, "connector deleted and created again under the same name");
    scope.writer.stop(name);  // 4. the group rewound while no task is a member
    rewind_once_group_empty(s, group, p.topic, parts);
    const auto rewound = s.admin.committed_offsets_sum(group, p.topic, parts);
    scope.writer.recreate(p);
    scope.writer.rest.wait_running(name, std::chrono::seconds(120));
    record(e7::step_rewound_recreated, "connector deleted, its group rewound to 0 (read back: " + std::to_string(rewound) +
                                           "), created again under the same name");
}

experiment::snapshot_entry entry_of(const iceberg_snapshot& snap, const std::string& connector) {
    // The sink marks its commits with kafka.connect.commit-id: those are the writer's commits.
    const bool ours = !snap.summary_text("kafka.connect.commit-id").empty();
    return {snap.snapshot_id, snap.timestamp_ms, snap.summary_text("operation"), ours ? connector : "",
            snap.summary_int("added-data-files", 0), snap.summary_int("added-records", 0), 0};
}

void run_dial_cell(session& s, const e7::parameters& params, std::int64_t interval_ms, const std::vector<kafka_record>& records,
                   const roster_spec& spec, history& h) {
    const std::string cell = e7::cell_name(interval_ms), label = "e7[" + cell + "]";
    connect_scope scope(s);
    const auto p = s.pipeline("dial_" + experiment::seconds_text(interval_ms), e7::pipeline_of(interval_ms, params.tasks));
    experiment::cell_run run;
    run.cell = cell, run.interval_ms = interval_ms, run.parallelism = params.tasks, run.events = params.dial_events;
    run.job_id = scope.launch(p, static_cast<int>(spec.partitions));
    const auto x = scope.writer.connect_settings(run.job_id, p);
    run.in_force = {"kafka_connect_transactions", x.commit_interval_ms, x.tasks_running, "IcebergSinkConnector tasks", std::nullopt};
    progress(label + ": connector " + run.job_id + " commits every " + std::to_string(x.commit_interval_ms) + " ms with " +
             std::to_string(x.tasks_running) + " tasks");
    run.feed_started_ms = now_ms();
    const auto fed = feed_with_progress(s.stack.kafka(), p.topic, records, params.dial_rate(), [&](long long acked, long long total) {
        return label + ": " + std::to_string(acked) + " of " + std::to_string(total) + " acknowledged, table at " +
               std::to_string(committed_records(s.catalog, p.ns, p.table)) + " records";
    });
    const auto acks = experiment::acknowledgements_of(fed.acked_at);
    run.feed_duration_ms = acks.feed_duration_ms;
    wait_table_counts(s.catalog, p.ns, p.table, static_cast<long long>(params.dial_events),
                      std::chrono::seconds(interval_ms / 1000 + 180));
    scope.writer.stop(run.job_id);
    std::vector<experiment::snapshot_entry> snapshots;
    for (const auto& snap : s.catalog.load(p.ns, p.table).snapshots) snapshots.push_back(entry_of(snap, run.job_id));
    experiment::record_snapshots(run, std::move(snapshots), seq_first_snapshots(s.trino, p.ns, p.table), acks.at_ms,
                         params.freshness_bucket_ms);
    run.files = read_file_entries(s.trino, p.ns, p.table);
    const auto seen = observe_table(s.trino, p.ns, p.table, spec);
    run.rows = seen.by_seq.rows, run.duplicate_rows = seen.by_seq.duplicate_rows, run.missing_runs = seen.by_seq.missing_runs;
    progress(label + ": " + experiment::describe(run));
    h.record([&](e7::samples& all) { all.dial.push_back(std::move(run)); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e7::definition>(
        argc, argv, "Experiment 7: experiments 1 and 3's questions asked of Kafka Connect's Iceberg sink: what a worker "
                    "kill replays, whether the connector's consumer-group offsets are the truth, and what the commit "
                    "interval does to files and freshness.",
        {{"--kills", "N", "worker kills in part 1 (default 30, quick 1)", &e7::parameters::kills},
         {"--intervals", "MS,MS,..", "commit intervals of part 3, in ms (default 2000,10000,30000)", &e7::parameters::dial_intervals_ms}},
        [](session& s, const e7::parameters& params, const experiment::fault_plan& plan, history& h) {
            connect_rest(s.stack.connect()).version();  // a worker that does not answer stops the run before anything is created
            run_restart(s, params, plan, h);
            run_offsets(s, params, h);
            const auto spec = params.dial_feed();
            const auto records = kafka_records(generate(spec));
            for (const auto interval : params.dial_intervals_ms) run_dial_cell(s, params, interval, records, spec, h);
        });
}
