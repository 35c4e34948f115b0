// test/claims/rule_cases/e7b.cpp: experiment 7b's rules, each refuted by one
// change to the trials of its shipped run, or held by one where the run refuted it.
#include "../rule_cases.hpp"

#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

#include <algorithm>
#include <stdexcept>

namespace rosterrig::claims_test {
namespace {
e7b::trial& trial_at(e7b::samples& s, const std::string& cell, std::uint64_t index) {
    for (auto& t : s.trials)
        if (t.cell == cell && t.index == index) return t;
    throw std::out_of_range("no trial " + cell + " #" + std::to_string(index));
}
// Every acknowledged record committed `after_ms` after the heal, once, with no restart.
void lands_in_window(e7b::trial& t, std::int64_t after_ms) {
    t.landed_after_ms = after_ms;
    t.records_at_window_end = static_cast<std::int64_t>(t.acknowledged);
    t.snapshots_at_window_end = std::max<std::int64_t>(t.snapshots_at_window_end, 1);
    t.restarted = false, t.landed_after_restart_ms = -1, t.records_after_restart = 0;
    t.rows = t.distinct_seq = t.acknowledged;
    t.duplicate_rows = t.missing_seq = 0;
}
// The table's `extra` more seqs on two rows, committed within the window.
void doubles(e7b::trial& t, std::uint64_t extra) {
    t.rows += extra, t.duplicate_rows += extra;
    t.records_at_window_end += static_cast<std::int64_t>(extra);
}
}  // namespace

template <>
std::vector<rule_case<e7b::definition>> rule_cases<e7b::definition>() {
    using S = e7b::samples;
    using P = e7b::parameters;
    return {
        {"e7b.coordinator-kill-stalls-commits",
         "every coordinator-kill trial committed every acknowledged record 47 s after the heal, as trial 4 did",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_kill) lands_in_window(t, 47107);
         },
         verdict_kind::refuted},
        {"e7b.coordinator-kill-leaves-two-coordinators",
         "in every coordinator-kill trial the workers logged every coordinator but one stopped",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_kill)
                     t.coordinators_stopped = std::max<std::int64_t>(0, t.coordinators_started - 1);
         },
         verdict_kind::refuted},
        {"e7b.restart-recovers-exactly",
         "the REST restart committed every acknowledged record once, 30 s later, in every stalled coordinator-kill trial",
         [](S& s, P&) {
             for (auto& t : s.trials) {
                 if (t.cell != e7b::coordinator_kill || !t.restarted) continue;
                 t.landed_after_restart_ms = 30000;
                 t.records_after_restart = static_cast<std::int64_t>(t.acknowledged);
                 t.rows = t.distinct_seq = t.acknowledged;
                 t.duplicate_rows = t.missing_seq = 0;
             }
         },
         verdict_kind::held},
        {"e7b.deleted-connector-leaves-coordinators",
         "10 s after each coordinator-kill connector's deletion its coordinator group had no member",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_kill) t.coord_members_after_delete = 0;
         },
         verdict_kind::refuted},
        {"e7b.zombie-pause-exact",
         "the resumed zombie's 500 records were committed again: zombie-pause #2's table holds them twice",
         [](S& s, P&) { doubles(trial_at(s, e7b::zombie_pause, 2), 500); }, verdict_kind::refuted},
        {"e7b.zombie-pause-exact", "zombie-pause #1's window ended with 2,000 acknowledged records uncommitted",
         [](S& s, P&) {
             auto& t = trial_at(s, e7b::zombie_pause, 1);
             t.landed_after_ms = -1;
             t.records_at_window_end = 18000;
             t.rows = t.distinct_seq = 18000;
             t.missing_seq = 2000;
         },
         verdict_kind::refuted},
        {"e7b.one-worker-kill-exact",
         "every one-worker-kill trial committed every acknowledged record once, 47 s after the heal",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::one_worker_kill) lands_in_window(t, 47107);
         },
         verdict_kind::held},
        {"e7b.no-duplicate",
         "coordinator-kill-after-commit #1's first commit (985 records) was committed again: they are on two rows",
         [](S& s, P&) { doubles(trial_at(s, e7b::coordinator_kill_after_commit, 1), 985); }, verdict_kind::refuted},
        // The shipped run predates the field: these cases record each trial's files.
        {"e7b.no-file-committed-twice",
         "every trial recorded its files; coordinator-kill-after-commit #1's first snapshot's file added again by a "
         "second",
         [](S& s, P&) {
             for (auto& t : s.trials) t.files_added_twice.emplace();
             trial_at(s, e7b::coordinator_kill_after_commit, 1)
                 .files_added_twice->push_back({"s3://rosterrig/warehouse/ns/t/data/00000-0-a-00001.parquet", {1, 2}});
         },
         verdict_kind::refuted},
        {"e7b.no-file-committed-twice", "every trial recorded its files, none added by two snapshots",
         [](S& s, P&) {
             for (auto& t : s.trials) t.files_added_twice.emplace();
         },
         verdict_kind::held},
        {"e7b.kill-after-first-commit-exact",
         "coordinator-kill-after-commit #1 stalled at its first snapshot's 985 records, the restart committing none",
         [](S& s, P&) {
             auto& t = trial_at(s, e7b::coordinator_kill_after_commit, 1);
             t.landed_after_ms = -1;
             t.records_at_window_end = t.records_before_fault;
             t.snapshots_at_window_end = t.snapshots_before_fault;
             t.restarted = true, t.landed_after_restart_ms = -1, t.records_after_restart = t.records_before_fault;
             t.rows = t.distinct_seq = static_cast<std::uint64_t>(t.records_before_fault);
             t.missing_seq = t.acknowledged - t.rows;
         },
         verdict_kind::refuted},
        {"e7b.kill-after-first-commit-exact",
         "no coordinator-kill-after-commit kill came after a snapshot (each is the other cell's): nothing to judge",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_kill_after_commit)
                     t.snapshots_before_fault = 0, t.records_before_fault = 0;
         },
         verdict_kind::inconclusive},
        {"e7b.stalled-sink-committed-its-offsets",
         "coordinator-kill #1 stalled with its group 2,000 records behind the log end",
         [](S& s, P&) {
             auto& t = trial_at(s, e7b::coordinator_kill, 1);
             t.source_committed_at_window_end -= 2000;
             t.source_lag_at_window_end = 2000;
         },
         verdict_kind::refuted},
        {"e7b.earliest-recovers-exactly",
         "coordinator-kill-earliest #1's task answered an earlier commit round again: 2,000 seqs on two rows",
         [](S& s, P&) { doubles(trial_at(s, e7b::coordinator_kill_earliest, 1), 2000); }, verdict_kind::refuted},
        {"e7b.earliest-recovers-exactly",
         "the worker stored no iceberg.kafka.auto.offset.reset for the earliest cell's connectors (the sink's latest)",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_kill_earliest) t.control_offset_reset = "";
         },
         verdict_kind::inconclusive},
        // The cells added for issue 35, which the shipped run has since its full run of 360 trials.
        {"e7b.coordinator-pause-moves-coordinator",
         "no worker logged a coordinator election during any coordinator-pause trial's pause",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_pause) t.elected_during_fault = std::vector<std::int64_t>{};
         },
         verdict_kind::refuted},
        {"e7b.coordinator-pause-stalls-commits",
         "every coordinator-pause trial committed every acknowledged record 30 s after the SIGCONT",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_pause) lands_in_window(t, 30000);
         },
         verdict_kind::refuted},
        {"e7b.coordinator-pause-two-coordinators",
         "no sample of any coordinator-pause trial's coordinator group had two members",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::coordinator_pause) t.coord_group_samples_with_two = 0;
         },
         verdict_kind::refuted},
        {"e7b.tasks-4-kill-stalls-commits",
         "every tasks-4 trial committed every acknowledged record 47 s after the heal",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::tasks_4) lands_in_window(t, 47107);
         },
         verdict_kind::refuted},
        {"e7b.worker-leave-exact", "every worker-leave trial committed every acknowledged record once in the window",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::worker_leave) lands_in_window(t, 30000);
         },
         verdict_kind::held},
        {"e7b.worker-join-exact", "worker-join trial 1 read 100 seqs back twice",
         [](S& s, P&) { doubles(trial_at(s, e7b::worker_join, 1), 100); }, verdict_kind::refuted},
        {"e7b.config-update-two-coordinators",
         "config-update trial 1's workers logged two coordinators started and none stopped",
         [](S& s, P&) {
             auto& t = trial_at(s, e7b::config_update, 1);
             t.coordinators_started = 2, t.coordinators_stopped = 0;
         },
         verdict_kind::held},
        {"e7b.config-update-loses-records", "every config-update trial committed every acknowledged record once",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::config_update) lands_in_window(t, 9000);
         },
         verdict_kind::refuted},
        {"e7b.task-restart-two-coordinators",
         "task-restart trial 1's workers logged two coordinators started and none stopped",
         [](S& s, P&) {
             auto& t = trial_at(s, e7b::task_restart, 1);
             t.coordinators_started = 2, t.coordinators_stopped = 0;
         },
         verdict_kind::held},
        {"e7b.task-restart-loses-records", "every task-restart trial committed every acknowledged record once",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::task_restart) lands_in_window(t, 9000);
         },
         verdict_kind::refuted},
        {"e7b.task-restart-in-commit-loses-records",
         "every task-restart-in-commit trial committed every acknowledged record once",
         [](S& s, P&) {
             for (auto& t : s.trials)
                 if (t.cell == e7b::task_restart_in_commit) lands_in_window(t, 9000);
         },
         verdict_kind::refuted},
    };
}

// Every rule's cell has run in the shipped full run.
template <>
std::set<std::string> rules_not_run<e7b::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
