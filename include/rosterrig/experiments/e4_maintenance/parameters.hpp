// rosterrig/experiments/e4_maintenance/parameters.hpp: the parameters, the runs they draw (run_plan, runs_of), each run's pipeline, usage_problem and the fault plan

#ifndef ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/feed_parameters.hpp"
#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/check/append_check.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/kill_record.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/experiment/store_listing.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"

namespace rosterrig::e4 {

using experiment::prediction_outcome;
using experiment::store_listing;

struct parameters : experiment::feed_parameters {
    // events: per run
    parameters() : feed_parameters{.seed = 4, .events = 12000, .providers = 3000, .partitions = 4} {}
    std::int64_t parallelism = 2;
    std::vector<std::string> expire_stores{"s3", "local"};
    std::vector<std::string> orphan_stores{"s3", "local"};  // part 3 runs on the object store
    std::uint64_t repeats = 3;
    std::int64_t feed_ms = 50000;  // parts 1 and 3: the feed's duration
    // Part 1: expire_snapshots, then a kill.
    std::vector<std::string> expire_variants{"plain", "after-compaction"};
    std::int64_t expire_interval_ms = 5000;
    std::int64_t expire_after_snapshots = 5;  // the plain expire waits for this many snapshots
    // The after-compaction variant needs its optimize and expire and the kill
    // to fit between two of the job's commits: a longer interval. It waits
    // for expire_after_snapshots - 2 snapshots and then the job's next commit,
    // so its expire, after the optimize, also starts from that many.
    std::int64_t expire_compaction_interval_ms = 10000;
    // The expiry must find the optimize's commit the newest snapshot. When the
    // job committed between the two, the optimize is called again after the
    // job's next commit, up to this many calls in all. Absent in runs from
    // before it: one call, whatever committed after it.
    std::optional<std::uint64_t> optimize_attempts;
    // Part 2: remove_orphan_files with records in flight.
    std::int64_t orphan_interval_ms = 30000;
    std::uint64_t orphan_in_flight_events = 4000;  // fed right after a commit; the rest first, committed
    std::int64_t orphan_call_after_ms = 10000;     // the call, this long after that commit
    // Iceberg's Parquet writer keeps a row group in memory and creates its
    // file only when it flushes one (at 128 MB by default) or closes it at the
    // checkpoint: "default" leaves the in-flight records in the writer's heap;
    // "small" (write.parquet.row-group-size-bytes) makes it flush inside the
    // interval, so that an in-flight file exists in the store.
    std::vector<std::string> orphan_row_groups{"default", "small"};
    std::int64_t small_row_group_bytes = 8192;
    // Part 3: optimize against a live writer.
    std::vector<std::string> compaction_tables{"append", "upsert"};
    std::int64_t compaction_interval_ms = 5000;
    std::uint64_t compactions_per_run = 3;

    static parameters full() {
        parameters p;
        p.optimize_attempts = 3;
        return p;
    }
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 2000;
        p.providers = 600;
        p.repeats = 1;
        p.feed_ms = 12000;
        p.expire_stores = {"s3"};
        p.expire_variants = {"plain"};
        p.expire_after_snapshots = 4;
        p.expire_interval_ms = 2000;  // four commits inside the 12 s feed; at 5 s the wait ran out the feed
        // Each orphan run waits for its first commit, then drains through two more
        // checkpoints: at 12 s that was ~45 s of a ~50 s run. The call, its listings
        // and Trino reads take ~1.5 s, inside the ~4 s left before the next commit.
        p.orphan_interval_ms = 8000;
        p.orphan_in_flight_events = 500;
        p.orphan_call_after_ms = 3000;
        p.orphan_row_groups = {"small"};
        p.compaction_tables = {"upsert"};
        p.compactions_per_run = 2;
        p.compaction_interval_ms = 3000;  // the drain waits two intervals; calls stay 4 s apart
        p.optimize_attempts = 3;
        return p;
    }
    double feed_rate() const {
        return static_cast<double>(events) * 1000.0 / static_cast<double>(std::max<std::int64_t>(feed_ms, 1));
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters),
                      (parallelism, expire_stores, orphan_stores, repeats, feed_ms, expire_variants, expire_interval_ms,
                       expire_after_snapshots, expire_compaction_interval_ms, optimize_attempts, orphan_interval_ms,
                       orphan_in_flight_events, orphan_call_after_ms, orphan_row_groups, small_row_group_bytes,
                       compaction_tables, compaction_interval_ms, compactions_per_run))

// ---- the runs ----------------------------------------------------------------

/// One run: which part, on which store, which variant, which repeat.
struct run_plan {
    std::string part;   // expire | orphans | compaction
    std::string store;  // s3 | local
    std::string
        variant;  // expire: plain | after-compaction; compaction: append | upsert; orphans: default-row-group | small-row-group
    std::uint64_t repeat = 1;
    std::string name() const {
        return part + "/" + store + (variant.empty() ? std::string() : "/" + variant) + " #" + std::to_string(repeat);
    }
};

/// Every run, repeats outermost so that a stopped run has seen every kind.
inline std::vector<run_plan> runs_of(const parameters& p) {
    std::vector<run_plan> out;
    for (std::uint64_t r = 1; r <= p.repeats; ++r) {
        for (const auto& store : p.expire_stores)
            for (const auto& v : p.expire_variants) out.push_back({"expire", store, v, r});
        for (const auto& rg : p.orphan_row_groups)
            for (const auto& store : p.orphan_stores) out.push_back({"orphans", store, rg + "-row-group", r});
        for (const auto& t : p.compaction_tables) out.push_back({"compaction", "s3", t, r});
    }
    return out;
}

inline const std::string row_group_property = "write.parquet.row-group-size-bytes";

/// The checkpoint interval of a run's job.
inline std::int64_t interval_of(const parameters& p, const run_plan& r) {
    if (r.part == "orphans") return p.orphan_interval_ms;
    if (r.part == "compaction") return p.compaction_interval_ms;
    return r.variant == "after-compaction" ? p.expire_compaction_interval_ms : p.expire_interval_ms;
}

/// The run's job: exactly-once into an append table (an upsert table for an
/// upsert compaction run) in the run's store.
inline experiment::pipeline_config pipeline_of(const parameters& p, const run_plan& r) {
    experiment::pipeline_config c;
    c.table = r.part == "compaction" && r.variant == "upsert" ? experiment::table_kind::upsert
                                                              : experiment::table_kind::append;
    c.mode = experiment::checkpoint_mode::exactly_once;
    c.store = r.store == "local" ? experiment::warehouse::local : experiment::warehouse::s3;
    c.checkpoint_interval_ms = interval_of(p, r);
    c.parallelism = p.parallelism;
    return c;
}

inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t slots) {
    if (p.events == 0 || p.providers == 0) return std::string("a feed of no events or no providers cannot run");
    if (p.repeats == 0) return std::string("--repeats: expected at least 1, got 0");
    if (p.parallelism <= 0) return "a parallelism of " + std::to_string(p.parallelism) + " cannot run";
    if (p.parallelism > slots)
        return "a parallelism of " + std::to_string(p.parallelism) + " needs " + std::to_string(p.parallelism) +
               " task slots and the TaskManager has " + std::to_string(slots);
    for (auto i :
         {p.expire_interval_ms, p.expire_compaction_interval_ms, p.orphan_interval_ms, p.compaction_interval_ms})
        if (i <= 0) return "a checkpoint interval of " + std::to_string(i) + " ms cannot run";
    if (p.expire_after_snapshots < 4)
        return std::string("the expire needs at least 4 snapshots before it to show anything");
    if (p.orphan_call_after_ms >= p.orphan_interval_ms)
        return "the orphan call (" + std::to_string(p.orphan_call_after_ms) +
               " ms after a checkpoint) must come inside the interval (" + std::to_string(p.orphan_interval_ms) +
               " ms)";
    if (p.orphan_in_flight_events >= p.events) return std::string("the in-flight batch must be smaller than the feed");
    for (const auto* stores : {&p.expire_stores, &p.orphan_stores})
        for (const auto& s : *stores)
            if (s != "s3" && s != "local") return "a store '" + s + "' is neither s3 nor local";
    for (const auto& v : p.expire_variants)
        if (v != "plain" && v != "after-compaction")
            return "an expire variant '" + v + "' is neither plain nor after-compaction";
    for (const auto& rg : p.orphan_row_groups)
        if (rg != "default" && rg != "small")
            return "an orphan row-group variant '" + rg + "' is neither default nor small";
    if (p.small_row_group_bytes <= 0) return std::string("a row group of 0 bytes or below cannot be written");
    for (const auto& t : p.compaction_tables)
        if (t != "append" && t != "upsert") return "a compaction table '" + t + "' is neither append nor upsert";
    return std::nullopt;
}

/// One kill per expire run, right after the expiry.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    for (const auto& r : runs_of(p))
        if (r.part == "expire")
            plan.steps.push_back(
                {1, r.name(), experiment::fault_kind::kill_taskmanager, "the expire_snapshots call returned", 0,
                 "the supervisor starts a new TaskManager; Flink restarts the job from its latest checkpoint"});
    return plan;
}

}  // namespace rosterrig::e4

#endif
