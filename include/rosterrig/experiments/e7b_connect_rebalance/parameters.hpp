// rosterrig/experiments/e7b_connect_rebalance/parameters.hpp: experiment 7b's cells, parameters, usage_problem, fault plan and pipeline.
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_PARAMETERS_HPP

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

#include "rosterrig/experiment/feed_parameters.hpp"
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
inline constexpr const char* coordinator_kill =
    "coordinator-kill";  ///< two workers; SIGKILL the coordinator's, timed from the feed's start
/// Two workers; SIGKILL the coordinator's, timed from the table's first
/// snapshot: the same kill once the coordinators' group has committed a
/// position on the control topic (experiment 7's kills all came after one).
inline constexpr const char* coordinator_kill_after_commit = "coordinator-kill-after-commit";
/// Two workers; the first cell's kill on a connector whose sink clients read
/// the control topic from its start when their group has no position
/// (iceberg.kafka.auto.offset.reset=earliest; the sink's default is latest):
/// the remedy apache/iceberg PR #18006 proposes, tried as a user can today.
inline constexpr const char* coordinator_kill_earliest = "coordinator-kill-earliest";
inline constexpr const char* zombie_pause = "zombie-pause";        ///< two workers; SIGSTOP the other one, then SIGCONT
inline constexpr const char* one_worker_kill = "one-worker-kill";  ///< the control: one worker, SIGKILLed
/// Two workers; SIGSTOP the coordinator's past its session timeouts, then
/// SIGCONT: the coordinator moves while the old one is a zombie (apache/iceberg#17637).
inline constexpr const char* coordinator_pause = "coordinator-pause";
/// Two workers, tasks.max 4 over the four partitions (two tasks per worker);
/// the first cell's SIGKILL of the coordinator's worker.
inline constexpr const char* tasks_4 = "tasks-4";
/// Two workers; the other one leaves cleanly (SIGTERM, its supervisor told
/// not to start it again) and is started again pause_ms later.
inline constexpr const char* worker_leave = "worker-leave";
/// One worker at the connector's start; the second is started mid-cycle and
/// joins the group (a rebalance that moves a task to it).
inline constexpr const char* worker_join = "worker-join";
/// One worker, no process fault: the connector's configuration updated
/// through REST mid-cycle (one property added), as an operator does. Connect
/// stops every task and starts it again with the new configuration: does
/// 1.10's close() leave the coordinator running then (apache/iceberg#17637)?
inline constexpr const char* config_update = "config-update";
/// One worker, no process fault: task 0 restarted through REST mid-cycle
/// (what an operator does to a failed task). Task 0 sorts first in the sink
/// consumers' range assignment, so it holds partition 0 and runs the
/// coordinator when both tasks have joined.
inline constexpr const char* task_restart = "task-restart";
/// task-restart aimed inside a commit round: task 0 restarted as soon as
/// the worker logs the coordinator's next "Commit <id> initiated" after the
/// delay, so that the task stops while the round is answered and committed.
inline constexpr const char* task_restart_in_commit = "task-restart-in-commit";
/// The task task-restart and task-restart-in-commit restart.
inline constexpr int restarted_task = 0;
/// The cells whose fault waits, after its delay, for a commit round to start.
inline bool aimed_at_commit_round(const std::string& cell) { return cell == task_restart_in_commit; }
/// Every cell, in the order a full run takes them (the cells added later
/// last, so that each earlier cell's plan stays what its shipped run drew).
inline const std::vector<std::string>& known_cells() {
    static const std::vector<std::string> c{coordinator_kill,
                                            coordinator_kill_after_commit,
                                            coordinator_kill_earliest,
                                            zombie_pause,
                                            one_worker_kill,
                                            coordinator_pause,
                                            tasks_4,
                                            worker_leave,
                                            worker_join,
                                            config_update,
                                            task_restart,
                                            task_restart_in_commit};
    return c;
}
/// The cells whose fault waits for the table's first snapshot before its delay starts.
inline bool after_first_commit(const std::string& cell) { return cell == coordinator_kill_after_commit; }
/// The connector settings a cell adds to experiment 7's.
inline std::map<std::string, std::string> connector_properties_of(const std::string& cell) {
    if (cell == coordinator_kill_earliest) return {{"iceberg.kafka.auto.offset.reset", "earliest"}};
    return {};
}
/// The workers in the group when the cell's connector starts.
inline int workers_of(const std::string& cell) {
    return cell == one_worker_kill || cell == worker_join || cell == config_update || cell == task_restart ||
                   cell == task_restart_in_commit
               ? 1
               : 2;
}
/// The workers in the group once the cell's fault is healed (a join adds one).
inline int workers_after_heal(const std::string& cell) { return cell == worker_join ? 2 : workers_of(cell); }
/// Which worker (1 or 2) the cell's fault hits, given the one whose log
/// elected the coordinator: the other one for the zombie and the clean leave,
/// the second (the one that joins) for the join, else the coordinator's.
inline std::int64_t target_worker_of(const std::string& cell, std::int64_t coordinator_worker) {
    if (cell == worker_join) return 2;
    if (cell == zombie_pause || cell == worker_leave) return 3 - coordinator_worker;
    return coordinator_worker;
}

struct parameters : experiment::feed_parameters {
    parameters() : feed_parameters{.seed = 77, .events = 20000, .providers = 2000, .partitions = 4} {}
    std::int64_t tasks = 2;  // tasks.max of every cell but tasks-4 (tasks_of): one task per worker of two
    std::int64_t commit_interval_ms = 2000;  // iceberg.control.commit.interval-ms, experiment 7's
    std::int64_t feed_ms = 10000;            // the feed is paced over this long
    std::int64_t fault_delay_min_ms = 1000;  // after the feed started: inside the feed, so commit cycles are in flight
    std::int64_t fault_delay_max_ms = 5000;
    // A pause longer than the sink consumer's session (6 s, the writer's
    // consumer.override) and the worker group's (10 s, Connect's default),
    // so the paused worker's task is given to the other worker before it runs
    // again. Also how long worker-leave's worker stays away: past the
    // worker's scheduled.rebalance.max.delay.ms (10 s, compose/connect), so
    // its task moves before it is back.
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
    // How long task-restart-in-commit waits, after its delay, for a commit
    // round to start (past one commit interval and a slow round); absent in
    // runs from before the cell, which read as the default.
    static constexpr std::int64_t default_aim_wait_ms = 15000;
    std::optional<std::int64_t> aim_wait_ms = default_aim_wait_ms;
    std::int64_t aim_wait() const { return aim_wait_ms.value_or(default_aim_wait_ms); }
    std::uint64_t trials = 5;  // per cell
    std::vector<std::string> cells = known_cells();

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
    /// good) and, beside it, the same kill after the first commit; and the
    /// configuration update and the task restart on one worker (no process
    /// fault at all).
    static std::vector<std::string> repro_names() {
        return {coordinator_kill, coordinator_kill_after_commit, coordinator_kill_earliest, config_update,
                task_restart,     task_restart_in_commit};
    }
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
BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters),
                      (tasks, commit_interval_ms, feed_ms, fault_delay_min_ms, fault_delay_max_ms, pause_ms, settle_ms,
                       restart_settle_ms, first_commit_wait_ms, aim_wait_ms, trials, cells))

/// tasks.max of the cell's connector: 4 in tasks-4 (one task per partition
/// of the default four), `tasks` in every other cell.
inline std::int64_t tasks_of(const parameters& p, const std::string& cell) { return cell == tasks_4 ? 4 : p.tasks; }

inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t) {
    for (const auto& c : p.cells)
        if (std::find(known_cells().begin(), known_cells().end(), c) == known_cells().end()) {
            std::string names;
            for (const auto& k : known_cells()) names += (names.empty() ? "" : ", ") + k;
            return "no cell '" + c + "' (" + names + ")";
        }
    if (p.cells.empty()) return "no cell to run";
    if (p.trials == 0) return "--trials: at least 1";
    if (p.events == 0 || p.feed_ms <= 0) return "the feed needs events and a positive duration";
    if (p.fault_delay_max_ms < p.fault_delay_min_ms) return "the fault delay's maximum is below its minimum";
    if (std::find(p.cells.begin(), p.cells.end(), tasks_4) != p.cells.end() && p.partitions < 4)
        return "tasks-4 runs four tasks: it needs at least 4 partitions";
    return std::nullopt;
}

/// The fault each cell applies: SIGSTOP (the zombie, the coordinator's
/// pause), a clean stop (the leave), a start (the join), a REST
/// configuration update (config-update) or task restart (task-restart), else SIGKILL.
inline experiment::fault_kind kind_of(const std::string& cell) {
    if (cell == zombie_pause || cell == coordinator_pause) return experiment::fault_kind::pause;
    if (cell == worker_leave) return experiment::fault_kind::stop;
    if (cell == worker_join) return experiment::fault_kind::start;
    if (cell == config_update) return experiment::fault_kind::reconfigure;
    if (cell == task_restart || cell == task_restart_in_commit) return experiment::fault_kind::restart_task;
    return experiment::fault_kind::kill;
}

/// One fault per trial, at a seeded delay after the feed started. Each cell
/// draws from the plan's seed plus its place among known_cells(), so a cell
/// run alone (--cells) draws the delays it draws in the full run.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan out;
    out.seed = p.seed ^ 0x653762u;
    for (const auto& cell : p.cells) {
        const auto known = std::find(known_cells().begin(), known_cells().end(), cell);
        const auto i = static_cast<std::uint64_t>(known - known_cells().begin());
        experiment::schedule_spec spec;
        spec.variants = {cell};
        spec.count = p.trials;
        spec.kinds = {kind_of(cell)};
        spec.targets = {experiment::fault_target::connect_worker};
        if (spec.kinds.front() == experiment::fault_kind::pause || spec.kinds.front() == experiment::fault_kind::stop)
            spec.parameters.duration_ms = p.pause_ms;
        spec.min_delay_ms = p.fault_delay_min_ms;
        spec.max_delay_ms = p.fault_delay_max_ms;
        spec.trigger = after_first_commit(cell) ? "the table's first snapshot" : "the feed's start";
        for (const auto& step : experiment::plan_faults(out.seed + i, spec).plan().steps) out.steps.push_back(step);
    }
    return out;
}

/// The Connect pipeline of a cell: experiment 7's append table and commit interval, the cell's tasks.
inline experiment::pipeline_config pipeline_of(const parameters& p, const std::string& cell) {
    return {experiment::table_kind::append,
            experiment::checkpoint_mode::exactly_once,
            experiment::iceberg_sink::flink_sink,
            experiment::warehouse::s3,
            experiment::startup_mode::earliest_offset,
            p.commit_interval_ms,
            tasks_of(p, cell)};
}

}  // namespace rosterrig::e7b

#endif
