// rosterrig/experiment/definition.hpp: what every experiment definition
// (the `definition` struct at the bottom of each experiments/eN_*.hpp) must
// have, for the registry, the runner and the report. A definition missing one
// fails to compile naming experiment_definition; the optional parts are its
// `hooks` (hooks.hpp), read through experiment_traits (experiment_traits.hpp),
// and one that needs the samples' type, which hooks does not know:
//
//   static std::vector<rule> hypotheses();  // stated after its run began (has_hypotheses)
//
// rules judged like the predictions but never among them: what a run showed
// halfway, written down before the rest of it ran, to be tested on the rest.
#ifndef ROSTERRIG_EXPERIMENT_DEFINITION_HPP
#define ROSTERRIG_EXPERIMENT_DEFINITION_HPP

#include <concepts>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/result/envelope.hpp"

namespace rosterrig::experiment {

template <class E>
concept experiment_definition =
    requires(typename E::parameters& p, typename E::samples& s, const result::result_envelope& env) {
        // Names: the result's experiment, the README marker, the files relative to the checkout.
        { E::id } -> std::convertible_to<std::string_view>;
        { E::tag } -> std::convertible_to<std::string_view>;
        { E::predictions_file } -> std::convertible_to<std::string_view>;
        { E::results_file } -> std::convertible_to<std::string_view>;
        // The parameters of a full and a quick run, and what every run sets.
        { E::parameters::full() } -> std::same_as<typename E::parameters>;
        { E::parameters::quick_run() } -> std::same_as<typename E::parameters>;
        { p.seed } -> std::convertible_to<std::uint64_t>;
        { p.quick } -> std::convertible_to<bool>;
        // The samples carry their judged predictions.
        s.predictions;
        // Judging, the faults, the report.
        { E::rules() } -> std::same_as<std::vector<rule<typename E::samples, typename E::parameters>>>;
        { E::fault_plan(p) } -> std::same_as<experiment::fault_plan>;
        { E::report_section(env, s, p) } -> std::convertible_to<std::string>;
        { E::figures(s, p) } -> std::convertible_to<std::map<std::string, std::string>>;
        // The optional parts, declared in one member (an empty `{}` when it has none).
        { E::hooks } -> std::same_as<const hooks<typename E::parameters>&>;
    };

/// The definition states hypotheses() beside its predictions.
template <class E>
concept has_hypotheses = requires {
    { E::hypotheses() } -> std::same_as<std::vector<rule<typename E::samples, typename E::parameters>>>;
};

}  // namespace rosterrig::experiment

#endif
