// rosterrig/experiments/e7_connect_writer.hpp: experiment 7, experiments 1
// and 3's questions asked of the second common writer, Kafka Connect with
// Apache Iceberg's own sink connector, as data. Its exactly-once rests on a
// coordinator task, a control topic and Kafka transactions that carry the
// source offsets of the connector's consumer group with the data files: so
// for this writer the group's offsets may be the truth, where for Flink they
// are monitoring.
//
// Part 1 (restart replay, experiment 1's): the Connect worker SIGKILLed at
// randomized moments while a paced feed arrives; duplicates per kill, the
// bound, missing seqs, as for Flink. Part 2 (offsets, experiment 1's second
// part): rewind the group behind the running connector, kill the worker,
// delete and recreate the connector under the same name, then with the group
// rewound while it is away. Part 3 (the commit interval, experiment 3's
// dial): commits, files per commit, mean file bytes, freshness per interval.
// Reuses experiment 1's kill and table records and experiment 3's cell record.
#ifndef ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_HPP
#define ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/commit_cell.hpp"
#include "rosterrig/experiment/feed_pacing.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/result_section.hpp"

namespace rosterrig::e7 {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 7;
    // Part 1
    std::uint64_t events = 12000;  // experiment 1's feed
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::uint64_t kills = 30;
    std::int64_t commit_interval_ms = 2000;  // iceberg.control.commit.interval-ms, experiment 1's checkpoint interval
    std::int64_t tasks = 2;                  // tasks.max, experiment 1's parallelism
    std::int64_t kill_delay_min_ms = 0;      // after the first table commit following a recovery
    std::int64_t kill_delay_max_ms = 4000;
    // Part 2
    std::uint64_t offsets_events = 6000;
    // How long each offsets step is watched for a replay to reach the table:
    // longer than the sink's first commit round after a (re)start, which waits
    // out its 30 s commit timeout (iceberg.control.commit.timeout-ms).
    std::int64_t offsets_watch_ms = 45000;
    // Part 3
    std::vector<std::int64_t> dial_intervals_ms{2000, 10000, 30000};
    std::uint64_t dial_events = 20000;
    std::int64_t dial_feed_ms = 90000;  // every cell's feed paced to this duration
    std::int64_t freshness_bucket_ms = 100;
    bool quick = false;

    static parameters full() { return {}; }
    /// For CI (under 3 minutes): one kill, a short offsets part, one dial cell.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 3000;
        p.providers = 500;
        p.kills = 1;  // a Connect worker takes about 40 s to commit again after a kill: one kill keeps the quick run under 3 minutes
        p.offsets_events = 1000;
        p.offsets_watch_ms = 8000;  // a replay is still waited for until it lands (at most 60 s)
        p.dial_intervals_ms = {5000};
        p.dial_events = 2000;
        p.dial_feed_ms = 10000;
        return p;
    }
    roster_spec feed() const { return roster_feed(seed, events, providers, partitions); }
    roster_spec offsets_feed() const {
        return roster_feed(seed + 1, offsets_events, std::max<std::uint64_t>(1, offsets_events / 6), partitions);
    }
    roster_spec dial_feed() const {
        return roster_feed(seed + 2, dial_events, std::max<std::uint64_t>(1, dial_events / 6), partitions);
    }
    double dial_rate() const { return static_cast<double>(dial_events) * 1000.0 / static_cast<double>(dial_feed_ms); }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, providers, partitions, kills, commit_interval_ms, tasks, kill_delay_min_ms,
                       kill_delay_max_ms, offsets_events, offsets_watch_ms, dial_intervals_ms, dial_events, dial_feed_ms,
                       freshness_bucket_ms, quick))

/// Part 1's one configuration: the sink has no mode to choose.
inline constexpr const char* restart_name = "kafka-connect + append";

inline experiment::fault_plan fault_plan(const parameters& p) {
    // A kill of the Connect worker, healed by its supervisor: the same stream of delays as
    // every one-pair plan, named for what it kills.
    experiment::schedule_spec spec;
    spec.variants = {restart_name};
    spec.count = p.kills;
    spec.kinds = {experiment::fault_kind::kill};
    spec.targets = {experiment::fault_target::connect_worker};
    spec.min_delay_ms = p.kill_delay_min_ms;
    spec.max_delay_ms = p.kill_delay_max_ms;
    spec.trigger = "the first table commit after the previous recovery";
    return experiment::plan_faults(p.seed ^ 0x65376bu, spec).plan();
}

/// The paced feed: a killed worker runs its tasks again within about 5 s, but
/// the sink's first commit round after a restart waits out its 30 s commit
/// timeout (in trial runs the first commit came about 46 s after the kill); a
/// quick run keeps 5 s of feed after the last kill.
inline experiment::feed_pacing pacing_of(const parameters& p) {
    experiment::feed_pacing f;
    f.guessed_cycle_s = 45.0;
    if (p.quick) f.tail_s = 5.0;
    return f;
}

/// The pipeline a part runs: an append table like Flink's, the commit
/// interval where Flink has its checkpoint interval, tasks where it has parallelism.
inline experiment::pipeline_config pipeline_of(std::int64_t commit_interval_ms, std::int64_t tasks) {
    return {experiment::table_kind::append, experiment::checkpoint_mode::exactly_once, experiment::iceberg_sink::flink_sink,
            experiment::warehouse::s3, experiment::startup_mode::earliest_offset, commit_interval_ms, tasks};
}

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
    std::int64_t table_records_before = 0;   // the catalog's total-records just before the kill
    std::int64_t snapshots_before = 0;       // the table's snapshots just before
    std::int64_t ms_since_last_commit = -1;  // since the newest snapshot's timestamp
    bool commit_seen_before = false;         // the trigger: a commit after the previous recovery (false: waited out)
    std::int64_t rest_back_after_ms = 0;     // the restarted worker answers GET /
    std::int64_t first_commit_after_ms = -1; // the first table commit after the kill, -1 if none before the next
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
    experiment::configuration_run run;   // experiment 1's record: kills, table read-back, attribution
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
    std::string connector_state;  // as the worker reports it, "" when absent
    std::string note;             // what happened in the step (the broker's refusal, ...)
    std::optional<std::int64_t> committed_after_action;  // the group's offsets right after the action (a rewind: 0)
    std::vector<offsets_watch_sample> watch;              // from the action to the read-back
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
BOOST_DESCRIBE_STRUCT(offsets_part, (), (events, feed_sha256, rewind_while_running_refused, rewind_while_running_tried, steps))

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
inline restart_run start_restart(const parameters& p, const std::string& connector, const experiment::writer_settings& w,
                                 const connect_settings& in_force, double rate) {
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
    return "kill " + std::to_string(k.index) + "/" + std::to_string(of) + " at event " + std::to_string(k.sent_before_kill) +
           ", table at " + std::to_string(w.table_records_before) + " records, " + std::to_string(w.ms_since_last_commit) +
           " ms after its last commit; worker answering after " + std::to_string(w.rest_back_after_ms) +
           " ms, tasks running after " + std::to_string(k.job_running_after_ms) + " ms";
}

/// The worker kills' recovery, summarized: medians of (new JVM, REST, tasks running, first commit), ms.
struct recovery_summary {
    double jvm_ms = 0, rest_ms = 0, running_ms = 0, first_commit_ms = 0;
    std::size_t kills = 0, commits_seen = 0;
};
inline recovery_summary summarize_recovery(const restart_run& r) {
    recovery_summary s;
    std::vector<double> jvm, rest, running, commit;
    for (std::size_t i = 0; i < r.run.kills.size() && i < r.worker_kills.size(); ++i) {
        jvm.push_back(static_cast<double>(r.run.kills[i].taskmanager_back_after_ms));
        rest.push_back(static_cast<double>(r.worker_kills[i].rest_back_after_ms));
        running.push_back(static_cast<double>(r.run.kills[i].job_running_after_ms));
        if (r.worker_kills[i].first_commit_after_ms >= 0) commit.push_back(static_cast<double>(r.worker_kills[i].first_commit_after_ms));
    }
    auto med = [](std::vector<double> v) { return v.empty() ? 0.0 : stats::summarize(std::move(v)).median; };
    s.jvm_ms = med(jvm), s.rest_ms = med(rest), s.running_ms = med(running), s.first_commit_ms = med(commit);
    s.kills = jvm.size(), s.commits_seen = commit.size();
    return s;
}

// ---- verdict rules -------------------------------------------------------------

using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

/// "No worker kill duplicates; the 95% bound is at most 0.10" (experiment 1's rule).
inline rule_verdict restart_no_duplicates(const samples& s) {
    if (!s.restart) return inconclusive("part 1 did not run");
    return experiment::no_duplicates(&s.restart->run);
}

inline rule_verdict restart_nothing_missing(const samples& s) {
    if (!s.restart || s.restart->run.rows == 0) return inconclusive("part 1's table was not read back");
    const auto& r = s.restart->run;
    const std::string why = std::to_string(r.events - std::min(r.events, r.distinct_seq)) + " of " + std::to_string(r.events) +
                            " seqs missing, in " + std::to_string(r.missing_runs.size()) + " runs";
    return r.missing_runs.empty() && r.distinct_seq == r.events ? held(why) : refuted(why);
}

/// "Kafka refuses to rewind the group of a running connector": its tasks are members.
inline rule_verdict rewind_refused_while_running(const samples& s) {
    const auto& o = s.offsets;
    if (!o.rewind_while_running_tried) return inconclusive("the rewind was not tried");
    if (o.rewind_while_running_refused) return held("the broker refused: " + o.rewind_while_running_refused->substr(0, 300));
    return refuted("the broker applied the rewind behind the running connector");
}

/// The extra rows a step found beyond the one copy of each seq.
inline std::string step_text(const offsets_step& x, std::uint64_t events) {
    return x.step + ": " + std::to_string(x.rows) + " rows for " + std::to_string(events) + " events, " +
           std::to_string(x.duplicate_rows) + " duplicate rows, committed offsets " + std::to_string(x.committed_offsets_sum) +
           " of " + std::to_string(x.end_offsets_sum);
}

/// "A worker kill, and deleting and recreating the connector under the same
/// name, replay nothing": the group's offsets are where it resumes.
inline rule_verdict restarts_replay_nothing(const samples& s) {
    const auto& o = s.offsets;
    std::string why;
    for (const char* name : {step_worker_killed, step_recreated}) {
        const auto* x = find_step(o, name);
        if (!x) return inconclusive(std::string(name) + " did not run");
        if (x->rows == 0) return inconclusive(std::string(name) + ": the table was not read back");
        if (x->duplicate_rows > 0) return refuted(step_text(*x, o.events));
        why += (why.empty() ? "" : "; ") + step_text(*x, o.events);
    }
    return held(why);
}

/// "The group's offsets are the truth: rewound while the connector is away,
/// the recreated connector replays the whole feed" (every seq twice).
inline rule_verdict rewound_group_replays_everything(const samples& s) {
    const auto& o = s.offsets;
    const auto* x = find_step(o, step_rewound_recreated);
    if (!x) return inconclusive("the rewound recreate did not run");
    if (x->rows == 0) return inconclusive("the table was not read back");
    const auto why = step_text(*x, o.events);
    if (x->duplicate_rows == o.events && x->rows == 2 * o.events) return held(why);
    return refuted(why);
}

/// "Every dial cell lands the feed once" (experiment 3's rule on this writer's cells).
inline rule_verdict dial_lands_once(const samples& s) {
    return experiment::for_each_of(
        s.dial, [](const experiment::cell_run& c) { return c.cell; },
        [](const experiment::cell_run& c) {
            const std::string why = std::to_string(c.rows) + " rows of " + std::to_string(c.events) + ", " +
                                    std::to_string(c.duplicate_rows) + " duplicates, " +
                                    std::to_string(c.missing_runs.size()) + " missing runs";
            return experiment::landed_once(c) ? held(why) : refuted(why);
        },
        "no dial cell ran");
}

/// The dial cells in interval order.
inline std::vector<const experiment::cell_run*> dial_by_interval(const samples& s) {
    std::vector<const experiment::cell_run*> out;
    for (const auto& c : s.dial) out.push_back(&c);
    std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->interval_ms < b->interval_ms; });
    return out;
}

/// "A longer commit interval gives fewer commits and larger files": both
/// strictly monotone over the intervals run.
inline rule_verdict longer_interval_larger_files(const samples& s) {
    const auto cells = dial_by_interval(s);
    if (cells.size() < 3) return inconclusive("fewer than three commit intervals ran");
    std::string why;
    bool monotone = true;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto a = experiment::analyze(*cells[i]);
        why += (why.empty() ? "" : "; ") + cells[i]->cell + ": " + std::to_string(a.commits_with_data) + " commits, mean file " +
               std::to_string(static_cast<long long>(a.mean_file_bytes)) + " B";
        if (i == 0) continue;
        const auto b = experiment::analyze(*cells[i - 1]);
        if (!(a.commits_with_data < b.commits_with_data && a.mean_file_bytes > b.mean_file_bytes)) monotone = false;
    }
    return monotone ? held(why) : refuted(why);
}

/// "Freshness follows the commit interval": the p50 grows with the interval
/// and stays within the interval plus 5 s.
inline constexpr std::int64_t freshness_slack_ms = 5000;
inline rule_verdict freshness_follows_interval(const samples& s) {
    const auto cells = dial_by_interval(s);
    if (cells.size() < 3) return inconclusive("fewer than three commit intervals ran");
    std::string why;
    bool ok = true;
    std::int64_t previous = -1;
    for (const auto* c : cells) {
        const auto a = experiment::analyze(*c);
        if (a.p50_ms < 0) return inconclusive(c->cell + ": no freshness recorded");
        why += (why.empty() ? "" : "; ") + c->cell + ": p50 <= " + std::to_string(a.p50_ms) + " ms";
        if (a.p50_ms <= previous || a.p50_ms > c->in_force.interval_ms + freshness_slack_ms) ok = false;
        previous = a.p50_ms;
    }
    return ok ? held(why) : refuted(why);
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    auto only = [](rule_verdict (*f)(const samples&)) { return [f](const samples& s, const parameters&) { return f(s); }; };
    return {{"e7.restart-no-duplicates", only(restart_no_duplicates)},
            {"e7.restart-nothing-missing", only(restart_nothing_missing)},
            {"e7.rewind-refused-while-running", only(rewind_refused_while_running)},
            {"e7.restarts-replay-nothing", only(restarts_replay_nothing)},
            {"e7.rewound-group-replays-everything", only(rewound_group_replays_everything)},
            {"e7.dial-lands-once", only(dial_lands_once)},
            {"e7.longer-interval-larger-files", only(longer_interval_larger_files)},
            {"e7.freshness-follows-interval", only(freshness_follows_interval)}};
}

// ---- report ------------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p,
                                  const std::string& beside = {}) {
    using report::fixed;
    using report::with_thousands;
    auto n = [](std::uint64_t v) { return with_thousands(static_cast<long long>(v)); };
    std::string o = "The writer: Apache Iceberg's Kafka Connect sink (`IcebergSinkConnector`) on a distributed Kafka Connect "
                    "worker (compose/connect/), landing the same roster feed in the same append table shape as the Flink "
                    "jobs. It has no checkpointing mode to choose: every commit goes through its control topic in Kafka "
                    "transactions that carry the source offsets of the connector's consumer group." +
                    std::string(p.quick ? " **Quick run.**" : "") + "\n\n";
    o += "**Restart replay** (experiment 1's question): " + n(p.events) + " events into " + std::to_string(p.partitions) +
         " partitions, paced over the kills; the worker JVM SIGKILLed up to " + std::to_string(p.kills) + " times, " +
         std::to_string(p.kill_delay_min_ms) + " to " + std::to_string(p.kill_delay_max_ms) +
         " ms after the first table commit that followed the previous recovery; its supervisor restarts it.\n\n";
    report::markdown_table t{{"Writer", "In force (worker)", "Kills", "Kills with duplicates", "95% upper bound",
                              "Rows", "Duplicate seq rows", "Missing seqs", "New JVM / REST / tasks running / first commit (median ms)"}};
    if (s.restart) {
        const auto& r = *s.restart;
        const auto sum = experiment::summarize(r.run);
        const auto rec = summarize_recovery(r);
        t.row({r.run.name,
               "commit every " + std::to_string(r.in_force.commit_interval_ms) + " ms, " + std::to_string(r.in_force.tasks_running) +
                   " of " + std::to_string(r.in_force.tasks_max) + " tasks, Kafka Connect " + r.in_force.worker_version,
               std::to_string(sum.kills), std::to_string(sum.kills_with_duplicates), fixed(sum.upper_bound_95, 3), n(r.run.rows),
               n(r.run.duplicate_rows), n(r.run.events - std::min(r.run.events, r.run.distinct_seq)),
               fixed(rec.jvm_ms, 0) + " / " + fixed(rec.rest_ms, 0) + " / " + fixed(rec.running_ms, 0) + " / " +
                   fixed(rec.first_commit_ms, 0)});
    }
    o += t.render();
    o += "\nDuplicates are exact: every row read back through Trino and checked against the seed. The heal: a new JVM "
         "in the supervisor's pid file, the worker answering `GET /`, every task RUNNING in the worker's status, and the "
         "first table commit after the kill.\n\n";
    o += "**Offsets** (experiment 1's second part): " + n(s.offsets.events) +
         " events landed, then, in order, each step's group offsets (`connect-<connector>`, summed) and table.\n\n";
    report::markdown_table ot{{"Step", "What happened", "Group offsets right after", "Watched", "Group offsets at the read-back",
                               "End offsets", "Rows", "Duplicate rows", "Connector"}};
    for (const auto& x : s.offsets.steps)
        ot.row({x.step, x.note.empty() ? "-" : x.note,
                x.committed_after_action ? n(static_cast<std::uint64_t>(*x.committed_after_action)) : "-",
                x.watch.empty() ? "-" : report::seconds_from_ms(x.watch.back().ms_after_action),
                n(static_cast<std::uint64_t>(x.committed_offsets_sum)), n(static_cast<std::uint64_t>(x.end_offsets_sum)),
                n(x.rows), n(x.duplicate_rows), x.connector_state.empty() ? "-" : x.connector_state});
    o += ot.render();
    o += "\n**The commit interval** (experiment 3's dial): " + n(p.dial_events) + " events paced over " +
         report::seconds_from_ms(p.dial_feed_ms) + " into a fresh table per interval, " + std::to_string(p.tasks) +
         " tasks; freshness is from each record's acknowledgement to the commit of the snapshot that made it visible "
         "(at most the bucket's upper edge).\n\n";
    report::markdown_table dt{{"Commit interval (worker)", "Commits with data", "Files per commit (median)", "Data files",
                               "Mean file size", "Freshness p50 / p99", "Rows", "Duplicates"}};
    for (const auto* c : dial_by_interval(s)) {
        const auto a = experiment::analyze(*c);
        std::vector<double> fpc(a.files_per_commit.begin(), a.files_per_commit.end());
        dt.row({std::to_string(c->in_force.interval_ms) + " ms", std::to_string(a.commits_with_data),
                fpc.empty() ? "-" : fixed(stats::summarize(fpc).median, 1), std::to_string(a.data_files),
                experiment::bytes_text(a.mean_file_bytes) + " B",
                "≤ " + std::to_string(a.p50_ms) + " / ≤ " + std::to_string(a.p99_ms) + " ms", n(c->rows), n(c->duplicate_rows)});
    }
    o += dt.render();
    o += beside;
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

struct definition {
    using parameters = e7::parameters;
    using samples = e7::samples;
    static constexpr const char* id = "e7_connect_writer";
    static constexpr const char* tag = "e7";
    static constexpr const char* predictions_file = "predictions/e7_connect_writer.json";
    static constexpr const char* results_file = "results/e7_connect_writer.json";
    static constexpr experiment::hooks<parameters> hooks{};  // none: every default
    static std::vector<rule> rules() { return e7::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e7::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p,
                                      const std::string& beside = {}) {
        return e7::report_section(env, s, p, beside);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

} // namespace rosterrig::e7

#endif
