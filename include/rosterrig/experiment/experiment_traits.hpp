// rosterrig/experiment/experiment_traits.hpp: what the runner asks of an
// experiment beyond its contract (definition.hpp): its optional hooks with
// their defaults, in one place. A hook declared as a member of the definition
// instead of in its `hooks` does not compile either.
#ifndef ROSTERRIG_EXPERIMENT_EXPERIMENT_TRAITS_HPP
#define ROSTERRIG_EXPERIMENT_EXPERIMENT_TRAITS_HPP

#include <string>
#include <vector>

#include "rosterrig/experiment/definition.hpp"

namespace rosterrig::experiment {

template <experiment_definition E>
struct experiment_traits {
    using parameters = typename E::parameters;
    static constexpr const hooks<parameters>& declared = E::hooks;

    static_assert(
        !requires { E::command; } && !requires { E::resumable; } && !requires { E::local_stack_only; } &&
            !requires { &E::usage_problem; } && !requires { &E::transaction_timeout_problem; } &&
            !requires { &E::job_config; } && !requires { &E::problems; },
        "an optional hook belongs in the definition's `hooks` (rosterrig/experiment/hooks.hpp)");
    // A table experiment's parameters hold where the table lives; the hook must name that field.
    static_assert(
        declared.warehouse != nullptr || !requires(parameters& x) { x.warehouse; },
        "the parameters have a warehouse: declare it with .warehouse = &parameters::warehouse");
    static_assert((declared.repro_run == nullptr) == (declared.repro_names == nullptr),
                  "a reproduction hook needs both repro_run and repro_names");

    static std::string command() { return declared.command ? declared.command : std::string("rosterrig-") + E::tag; }
    static constexpr bool resumable = declared.resumable;
    static constexpr bool has_warehouse = declared.warehouse != nullptr;
    static constexpr bool has_repro = declared.repro_run != nullptr;
    static constexpr bool has_job = declared.job_config != nullptr;
    static constexpr const char* local_stack_only = declared.local_stack_only;
    static constexpr stack_facts_wanted reads = declared.reads;

    /// Every reason the parameters cannot run, given what is known of the stack.
    static std::vector<std::string> problems(const parameters& p, const preflight_facts& facts) {
        if constexpr (declared.problems != nullptr)
            return declared.problems(p, facts);
        else
            return {};
    }
};

}  // namespace rosterrig::experiment

#endif
