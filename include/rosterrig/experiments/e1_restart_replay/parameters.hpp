// rosterrig/experiments/e1_restart_replay/parameters.hpp: experiment 1's parameters, its four configurations, the fault plan, and how a configuration runs
// pacing_of, pipeline_of and short_name_of followed the sample schema in the old header;
// they need only the parameters and a configuration, so they moved here.
#ifndef ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/feed_parameters.hpp"
#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/feed_pacing.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/job_template.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::e1 {

using experiment::prediction_outcome;
// The kill run's record and its analysis are shared (experiment/kill_run.hpp).
using experiment::attribute;
using experiment::configuration_run;
using experiment::configuration_summary;
using experiment::describe;
using experiment::kill_sample;
using experiment::kill_sample_of;
using experiment::no_duplicates;
using experiment::no_replay;
using experiment::record_table;
using experiment::replays_of;
using experiment::restart_count_reads;
using experiment::restart_count_sentence;
using experiment::restart_counts_of;
using experiment::summarize;

struct parameters : experiment::feed_parameters {
    parameters() : feed_parameters{.seed = 1, .events = 12000, .providers = 2000, .partitions = 4} {}
    std::uint64_t kills_per_configuration = 30;
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t kill_delay_min_ms = 0;  // after the first checkpoint following a recovery
    std::int64_t kill_delay_max_ms = 4000;
    std::uint64_t offsets_events = 6000;  // part 2's feed
    experiment::warehouse warehouse = experiment::warehouse::s3;
    std::int64_t parallelism = 2;
    /// The writer under test when it is a user's (--job FILE), planned before
    /// the run; absent: the rig's four configurations.
    std::optional<experiment::job_template> job;

    /// The full run: 30 kills bound the per-kill duplication probability at 0.095.
    static parameters full() { return {}; }
    /// For CI (under 3 minutes): one configuration (configurations_of), one
    /// kill and a 3,000-event feed, then part 2.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        // One kill: a kill cycle (checkpoint, delay, recovery) took 12-22 s in CI;
        // every rule is still judged (inconclusive on the bound either way).
        p.kills_per_configuration = 1;
        // Delays over one checkpoint interval still cover its whole cycle.
        p.kill_delay_max_ms = 2000;
        p.events = 3000;
        p.providers = 500;
        p.offsets_events = 1000;
        return p;
    }
    /// Part 2's feed: its own seed, about six records per provider.
    roster_spec offsets_feed() const {
        roster_spec s;
        s.seed = seed + 1;
        s.events = offsets_events;
        s.providers = offsets_events / 6 > 0 ? offsets_events / 6 : 1;
        s.partitions = partitions;
        return s;
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters),
                      (kills_per_configuration, checkpoint_interval_ms, kill_delay_min_ms, kill_delay_max_ms,
                       offsets_events, warehouse, parallelism, job))

/// The four configurations, in the order they run.
struct configuration {
    std::string name;
    experiment::checkpoint_mode mode;
    experiment::table_kind table;
};
inline std::vector<configuration> configurations() {
    using experiment::checkpoint_mode;
    using experiment::table_kind;
    return {{"at-least-once + append", checkpoint_mode::at_least_once, table_kind::append},
            {"exactly-once + append", checkpoint_mode::exactly_once, table_kind::append},
            {"at-least-once + upsert", checkpoint_mode::at_least_once, table_kind::upsert},
            {"exactly-once + upsert", checkpoint_mode::exactly_once, table_kind::upsert}};
}

/// The configurations a run covers: all four, or for a quick run (CI, under
/// 3 minutes) exactly-once + upsert alone: part 2 then runs exactly-once +
/// append, and the configurations differ only in the pipeline they ask for,
/// so every code path still runs (two configurations took 161-183 s in CI).
/// The predictions about the other three are then inconclusive.
inline std::vector<configuration> configurations_of(const parameters& p) {
    // A user's job is the one configuration: its table kind as planned, the
    // mode the session asks for (its own SET may change it; the run records
    // what Flink reports).
    if (p.job)
        return {{"your job: " + p.job->name, experiment::checkpoint_mode::exactly_once,
                 p.job->plan ? p.job->plan->kind : experiment::table_kind::append}};
    auto all = configurations();
    if (p.quick) return {all[3]};
    return all;
}

/// Every kill of the run, drawn before the first one from the seed.
inline experiment::fault_plan fault_plan(const parameters& p) {
    std::vector<std::string> names;
    for (const auto& c : configurations_of(p)) names.push_back(c.name);
    return experiment::plan_kills(p.seed ^ 0x6531u, names, p.kills_per_configuration, p.kill_delay_min_ms,
                                  p.kill_delay_max_ms, "the first checkpoint completed after the previous recovery");
}

/// How the feed is paced: a quick run keeps 3 s of feed after the last kill, a full run 20 s.
inline experiment::feed_pacing pacing_of(const parameters& p) {
    experiment::feed_pacing f;
    if (p.quick) f.tail_s = 3.0;  // the drain after it waits ~10 s more for the offsets anyway
    return f;
}

/// The pipeline a configuration runs.
inline experiment::pipeline_config pipeline_of(const parameters& p, const configuration& c) {
    return {c.table,
            c.mode,
            experiment::iceberg_sink::flink_sink,
            p.warehouse,
            experiment::startup_mode::earliest_offset,
            p.checkpoint_interval_ms,
            p.parallelism};
}

/// The configuration's short name in its topic, table and job names.
inline std::string short_name_of(const configuration& c) {
    if (c.name.rfind("your job", 0) == 0) return "job_" + std::string(experiment::name_of(c.table));
    return std::string(c.mode == experiment::checkpoint_mode::at_least_once ? "alo_" : "eo_") +
           experiment::name_of(c.table);
}

}  // namespace rosterrig::e1

#endif
