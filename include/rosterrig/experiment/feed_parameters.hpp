// rosterrig/experiment/feed_parameters.hpp: the parameters of an experiment fed
// one seeded roster (seed, events, providers, partitions) and whether the run is
// the quick one, with the feed they name. An experiment's parameters derive
// from it and set their own defaults in their constructor (the values differ
// by experiment; the names, types and meaning do not):
//
//   struct parameters : experiment::feed_parameters {
//       parameters() : feed_parameters{.seed = 1, .events = 12000, .providers = 2000, .partitions = 4} {}
//       std::int64_t checkpoint_interval_ms = 2000;  // the experiment's own fields
//       ...
//   };
//   BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters), (checkpoint_interval_ms, ...))
//
// A result records the base's fields under the same keys as before they
// were shared, the base's first: Boost.JSON 1.81 converts no described struct
// that has bases, so the tag_invoke below writes the members (inherited ones
// too) as it writes a plain described struct, and the strict reader reads them
// (result/strict_reader.hpp, mod_inherited).
#ifndef ROSTERRIG_EXPERIMENT_FEED_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENT_FEED_PARAMETERS_HPP

#include <cstdint>
#include <type_traits>

#include <boost/describe.hpp>
#include <boost/json/value_from.hpp>
#include <boost/mp11/algorithm.hpp>

#include "rosterrig/generate/roster_spec.hpp"

namespace rosterrig::experiment {

struct feed_parameters {
    std::uint64_t seed = 0;
    std::uint64_t events = 0;
    std::uint64_t providers = 0;
    std::uint32_t partitions = 0;
    bool quick = false;  ///< the short form, for CI; never promoted to results/

    /// The roster these parameters name.
    roster_spec feed() const { return roster_feed(seed, events, providers, partitions); }
};
BOOST_DESCRIBE_STRUCT(feed_parameters, (), (seed, events, providers, partitions, quick))

/// An experiment's parameters as JSON: one member per described member, the
/// base's first, each converted as Boost.JSON converts it in a described struct.
template <class P>
    requires(std::is_base_of_v<feed_parameters, P> && !std::is_same_v<P, feed_parameters>)
void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const P& p) {
    auto& out = v.emplace_object();
    using members = boost::describe::describe_members<P, boost::describe::mod_public | boost::describe::mod_inherited>;
    boost::mp11::mp_for_each<members>(
        [&](auto d) { out.emplace(d.name, boost::json::value_from(p.*d.pointer, out.storage())); });
}

}  // namespace rosterrig::experiment

#endif
