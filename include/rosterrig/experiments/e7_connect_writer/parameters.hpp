// rosterrig/experiments/e7_connect_writer/parameters.hpp: experiment 7's parameters (the three parts' feeds and dials), part 1's fault plan, feed pacing and pipeline.
#ifndef ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/feed_parameters.hpp"
#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/commit_cell.hpp"
#include "rosterrig/experiment/feed_pacing.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/result_section.hpp"

namespace rosterrig::e7 {

using experiment::prediction_outcome;

struct parameters : experiment::feed_parameters {
    // Part 1's feed is experiment 1's.
    parameters() : feed_parameters{.seed = 7, .events = 12000, .providers = 2000, .partitions = 4} {}
    // Part 1
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

    static parameters full() { return {}; }
    /// For CI (under 3 minutes): one kill, a short offsets part, one dial cell.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 3000;
        p.providers = 500;
        p.kills =
            1;  // a Connect worker takes about 40 s to commit again after a kill: one kill keeps the quick run under 3 minutes
        p.offsets_events = 1000;
        // Two commit rounds and a half: a replay shows at once in the group's
        // offsets and is still waited for until it lands (at most 60 s).
        p.offsets_watch_ms = 5000;
        p.dial_intervals_ms = {5000};
        p.dial_events = 1600;
        p.dial_feed_ms = 8000;
        return p;
    }
    roster_spec offsets_feed() const {
        return roster_feed(seed + 1, offsets_events, std::max<std::uint64_t>(1, offsets_events / 6), partitions);
    }
    roster_spec dial_feed() const {
        return roster_feed(seed + 2, dial_events, std::max<std::uint64_t>(1, dial_events / 6), partitions);
    }
    double dial_rate() const { return static_cast<double>(dial_events) * 1000.0 / static_cast<double>(dial_feed_ms); }
};
BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters),
                      (kills, commit_interval_ms, tasks, kill_delay_min_ms, kill_delay_max_ms, offsets_events,
                       offsets_watch_ms, dial_intervals_ms, dial_events, dial_feed_ms, freshness_bucket_ms))

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
    return {experiment::table_kind::append,
            experiment::checkpoint_mode::exactly_once,
            experiment::iceberg_sink::flink_sink,
            experiment::warehouse::s3,
            experiment::startup_mode::earliest_offset,
            commit_interval_ms,
            tasks};
}

}  // namespace rosterrig::e7

#endif
