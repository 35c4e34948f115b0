// rosterrig/experiments/e1c_checkpoint_timeouts/parameters.hpp: experiment 1c's parameters, its cells, the pipeline a cell runs and the (empty) fault plan
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/check/commit_replay.hpp"
#include "rosterrig/result/check_json.hpp"  // snapshot_entry, described
#include "rosterrig/experiment/backpressure.hpp"
#include "rosterrig/experiment/checkpoint_outcome.hpp"
#include "rosterrig/experiment/fault.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/experiment/committed_offsets.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/experiment/store_listing.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/envelope.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"

namespace rosterrig::e1c {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 1;
    // Produced at once: the writer is backpressured for about a minute (35 s for
    // 2,400,000 in the runs at 436cf8e and 3869baf).
    std::uint64_t events = 4'800'000;
    // An upsert cell's feed: its writer is slower (an equality delete per
    // record), so fewer events keep it backpressured as long; 400,000 in a
    // probe gave 22 timeouts in 30 checkpoints.
    std::uint64_t upsert_events = 1'200'000;
    std::uint32_t partitions = 4;
    std::int64_t checkpoint_interval_ms = 1000;
    // About the median end-to-end time of the checkpoints that completed under
    // backpressure (101-111 ms by cell at 3869baf, p90 239-288 ms), so that about
    // half time out: at 400 ms two runs saw 23/12/1/1 and 1/1/0/2 failures per cell.
    std::int64_t short_timeout_ms = 100;
    std::int64_t generous_timeout_ms = 600'000;           // Flink's default: the control cell
    std::int64_t tolerable_failed_checkpoints = 100'000;  // timeouts never fail the job
    std::int64_t source_parallelism = 4;                  // one subtask per partition
    std::int64_t writer_parallelism = 2;                  // several writer subtasks: the committer has several inputs
    std::uint64_t timeouts_to_judge = 30;  // timed-out checkpoints a cell needs before "nothing lost" is claimed
    // How often every cell runs, one round of all cells after the other: how
    // much a cell loses varies from run to run, so a figure needs its spread.
    std::uint64_t repeats = 3;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    bool quick = false;
    std::string repro;  ///< the reproduction this run is, "" for a run of every cell
    // The paced cells ask whether the loss needs backpressure: the feed is
    // produced at a rate the writer keeps up with, about a fifth of what it
    // drained under backpressure (70,000-97,000 events/s append, 35,000-44,000
    // upsert, in the run at a66b772), for paced_seconds. Absent in runs from
    // before the paced cells: those ran none.
    std::optional<double> paced_events_per_second;
    std::optional<double> paced_upsert_events_per_second;
    std::optional<std::int64_t> paced_seconds;
    // The kill cells: a TaskManager SIGKILLed right after a checkpoint timed
    // out, this many times in each run (absent in runs from before them: none).
    std::optional<std::uint64_t> kills_per_run;

    static parameters full() {
        parameters p;
        p.paced_events_per_second = 15'000, p.paced_upsert_events_per_second = 8'000, p.paced_seconds = 60;
        p.kills_per_run = 3;
        return p;
    }
    /// A reproduction's size: 400,000 events (about 15 s of backpressure),
    /// judged on 5 timeouts instead of 30.
    static parameters repro_size() {
        parameters p;
        p.quick = true;
        p.events = 400'000;
        p.upsert_events = 400'000;
        p.timeouts_to_judge = 5;
        p.repeats = 1;
        p.paced_events_per_second = 15'000, p.paced_upsert_events_per_second = 8'000, p.paced_seconds = 15;
        return p;
    }
    /// For CI (under 3 minutes): the four quick cells (cells_of) at 200,000
    /// events and 8 s of paced feed (at a reproduction's size they took
    /// 158-184 s in CI, at 250,000 and 10 s 161 s).
    static parameters quick_run() {
        auto p = repro_size();
        p.events = 200'000;
        p.upsert_events = 200'000;
        p.paced_seconds = 8;
        return p;
    }
    /// `rosterrig-e1c --repro NAME`: one cell alone, at a reproduction's size,
    /// three times (the names: repro_of in the cell list).
    static std::vector<std::string> repro_names() {
        return {"flinksink-unaligned-timeout", "sinkv2-unaligned-upsert", "sinkv2-aligned-upsert",
                "sinkv2-upsert-no-timeout"};
    }
    static std::optional<parameters> repro_run(const std::string& name) {
        const auto names = repro_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) return std::nullopt;
        auto p = repro_size();
        p.repro = name;
        p.repeats = 3;
        return p;
    }
    roster_spec feed(experiment::table_kind kind = experiment::table_kind::append) const {
        const auto n = kind == experiment::table_kind::upsert ? upsert_events : events;
        return roster_feed(seed, n, std::max<std::uint64_t>(1, n / 6), partitions);
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, upsert_events, partitions, checkpoint_interval_ms, short_timeout_ms,
                       generous_timeout_ms, tolerable_failed_checkpoints, source_parallelism, writer_parallelism,
                       timeouts_to_judge, repeats, warehouse, quick, repro, paced_events_per_second,
                       paced_upsert_events_per_second, paced_seconds, kills_per_run))

/// One cell: a sink, aligned or unaligned, the short timeout or the generous
/// one, an append table or an upsert table keyed by NPI.
struct cell {
    std::string name;
    experiment::iceberg_sink sink = experiment::iceberg_sink::flink_sink;
    bool unaligned = false;
    bool short_timeout = true;
    experiment::table_kind kind = experiment::table_kind::append;
    std::string repro = "";  ///< its `--repro` name, "" when it has none
    bool paced = false;      ///< the feed paced so that the writer keeps up (no backpressure), not produced at once
    bool kill_after_timeout = false;  ///< the job's TaskManager SIGKILLed right after a checkpoint timed out
};
inline std::vector<cell> cells() {
    using experiment::iceberg_sink;
    constexpr auto upsert = experiment::table_kind::upsert, append = experiment::table_kind::append;
    return {
        {"FlinkSink, unaligned, short timeout", iceberg_sink::flink_sink, true, true, append,
         "flinksink-unaligned-timeout"},
        {"FlinkSink, aligned, short timeout", iceberg_sink::flink_sink, false, true},
        {"SinkV2, unaligned, short timeout", iceberg_sink::sink_v2, true, true},
        {"SinkV2, aligned, short timeout", iceberg_sink::sink_v2, false, true},
        {"FlinkSink, unaligned, generous timeout", iceberg_sink::flink_sink, true, false},
        {"FlinkSink, unaligned, short timeout, upsert", iceberg_sink::flink_sink, true, true, upsert},
        {"SinkV2, unaligned, short timeout, upsert", iceberg_sink::sink_v2, true, true, upsert,
         "sinkv2-unaligned-upsert"},
        {"SinkV2, aligned, short timeout, upsert", iceberg_sink::sink_v2, false, true, upsert, "sinkv2-aligned-upsert"},
        {"FlinkSink, aligned, short timeout, upsert", iceberg_sink::flink_sink, false, true, upsert},
        {"SinkV2, aligned, generous timeout, upsert", iceberg_sink::sink_v2, false, false, upsert,
         "sinkv2-upsert-no-timeout"},
        // Without backpressure (issue 34): the same short timeout, the feed paced.
        {"FlinkSink, unaligned, short timeout, paced", iceberg_sink::flink_sink, true, true, append, "", true},
        {"SinkV2, unaligned, short timeout, paced", iceberg_sink::sink_v2, true, true, append, "", true},
        {"FlinkSink, unaligned, short timeout, upsert, paced", iceberg_sink::flink_sink, true, true, upsert, "", true},
        {"SinkV2, unaligned, short timeout, upsert, paced", iceberg_sink::sink_v2, true, true, upsert, "", true},
        {"SinkV2, aligned, short timeout, upsert, paced", iceberg_sink::sink_v2, false, true, upsert, "", true},
        // A kill right after a timed-out checkpoint (issue 34), in the cells that lose nothing to the timeout alone.
        {"FlinkSink, aligned, short timeout, kill after a timeout", iceberg_sink::flink_sink, false, true, append, "",
         false, true},
        {"SinkV2, aligned, short timeout, kill after a timeout", iceberg_sink::sink_v2, false, true, append, "", false,
         true},
        {"SinkV2, unaligned, short timeout, kill after a timeout", iceberg_sink::sink_v2, true, true, append, "", false,
         true}};
}
inline std::vector<cell> cells_of(const parameters& p) {
    const auto all = cells();
    if (!p.repro.empty()) {
        std::vector<cell> out;
        for (const auto& c : all)
            if (c.repro == p.repro) out.push_back(c);
        return out;
    }
    // A run from before the paced or kill cells (no pace or kill count recorded) ran none of them.
    std::vector<cell> runnable;
    for (const auto& c : all)
        if ((!c.paced || p.paced_seconds) && (!c.kill_after_timeout || p.kills_per_run.value_or(0) > 0))
            runnable.push_back(c);
    if (p.quick) {
        std::vector<cell> out{all[0], all[2], all[6]};
        if (p.paced_seconds) out.push_back(all[10]);
        return out;
    }
    return runnable;
}
/// The cell as its topic, group and table names carry it: flinksink_unaligned_short, ...
inline std::string short_name_of(const cell& c) {
    return std::string(c.sink == experiment::iceberg_sink::sink_v2 ? "sinkv2" : "flinksink") +
           (c.unaligned ? "_unaligned" : "_aligned") + (c.short_timeout ? "_short" : "_generous") +
           (c.kind == experiment::table_kind::upsert ? "_upsert" : "") + (c.paced ? "_paced" : "") +
           (c.kill_after_timeout ? "_kill" : "");
}
/// The events a cell's feed holds per second, 0 when it is produced at once.
inline double rate_of(const parameters& p, const cell& c) {
    if (!c.paced) return 0;
    return (c.kind == experiment::table_kind::upsert ? p.paced_upsert_events_per_second : p.paced_events_per_second)
        .value_or(0);
}
/// The feed a cell runs: produced at once, or `paced_seconds` of its rate.
inline roster_spec feed_of(const parameters& p, const cell& c) {
    if (!c.paced) return p.feed(c.kind);
    const auto n = static_cast<std::uint64_t>(rate_of(p, c) * static_cast<double>(p.paced_seconds.value_or(0)));
    return roster_feed(p.seed, n, std::max<std::uint64_t>(1, n / 6), p.partitions);
}
inline std::int64_t timeout_of(const parameters& p, const cell& c) {
    return c.short_timeout ? p.short_timeout_ms : p.generous_timeout_ms;
}

/// The pipeline a cell runs: its table kind, exactly-once, the source at one
/// subtask per partition, the writer at its own parallelism.
inline experiment::pipeline_config pipeline_of(const parameters& p, const cell& c) {
    experiment::pipeline_config x{c.kind,
                                  experiment::checkpoint_mode::exactly_once,
                                  c.sink,
                                  p.warehouse,
                                  experiment::startup_mode::earliest_offset,
                                  p.checkpoint_interval_ms,
                                  p.source_parallelism};
    x.writer_parallelism = p.writer_parallelism;
    x.unaligned_checkpoints = c.unaligned;
    x.checkpoint_timeout_ms = timeout_of(p, c);
    x.tolerable_failed_checkpoints = p.tolerable_failed_checkpoints;
    return x;
}

/// The fault is the cell's checkpoint timeout, applied by Flink; in the kill
/// cells also a SIGKILL of the job's TaskManager right after a checkpoint timed
/// out, kills_per_run of them in each run (variant "<cell> #<repeat>").
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    for (std::uint64_t round = 1; round <= p.repeats; ++round)
        for (const auto& c : cells_of(p)) {
            if (!c.kill_after_timeout) continue;
            for (std::uint64_t k = 1; k <= p.kills_per_run.value_or(0); ++k)
                plan.steps.push_back({k, c.name + " #" + std::to_string(round),
                                      experiment::fault_kind::kill_taskmanager,
                                      "a checkpoint timed out (Flink's history), the job running with a spare "
                                      "TaskManager",
                                      0,
                                      experiment::heal_of(experiment::fault_kind::kill_taskmanager,
                                                          experiment::fault_target::flink_taskmanager)});
        }
    return plan;
}

}  // namespace rosterrig::e1c

#endif
