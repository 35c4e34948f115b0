// rosterrig/experiment/job_plan.hpp: the edges of a Flink job's plan, the
// settings a writer runs with, and how
// the Iceberg writer is fed. A writer chained into the source's vertex has one
// input channel (no barrier alignment to skip); a writer behind an exchange
// has several, which is what the checkpointing mode can matter for.
#ifndef ROSTERRIG_EXPERIMENT_JOB_PLAN_HPP
#define ROSTERRIG_EXPERIMENT_JOB_PLAN_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/reported_settings.hpp"

namespace rosterrig::experiment {

struct plan_edge {
    std::string from;           ///< upstream vertex's description; empty for a vertex fed by nothing (a source)
    std::string to;             ///< this vertex's description (its chained operators)
    std::string ship_strategy;  ///< FORWARD, HASH, REBALANCE ... as Flink's plan says; "NONE (source vertex)"
    // Each vertex's parallelism as the plan reports it (absent in runs before it was recorded).
    std::optional<std::int64_t> from_parallelism;
    std::optional<std::int64_t> to_parallelism;
    friend bool operator==(const plan_edge&, const plan_edge&) = default;
};
BOOST_DESCRIBE_STRUCT(plan_edge, (), (from, to, ship_strategy, from_parallelism, to_parallelism))

/// A vertex holds the Iceberg writer when its description names the writer
/// and not the committer (whose description also names the sink).
inline bool holds_writer(const std::string& vertex) {
    return vertex.find("Writer") != std::string::npos && vertex.find("Committer") == std::string::npos;
}

/// How many channels feed each writer subtask, from the plan: what barrier
/// alignment is about. A writer chained into the source's vertex has one; a
/// writer behind an all-to-all exchange (REBALANCE, HASH) has one per
/// upstream subtask; behind FORWARD, one.
struct writer_fan_in {
    bool found = false;         ///< the plan has a writer vertex
    bool chained = false;       ///< the writer shares the source's vertex
    std::string ship_strategy;  ///< into the writer vertex
    std::int64_t upstream_parallelism = 0;
    std::int64_t writer_parallelism = 0;
    std::int64_t input_channels = 0;  ///< per writer subtask; 0 when the plan does not say
};
BOOST_DESCRIBE_STRUCT(writer_fan_in, (),
                      (found, chained, ship_strategy, upstream_parallelism, writer_parallelism, input_channels))

inline writer_fan_in fan_in_of(const std::vector<plan_edge>& edges) {
    writer_fan_in f;
    for (const auto& e : edges) {
        if (!holds_writer(e.to)) continue;
        f.found = true;
        f.writer_parallelism = e.to_parallelism.value_or(0);
        if (e.from.empty()) {
            f.chained = true, f.ship_strategy = "FORWARD (chained with the source)", f.input_channels = 1;
            return f;
        }
        f.ship_strategy = e.ship_strategy;
        f.upstream_parallelism = e.from_parallelism.value_or(0);
        if (e.ship_strategy == "FORWARD")
            f.input_channels = 1;
        else if (e.ship_strategy == "REBALANCE" || e.ship_strategy == "HASH" || e.ship_strategy == "BROADCAST")
            f.input_channels = f.upstream_parallelism;
        return f;
    }
    return f;
}

/// The writer's input in a progress line, e.g. "REBALANCE, 4 → 2 subtasks".
inline std::string fan_in_text(const writer_fan_in& f) {
    return f.ship_strategy + ", " + std::to_string(f.upstream_parallelism) + " → " +
           std::to_string(f.writer_parallelism) + " subtasks";
}

/// The ship strategy into the vertex that holds the writer, as fan_in_of reads it.
inline std::string writer_input(const std::vector<plan_edge>& edges) {
    const auto f = fan_in_of(edges);
    return f.found ? f.ship_strategy : "unknown (no writer vertex in the plan)";
}

/// What a writer runs with, as its engine reports it (not as requested).
struct writer_settings {
    std::string mode;              ///< e.g. "exactly_once"
    std::int64_t interval_ms = 0;  ///< checkpoint (commit) interval in force
    std::vector<plan_edge> edges;
    std::string writer_input;                   ///< writer_input(edges)
    std::string sink;                           ///< which sink implementation runs
    std::optional<restart_strategy> restart;    ///< Flink's, for the job (unset by writers that cannot say)
    std::optional<table_settings> table;        ///< the catalog's, for the job's table
    std::optional<recovery_settings> recovery;  ///< how fast the stack recovers a lost TaskManager
    std::optional<bool> unaligned;              ///< unaligned checkpoints, as Flink reports them
    std::int64_t aligned_checkpoint_timeout_ms = 0;
    std::int64_t checkpoint_timeout_ms = 0;          ///< as Flink reports it
    std::int64_t tolerable_failed_checkpoints = -1;  ///< as Flink reports it; -1: not reported
};

}  // namespace rosterrig::experiment

#endif
