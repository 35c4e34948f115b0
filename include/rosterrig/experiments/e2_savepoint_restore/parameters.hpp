// rosterrig/experiments/e2_savepoint_restore/parameters.hpp: experiment 2's parameters, its batches and variants, and the plans drawn from them
// pipeline_of, first_batch_rate, drain_checkpoints and fault_plan followed rules() in the old
// header; they need only the parameters and a variant, so they moved here.
#ifndef ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::e2 {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 2;
    std::uint64_t first_batch_events = 8000;   // written while the first job runs
    std::uint64_t second_batch_events = 4000;  // written while no job runs
    // Written once the table has moved and settled after the restore: does data
    // after the freeze land once? (Absent in runs from before it existed.)
    std::optional<std::uint64_t> third_batch_events = 2000;
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t watermark_lead = 10;  // checkpoints past the savepoint before stopping
    std::int64_t sample_period_ms = 500;
    std::int64_t row_count_period_ms = 3000;
    std::uint64_t repeats = 3;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    std::int64_t parallelism = 2;
    bool quick = false;

    static parameters full() { return {}; }
    /// For CI: one repeat of each variant, smaller batches.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.repeats = 1;
        p.first_batch_events = 2000;
        p.second_batch_events = 1000;
        p.third_batch_events = 500;
        p.providers = 500;
        // Two checkpoints past the savepoint: the freeze, which lasts as long as the
        // first job ran on after the savepoint, stays short (a 1 s interval was
        // tried and ran slower: the job fell behind its own checkpoints).
        p.watermark_lead = 2;
        return p;
    }
    /// Repeat r's feed: both batches, one seed per repeat.
    roster_spec feed(std::uint64_t repeat) const {
        roster_spec s;
        s.seed = seed + repeat;
        s.events = first_batch_events + second_batch_events + third_batch_events.value_or(0);
        s.providers = providers;
        s.partitions = partitions;
        return s;
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, first_batch_events, second_batch_events, third_batch_events, providers, partitions,
                       checkpoint_interval_ms, watermark_lead, sample_period_ms, row_count_period_ms, repeats,
                       warehouse, parallelism, quick))

/// The seqs of each batch of a repeat's feed, in the order they are written:
/// the first (job running), the second (no job), the third (after the freeze)
/// when the run has one.
inline std::vector<seq_range> batches(const parameters& p) {
    std::vector<seq_range> out;
    std::uint64_t next = 1;
    for (const std::uint64_t n : {p.first_batch_events, p.second_batch_events, p.third_batch_events.value_or(0)}) {
        if (n == 0) continue;
        out.push_back({next, next + n - 1});
        next += n;
    }
    return out;
}

struct variant {
    std::string name;
    experiment::table_kind table;
    experiment::iceberg_sink sink;
};
/// The variants a run restores, in the order each repeat runs them: all three
/// in a full run; the two append ones in a quick run, which with the upsert
/// variant took 174-176 s in CI, too close to its 3 minutes (each variant
/// takes about a minute; the upsert variant is the full run's alone).
inline std::vector<variant> variants(const parameters& p) {
    using experiment::iceberg_sink;
    using experiment::table_kind;
    std::vector<variant> out{{"append-flinksink", table_kind::append, iceberg_sink::flink_sink},
                             {"upsert-flinksink", table_kind::upsert, iceberg_sink::flink_sink},
                             {"append-sinkv2", table_kind::append, iceberg_sink::sink_v2}};
    if (p.quick) std::erase_if(out, [](const variant& v) { return v.table == table_kind::upsert; });
    return out;
}

/// The pipeline a variant runs: exactly-once checkpoints, the variant's table and sink.
inline experiment::pipeline_config pipeline_of(const parameters& p, const variant& v) {
    return {v.table,      experiment::checkpoint_mode::exactly_once, v.sink,
            p.warehouse,  experiment::startup_mode::earliest_offset, p.checkpoint_interval_ms,
            p.parallelism};
}

/// The first batch arrives at a steady rate spread over enough checkpoints for
/// the watermark to get `watermark_lead` past the savepoint.
/// A quick run spreads it over fewer checkpoints, to stay under 3 minutes.
inline double first_batch_rate(const parameters& p) {
    const double lead = static_cast<double>(p.watermark_lead + (p.quick ? 1 : 8));
    const double seconds = (p.quick ? 2.0 : 10.0) + lead * static_cast<double>(p.checkpoint_interval_ms) / 1000.0;
    return static_cast<double>(p.first_batch_events) / seconds;
}

/// Checkpoints that complete after the group's lag reached zero before the
/// table is read: the commit that carried the last records lands in the
/// first one's notification. A full run waits for two; a quick run, to stay
/// under 3 minutes, for one.
inline int drain_checkpoints(const parameters& p) { return p.quick ? 1 : 2; }

/// One restore per variant and repeat, planned before the first.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    for (std::uint64_t r = 1; r <= p.repeats; ++r)
        for (const auto& v : variants(p))
            plan.steps.push_back({r, v.name, experiment::fault_kind::restore_from_savepoint,
                                  "the table's watermark is watermark_lead checkpoints past the savepoint and the "
                                  "first batch has landed; the job is stopped and the second batch written",
                                  0, "none: the restored job runs on; the question is what the table shows"});
    return plan;
}

}  // namespace rosterrig::e2

#endif
