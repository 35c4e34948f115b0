// rosterrig/engine/flink_execution_plan.hpp: the edges of the plan Flink's
// EXPLAIN JSON_EXECUTION_PLAN prints, before any job exists.
//
// The explanation ends with a "== Physical Execution Plan ==" section holding
// the stream graph as JSON: {"nodes": [{"id", "type", "contents",
// "parallelism", "predecessors": [{"id", "ship_strategy"}]}]}. Its nodes are
// operators, not the chained vertices a running job's plan lists: an operator
// fed FORWARD from its predecessor is later chained into its vertex.
#ifndef ROSTERRIG_ENGINE_FLINK_EXECUTION_PLAN_HPP
#define ROSTERRIG_ENGINE_FLINK_EXECUTION_PLAN_HPP

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "rosterrig/experiment/job_plan.hpp"

namespace rosterrig::engine {

/// The operator edges of an EXPLAIN JSON_EXECUTION_PLAN text; a node with no
/// predecessor is an edge from "" (a source). Throws when the text holds no plan.
inline std::vector<experiment::plan_edge> execution_plan_edges(const std::string& explained) {
    const auto section = explained.find("== Physical Execution Plan ==");
    const auto open = explained.find('{', section == std::string::npos ? 0 : section);
    if (open == std::string::npos) throw std::runtime_error("the explanation holds no JSON execution plan");
    // The JSON value ends the section; write_some stops where it ends.
    boost::system::error_code ec;
    boost::json::parser p;
    p.write_some(explained.data() + open, explained.size() - open, ec);
    if (ec) throw std::runtime_error("the execution plan is not JSON: " + ec.message());
    const auto plan = p.release();
    const auto* nodes = plan.is_object() ? plan.as_object().if_contains("nodes") : nullptr;
    if (!nodes || !nodes->is_array()) throw std::runtime_error("the execution plan has no nodes");
    auto text = [](const boost::json::object& o, const char* key) {
        const auto* v = o.if_contains(key);
        return v && v->is_string() ? std::string(v->as_string()) : std::string();
    };
    auto integer = [](const boost::json::object& o, const char* key) -> std::optional<std::int64_t> {
        const auto* v = o.if_contains(key);
        if (v && v->is_int64()) return v->as_int64();
        return std::nullopt;
    };
    auto id_of = [](const boost::json::value& v) { return v.is_int64() ? v.as_int64() : -1; };
    auto name_of = [&](const boost::json::object& o) {
        const auto contents = text(o, "contents");
        return contents.empty() ? text(o, "type") : contents;
    };
    std::vector<experiment::plan_edge> out;
    for (const auto& n : nodes->as_array()) {
        const auto& o = n.as_object();
        const auto* preds = o.if_contains("predecessors");
        if (!preds || !preds->is_array() || preds->as_array().empty()) {
            out.push_back({"", name_of(o), "NONE (source)", std::nullopt, integer(o, "parallelism")});
            continue;
        }
        for (const auto& in : preds->as_array()) {
            const auto& io = in.as_object();
            const boost::json::object* from = nullptr;
            for (const auto& m : nodes->as_array())
                if (const auto* mid = m.as_object().if_contains("id");
                    mid && io.if_contains("id") && id_of(*mid) == id_of(io.at("id")))
                    from = &m.as_object();
            out.push_back({from ? name_of(*from) : "?", name_of(o), text(io, "ship_strategy"),
                           from ? integer(*from, "parallelism") : std::nullopt, integer(o, "parallelism")});
        }
    }
    return out;
}

}  // namespace rosterrig::engine

#endif
