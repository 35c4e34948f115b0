// rosterrig/experiments/e7b_connect_rebalance/samples.hpp: experiment 7b's sample schema (a trial, the samples), the helpers that fill a trial, and the workers' log lines counted into it.
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_SAMPLES_HPP

#include "rosterrig/experiment/file_commits.hpp"
#include "rosterrig/experiments/e7b_connect_rebalance/parameters.hpp"

namespace rosterrig::e7b {

// ---- samples -------------------------------------------------------------------

/// One trial: one connector, one fault, the windows after it, the read-back.
struct trial {
    std::string cell;
    std::uint64_t index = 0;  // 1-based within the cell
    std::int64_t delay_ms =
        0;  // the plan's, after the feed started (after the first snapshot in the after-commit cell)
    std::string connector;
    bool fresh_workers = false;           // every worker JVM of the trial was started anew just before it
    std::int64_t workers = 0;             // workers answering in the group when the connector started
    std::int64_t commit_interval_ms = 0;  // as the worker stored it
    // iceberg.kafka.auto.offset.reset as the worker stored it, "" unset (the
    // sink's default, latest); absent in a run that predates the field.
    std::optional<std::string> control_offset_reset;
    std::int64_t tasks_running = 0;       // as the worker reported them before the feed (polled up to 30 s for all)
    std::int64_t coordinator_worker = 0;  // the worker whose log said a task was elected leader; 0 unknown
    std::int64_t target_worker = 0;       // the worker the fault hit
    std::int64_t target_pid = 0;
    std::int64_t fault_at_ms = 0;              // wall clock
    std::int64_t replacement_pid = 0;          // kill: the supervisor's new JVM
    std::string state_seen_paused;             // pause: the state letter after SIGSTOP, read until T (at most 2 s)
    std::int64_t healed_at_ms = 0;             // kill: new JVM started; pause: SIGCONT sent
    std::int64_t running_again_after_ms = -1;  // every task RUNNING again, after the fault; -1 not seen
    std::uint64_t acknowledged = 0;
    // After-commit cell: the table's first snapshot seen, after the feed's
    // start (polled every 250 ms, so late by up to that); -1 not within first_commit_wait_ms.
    std::int64_t first_snapshot_after_ms = -1;
    std::int64_t snapshots_before_fault = 0;
    std::int64_t records_before_fault = 0;  // committed records (the catalog's total-records) just before the fault
    // The settle window (settle_ms after the heal):
    std::int64_t records_at_window_end = 0;  // committed records when the window ended or everything landed
    std::int64_t landed_after_ms = -1;  // every acknowledged record committed, after the heal; -1 not in the window
    std::int64_t snapshots_at_window_end = 0;
    // The sink's source offsets (the connector's consumer group, where the
    // sink commits them with its table commits) at the window's end, summed
    // over partitions: committed, and the log end minus committed. -1 not read.
    std::int64_t source_committed_at_window_end = -1;
    std::int64_t source_lag_at_window_end = -1;
    // From the workers' logs between the connector's start and the window's end.
    std::int64_t coordinators_started = 0;     // "Task elected leader, starting commit coordinator"
    std::int64_t coordinators_stopped = 0;     // "lost leader partition. Stopping Coordinator"
    std::int64_t commit_rounds_started = 0;    // "Commit <id> initiated"
    std::int64_t commit_rounds_timed_out = 0;  // "Commit timeout reached"
    std::int64_t stray_answers = 0;            // "Received commit ready when no commit in progress"
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
    std::uint64_t missing_seq = 0;  // of the acknowledged feed's 1..events
    std::string final_state;
    // The coordinators' group 10 s after the connector was deleted, as the
    // broker described it: a member is a coordinator that outlived its connector. -1: not read.
    std::int64_t coord_members_after_delete = -1;
    // Data files two or more snapshots added (the same file_path committed
    // twice, apache/iceberg#16282), from every snapshot's manifests at the
    // read-back; absent in trials from before it was recorded.
    std::optional<std::vector<experiment::file_added_twice>> files_added_twice;
    // Recorded since the coordinator-pause, tasks-4, worker-leave and
    // worker-join cells (absent in trials from before them):
    // tasks.max of the connector as the worker stored it (GET /connectors/<name>/config).
    std::optional<std::int64_t> tasks_max;
    // The workers (1-based) whose logs gained a coordinator election line
    // ("Task elected leader, starting commit coordinator") between the fault
    // and its heal: where the coordinator went while the fault held.
    std::optional<std::vector<std::int64_t>> elected_during_fault;
    // The worker whose log holds the last election line between the fault and
    // the window's end (by the lines' own timestamps); 0: no election after the fault.
    std::optional<std::int64_t> coordinator_worker_after;
    // The worker group's generation (the last "Joined group at generation N"
    // the workers logged since the trial's start), just before the fault and
    // at the window's end; absent when no worker logged a join.
    std::optional<std::int64_t> group_generation_before_fault;
    std::optional<std::int64_t> group_generation_at_window_end;
    // Workers answering GET / at the window's end.
    std::optional<std::int64_t> workers_at_window_end;
    // task-restart-in-commit: whether the restart followed a coordinator's
    // "Commit <id> initiated" line, read from the worker's log every 10 ms
    // after the delay (false: none within aim_wait_ms; absent in other cells).
    std::optional<bool> aimed_in_commit;
};
BOOST_DESCRIBE_STRUCT(trial, (),
                      (cell, index, delay_ms, connector, fresh_workers, workers, commit_interval_ms,
                       control_offset_reset, tasks_running, coordinator_worker, target_worker, target_pid, fault_at_ms,
                       replacement_pid, state_seen_paused, healed_at_ms, running_again_after_ms, acknowledged,
                       first_snapshot_after_ms, snapshots_before_fault, records_before_fault, records_at_window_end,
                       landed_after_ms, snapshots_at_window_end, source_committed_at_window_end,
                       source_lag_at_window_end, coordinators_started, coordinators_stopped, commit_rounds_started,
                       commit_rounds_timed_out, stray_answers, coord_group_samples, coord_group_max_members,
                       coord_group_samples_with_two, restarted, landed_after_restart_ms, records_after_restart, rows,
                       distinct_seq, duplicate_rows, missing_seq, final_state, coord_members_after_delete,
                       files_added_twice, tasks_max, elected_during_fault, coordinator_worker_after,
                       group_generation_before_fault, group_generation_at_window_end, workers_at_window_end,
                       aimed_in_commit))

/// A trial recorded to its end (its second record): its connector's state was read.
inline bool finished(const trial& t) { return !t.final_state.empty(); }

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

/// Whether the trial of `step` was recorded to its end: a resumed run keeps it.
inline bool recorded(const samples& s, const experiment::fault_step& step) {
    return std::any_of(s.trials.begin(), s.trials.end(),
                       [&](const trial& t) { return t.cell == step.variant && t.index == step.index && finished(t); });
}

/// Drops the trial a stopped run recorded only halfway (after its fault,
/// before its window's end): a resumed run runs that step again. Returns how many.
inline std::size_t drop_unfinished(samples& s) {
    return static_cast<std::size_t>(std::erase_if(s.trials, [](const trial& t) { return !finished(t); }));
}

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

inline constexpr std::string_view election_line = "Task elected leader, starting commit coordinator";

/// The timestamp of the line holding the last election in a worker's log
/// text ("2026-12-03 16:01:41,000", the text between the line's leading
/// brackets, which log4j writes so that it sorts as time); "" when no line
/// elects, or the electing line has no leading stamp.
inline std::string last_election_stamp(std::string_view text) {
    const auto at = text.rfind(election_line);
    if (at == std::string_view::npos) return {};
    const auto nl = text.rfind('\n', at);
    const auto line = nl == std::string_view::npos ? 0 : nl + 1;
    if (line >= text.size() || text[line] != '[') return {};
    const auto close = text.find(']', line);
    if (close == std::string_view::npos || close > at) return {};
    return std::string(text.substr(line + 1, close - line - 1));
}

/// Of the workers' log texts (worker 1 first), the worker whose text holds the
/// latest election line; 0 when none elects.
inline std::int64_t last_elected_worker(const std::vector<std::string>& texts) {
    std::int64_t worker = 0;
    std::string latest;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto stamp = last_election_stamp(texts[i]);
        if (!stamp.empty() && (worker == 0 || stamp >= latest))
            worker = static_cast<std::int64_t>(i) + 1, latest = stamp;
    }
    return worker;
}

/// The workers (1-based, in order) whose log texts hold an election line.
inline std::vector<std::int64_t> electing_workers(const std::vector<std::string>& texts) {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < texts.size(); ++i)
        if (texts[i].find(election_line) != std::string::npos) out.push_back(static_cast<std::int64_t>(i) + 1);
    return out;
}

/// The highest group generation the worker log texts name ("Joined group at
/// generation N", DistributedHerder's line after every rebalance); none when
/// no worker logged a join.
inline std::optional<std::int64_t> latest_group_generation(const std::vector<std::string>& texts) {
    constexpr std::string_view joined = "Joined group at generation ";
    std::optional<std::int64_t> out;
    for (const auto& text : texts)
        for (auto at = text.find(joined); at != std::string::npos; at = text.find(joined, at + joined.size())) {
            std::int64_t n = 0;
            std::size_t i = at + joined.size(), digits = 0;
            for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) n = n * 10 + (text[i] - '0');
            if (digits > 0 && (!out || n > *out)) out = n;
        }
    return out;
}

/// The counted lines, into the trial.
inline void note_coordinator_lines(trial& t, const coordinator_lines& c) {
    t.coordinators_started = c.started, t.coordinators_stopped = c.stopped;
    t.commit_rounds_started = c.rounds, t.commit_rounds_timed_out = c.timeouts, t.stray_answers = c.stray;
}

}  // namespace rosterrig::e7b

#endif
