// The facts of the stack a definition's pre-run checks asked for
// (experiment::hooks::reads), read for the runner so that it needs no
// adapter of its own for any one experiment's check.
#ifndef ROSTERRIG_LIVE_PREFLIGHT_HPP
#define ROSTERRIG_LIVE_PREFLIGHT_HPP
#include <rosterrig/experiment/preflight_facts.hpp>

#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// Reads each wanted fact, in the order declared; throws when a component does not answer.
experiment::preflight_facts read_preflight_facts(const stack_config& stack,
                                                 const experiment::stack_facts_wanted& wanted);

}  // namespace rosterrig::live

#endif
