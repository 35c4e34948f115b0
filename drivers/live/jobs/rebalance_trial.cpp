#include "jobs/rebalance_trial.hpp"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <rosterrig/generate/generator.hpp>

#include "roles/connect_writer.hpp"
#include "jobs/coordinator_logs.hpp"
#include "adapters/connect_rest.hpp"
#include "roles/feeder.hpp"
#include "roles/observe_table.hpp"
#include "adapters/table_store.hpp"
#include "adapters/poll.hpp"
#include "adapters/process_fault.hpp"
#include "roles/process_faults.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

namespace {

// An operator's call to the worker's REST API: a configuration update (the
// stored configuration with one property added, its value the moment), or a
// restart of one task. Either way Connect stops the task(s) and starts them
// again; nothing is healed after it. The pid is the worker's that took the
// call (a trial without one applied nothing).
healed_fault operator_call(experiment::fault_kind kind, const connect_rest& rest, const std::string& connector,
                           const std::string& pid_file, const std::string& label) {
    healed_fault f;
    f.pid = read_pid(pid_file);
    f.fault_at_ms = now_ms();
    if (kind == experiment::fault_kind::reconfigure) {
        auto config = rest.config(connector);
        config["rosterrig.reconfigured-at"] = std::to_string(f.fault_at_ms);
        rest.put_config(connector, config);
        progress(label + ": configuration updated through REST (rosterrig.reconfigured-at added)");
    } else {
        rest.restart_task(connector, e7b::restarted_task);
        progress(label + ": task " + std::to_string(e7b::restarted_task) + " restarted through REST");
    }
    f.healed_at_ms = now_ms();
    return f;
}

}  // namespace

void run_trial(session& s, const e7b::parameters& params, const experiment::fault_step& step, connect_workers& w2,
               history_writer<e7b::definition>& h) {
    auto t = e7b::planned_trial(step);
    const std::string label = "e7b[" + t.cell + " #" + std::to_string(t.index) + "]";
    w2.set(e7b::workers_of(t.cell) == 2);
    w2.fresh();
    t.fresh_workers = true, t.workers = e7b::workers_of(t.cell);
    const auto marks = [&] {
        return std::vector<log_tail>{log_tail(s.stack.log_file("connect")), log_tail(s.stack.log_file("connect-w2"))};
    };
    const auto logs = marks();
    connect_scope scope(s);
    const auto spec = params.feed(t.index);
    const int parts = static_cast<int>(spec.partitions);
    auto p = s.pipeline(t.cell + "_" + std::to_string(t.index), e7b::pipeline_of(params, t.cell));
    p.connector_properties = e7b::connector_properties_of(t.cell);
    t.connector = scope.launch(p, parts);
    const auto x = scope.writer.connect_settings(t.connector, p);
    t.commit_interval_ms = x.commit_interval_ms, t.control_offset_reset = x.control_offset_reset;
    t.tasks_max = x.tasks_max;  // read back from the worker's stored config (connect_settings refuses another)
    // The worker can list a task a moment after the first is RUNNING: ask its status alone until all are.
    t.tasks_running = scope.writer.rest.running_tasks_within(t.connector, e7b::tasks_of(params, t.cell), 30000);
    // The coordinator's worker: the one whose log says a task was elected leader.
    t.coordinator_worker = coordinator_worker(s.stack.connect(), logs);
    t.target_worker = e7b::target_worker_of(t.cell, t.coordinator_worker);
    auto who = t.target_worker == 1 ? s.stack.connect() : w2.address();
    const auto pid_file = s.stack.pid_file(worker_name(static_cast<int>(t.target_worker)));

    feeder feed(s.stack.kafka(), p.topic, kafka_records(generate(spec)),
                static_cast<double>(params.events) * 1000.0 / static_cast<double>(params.feed_ms));
    if (e7b::after_first_commit(t.cell)) {
        t.first_snapshot_after_ms = first_snapshot_within(s.catalog, p.ns, p.table, params.first_commit_wait_ms);
        progress(label + ": " + e7b::first_snapshot_text(t));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(step.delay_ms));
    if (e7b::aimed_at_commit_round(t.cell)) {
        const auto from = marks();  // a round started before the delay ended does not count
        t.aimed_in_commit = elapsed_until(
                                now_ms(), params.aim_wait(), [&] { return coordinator_lines_since(from).rounds > 0; },
                                std::chrono::milliseconds(10)) >= 0;
    }
    t.snapshots_before_fault = static_cast<std::int64_t>(s.catalog.load(p.ns, p.table).snapshots.size());
    t.records_before_fault = committed_records(s.catalog, p.ns, p.table);
    t.group_generation_before_fault = e7b::latest_group_generation(appended_texts(logs));
    const auto since_fault = marks();  // what the workers log from the fault on
    const auto f =
        experiment::layer_of(step.kind) == experiment::fault_layer::admin_api
            ? operator_call(step.kind, scope.writer.rest, t.connector, pid_file, label)
            : fault_and_heal(s.stack, step.kind, {experiment::fault_target::connect_worker, who, pid_file, {}},
                             params.pause_ms, label + ": worker " + std::to_string(t.target_worker));
    t.elected_during_fault = e7b::electing_workers(appended_texts(since_fault));
    t.target_pid = f.pid, t.fault_at_ms = f.fault_at_ms, t.state_seen_paused = f.state_seen_paused;
    t.replacement_pid = f.replacement_pid, t.healed_at_ms = f.healed_at_ms;
    t.acknowledged = static_cast<std::uint64_t>(feed.finish().acknowledged);
    h.record([&](e7b::samples& all) { all.trials.push_back(t); });
    const auto group = connect_names::of(p).consumer_group;
    const auto all_committed = [&] {
        return committed_records(s.catalog, p.ns, p.table) >= static_cast<long long>(t.acknowledged) &&
               s.admin.lag(group, p.topic, parts) == 0;
    };
    t.running_again_after_ms = elapsed_until(t.fault_at_ms, 120000, [&] {
        const auto st = scope.writer.rest.answers() ? scope.writer.rest.status(t.connector) : std::nullopt;
        return st && st->all_running();
    });
    const auto coord_group = connect_names::of(p).coordinator_group;
    t.landed_after_ms = elapsed_until(t.healed_at_ms, params.settle_ms, [&] {
        e7b::note_coord_group_sample(
            t, static_cast<std::int64_t>(s.admin.describe_group(coord_group).member_client_ids.size()));
        return all_committed();
    });
    t.records_at_window_end = committed_records(s.catalog, p.ns, p.table);
    t.snapshots_at_window_end = static_cast<std::int64_t>(s.catalog.load(p.ns, p.table).snapshots.size());
    t.source_committed_at_window_end = s.admin.committed_offsets_sum(group, p.topic, parts);
    t.source_lag_at_window_end = s.admin.lag(group, p.topic, parts);
    e7b::note_coordinator_lines(t, coordinator_lines_since(logs));
    t.coordinator_worker_after = e7b::last_elected_worker(appended_texts(since_fault));
    t.group_generation_at_window_end = e7b::latest_group_generation(appended_texts(logs));
    t.workers_at_window_end = (connect_rest(s.stack.connect()).answers() ? 1 : 0) + (w2.up() ? 1 : 0);
    if (t.landed_after_ms < 0 && params.restart_settle_ms > 0) {
        progress(label + ": " + std::to_string(t.records_at_window_end) + " of " + std::to_string(t.acknowledged) +
                 " committed at the window's end; restarting the connector and its tasks");
        t.restarted = true;
        const auto at = now_ms();
        scope.writer.rest.restart(t.connector);
        t.landed_after_restart_ms = elapsed_until(at, params.restart_settle_ms, all_committed);
        t.records_after_restart = committed_records(s.catalog, p.ns, p.table);
    }
    e7b::record_table(t, observe_table(s.trino, s.table_checks, p.ns, p.table, spec));
    t.files_added_twice = files_added_twice(s.trino, p.ns, p.table);
    const auto st = scope.writer.rest.status(t.connector);
    t.final_state = st ? st->state : "absent";
    scope.writer.stop(t.connector);
    std::this_thread::sleep_for(std::chrono::seconds(10));
    t.coord_members_after_delete =
        static_cast<std::int64_t>(s.admin.describe_group(coord_group).member_client_ids.size());
    h.record([&](e7b::samples& all) { all.trials.back() = t; });
    progress(label + ": " + e7b::trial_text(t));  // the cell and trial are in the label
}

void run_trials(session& s, const e7b::parameters& params, const experiment::fault_plan& plan, connect_workers& w2,
                history_writer<e7b::definition>& h) {
    const auto dropped = h.record([](e7b::samples& x) { return e7b::drop_unfinished(x); });
    if (dropped > 0)
        progress("e7b: " + std::to_string(dropped) + " trial stopped halfway before the resume; run again");
    for (const auto& step : plan.steps) {
        if (h.read([&](const e7b::samples& x) { return e7b::recorded(x, step); })) {
            progress("e7b[" + step.variant + " #" + std::to_string(step.index) + "]: recorded before the resume; kept");
            continue;
        }
        run_trial(s, params, step, w2, h);
    }
}

}  // namespace rosterrig::live
