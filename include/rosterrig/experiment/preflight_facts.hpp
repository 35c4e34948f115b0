// rosterrig/experiment/preflight_facts.hpp: what a definition's pre-run checks
// may know of the stack. The checks run twice: first on the parameters alone
// (every fact empty, before the stack is asked anything), then with the facts
// the definition's hooks asked for, each read only when asked.
#ifndef ROSTERRIG_EXPERIMENT_PREFLIGHT_FACTS_HPP
#define ROSTERRIG_EXPERIMENT_PREFLIGHT_FACTS_HPP

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace rosterrig::experiment {

/// The facts a definition's checks read; a designated initializer names them,
/// so a misspelt fact does not compile.
struct stack_facts_wanted {
    bool task_slots = false;                         // every TaskManager's slots together
    bool broker_transaction_max_timeout_ms = false;  // the broker's transaction.max.timeout.ms
};

struct preflight_facts {
    std::optional<std::int64_t> task_slots;
    std::optional<std::int64_t> broker_transaction_max_timeout_ms;

    /// The slots to check against: unlimited until asked, so the first pass
    /// finds what the parameters alone make impossible.
    std::int64_t slots_or_unlimited() const { return task_slots.value_or(std::numeric_limits<std::int64_t>::max()); }
};

/// The problems among checks that each found one or none, in order.
inline std::vector<std::string> problems_found(std::initializer_list<std::optional<std::string>> checks) {
    std::vector<std::string> found;
    for (const auto& c : checks)
        if (c) found.push_back(*c);
    return found;
}

/// An experiment's check of its parameters against the slots Flink offers, as
/// a definition's pre-run checks: `.problems = &slot_problems<parameters, &usage_problem>`.
template <class Parameters, std::optional<std::string> (*usage_problem)(const Parameters&, std::int64_t slots)>
std::vector<std::string> slot_problems(const Parameters& p, const preflight_facts& facts) {
    return problems_found({usage_problem(p, facts.slots_or_unlimited())});
}

}  // namespace rosterrig::experiment

#endif
