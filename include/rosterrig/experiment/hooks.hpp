// rosterrig/experiment/hooks.hpp: the optional parts of an experiment
// definition, each with its default. A definition declares them in one
// member, with designated initializers:
//
//   static constexpr experiment::hooks<parameters> hooks{.resumable = true, .warehouse = &parameters::warehouse};
//
// so a misspelt hook is a compile error ("has no non-static data member
// named ..."), never a hook silently ignored. Fields are initialized in the
// order declared here.
#ifndef ROSTERRIG_EXPERIMENT_HOOKS_HPP
#define ROSTERRIG_EXPERIMENT_HOOKS_HPP

#include <optional>
#include <string>
#include <vector>

#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/preflight_facts.hpp"

namespace rosterrig::experiment {

template <class Parameters>
struct hooks {
    /// The command that runs it when another experiment's driver hosts it behind a flag
    /// (rosterrig-e1 --multi-input); none: rosterrig-<tag>.
    const char* command = nullptr;
    /// The driver can continue a stopped run (--resume): it skips what the recorded samples hold.
    bool resumable = false;
    /// The parameters' field saying where the table's files live (--warehouse): only an experiment with a table has one.
    experiment::warehouse Parameters::* warehouse = nullptr;
    /// Named minimal reproductions (--repro NAME): both or neither.
    std::optional<Parameters> (*repro_run)(const std::string& name) = nullptr;
    std::vector<std::string> (*repro_names)() = nullptr;
    /// A writer-neutral experiment runs a user's job template (--job FILE) in this session; its parameters hold `job`.
    pipeline_config (*job_config)(const Parameters&) = nullptr;
    /// Why a described cluster is refused: its faults sit on this machine.
    const char* local_stack_only = nullptr;
    /// Pre-run checks: every reason the parameters cannot run, given what is known of the stack.
    std::vector<std::string> (*problems)(const Parameters&, const preflight_facts&) = nullptr;
    /// What of the stack `problems` needs read before its second pass.
    stack_facts_wanted reads{};
};

}  // namespace rosterrig::experiment

#endif
