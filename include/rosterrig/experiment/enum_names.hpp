// rosterrig/experiment/enum_names.hpp: described enums by name, the way
// results and flags spell them.
#ifndef ROSTERRIG_EXPERIMENT_ENUM_NAMES_HPP
#define ROSTERRIG_EXPERIMENT_ENUM_NAMES_HPP

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe.hpp>
#include <boost/mp11/algorithm.hpp>

namespace rosterrig::experiment {

/// The enumerator's own name ("append", "s3", ...).
template <class E>
std::string name_of(E e) {
    const char* n = boost::describe::enum_to_string(e, nullptr);
    return n ? n : "?";
}
/// The enumerator with this name, or nothing.
template <class E>
std::optional<E> parse_name(std::string_view text) {
    E out{};
    if (!boost::describe::enum_from_string(std::string(text).c_str(), out)) return std::nullopt;
    return out;
}

/// Every enumerator of a described enum, in declaration order.
template <class E>
std::vector<E> enumerators_of() {
    std::vector<E> out;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) { out.push_back(d.value); });
    return out;
}

}  // namespace rosterrig::experiment

#endif
