// rosterrig/experiment/recovery_phases.hpp: where the time goes between a
// TaskManager's SIGKILL and the job running again, from Flink's own records
// and the supervisor's, each phase counted in ms from the kill:
//
//   failure_seen          the exception history's entry for the failure (Flink)
//   restarting            the job switched to RESTARTING (Flink)
//   process_replaced      the supervisor's new TaskManager JVM in its pid file (ours, polled every 100 ms)
//   taskmanager_registered the new TaskManager listed by the JobManager (ours, polled every 100 ms)
//   tasks_deploying       the first subtask of the new attempt DEPLOYING (Flink)
//   restored              the checkpoint restored (Flink's restore_timestamp)
//   tasks_running         the last subtask RUNNING (Flink)
//
// A phase Flink or the poll did not report stays empty, never 0.
#ifndef ROSTERRIG_EXPERIMENT_RECOVERY_PHASES_HPP
#define ROSTERRIG_EXPERIMENT_RECOVERY_PHASES_HPP

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/stats/summary.hpp"

namespace rosterrig::experiment {

/// The moments themselves (epoch ms) as the fault adapter read them; absent when not reported.
struct recovery_moments {
    std::optional<std::int64_t> failure_seen_at_ms;
    std::optional<std::int64_t> taskmanager_registered_at_ms;
    std::optional<std::int64_t> tasks_deploying_at_ms;
    std::optional<std::int64_t> restored_at_ms;
    std::optional<std::int64_t> tasks_running_at_ms;
};
BOOST_DESCRIBE_STRUCT(recovery_moments, (),
                      (failure_seen_at_ms, taskmanager_registered_at_ms, tasks_deploying_at_ms, restored_at_ms,
                       tasks_running_at_ms))

/// The phases in the order a recovery passes them, as (name, ms after the kill).
using phase_list = std::vector<std::pair<std::string, std::optional<std::int64_t>>>;

inline phase_list recovery_phases(std::int64_t killed_at_ms, std::int64_t restarting_at_ms, std::int64_t replaced_at_ms,
                                  const recovery_moments& m) {
    auto since = [&](std::optional<std::int64_t> t) -> std::optional<std::int64_t> {
        if (!t || *t <= 0) return std::nullopt;
        return *t - killed_at_ms;
    };
    return {{"failure_seen", since(m.failure_seen_at_ms)},
            {"restarting", since(restarting_at_ms)},
            {"process_replaced", since(replaced_at_ms)},
            {"taskmanager_registered", since(m.taskmanager_registered_at_ms)},
            {"tasks_deploying", since(m.tasks_deploying_at_ms)},
            {"restored", since(m.restored_at_ms)},
            {"tasks_running", since(m.tasks_running_at_ms)}};
}

/// Median and max per phase over many recoveries; a phase no recovery
/// reported is left out.
struct phase_summary {
    std::string phase;
    std::size_t recoveries = 0;
    double median_ms = 0;
    double max_ms = 0;
};

inline std::vector<phase_summary> summarize_phases(const std::vector<phase_list>& recoveries) {
    std::vector<phase_summary> out;
    if (recoveries.empty()) return out;
    for (std::size_t i = 0; i < recoveries.front().size(); ++i) {
        std::vector<double> v;
        for (const auto& r : recoveries)
            if (i < r.size() && r[i].second) v.push_back(static_cast<double>(*r[i].second));
        if (v.empty()) continue;
        const auto s = stats::summarize(v);
        out.push_back({recoveries.front()[i].first, v.size(), s.median, s.max});
    }
    return out;
}

}  // namespace rosterrig::experiment

#endif
