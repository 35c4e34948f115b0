// rosterrig/experiment/fault_plan.hpp: faults as data. A plan is drawn from
// the run's seed and saved in the history file before the first fault is
// applied, so what was planned can be compared with what happened, and the
// same seed gives the same plan.
#ifndef ROSTERRIG_EXPERIMENT_FAULT_PLAN_HPP
#define ROSTERRIG_EXPERIMENT_FAULT_PLAN_HPP

#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/random/splitmix64.hpp"
#include "rosterrig/random/uniform_int.hpp"

namespace rosterrig::experiment {

enum class fault_kind {
    kill_taskmanager,      // SIGKILL; healed by the supervisor starting a new one
    restore_from_savepoint,// stop the job, start a new one from an older savepoint
    maintenance_procedure  // a table procedure run while the job writes
};
BOOST_DESCRIBE_ENUM(fault_kind, kill_taskmanager, restore_from_savepoint, maintenance_procedure)

struct fault_step {
    std::uint64_t index = 0;    ///< 1-based within its variant
    std::string variant;        ///< which variant's run it belongs to
    fault_kind kind = fault_kind::kill_taskmanager;
    std::string trigger;        ///< what the delay counts from, in words
    std::int64_t delay_ms = 0;  ///< after the trigger
    std::string heal;           ///< what undoes it, in words
    friend bool operator==(const fault_step&, const fault_step&) = default;
};
BOOST_DESCRIBE_STRUCT(fault_step, (), (index, variant, kind, trigger, delay_ms, heal))

struct fault_plan {
    std::uint64_t seed = 0;
    std::vector<fault_step> steps;
    friend bool operator==(const fault_plan&, const fault_plan&) = default;

    /// The steps of one variant, in order.
    std::vector<fault_step> of(const std::string& variant) const {
        std::vector<fault_step> out;
        for (const auto& s : steps)
            if (s.variant == variant) out.push_back(s);
        return out;
    }
};
BOOST_DESCRIBE_STRUCT(fault_plan, (), (seed, steps))

/// `count` TaskManager kills per variant, each `delay_ms` drawn uniformly from
/// [min_delay_ms, max_delay_ms] after `trigger`, from one stream seeded by `seed`
/// (variants in the order given).
inline fault_plan plan_kills(std::uint64_t seed, const std::vector<std::string>& variants, std::uint64_t count,
                             std::int64_t min_delay_ms, std::int64_t max_delay_ms, const std::string& trigger) {
    fault_plan plan;
    plan.seed = seed;
    splitmix64 rng(seed);
    for (const auto& v : variants)
        for (std::uint64_t k = 1; k <= count; ++k)
            plan.steps.push_back({k, v, fault_kind::kill_taskmanager, trigger,
                                  static_cast<std::int64_t>(uniform_between(rng, static_cast<std::uint64_t>(min_delay_ms),
                                                                            static_cast<std::uint64_t>(max_delay_ms))),
                                  "the supervisor starts a new TaskManager; Flink restarts the job from its latest checkpoint"});
    return plan;
}

} // namespace rosterrig::experiment

#endif
