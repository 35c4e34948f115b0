// rosterrig/experiments/e5_transaction_timeout/parameters.hpp: the parameters, the runs they draw (pair, seed condition, boundary, above-max, stuck), usage_problem and the fault plan
// (fault_plan came after rules() in the old header; it needs only the parameters, so it sits here.)

#ifndef ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_PARAMETERS_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/feed_parameters.hpp"
#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/check/append_check.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::e5 {

using experiment::prediction_outcome;

struct parameters : experiment::feed_parameters {
    parameters() : feed_parameters{.seed = 5, .events = 8000, .providers = 2000, .partitions = 4} {}
    std::int64_t parallelism = 2;
    std::int64_t feed_ms = 30000;  // the feed's duration in every run
    // The reference study's pair: one interval, a timeout far below and far above it.
    std::int64_t pair_interval_ms = 120000;
    std::vector<std::int64_t> pair_timeouts_ms{5000, 300000};
    std::optional<std::uint64_t> pair_repeats;  // each pair timeout this many times (absent: once)
    // The reference study's condition: the pair's interval and first timeout,
    // the feed written at once so that it has ended before the broker aborts
    // (records still arriving after the abort make the job fail over), this
    // many times (absent: not run).
    std::optional<std::uint64_t> seed_condition_repeats;
    // The boundary: timeouts at these ratios to a shorter interval, each `boundary_repeats` times.
    std::int64_t boundary_interval_ms = 20000;
    std::vector<double> boundary_ratios{0.5, 0.9, 1.1, 1.5, 3.0};
    std::uint64_t boundary_repeats = 3;
    // Half the interval varies (a failover's replay can commit what the abort
    // took): the 0.5 ratio runs this many times (absent: boundary_repeats).
    std::optional<std::uint64_t> half_ratio_repeats;
    // Above the broker's maximum: this many ms more than it.
    std::int64_t above_max_by_ms = 60000;
    // The stuck transaction: a long timeout, the job cancelled with a transaction open.
    std::int64_t stuck_timeout_ms = 300000;
    std::int64_t stuck_interval_ms = 600000;  // longer than the wait, so the open transaction is never committed
    std::uint64_t stuck_plain_records = 500;
    // The stuck runs, as ending/partitioner: a graceful cancel, a SIGKILL then
    // cancel, and the same with each writer subtask writing one partition
    // ('sink.partitioner' = 'fixed'), so that some partitions have no open
    // transaction: does a stuck transaction hold back only its own partitions?
    std::vector<std::string> stuck_runs{"cancel/default", "kill-then-cancel/default", "kill-then-cancel/fixed"};
    // The restart term: a savepoint pre-commits the writer's transaction, which
    // is committed only once a job restored from it runs. The TaskManager is
    // SIGKILLed right after the savepoint and the job cancelled; the restore
    // is submitted at once ("prompt") or `restart_late_wait_ms` after the
    // savepoint ("late"). The timeout is 3x the interval: a prompt restore on
    // this machine takes about 20 s, which 1.5x of 20 s would not cover.
    std::int64_t restart_interval_ms = 20000;
    std::int64_t restart_timeout_ms = 60000;
    std::int64_t restart_late_wait_ms = 90000;
    std::vector<std::string> restart_endings{"prompt", "late"};
    std::optional<std::uint64_t> restart_repeats;  // each ending this many times (absent: once)
    std::int64_t commit_wait_checkpoints = 2;      // checkpoints to wait after the feed before reading

    static parameters full() {
        parameters p;
        p.pair_repeats = 3;
        p.seed_condition_repeats = 3;
        p.half_ratio_repeats = 5;
        p.restart_repeats = 3;
        return p;
    }
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 2000;
        p.providers = 500;
        p.feed_ms = 6000;
        p.pair_timeouts_ms = {};  // the boundary covers a timeout below and above the interval
        p.boundary_interval_ms = 6000;
        p.boundary_ratios = {0.5, 3.0};
        p.boundary_repeats = 1;
        p.half_ratio_repeats = 1;
        p.stuck_timeout_ms = 12000;
        // The one stuck run that says most: a kill leaves transactions open, and the
        // fixed partitioner shows whether they hold back only their own partitions.
        // (The graceful cancel, 16 s, ran too in CI until e5's quick run neared 3 minutes.)
        p.stuck_runs = {"kill-then-cancel/fixed"};
        p.stuck_interval_ms = 120000;
        p.stuck_plain_records = 100;
        // No restart run: the late one took 58 s of a quick run that reached 204 s
        // in CI at 40a1ddc (160 s at 9871bf3), and it had left its rules
        // inconclusive there (no transaction pending at the savepoint).
        p.restart_endings = {};
        // One checkpoint completed after the feed commits all of it; a full run waits for two.
        p.commit_wait_checkpoints = 1;
        return p;
    }
    /// Records per second that spread the feed over feed_ms.
    double feed_rate() const { return static_cast<double>(events) * 1000.0 / static_cast<double>(feed_ms); }
};
BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters),
                      (parallelism, feed_ms, pair_interval_ms, pair_timeouts_ms, pair_repeats, seed_condition_repeats,
                       boundary_interval_ms, boundary_ratios, boundary_repeats, half_ratio_repeats, above_max_by_ms,
                       stuck_timeout_ms, stuck_interval_ms, stuck_plain_records, stuck_runs, restart_interval_ms,
                       restart_timeout_ms, restart_late_wait_ms, restart_endings, restart_repeats,
                       commit_wait_checkpoints))

/// One run of the Kafka → Flink → Kafka job: what it asked for.
struct run_plan {
    std::string part;  // pair | seed-condition | boundary | above-max
    std::string name;
    std::int64_t interval_ms = 0;
    std::int64_t timeout_ms = 0;
    std::uint64_t repeat = 1;
    std::optional<double> ratio;  // timeout / interval, for the boundary
};

inline bool is_half_ratio(double ratio) { return std::abs(ratio - 0.5) < 1e-9; }

/// The runs in the order they run: each repeat of the pair, the seed's
/// condition, then each repeat of the boundary (the 0.5 ratio's extra repeats last).
inline std::vector<run_plan> runs_of(const parameters& p) {
    std::vector<run_plan> out;
    const auto pair_name = [&](std::int64_t t) {
        return std::to_string(t / 1000) + " s timeout, " + std::to_string(p.pair_interval_ms / 1000) + " s interval";
    };
    const auto pair_repeats = p.pair_repeats.value_or(1);
    for (std::uint64_t r = 1; r <= pair_repeats; ++r)
        for (auto t : p.pair_timeouts_ms)
            out.push_back({"pair",
                           "pair: " + pair_name(t) + (pair_repeats > 1 ? " #" + std::to_string(r) : std::string()),
                           p.pair_interval_ms, t, r, std::nullopt});
    if (!p.pair_timeouts_ms.empty())
        for (std::uint64_t r = 1; r <= p.seed_condition_repeats.value_or(0); ++r)
            out.push_back(
                {"seed-condition",
                 "seed condition: " + pair_name(p.pair_timeouts_ms.front()) + ", feed at once #" + std::to_string(r),
                 p.pair_interval_ms, p.pair_timeouts_ms.front(), r, std::nullopt});
    const auto half_repeats = p.half_ratio_repeats.value_or(p.boundary_repeats);
    for (std::uint64_t r = 1; r <= std::max(p.boundary_repeats, half_repeats); ++r)
        for (auto ratio : p.boundary_ratios) {
            if (r > (is_half_ratio(ratio) ? half_repeats : p.boundary_repeats)) continue;
            const auto t = static_cast<std::int64_t>(std::llround(ratio * static_cast<double>(p.boundary_interval_ms)));
            out.push_back({"boundary", "boundary x" + report::fixed(ratio, 1) + " #" + std::to_string(r),
                           p.boundary_interval_ms, t, r, ratio});
        }
    return out;
}

/// Records per second for a run's feed: the seed's condition writes it at
/// once (0: as fast as the producer goes), every other run spreads it.
inline double feed_rate_of(const run_plan& plan, const parameters& p) {
    return plan.part == "seed-condition" ? 0.0 : p.feed_rate();
}

/// The run above the broker's maximum (part 4): the boundary's interval, a
/// timeout `above_max_by_ms` over the maximum the broker reports.
inline run_plan above_max_plan(const parameters& p, std::int64_t broker_max_ms) {
    return {"above-max", "above the broker's maximum", p.boundary_interval_ms, broker_max_ms + p.above_max_by_ms, 1,
            std::nullopt};
}

/// The stuck runs (part 5), each `stuck_runs` entry split at its slash: the ending, then the sink's partitioner.
inline std::vector<std::pair<std::string, std::string>> stuck_cells(const parameters& p) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& run : p.stuck_runs) {
        const auto slash = run.find('/');
        out.emplace_back(run.substr(0, slash), run.substr(slash + 1));
    }
    return out;
}

/// Why the parameters cannot run (naming the flag), or nothing.
inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t /*slots*/) {
    for (auto t : p.pair_timeouts_ms)
        if (t <= 0) return "--pair-timeouts: a timeout of " + std::to_string(t) + " ms cannot run";
    if (p.pair_interval_ms <= 0 || p.boundary_interval_ms <= 0 || p.stuck_interval_ms <= 0)
        return std::string("an interval of 0 ms or below cannot run");
    for (auto r : p.boundary_ratios)
        if (r <= 0) return "a ratio of " + report::fixed(r, 2) + " gives no timeout";
    if (p.stuck_timeout_ms <= 0) return std::string("a stuck-transaction timeout of 0 ms or below cannot run");
    if (p.restart_interval_ms <= 0 || p.restart_timeout_ms <= 0)
        return std::string("a restart-term interval or timeout of 0 ms or below cannot run");
    for (const auto& r : p.stuck_runs)
        if (r != "cancel/default" && r != "cancel/fixed" && r != "kill-then-cancel/default" &&
            r != "kill-then-cancel/fixed")
            return "a stuck run '" + r + "' is not (cancel|kill-then-cancel)/(default|fixed)";
    for (const auto& e : p.restart_endings)
        if (e != "prompt" && e != "late") return "a restart ending '" + e + "' is neither prompt nor late";
    return std::nullopt;
}

/// Why a timeout the parameters ask for cannot run against a broker whose
/// transaction.max.timeout.ms is `broker_max_ms`, or nothing. Only the
/// above-maximum run (part 4) asks for more, on purpose.
inline std::optional<std::string> transaction_timeout_problem(const parameters& p, std::int64_t broker_max_ms) {
    auto over = [&](std::int64_t t, const std::string& what) -> std::optional<std::string> {
        if (t <= broker_max_ms) return std::nullopt;
        return what + " of " + std::to_string(t) + " ms is above the broker's transaction.max.timeout.ms of " +
               std::to_string(broker_max_ms) + " ms (only the above-maximum run asks for more, on purpose)";
    };
    for (const auto& plan : runs_of(p))
        if (auto why = over(plan.timeout_ms, plan.name + ": a timeout")) return why;
    if (auto why = over(p.restart_timeout_ms, "the restart term's timeout")) return why;
    return over(p.stuck_timeout_ms, "the stuck transaction's timeout");
}

inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    return plan;
}

}  // namespace rosterrig::e5

#endif
