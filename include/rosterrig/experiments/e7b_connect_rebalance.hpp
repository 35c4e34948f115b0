// rosterrig/experiments/e7b_connect_rebalance.hpp: experiment 7b, Kafka
// Connect's Iceberg sink when its tasks move between workers, as data.
//
// Experiment 7 killed the only worker of a group: its tasks came back on the
// same worker and nothing was lost or doubled. Users of the sink run several
// workers, and what they report (apache/iceberg#17637, #16016, #16282) starts
// with a rebalance that moves the task owning the topic's first partition,
// the one that runs the commit coordinator. Each trial here: a fresh
// connector with two tasks on the group's workers, a paced feed, one fault at
// a seeded moment, then a settle window in which every acknowledged record
// should be committed to the table. A connector that has not committed
// everything by the window's end is restarted through the worker's REST API
// (what an operator does) and watched for a second window; then every row is
// read back. Cells: the coordinator's worker SIGKILLed (two workers), before
// the connector's first table commit and, in a second cell, after it; the
// other worker paused past its session timeouts and resumed (a zombie); and
// the control, one worker SIGKILLed (experiment 7's fault). The coordinators
// the workers started and stopped are counted from their own log lines.
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"

namespace rosterrig::e7b {

using experiment::prediction_outcome;

/// The cells, in the order a full run takes them.
inline constexpr const char* coordinator_kill = "coordinator-kill";  ///< two workers; SIGKILL the coordinator's, timed from the feed's start
/// Two workers; SIGKILL the coordinator's, timed from the table's first
/// snapshot: the same kill once the coordinators' group has committed a
/// position on the control topic (experiment 7's kills all came after one).
inline constexpr const char* coordinator_kill_after_commit = "coordinator-kill-after-commit";
/// Two workers; the first cell's kill on a connector whose sink clients read
/// the control topic from its start when their group has no position
/// (iceberg.kafka.auto.offset.reset=earliest; the sink's default is latest):
/// the remedy apache/iceberg PR #18006 proposes, tried as a user can today.
inline constexpr const char* coordinator_kill_earliest = "coordinator-kill-earliest";
inline constexpr const char* zombie_pause = "zombie-pause";          ///< two workers; SIGSTOP the other one, then SIGCONT
inline constexpr const char* one_worker_kill = "one-worker-kill";    ///< the control: one worker, SIGKILLed
inline const std::vector<std::string>& known_cells() {
    static const std::vector<std::string> c{coordinator_kill, coordinator_kill_after_commit, coordinator_kill_earliest,
                                            zombie_pause, one_worker_kill};
    return c;
}
/// The cells whose fault waits for the table's first snapshot before its delay starts.
inline bool after_first_commit(const std::string& cell) { return cell == coordinator_kill_after_commit; }
/// The connector settings a cell adds to experiment 7's.
inline std::map<std::string, std::string> connector_properties_of(const std::string& cell) {
    if (cell == coordinator_kill_earliest) return {{"iceberg.kafka.auto.offset.reset", "earliest"}};
    return {};
}
inline int workers_of(const std::string& cell) { return cell == one_worker_kill ? 1 : 2; }

struct parameters {
    std::uint64_t seed = 77;
    std::uint64_t events = 20000;
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::int64_t tasks = 2;                  // tasks.max: one task per worker when there are two
    std::int64_t commit_interval_ms = 2000;  // iceberg.control.commit.interval-ms, experiment 7's
    std::int64_t feed_ms = 10000;            // the feed is paced over this long
    std::int64_t fault_delay_min_ms = 1000;  // after the feed started: inside the feed, so commit cycles are in flight
    std::int64_t fault_delay_max_ms = 5000;
    // A pause longer than the sink consumer's session (6 s, the writer's
    // consumer.override) and the worker group's (10 s, Connect's default),
    // so the paused worker's task is given to the other worker before it runs again.
    std::int64_t pause_ms = 20000;
    // How long every acknowledged record may take to be committed after the
    // heal: a healthy recovery in experiment 7 committed again within about
    // 46 s of a kill (the coordinator's first round waits out its 30 s commit
    // timeout), so 120 s is well past a slow recovery.
    std::int64_t settle_ms = 120000;
    // The second window, after a REST restart of a connector short at the
    // first one's end; 0: no restart (the quick run). 60 s is past a
    // recovery's first commit round (its 30 s commit timeout).
    std::int64_t restart_settle_ms = 60000;
    // How long the after-commit cell waits for the table's first snapshot
    // after the feed started, before it gives up on the trial's fault.
    std::int64_t first_commit_wait_ms = 60000;
    std::uint64_t trials = 5;  // per cell
    std::vector<std::string> cells = known_cells();
    bool quick = false;

    static parameters full() { return {}; }
    /// For CI (under 3 minutes): one coordinator kill, no restart.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 4000;
        p.providers = 500;
        p.feed_ms = 4000;
        p.fault_delay_min_ms = 1000;
        p.fault_delay_max_ms = 2000;
        p.settle_ms = 80000;  // past a slow recovery's 46 s; no restart window, to stay under 3 minutes
        p.restart_settle_ms = 0;
        p.trials = 1;
        p.cells = {coordinator_kill};
        return p;
    }
    /// `--repro NAME`: one trial of one cell, the quick run's feed, with the
    /// REST restart: the kill before the first commit (records lost for
    /// good) and, beside it, the same kill after the first commit.
    static std::vector<std::string> repro_names() { return {coordinator_kill, coordinator_kill_after_commit, coordinator_kill_earliest}; }
    static std::optional<parameters> repro_run(const std::string& name) {
        const auto names = repro_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) return std::nullopt;
        auto p = quick_run();
        p.cells = {name};
        p.restart_settle_ms = 60000;
        return p;
    }
    roster_spec feed(std::uint64_t trial) const { return roster_feed(seed + trial, events, providers, partitions); }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, providers, partitions, tasks, commit_interval_ms, feed_ms, fault_delay_min_ms,
                       fault_delay_max_ms, pause_ms, settle_ms, restart_settle_ms, first_commit_wait_ms, trials, cells, quick))

inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t) {
    for (const auto& c : p.cells)
        if (std::find(known_cells().begin(), known_cells().end(), c) == known_cells().end())
            return "no cell '" + c + "' (coordinator-kill, coordinator-kill-after-commit, coordinator-kill-earliest, zombie-pause, one-worker-kill)";
    if (p.cells.empty()) return "no cell to run";
    if (p.trials == 0) return "--trials: at least 1";
    if (p.events == 0 || p.feed_ms <= 0) return "the feed needs events and a positive duration";
    if (p.fault_delay_max_ms < p.fault_delay_min_ms) return "the fault delay's maximum is below its minimum";
    return std::nullopt;
}

inline experiment::fault_kind kind_of(const std::string& cell) {
    return cell == zombie_pause ? experiment::fault_kind::pause : experiment::fault_kind::kill;
}

/// One fault per trial, at a seeded delay after the feed started.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan out;
    out.seed = p.seed ^ 0x653762u;
    for (std::size_t i = 0; i < p.cells.size(); ++i) {
        experiment::schedule_spec spec;
        spec.variants = {p.cells[i]};
        spec.count = p.trials;
        spec.kinds = {kind_of(p.cells[i])};
        spec.targets = {experiment::fault_target::connect_worker};
        if (spec.kinds.front() == experiment::fault_kind::pause) spec.parameters.duration_ms = p.pause_ms;
        spec.min_delay_ms = p.fault_delay_min_ms;
        spec.max_delay_ms = p.fault_delay_max_ms;
        spec.trigger = after_first_commit(p.cells[i]) ? "the table's first snapshot" : "the feed's start";
        for (const auto& step : experiment::plan_faults(out.seed + i, spec).plan().steps) out.steps.push_back(step);
    }
    return out;
}

/// The Connect pipeline: experiment 7's append table, commit interval and tasks.
inline experiment::pipeline_config pipeline_of(const parameters& p) {
    return {experiment::table_kind::append, experiment::checkpoint_mode::exactly_once, experiment::iceberg_sink::flink_sink,
            experiment::warehouse::s3, experiment::startup_mode::earliest_offset, p.commit_interval_ms, p.tasks};
}

// ---- samples -------------------------------------------------------------------

/// One trial: one connector, one fault, the windows after it, the read-back.
struct trial {
    std::string cell;
    std::uint64_t index = 0;   // 1-based within the cell
    std::int64_t delay_ms = 0; // the plan's, after the feed started (after the first snapshot in the after-commit cell)
    std::string connector;
    bool fresh_workers = false;                 // every worker JVM of the trial was started anew just before it
    std::int64_t workers = 0;                   // workers answering in the group when the connector started
    std::int64_t commit_interval_ms = 0;        // as the worker stored it
    // iceberg.kafka.auto.offset.reset as the worker stored it, "" unset (the
    // sink's default, latest); absent in a run that predates the field.
    std::optional<std::string> control_offset_reset;
    std::int64_t tasks_running = 0;             // as the worker reported them before the feed (polled up to 30 s for all)
    std::int64_t coordinator_worker = 0;        // the worker whose log said a task was elected leader; 0 unknown
    std::int64_t target_worker = 0;             // the worker the fault hit
    std::int64_t target_pid = 0;
    std::int64_t fault_at_ms = 0;               // wall clock
    std::int64_t replacement_pid = 0;           // kill: the supervisor's new JVM
    std::string state_seen_paused;              // pause: the state letter after SIGSTOP, read until T (at most 2 s)
    std::int64_t healed_at_ms = 0;              // kill: new JVM started; pause: SIGCONT sent
    std::int64_t running_again_after_ms = -1;   // every task RUNNING again, after the fault; -1 not seen
    std::uint64_t acknowledged = 0;
    // After-commit cell: the table's first snapshot seen, after the feed's
    // start (polled every 250 ms, so late by up to that); -1 not within first_commit_wait_ms.
    std::int64_t first_snapshot_after_ms = -1;
    std::int64_t snapshots_before_fault = 0;
    std::int64_t records_before_fault = 0;      // committed records (the catalog's total-records) just before the fault
    // The settle window (settle_ms after the heal):
    std::int64_t records_at_window_end = 0;     // committed records when the window ended or everything landed
    std::int64_t landed_after_ms = -1;          // every acknowledged record committed, after the heal; -1 not in the window
    std::int64_t snapshots_at_window_end = 0;
    // The sink's source offsets (the connector's consumer group, where the
    // sink commits them with its table commits) at the window's end, summed
    // over partitions: committed, and the log end minus committed. -1 not read.
    std::int64_t source_committed_at_window_end = -1;
    std::int64_t source_lag_at_window_end = -1;
    // From the workers' logs between the connector's start and the window's end.
    std::int64_t coordinators_started = 0;      // "Task elected leader, starting commit coordinator"
    std::int64_t coordinators_stopped = 0;      // "lost leader partition. Stopping Coordinator"
    std::int64_t commit_rounds_started = 0;     // "Commit <id> initiated"
    std::int64_t commit_rounds_timed_out = 0;   // "Commit timeout reached"
    std::int64_t stray_answers = 0;             // "Received commit ready when no commit in progress"
    // The coordinators' consumer group (connect-<connector>-coord) as the
    // broker described it, once a second through the window: one member per
    // running coordinator.
    std::int64_t coord_group_samples = 0;
    std::int64_t coord_group_max_members = 0;
    std::int64_t coord_group_samples_with_two = 0;  // samples with 2 or more members
    // The operator's remedy, when the window ended short:
    bool restarted = false;                     // POST /connectors/<name>/restart?includeTasks=true
    std::int64_t landed_after_restart_ms = -1;  // -1: not within settle_ms of the restart (or no restart)
    std::int64_t records_after_restart = 0;
    // The read-back (every row, through Trino), at the end:
    std::uint64_t rows = 0;
    std::uint64_t distinct_seq = 0;
    std::uint64_t duplicate_rows = 0;
    std::uint64_t missing_seq = 0;              // of the acknowledged feed's 1..events
    std::string final_state;
    // The coordinators' group 10 s after the connector was deleted, as the
    // broker described it: a member is a coordinator that outlived its connector. -1: not read.
    std::int64_t coord_members_after_delete = -1;
};
BOOST_DESCRIBE_STRUCT(trial, (),
                      (cell, index, delay_ms, connector, fresh_workers, workers, commit_interval_ms, control_offset_reset, tasks_running, coordinator_worker,
                       target_worker, target_pid, fault_at_ms, replacement_pid, state_seen_paused, healed_at_ms,
                       running_again_after_ms, acknowledged, first_snapshot_after_ms, snapshots_before_fault, records_before_fault,
                       records_at_window_end, landed_after_ms, snapshots_at_window_end, source_committed_at_window_end,
                       source_lag_at_window_end, coordinators_started,
                       coordinators_stopped, commit_rounds_started, commit_rounds_timed_out, stray_answers,
                       coord_group_samples, coord_group_max_members, coord_group_samples_with_two, restarted,
                       landed_after_restart_ms, records_after_restart, rows, distinct_seq, duplicate_rows, missing_seq,
                       final_state, coord_members_after_delete))

/// A trial's record before it runs: its cell, index and delay from the plan's step.
inline trial planned_trial(const experiment::fault_step& step) {
    trial t;
    t.cell = step.variant, t.index = step.index, t.delay_ms = step.delay_ms;
    return t;
}

/// One description of the coordinators' group during the settle window: `members` of it.
inline void note_coord_group_sample(trial& t, std::int64_t members) {
    ++t.coord_group_samples, t.coord_group_max_members = std::max(t.coord_group_max_members, members);
    t.coord_group_samples_with_two += members >= 2 ? 1 : 0;
}

/// The read-back's seq counts.
inline void record_table(trial& t, const experiment::table_observation& seen) {
    t.rows = seen.by_seq.rows, t.distinct_seq = seen.by_seq.distinct_seq, t.duplicate_rows = seen.by_seq.duplicate_rows;
    t.missing_seq = seen.by_seq.missing_seq;
}

struct samples {
    std::vector<trial> trials;
    std::string worker_version;  // GET / on worker 1
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (trials, worker_version, predictions))

// ---- the workers' log lines ------------------------------------------------------

/// What the Iceberg sink (1.10) logs about its coordinators, counted in the
/// text a worker appended to its log during a trial.
struct coordinator_lines {
    std::int64_t started = 0;   // a task elected leader started a coordinator
    std::int64_t stopped = 0;   // a committer that lost the leader partition stopped one
    std::int64_t rounds = 0;    // a coordinator initiated a commit round
    std::int64_t timeouts = 0;  // a round ran out of its commit timeout
    std::int64_t stray = 0;     // a task's answer reached a coordinator with no round of its own in progress
};
inline std::int64_t occurrences(std::string_view text, std::string_view what) {
    std::int64_t n = 0;
    for (auto at = text.find(what); at != std::string_view::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}
inline coordinator_lines count_coordinator_lines(std::string_view text) {
    coordinator_lines c;
    c.started = occurrences(text, "Task elected leader, starting commit coordinator");
    c.stopped = occurrences(text, "lost leader partition. Stopping Coordinator");
    c.rounds = occurrences(text, "initiated (org.apache.iceberg.connect.channel.Coordinator)");
    c.timeouts = occurrences(text, "Commit timeout reached");
    c.stray = occurrences(text, "Received commit ready when no commit in progress");
    return c;
}

/// The counted lines, into the trial.
inline void note_coordinator_lines(trial& t, const coordinator_lines& c) {
    t.coordinators_started = c.started, t.coordinators_stopped = c.stopped;
    t.commit_rounds_started = c.rounds, t.commit_rounds_timed_out = c.timeouts, t.stray_answers = c.stray;
}

// ---- measures ------------------------------------------------------------------

inline bool landed_in_window(const trial& t) { return t.landed_after_ms >= 0; }
/// Coordinators the logs leave running at the window's end (started minus stopped).
inline std::int64_t coordinators_left(const trial& t) { return t.coordinators_started - t.coordinators_stopped; }
/// The table holds every acknowledged seq once and nothing else.
inline bool exact(const trial& t) {
    return t.duplicate_rows == 0 && t.missing_seq == 0 && t.rows == t.acknowledged && t.acknowledged > 0;
}

inline std::vector<const trial*> trials_of(const samples& s, const std::string& cell) {
    std::vector<const trial*> out;
    for (const auto& t : s.trials)
        if (t.cell == cell) out.push_back(&t);
    return out;
}

/// The after-commit cell's progress line on the table's first snapshot.
inline std::string first_snapshot_text(const trial& t) {
    return "the table's first snapshot " +
           (t.first_snapshot_after_ms < 0 ? std::string("not seen") : "seen after " + std::to_string(t.first_snapshot_after_ms) + " ms");
}

inline std::string trial_text(const trial& t) {
    return "coordinator on worker " + std::to_string(t.coordinator_worker) +
           ", fault on worker " + std::to_string(t.target_worker) + "; " + std::to_string(t.records_at_window_end) + " of " +
           std::to_string(t.acknowledged) + " committed " +
           (landed_in_window(t) ? std::to_string(t.landed_after_ms / 1000) + " s after the heal"
                                : "at the window's end") +
           "; coordinators started/stopped (logged) " + std::to_string(t.coordinators_started) + "/" +
           std::to_string(t.coordinators_stopped) + "; commit rounds " + std::to_string(t.commit_rounds_started) + " (" +
           std::to_string(t.commit_rounds_timed_out) + " timed out, " + std::to_string(t.stray_answers) +
           " stray answers); coordinator group up to " + std::to_string(t.coord_group_max_members) + " members" +
           (t.restarted ? std::string("; restarted: ") +
                              (t.landed_after_restart_ms >= 0 ? "all landed " + std::to_string(t.landed_after_restart_ms / 1000) + " s later"
                                                              : std::to_string(t.records_after_restart) + " committed")
                        : "") +
           "; read back " + std::to_string(t.rows) + " rows, " + std::to_string(t.duplicate_rows) + " duplicate, " +
           std::to_string(t.missing_seq) + " missing";
}

// ---- rules ---------------------------------------------------------------------

using rule = experiment::rule<samples, parameters>;
using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

/// Held when at least one trial of `cell` shows `happened`, refuted when none
/// does; inconclusive with no trial (or none whose fault hit its target).
template <class Happened>
rule_verdict in_some_trial(const samples& s, const std::string& cell, Happened&& happened, const std::string& what) {
    std::uint64_t n = 0, k = 0;
    for (const auto* t : trials_of(s, cell)) {
        if (t->target_pid <= 0) continue;  // the fault never applied: nothing to judge
        ++n;
        if (happened(*t)) ++k;
    }
    if (n == 0) return inconclusive("no " + cell + " trial applied its fault");
    const auto facts = what + " in " + std::to_string(k) + " of " + std::to_string(n) + " " + cell + " trials";
    return k > 0 ? held(facts) : refuted(facts);
}

/// Held when every trial of `cell` shows `ok`; refuted when one does not. A
/// trial whose fault did not apply, or that `cannot_say` gives a reason for
/// (a condition the cell needs and the trial lacked), is inconclusive.
template <class CannotSay, class Ok>
rule_verdict in_every_trial(const samples& s, const std::string& cell, CannotSay&& cannot_say, Ok&& ok, const std::string& what) {
    return experiment::for_each_of(
        trials_of(s, cell), [](const trial* t) { return t->cell + " #" + std::to_string(t->index); },
        [&](const trial* t) {
            if (t->target_pid <= 0) return inconclusive("the fault was not applied");
            if (const std::optional<std::string> why = cannot_say(*t)) return inconclusive(*why);
            return ok(*t) ? held(what) : refuted(trial_text(*t));
        },
        "no " + cell + " trial in the samples");
}
template <class Ok>
rule_verdict in_every_trial(const samples& s, const std::string& cell, Ok&& ok, const std::string& what) {
    return in_every_trial(s, cell, [](const trial&) { return std::optional<std::string>(); }, std::forward<Ok>(ok), what);
}
inline bool landed_exactly(const trial& t) { return landed_in_window(t) && exact(t); }

inline bool stalled(const trial& t) { return !landed_in_window(t) && t.records_at_window_end < static_cast<std::int64_t>(t.acknowledged); }

/// The after-commit cell: exact in every trial whose kill came after the
/// table's first snapshot; a trial whose kill came before it cannot say. (A
/// kill after every record was committed has nothing left to lose and counts
/// as it ran: the rule the full run was judged by. What the kills had to work
/// with is a claim of its own, test/claims/e7b_claims.tests.cpp.)
inline rule_verdict kill_after_first_commit_exact(const samples& s) {
    return in_every_trial(
        s, coordinator_kill_after_commit,
        [](const trial& t) -> std::optional<std::string> {
            if (t.snapshots_before_fault < 1) return "no snapshot before the kill: the trial is the other cell's";
            return std::nullopt;
        },
        landed_exactly, "committed within the window, every acknowledged seq once, the kill after the first snapshot");
}

/// Every stalled trial (of any cell) had the sink's source offsets at the log
/// end at the window's end: the records missing from the table will not be
/// read again. Refuted by a stalled trial with lag left; inconclusive with no
/// stalled trial whose offsets were read.
inline rule_verdict stalled_sink_committed_its_offsets(const samples& s) {
    std::uint64_t n = 0, at_end = 0;
    std::string lagging;
    for (const auto& t : s.trials) {
        if (!stalled(t) || t.source_lag_at_window_end < 0) continue;
        ++n;
        if (t.source_lag_at_window_end == 0) ++at_end;
        else lagging += t.cell + " #" + std::to_string(t.index) + " lag " + std::to_string(t.source_lag_at_window_end) + "; ";
    }
    if (n == 0) return inconclusive("no stalled trial whose source offsets were read");
    const auto facts = "source offsets at the log end (lag 0) with records missing from the table in " + std::to_string(at_end) +
                       " of " + std::to_string(n) + " stalled trials";
    return at_end == n ? held(facts) : refuted(facts + "; " + lagging);
}

inline std::vector<rule> rules() {
    return {
        {"e7b.coordinator-kill-stalls-commits",
         [](const samples& s, const parameters& p) {
             return in_some_trial(s, coordinator_kill, stalled,
                                  "acknowledged records still uncommitted " + std::to_string(p.settle_ms / 1000) +
                                      " s after the killed worker was back");
         }},
        {"e7b.coordinator-kill-leaves-two-coordinators",
         [](const samples& s, const parameters&) {
             return in_some_trial(s, coordinator_kill, [](const trial& t) { return coordinators_left(t) >= 2; },
                                  "two or more coordinators started and not stopped, as the workers logged");
         }},
        {"e7b.restart-recovers-exactly",
         [](const samples& s, const parameters&) {
             // A trial short at the window's end that was never restarted (no restart window) cannot say.
             return in_every_trial(
                 s, coordinator_kill,
                 [](const trial& t) {
                     return !landed_in_window(t) && !t.restarted ? std::optional<std::string>("short at the window's end and not restarted")
                                                                 : std::nullopt;
                 },
                 exact, "every acknowledged seq once, nothing else");
         }},
        {"e7b.zombie-pause-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, zombie_pause, landed_exactly, "committed within the window, every acknowledged seq once");
         }},
        {"e7b.one-worker-kill-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, one_worker_kill, landed_exactly, "committed within the window, every acknowledged seq once");
         }},
        {"e7b.kill-after-first-commit-exact",
         [](const samples& s, const parameters&) { return kill_after_first_commit_exact(s); }},
        {"e7b.earliest-recovers-exactly",
         [](const samples& s, const parameters&) {
             return in_every_trial(
                 s, coordinator_kill_earliest,
                 [](const trial& t) {
                     return t.control_offset_reset.value_or("") != "earliest"
                                ? std::optional<std::string>("the worker did not store iceberg.kafka.auto.offset.reset=earliest")
                                : std::nullopt;
                 },
                 landed_exactly, "committed within the window, every acknowledged seq once");
         }},
        {"e7b.stalled-sink-committed-its-offsets",
         [](const samples& s, const parameters&) { return stalled_sink_committed_its_offsets(s); }},
        {"e7b.deleted-connector-leaves-coordinators",
         [](const samples& s, const parameters&) {
             return in_some_trial(s, coordinator_kill, [](const trial& t) { return t.coord_members_after_delete > 0; },
                                  "a coordinator still a member of the deleted connector's coordinator group 10 s after the deletion");
         }},
        {"e7b.no-duplicate",
         [](const samples& s, const parameters&) {
             std::uint64_t n = 0, dup = 0, with = 0;
             for (const auto& t : s.trials) {
                 if (t.rows == 0) continue;
                 ++n, dup += t.duplicate_rows, with += t.duplicate_rows > 0 ? 1 : 0;
             }
             if (n == 0) return inconclusive("no trial read rows back");
             const auto facts = std::to_string(dup) + " duplicate seq rows in " + std::to_string(with) + " of " +
                                std::to_string(n) + " trials";
             return dup == 0 ? held(facts) : refuted(facts);
         }},
    };
}

// ---- report --------------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    using report::with_thousands;
    std::string o =
        "Each trial: a fresh Iceberg sink connector (" + std::to_string(p.tasks) + " tasks over " +
        std::to_string(p.partitions) + " partitions, commits every " + report::fixed(static_cast<double>(p.commit_interval_ms) / 1000, 0) +
        " s), " + with_thousands(static_cast<long long>(p.events)) + " events paced over " +
        report::fixed(static_cast<double>(p.feed_ms) / 1000, 0) + " s, one fault " +
        report::fixed(static_cast<double>(p.fault_delay_min_ms) / 1000, 0) + "–" +
        report::fixed(static_cast<double>(p.fault_delay_max_ms) / 1000, 0) +
        " s into the feed (seeded; in the after-commit cell, that long after the table's first snapshot), then a window of " + report::fixed(static_cast<double>(p.settle_ms) / 1000, 0) +
        " s after the heal for every acknowledged record to be committed. Every trial starts on worker JVMs started anew "
        "for it (so no coordinator of an earlier trial runs on), and the run ends by starting them anew once more. A connector short at the window's end is "
        "restarted through the worker's REST API and given a second window (" + report::fixed(static_cast<double>(p.restart_settle_ms) / 1000, 0) + " s); then every row is read back through Trino. "
        "The source offsets' lag is the log end minus the offsets the sink committed for the connector's consumer group, summed over partitions at the window's end: 0 means no record will be read again. The coordinator's worker and the coordinators started and stopped are counted from the workers' own log lines "
        "(a worker's word, not the broker's: a stop can be logged twice, so started minus stopped is a floor), and the "
        "coordinators' consumer group is described by the broker once a second through the window (one member per running "
        "coordinator; a sampled count, so a short overlap can fall between samples). Worker: " + (s.worker_version.empty() ? "?" : s.worker_version) + ".";
    // The control-topic reset each cell's connectors ran with, as the worker stored it.
    std::map<std::string, std::set<std::string>> resets;
    for (const auto& x : s.trials)
        if (x.control_offset_reset) resets[x.cell].insert(x.control_offset_reset->empty() ? "unset (latest)" : *x.control_offset_reset);
    for (const auto& [cell, values] : resets) {
        std::string v;
        for (const auto& one : values) v += (v.empty() ? "" : ", ") + one;
        o += " " + cell + ": iceberg.kafka.auto.offset.reset " + v + " (as the worker stored it).";
    }
    o += "\n\n";
    report::markdown_table t{{"Cell", "Trial", "Coordinator on / fault on", "Before the fault: snapshots (records committed)",
                              "Committed at window end (of acknowledged)", "Source offsets' lag at window end",
                              "Coordinators started / stopped (logged)", "Coordinator group members, most (samples with 2+)",
                              "Commit rounds (timed out, stray answers)", "Restarted: then",
                              "Read back: rows / duplicate / missing", "Coordinators left 10 s after the connector's deletion"}};
    for (const auto& x : s.trials)
        t.row({x.cell, std::to_string(x.index),
                   "worker " + std::to_string(x.coordinator_worker) + " / worker " + std::to_string(x.target_worker),
                   std::to_string(x.snapshots_before_fault) + " (" + with_thousands(x.records_before_fault) + ")",
                   with_thousands(x.records_at_window_end) + " (" + with_thousands(static_cast<long long>(x.acknowledged)) + ")" +
                       (landed_in_window(x) ? ", all after " + std::to_string(x.landed_after_ms / 1000) + " s" : ""),
                   x.source_lag_at_window_end < 0 ? "–" : with_thousands(x.source_lag_at_window_end),
                   std::to_string(x.coordinators_started) + " / " + std::to_string(x.coordinators_stopped),
                   std::to_string(x.coord_group_max_members) + " (" + std::to_string(x.coord_group_samples_with_two) + " of " +
                       std::to_string(x.coord_group_samples) + ")",
                   std::to_string(x.commit_rounds_started) + " (" + std::to_string(x.commit_rounds_timed_out) + ", " +
                       std::to_string(x.stray_answers) + ")",
                   x.restarted ? (x.landed_after_restart_ms >= 0 ? "all committed after " + std::to_string(x.landed_after_restart_ms / 1000) + " s"
                                                                 : with_thousands(x.records_after_restart) + " committed")
                               : "–",
                   with_thousands(static_cast<long long>(x.rows)) + " / " + with_thousands(static_cast<long long>(x.duplicate_rows)) +
                       " / " + with_thousands(static_cast<long long>(x.missing_seq)),
                   x.coord_members_after_delete < 0 ? "–" : std::to_string(x.coord_members_after_delete)});
    o += t.render();
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

struct definition {
    using parameters = e7b::parameters;
    using samples = e7b::samples;
    static constexpr const char* id = "e7b_connect_rebalance";
    static constexpr const char* tag = "e7b";
    static constexpr const char* predictions_file = "predictions/e7b_connect_rebalance.json";
    static constexpr const char* results_file = "results/e7b_connect_rebalance.json";
    static constexpr experiment::hooks<parameters> hooks{
        .repro_run = &parameters::repro_run,
        .repro_names = &parameters::repro_names,
        .problems = &experiment::slot_problems<parameters, &e7b::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e7b::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e7b::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e7b::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace rosterrig::e7b

#endif
