// rosterrig/experiments/e7_connect_writer/samples.hpp: experiment 7's sample schema (the worker's settings and kills, the offsets part's steps, the samples) and the helpers that fill it.
// (It also holds watch_done, when an offsets step's watch is over: it sits among the step's
// records in the old order.)
#ifndef ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_SAMPLES_HPP

#include "rosterrig/experiments/e7_connect_writer/parameters.hpp"

namespace rosterrig::e7 {

// ---- samples -----------------------------------------------------------------

/// The sink's settings as the worker reported them.
struct connect_settings {
    std::int64_t commit_interval_ms = 0;
    std::int64_t tasks_max = 0;
    std::int64_t tasks_running = 0;
    std::string control_topic;
    std::string consumer_group;
    std::string worker_version;
};
BOOST_DESCRIBE_STRUCT(connect_settings, (),
                      (commit_interval_ms, tasks_max, tasks_running, control_topic, consumer_group, worker_version))

/// What surrounded one worker kill beyond experiment 1's record.
struct worker_kill {
    std::uint64_t index = 0;
    std::int64_t table_records_before = 0;    // the catalog's total-records just before the kill
    std::int64_t snapshots_before = 0;        // the table's snapshots just before
    std::int64_t ms_since_last_commit = -1;   // since the newest snapshot's timestamp
    bool commit_seen_before = false;          // the trigger: a commit after the previous recovery (false: waited out)
    std::int64_t rest_back_after_ms = 0;      // the restarted worker answers GET /
    std::int64_t first_commit_after_ms = -1;  // the first table commit after the kill, -1 if none before the next
};
BOOST_DESCRIBE_STRUCT(worker_kill, (),
                      (index, table_records_before, snapshots_before, ms_since_last_commit, commit_seen_before,
                       rest_back_after_ms, first_commit_after_ms))

/// Part 1's record. Experiment 1's fields hold this writer's analogues: a
/// table commit where Flink has a checkpoint (checkpoints_completed_before,
/// ms_since_last_checkpoint), the worker supervisor's restart count where
/// Flink has numRestarts (restarts_before/after, restarts_reported). Fields
/// Connect has no analogue of stay absent (checkpoint_mode_requested,
/// exceptions_recorded: it keeps no exception history); the kills' checkpoint
/// ids stay -1. Runs before this record carried "none: ..." and -1 there.
struct restart_run {
    experiment::configuration_run run;  // experiment 1's record: kills, table read-back, attribution
    connect_settings in_force;
    std::vector<worker_kill> worker_kills;  // one per run.kills entry, same order
};
BOOST_DESCRIBE_STRUCT(restart_run, (), (run, in_force, worker_kills))

/// The group's committed offsets and the table's committed records, watched
/// after a step's action, every 500 ms.
struct offsets_watch_sample {
    std::int64_t ms_after_action = 0;
    std::int64_t committed_offsets_sum = 0;
    std::int64_t table_records = 0;  // the newest snapshot's total-records, from the catalog
};
BOOST_DESCRIBE_STRUCT(offsets_watch_sample, (), (ms_after_action, committed_offsets_sum, table_records))

/// One step of the offsets part: where the group stood, what the table held.
struct offsets_step {
    std::string step;
    std::int64_t committed_offsets_sum = 0;  // the connector's consumer group, summed over partitions
    std::int64_t end_offsets_sum = 0;
    std::uint64_t rows = 0;
    std::uint64_t distinct_seq = 0;
    std::uint64_t duplicate_rows = 0;
    std::string connector_state;                         // as the worker reports it, "" when absent
    std::string note;                                    // what happened in the step (the broker's refusal, ...)
    std::optional<std::int64_t> committed_after_action;  // the group's offsets right after the action (a rewind: 0)
    std::vector<offsets_watch_sample> watch;             // from the action to the read-back
};
BOOST_DESCRIBE_STRUCT(offsets_step, (),
                      (step, committed_offsets_sum, end_offsets_sum, rows, distinct_seq, duplicate_rows,
                       connector_state, note, committed_after_action, watch))

/// Whether a step's watch is over at `t` ms after its action: after the
/// watch window; a replay (the group's offsets below the feed's end right
/// after the action, or moving back) is waited for until it lands, at most
/// 60 s, and once landed it is watched three commit rounds more.
inline bool watch_done(std::int64_t t, std::int64_t committed_after_action, const offsets_watch_sample& w,
                       std::int64_t events, const parameters& p) {
    const bool replaying = w.committed_offsets_sum < committed_after_action || committed_after_action < events;
    const bool landed = w.table_records >= 2 * events;
    if (landed && t >= 3 * p.commit_interval_ms) return true;
    return t >= (replaying && !landed ? std::max<std::int64_t>(60000, p.offsets_watch_ms) : p.offsets_watch_ms);
}

/// The steps, in the order they run.
inline constexpr const char* step_landed = "landed";
inline constexpr const char* step_rewind_running = "rewind_while_running";
inline constexpr const char* step_worker_killed = "worker_killed";
inline constexpr const char* step_recreated = "recreated_same_name";
inline constexpr const char* step_rewound_recreated = "rewound_then_recreated";

struct offsets_part {
    std::uint64_t events = 0;
    std::optional<std::string> feed_sha256;
    std::optional<std::string> rewind_while_running_refused;  // the broker's message; absent: applied (or not tried)
    bool rewind_while_running_tried = false;
    std::vector<offsets_step> steps;
};
BOOST_DESCRIBE_STRUCT(offsets_part, (),
                      (events, feed_sha256, rewind_while_running_refused, rewind_while_running_tried, steps))

struct samples {
    std::optional<restart_run> restart;
    offsets_part offsets;
    std::vector<experiment::cell_run> dial;  // experiment 3's cell record, one per commit interval
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (restart, offsets, dial, predictions))

inline const offsets_step* find_step(const offsets_part& p, const std::string& step) {
    for (const auto& s : p.steps)
        if (s.step == step) return &s;
    return nullptr;
}

/// A dial cell's name: "connect-10s".
inline std::string cell_name(std::int64_t interval_ms) { return "connect-" + experiment::seconds_text(interval_ms); }

/// Part 1's record as it starts: experiment 1's fields that mean the same for this writer.
inline restart_run start_restart(const parameters& p, const std::string& connector,
                                 const experiment::writer_settings& w, const connect_settings& in_force, double rate) {
    restart_run r;
    r.run.name = restart_name;
    r.run.checkpoint_mode_in_force = w.mode;
    r.run.checkpoint_interval_requested_ms = p.commit_interval_ms;
    r.run.checkpoint_interval_in_force_ms = w.interval_ms;
    r.run.sink = w.sink;
    r.run.writer_input = w.writer_input;
    r.run.job_id = connector;
    r.run.events = p.events;
    r.run.rate_per_second = rate;
    r.in_force = in_force;
    return r;
}

/// One progress line per kill.
inline std::string describe(const experiment::kill_sample& k, const worker_kill& w, std::size_t of) {
    return "kill " + std::to_string(k.index) + "/" + std::to_string(of) + " at event " +
           std::to_string(k.sent_before_kill) + ", table at " + std::to_string(w.table_records_before) + " records, " +
           std::to_string(w.ms_since_last_commit) + " ms after its last commit; worker answering after " +
           std::to_string(w.rest_back_after_ms) + " ms, tasks running after " + std::to_string(k.job_running_after_ms) +
           " ms";
}

}  // namespace rosterrig::e7

#endif
