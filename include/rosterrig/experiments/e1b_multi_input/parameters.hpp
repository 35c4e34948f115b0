// rosterrig/experiments/e1b_multi_input/parameters.hpp: experiment 1b's parameters, its configurations, the fault plan, and how a configuration runs
#ifndef ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/checkpoint_stats.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/job_template.hpp"
#include "rosterrig/experiment/feed_pacing.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"

namespace rosterrig::e1b {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 1;
    std::uint64_t events = 1'200'000;  // 100× experiment 1's feed
    std::uint32_t partitions = 4;
    std::uint64_t kills_per_configuration = 30;  // planned; a saturated configuration stops when the table has the feed
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t kill_delay_min_ms = 0;
    std::int64_t kill_delay_max_ms = 4000;
    std::int64_t source_parallelism = 4;  // one subtask per partition (the job's parallelism)
    std::int64_t writer_parallelism = 1;  // another parallelism: the writer is fed through an exchange
    experiment::warehouse warehouse = experiment::warehouse::s3;
    bool quick = false;
    /// The writer under test when it is a user's (--job FILE), planned before
    /// the run: it runs in place of the rig's in every configuration (the
    /// configuration still sets the checkpoint mode, alignment and pacing).
    std::optional<experiment::job_template> job;

    /// The full run: 1.2 M events per configuration, 30 kills planned for each.
    static parameters full() { return {}; }
    /// For CI (under 3 minutes): three of the configurations (configurations_of),
    /// 60,000 events, one kill each (two took 174-185 s in CI: a restore now
    /// and then takes 15-18 s).
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 60'000;
        p.kills_per_configuration = 1;
        return p;
    }
    /// Providers are a sixth of the events: about six assertions each, as in experiment 1.
    roster_spec feed() const { return roster_feed(seed, events, std::max<std::uint64_t>(1, events / 6), partitions); }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, partitions, kills_per_configuration, checkpoint_interval_ms, kill_delay_min_ms,
                       kill_delay_max_ms, source_parallelism, writer_parallelism, warehouse, quick, job))

/// The configurations, every one an append table, in the order they run.
///
/// Paced: the feed is spread over the planned kills as in experiment 1, so
/// that 30 kills find data arriving (this stack writes about 80,000 events/s
/// into the table, so 1.2 M produced at once are in the table within a few
/// kill cycles); after each recovery the job catches up its backlog at full
/// speed. Kills come 0-4 s after the first checkpoint that follows a recovery.
///
/// Saturated: the whole feed produced as fast as the broker takes it, the
/// writer backpressured until it has read it; kills come 0-4 s after every
/// task runs again (not waiting for a checkpoint, which would let the job
/// read the feed within a handful of kills), for as long as the table lacks
/// part of the feed. Fewer kills, so no bound: these say whether a
/// duplicate appears under sustained backpressure.
struct configuration {
    std::string name;
    experiment::checkpoint_mode mode;
    bool unaligned = false;
    bool saturated = false;
};
inline std::vector<configuration> configurations() {
    using experiment::checkpoint_mode;
    return {{"at-least-once", checkpoint_mode::at_least_once, false, false},
            {"exactly-once, aligned", checkpoint_mode::exactly_once, false, false},
            {"exactly-once, unaligned", checkpoint_mode::exactly_once, true, false},
            {"at-least-once, saturated", checkpoint_mode::at_least_once, false, true},
            {"exactly-once, aligned, saturated", checkpoint_mode::exactly_once, false, true}};
}

/// A quick run (CI, under 3 minutes) covers each code path once: paced and
/// saturated, aligned and unaligned.
inline std::vector<configuration> configurations_of(const parameters& p) {
    const auto all = configurations();
    if (p.quick) return {all[0], all[2], all[4]};
    return all;
}

inline experiment::fault_plan fault_plan(const parameters& p) {
    std::vector<std::string> names;
    for (const auto& c : configurations_of(p)) names.push_back(c.name);
    return experiment::plan_kills(p.seed ^ 0x65316232u, names, p.kills_per_configuration, p.kill_delay_min_ms,
                                  p.kill_delay_max_ms,
                                  "paced: the first checkpoint completed after the previous recovery; saturated: every "
                                  "task running again after the previous recovery");
}

/// How a paced feed is spread: a quick run keeps 5 s of feed after the last kill, a full run 20 s.
inline experiment::feed_pacing pacing_of(const parameters& p) {
    experiment::feed_pacing f;
    f.guessed_cycle_s = 8.0;  // experiment 1's full run: a median 6.8 s from kill to kill
    if (p.quick) f.tail_s = 5.0;
    return f;
}

/// The pipeline a configuration runs: an append table, the source at one
/// subtask per partition, the writer at its own parallelism.
inline experiment::pipeline_config pipeline_of(const parameters& p, const configuration& c) {
    experiment::pipeline_config x{experiment::table_kind::append,
                                  c.mode,
                                  experiment::iceberg_sink::flink_sink,
                                  p.warehouse,
                                  experiment::startup_mode::earliest_offset,
                                  p.checkpoint_interval_ms,
                                  p.source_parallelism};
    x.writer_parallelism = p.writer_parallelism;
    x.unaligned_checkpoints = c.unaligned;
    return x;
}

/// The configuration's short name in its topic, table and job names.
inline std::string short_name_of(const configuration& c) {
    return std::string(c.mode == experiment::checkpoint_mode::at_least_once ? "alo"
                       : c.unaligned                                        ? "eo_unaligned"
                                                                            : "eo_aligned") +
           (c.saturated ? "_saturated" : "");
}

}  // namespace rosterrig::e1b

#endif
