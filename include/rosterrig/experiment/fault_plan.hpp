// rosterrig/experiment/fault_plan.hpp: faults as data. A plan is drawn from
// the run's seed and saved in the history file before the first fault is
// applied, so what was planned can be compared with what happened, and the
// same seed gives the same plan.
#ifndef ROSTERRIG_EXPERIMENT_FAULT_PLAN_HPP
#define ROSTERRIG_EXPERIMENT_FAULT_PLAN_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/fault.hpp"
#include "rosterrig/random/splitmix64.hpp"
#include "rosterrig/random/uniform_int.hpp"

namespace rosterrig::experiment {

struct fault_step {
    std::uint64_t index = 0;  ///< 1-based within its variant
    std::string variant;      ///< which variant's run it belongs to
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

/// One fault of a schedule: its place (index within its variant) and the fault.
struct scheduled_fault {
    std::uint64_t index = 0;  ///< 1-based within its variant
    std::string variant;
    experiment::fault fault;
    friend bool operator==(const scheduled_fault&, const scheduled_fault&) = default;

    /// The step as a fault_plan records it (kind, trigger, delay and heal; the
    /// target and parameters are the schedule's to keep).
    fault_step step() const { return {index, variant, fault.kind, fault.trigger, fault.delay_ms, fault.heal}; }
};
BOOST_DESCRIBE_STRUCT(scheduled_fault, (), (index, variant, fault))

/// The general plan: every fault with its target and parameters.
struct fault_schedule {
    std::uint64_t seed = 0;
    std::vector<scheduled_fault> faults;
    friend bool operator==(const fault_schedule&, const fault_schedule&) = default;

    std::vector<scheduled_fault> of(const std::string& variant) const {
        std::vector<scheduled_fault> out;
        for (const auto& f : faults)
            if (f.variant == variant) out.push_back(f);
        return out;
    }
    /// The same plan in the shape results have recorded since experiment 1.
    fault_plan plan() const {
        fault_plan out;
        out.seed = seed;
        for (const auto& f : faults) out.steps.push_back(f.step());
        return out;
    }
};
BOOST_DESCRIBE_STRUCT(fault_schedule, (), (seed, faults))

/// What a schedule is drawn from.
struct schedule_spec {
    std::vector<std::string> variants;  ///< in this order
    std::uint64_t count = 0;            ///< faults per variant
    std::vector<fault_kind> kinds;
    std::vector<fault_target> targets;
    fault_parameters parameters;  ///< the same for every fault
    std::int64_t min_delay_ms = 0;
    std::int64_t max_delay_ms = 0;
    std::string trigger;
};

/// The (kind, target) pairs of spec that can be applied (fault_problem finds
/// nothing), kinds first, in the order given.
inline std::vector<std::pair<fault_kind, fault_target>> usable_pairs(const schedule_spec& spec) {
    std::vector<std::pair<fault_kind, fault_target>> out;
    for (auto k : spec.kinds)
        for (auto t : spec.targets)
            if (!fault_problem(make_fault(k, t, spec.parameters))) out.emplace_back(k, t);
    return out;
}

/// `count` faults per variant from one stream seeded by `seed`. For each fault,
/// in order: its delay, uniform in [min_delay_ms, max_delay_ms], then, only
/// when spec offers more than one usable (kind, target) pair, which one,
/// uniform over usable_pairs. With one pair the stream is the one plan_kills
/// has always drawn, so old plans stay what they were. Throws
/// std::invalid_argument when no pair is usable. 0 <= min_delay_ms <=
/// max_delay_ms is the caller's to check (as plan_kills always left it).
inline fault_schedule plan_faults(std::uint64_t seed, const schedule_spec& spec) {
    const auto pairs = usable_pairs(spec);
    if (pairs.empty()) throw std::invalid_argument("plan_faults: no (kind, target) pair of the spec can be applied");
    fault_schedule schedule;
    schedule.seed = seed;
    splitmix64 rng(seed);
    for (const auto& v : spec.variants)
        for (std::uint64_t k = 1; k <= spec.count; ++k) {
            const auto delay = static_cast<std::int64_t>(uniform_between(
                rng, static_cast<std::uint64_t>(spec.min_delay_ms), static_cast<std::uint64_t>(spec.max_delay_ms)));
            const auto& [kind, target] = pairs.size() == 1 ? pairs.front() : pairs[uniform_below(rng, pairs.size())];
            schedule.faults.push_back({k, v, make_fault(kind, target, spec.parameters, spec.trigger, delay)});
        }
    return schedule;
}

/// `count` TaskManager kills per variant, each `delay_ms` drawn uniformly from
/// [min_delay_ms, max_delay_ms] after `trigger`, from one stream seeded by `seed`
/// (variants in the order given): plan_faults with the one pair
/// (kill_taskmanager, flink_taskmanager), in fault_plan's shape.
inline fault_plan plan_kills(std::uint64_t seed, const std::vector<std::string>& variants, std::uint64_t count,
                             std::int64_t min_delay_ms, std::int64_t max_delay_ms, const std::string& trigger) {
    schedule_spec spec;
    spec.variants = variants;
    spec.count = count;
    spec.kinds = {fault_kind::kill_taskmanager};
    spec.targets = {fault_target::flink_taskmanager};
    spec.min_delay_ms = min_delay_ms;
    spec.max_delay_ms = max_delay_ms;
    spec.trigger = trigger;
    return plan_faults(seed, spec).plan();
}

}  // namespace rosterrig::experiment

#endif
