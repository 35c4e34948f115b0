// rosterrig/experiment/applied_fault.hpp: what applying one planned fault
// did, in a shape every writer's experiment can record: the planned fault,
// when it was applied and healed (epoch ms), what was done in words, and
// what each component was seen to do meanwhile.
#ifndef ROSTERRIG_EXPERIMENT_APPLIED_FAULT_HPP
#define ROSTERRIG_EXPERIMENT_APPLIED_FAULT_HPP

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/fault_plan.hpp"

namespace rosterrig::experiment {

struct applied_fault {
    scheduled_fault planned;         ///< the step as planned
    std::int64_t applied_at_ms = 0;  ///< epoch ms; 0 when it was never applied
    std::int64_t healed_at_ms = 0;   ///< epoch ms the heal was seen complete; 0 when it was not
    std::string done;                ///< what was done, in words ("SIGSTOP pid 4242", "proxy rule 3: ...")
    std::map<std::string, std::vector<std::string>>
        notes;  ///< per component (a fault_target's name, or any other): what it was seen to do
    friend bool operator==(const applied_fault&, const applied_fault&) = default;

    bool applied() const { return applied_at_ms != 0; }
    bool healed() const { return healed_at_ms != 0; }
    /// From applied to healed; -1 while either is missing.
    std::int64_t fault_lasted_ms() const { return applied() && healed() ? healed_at_ms - applied_at_ms : -1; }
    void note(const std::string& component, std::string what) { notes[component].push_back(std::move(what)); }
};
BOOST_DESCRIBE_STRUCT(applied_fault, (), (planned, applied_at_ms, healed_at_ms, done, notes))

}  // namespace rosterrig::experiment

#endif
