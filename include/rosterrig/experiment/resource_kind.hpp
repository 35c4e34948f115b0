// rosterrig/experiment/resource_kind.hpp: what a run creates on the stack.
//
// The declaration order is the order clean-up removes things in, both when a
// run ends and when rosterrig-clean takes what a dead run left: a connector's
// tasks hold its group and write its table, so it goes first; a job holds
// the transactions, tables, groups and topics it uses; its transactions are
// aborted once it cannot open more; topics go last, once nothing reads them.
#ifndef ROSTERRIG_EXPERIMENT_RESOURCE_KIND_HPP
#define ROSTERRIG_EXPERIMENT_RESOURCE_KIND_HPP

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <boost/describe.hpp>

#include "rosterrig/experiment/enum_names.hpp"

namespace rosterrig::experiment {

enum class resource_kind { connector, job, transactional_id_prefix, table, consumer_group, topic };
BOOST_DESCRIBE_ENUM(resource_kind, connector, job, transactional_id_prefix, table, consumer_group, topic)

/// The kind as a run's history records it: the enumerator's name with hyphens
/// ("transactional-id-prefix", "consumer-group"), as result files always had it.
inline std::string name_of(resource_kind kind) {
    auto name = boost::describe::enum_to_string(kind, "?");
    std::string out(name);
    std::replace(out.begin(), out.end(), '_', '-');
    return out;
}

/// The kind a history's `kind` string names, or nothing for a kind this code
/// does not know (clean-up leaves such a resource alone and says so).
inline std::optional<resource_kind> resource_kind_of(std::string_view recorded) {
    for (const auto kind : enumerators_of<resource_kind>())
        if (name_of(kind) == recorded) return kind;
    return std::nullopt;
}

/// Where a recorded kind comes in clean-up: its place in resource_kind, and
/// after all of them a kind no enumerator names.
inline std::size_t removal_rank(std::string_view recorded) {
    const auto kind = resource_kind_of(recorded);
    return kind ? static_cast<std::size_t>(*kind) : enumerators_of<resource_kind>().size();
}

}  // namespace rosterrig::experiment

#endif
