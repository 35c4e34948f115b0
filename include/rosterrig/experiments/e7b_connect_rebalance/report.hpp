// rosterrig/experiments/e7b_connect_rebalance/report.hpp: experiment 7b's report section (the trials table,
// and for trials that recorded them, where the coordinator and the group went).
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_REPORT_HPP

#include "rosterrig/experiments/e7b_connect_rebalance/hypotheses.hpp"

#include <fmt/format.h>

namespace rosterrig::e7b {

// ---- report --------------------------------------------------------------------

/// The cells added for issue 35 in words, for the section's opening (only the
/// cells the samples have: a run without them renders as it did).
inline std::string added_cells_text(const samples& s, const parameters& p) {
    const auto pause_s = report::fixed(static_cast<double>(p.pause_ms) / 1000, 0);
    const std::vector<std::pair<std::string, std::string>> words{
        {coordinator_pause, "the coordinator's worker SIGSTOPped for " + pause_s + " s, then SIGCONT"},
        {tasks_4, "coordinator-kill's fault on a connector with tasks.max 4 (two tasks per worker)"},
        {worker_leave, "the other worker sent SIGTERM (its supervisor told not to start it again) and started again " +
                           pause_s + " s later through compose/stack"},
        {worker_join,
         "one worker at the connector's start; the second started through compose/stack at the fault's "
         "moment, joining the group (the window counts from its answering)"},
        {config_update,
         "one worker; at the fault's moment the connector's configuration updated through REST (one property "
         "added, rosterrig.reconfigured-at), which makes Connect stop every task and start it again"},
        {task_restart,
         "one worker; at the fault's moment task 0 restarted through REST (POST /connectors/<c>/tasks/0/restart)"},
        {task_restart_in_commit,
         "task-restart's restart, aimed: after the delay, as soon as the worker logs the coordinator's next "
         "'Commit <id> initiated' (its log read every 10 ms)"}};
    std::string o;
    for (const auto& [cell, text] : words)
        if (!trials_of(s, cell).empty()) o += " " + cell + ": " + text + ".";
    return o;
}

/// tasks.max as the worker stored it, by value and the cells that ran it;
/// "" when no trial recorded it.
inline std::string tasks_text(const samples& s) {
    std::map<std::int64_t, std::vector<std::string>> cells_of;
    for (const auto& x : s.trials) {
        if (!x.tasks_max) continue;
        auto& cells = cells_of[*x.tasks_max];
        if (std::find(cells.begin(), cells.end(), x.cell) == cells.end()) cells.push_back(x.cell);
    }
    if (cells_of.empty()) return {};
    std::string o = " tasks.max as the worker stored it:";
    std::string sep = " ";
    for (const auto& [n, cells] : cells_of) {
        std::string names;
        for (const auto& c : cells) names += (names.empty() ? "" : ", ") + c;
        o += sep + std::to_string(n) + " (" + names + ")";
        sep = "; ";
    }
    return o + ".";
}

/// Where the coordinator and the worker group went, per trial that recorded
/// it; "" when none did (every trial from before the fields).
inline std::string movements_table(const samples& s) {
    bool any = false;
    for (const auto& x : s.trials) any = any || x.coordinator_worker_after.has_value();
    if (!any) return {};
    const auto or_dash = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("–"); };
    std::string o =
        "Where the coordinator and the group went (recorded since the coordinator-pause, tasks-4, worker-leave and "
        "worker-join cells): the coordinator's worker before the fault, and the worker whose log holds the last "
        "election after it, by the lines' own timestamps (none: no election after the fault); the workers whose logs "
        "elected a coordinator between the fault and its heal; the worker group's generation as the workers logged it "
        "(\"Joined group at generation N\") just before the fault and at the window's end.\n\n";
    report::markdown_table t{{"Cell", "Trial", "tasks.max stored (tasks running)", "Workers at start / at window end",
                              "Fault on worker: kind, healed after", "Coordinator before → after the fault",
                              "Elected during the fault (workers)", "Group generation before → at window end"}};
    for (const auto& x : s.trials) {
        if (!x.coordinator_worker_after) continue;
        const auto after = *x.coordinator_worker_after == 0 ? std::string("none elected")
                                                            : "worker " + std::to_string(*x.coordinator_worker_after);
        t.row({x.cell, std::to_string(x.index), or_dash(x.tasks_max) + " (" + std::to_string(x.tasks_running) + ")",
               std::to_string(x.workers) + " / " + or_dash(x.workers_at_window_end),
               "worker " + std::to_string(x.target_worker) + ": " + experiment::name_of(kind_of(x.cell)) + ", " +
                   report::fixed(static_cast<double>(x.healed_at_ms - x.fault_at_ms) / 1000, 1) + " s",
               "worker " + std::to_string(x.coordinator_worker) + " → " + after,
               x.elected_during_fault ? workers_text(*x.elected_during_fault) : "–",
               or_dash(x.group_generation_before_fault) + " → " + or_dash(x.group_generation_at_window_end)});
    }
    return o + t.render() + "\n";
}

/// Per cell, over its trials: how many lost acknowledged records for good and
/// what those had in common, how many landed (and how long after the heal),
/// and what was doubled; the cells in the order the run ran them.
inline std::string cells_summary_table(const samples& s, const parameters& p) {
    using report::with_thousands;
    report::markdown_table t{{"Cell", "Trials", "Every record committed in the window: trials (s after the heal)",
                              "Every record committed only after the REST restart: trials",
                              "Acknowledged records missing from the final read-back: trials (all of them in)",
                              "Of those: a table snapshot before the fault", "Of those: source offsets' lag 0",
                              "Duplicate rows (trials with)", "Data files added by two snapshots"}};
    for (const auto& cell : p.cells) {
        const auto ts = trials_of(s, cell);
        if (ts.empty()) continue;
        std::size_t landed = 0, after_restart = 0, lost = 0, lost_all = 0, with_snapshot = 0, lag_0 = 0, doubled = 0;
        std::uint64_t duplicate_rows = 0, files_twice = 0;
        std::int64_t fastest = -1, slowest = -1;
        for (const auto* x : ts) {
            if (landed_in_window(*x)) {
                ++landed;
                fastest = fastest < 0 ? x->landed_after_ms : std::min(fastest, x->landed_after_ms);
                slowest = std::max(slowest, x->landed_after_ms);
            } else if (x->restarted && x->landed_after_restart_ms >= 0 && !lossy(*x)) {
                ++after_restart;
            }
            if (lossy(*x)) {
                ++lost;
                lost_all += x->missing_seq == x->acknowledged;
                with_snapshot += x->snapshots_before_fault > 0;
                lag_0 += x->source_lag_at_window_end == 0;
            }
            duplicate_rows += x->duplicate_rows, doubled += x->duplicate_rows > 0;
            if (x->files_added_twice) files_twice += x->files_added_twice->size();
        }
        const auto secs = [](std::int64_t ms) { return report::fixed(static_cast<double>(ms) / 1000, 1); };
        t.row({cell, std::to_string(ts.size()),
               landed == 0 ? "0" : fmt::format("{} ({}–{})", landed, secs(fastest), secs(slowest)),
               std::to_string(after_restart), fmt::format("{} ({})", lost, lost_all),
               lost == 0 ? "–" : std::to_string(with_snapshot), lost == 0 ? "–" : std::to_string(lag_0),
               fmt::format("{} ({})", with_thousands(static_cast<long long>(duplicate_rows)), doubled),
               std::to_string(files_twice)});
    }
    return "Per cell, over its trials (each trial's figures are in the table after this one):\n\n" + t.render() + "\n";
}

/// The hypotheses of docs/E7B_HYPOTHESES.md as the samples judge them, on a
/// run that has the cells they were read from ("" on a run from before them).
inline std::string hypotheses_table(const result::result_envelope& env, const samples& s, const parameters& p) {
    if (trials_of(s, task_restart_in_commit).empty()) return {};
    const auto judged =
        experiment::judge_stated(s, p, hypotheses(), env.status_or_complete() == result::run_status::complete);
    return "Hypotheses stated halfway through this run (docs/E7B_HYPOTHESES.md), judged by the same code over the "
           "trials of the cells that had not run when they were committed. They are not predictions and do not "
           "decide the run's verdict.\n\n" +
           report::verdict_table(judged, "Hypothesis") + "\n";
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    using report::with_thousands;
    const auto secs = [](std::int64_t ms) { return report::fixed(static_cast<double>(ms) / 1000, 0); };
    std::string o = fmt::format(
        "Each trial: a fresh Iceberg sink connector ({} tasks over {} partitions, commits every {} s), {} events paced "
        "over {} s, one fault {}–{} s into the feed (seeded; in the after-commit cell, that long after the table's "
        "first snapshot), then a window of {} s after the heal for every acknowledged record to be committed. Every "
        "trial starts on worker JVMs started anew for it (so no coordinator of an earlier trial runs on), and the run "
        "ends by starting them anew once more. A connector short at the window's end is restarted through the "
        "worker's REST API and given a second window ({} s); then every row is read back through Trino. The source "
        "offsets' lag is the log end minus the offsets the sink committed for the connector's consumer group, summed "
        "over partitions at the window's end: 0 means no record will be read again. The coordinator's worker and the "
        "coordinators started and stopped are counted from the workers' own log lines (a worker's word, not the "
        "broker's: a stop can be logged twice, so started minus stopped is a floor), and the coordinators' consumer "
        "group is described by the broker once a second through the window (one member per running coordinator; a "
        "sampled count, so a short overlap can fall between samples). Worker: {}.",
        p.tasks, p.partitions, secs(p.commit_interval_ms), with_thousands(static_cast<long long>(p.events)),
        secs(p.feed_ms), secs(p.fault_delay_min_ms), secs(p.fault_delay_max_ms), secs(p.settle_ms),
        secs(p.restart_settle_ms), s.worker_version.empty() ? "?" : s.worker_version);
    // The control-topic reset each cell's connectors ran with, as the worker stored it.
    std::map<std::string, std::set<std::string>> resets;
    for (const auto& x : s.trials)
        if (x.control_offset_reset)
            resets[x.cell].insert(x.control_offset_reset->empty() ? "unset (latest)" : *x.control_offset_reset);
    for (const auto& [cell, values] : resets) {
        std::string v;
        for (const auto& one : values) v += (v.empty() ? "" : ", ") + one;
        o += fmt::format(" {}: iceberg.kafka.auto.offset.reset {} (as the worker stored it).", cell, v);
    }
    o += tasks_text(s) + added_cells_text(s, p);
    o += "\n\n" + cells_summary_table(s, p) + "\n";
    report::markdown_table t{
        {"Cell", "Trial", "Coordinator on / fault on", "Before the fault: snapshots (records committed)",
         "Committed at window end (of acknowledged)", "Source offsets' lag at window end",
         "Coordinators started / stopped (logged)", "Coordinator group members, most (samples with 2+)",
         "Commit rounds (timed out, stray answers)", "Restarted: then", "Read back: rows / duplicate / missing",
         "Coordinators left 10 s after the connector's deletion", "Data files added by two snapshots"}};
    for (const auto& x : s.trials)
        t.row({x.cell, std::to_string(x.index),
               fmt::format("worker {} / worker {}", x.coordinator_worker, x.target_worker),
               fmt::format("{} ({})", x.snapshots_before_fault, with_thousands(x.records_before_fault)),
               fmt::format("{} ({}){}", with_thousands(x.records_at_window_end),
                           with_thousands(static_cast<long long>(x.acknowledged)),
                           landed_in_window(x) ? fmt::format(", all after {} s", x.landed_after_ms / 1000) : ""),
               x.source_lag_at_window_end < 0 ? "–" : with_thousands(x.source_lag_at_window_end),
               fmt::format("{} / {}", x.coordinators_started, x.coordinators_stopped),
               fmt::format("{} ({} of {})", x.coord_group_max_members, x.coord_group_samples_with_two,
                           x.coord_group_samples),
               fmt::format("{} ({}, {})", x.commit_rounds_started, x.commit_rounds_timed_out, x.stray_answers),
               x.restarted ? (x.landed_after_restart_ms >= 0
                                  ? fmt::format("all committed after {} s", x.landed_after_restart_ms / 1000)
                                  : with_thousands(x.records_after_restart) + " committed")
                           : "–",
               fmt::format("{} / {} / {}", with_thousands(static_cast<long long>(x.rows)),
                           with_thousands(static_cast<long long>(x.duplicate_rows)),
                           with_thousands(static_cast<long long>(x.missing_seq))),
               x.coord_members_after_delete < 0 ? "–" : std::to_string(x.coord_members_after_delete),
               x.files_added_twice ? std::to_string(x.files_added_twice->size()) : "–"});
    o += t.render();
    if (const auto moved = movements_table(s); !moved.empty()) o += "\n" + moved;
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + hypotheses_table(env, s, p) +
           report::provenance(env);
}

}  // namespace rosterrig::e7b

#endif
