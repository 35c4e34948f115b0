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
    friend bool operator==(const plan_edge&, const plan_edge&) = default;
};
BOOST_DESCRIBE_STRUCT(plan_edge, (), (from, to, ship_strategy))

/// The ship strategy into the vertex that holds the writer (not the
/// committer, whose description also names the sink).
inline std::string writer_input(const std::vector<plan_edge>& edges) {
    for (const auto& e : edges) {
        const bool writer =
            e.to.find("Writer") != std::string::npos && e.to.find("Committer") == std::string::npos;
        if (!writer) continue;
        if (e.from.empty()) return "FORWARD (chained with the source)";
        return e.ship_strategy;
    }
    return "unknown (no writer vertex in the plan)";
}

/// What a writer runs with, as its engine reports it (not as requested).
struct writer_settings {
    std::string mode;             ///< e.g. "exactly_once"
    std::int64_t interval_ms = 0; ///< checkpoint (commit) interval in force
    std::vector<plan_edge> edges;
    std::string writer_input;     ///< writer_input(edges)
    std::string sink;             ///< which sink implementation runs
    std::optional<restart_strategy> restart;  ///< Flink's, for the job (unset by writers that cannot say)
    std::optional<table_settings> table;      ///< the catalog's, for the job's table
    std::optional<recovery_settings> recovery;  ///< how fast the stack recovers a lost TaskManager
};

} // namespace rosterrig::experiment

#endif
