// rosterrig/experiments/e6_poll_interval/parameters.hpp: the parameters, the known clients and scenarios, what one run's members are told, usage_problem and the fault plan
// (fault_plan came after rules() in the old header; it needs only the parameters, so it sits here.)

#ifndef ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/feed_parameters.hpp"
#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/consumer_log.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"

namespace rosterrig::e6 {

using experiment::prediction_outcome;

inline const std::vector<std::string>& known_clients() {
    static const std::vector<std::string> c{"cpp/classic", "java/classic", "java/consumer"};
    return c;
}
inline const std::vector<std::string>& known_scenarios() {
    static const std::vector<std::string> s{"healthy", "degraded", "fix-interval", "fix-batch", "fix-pause"};
    return s;
}

struct parameters : experiment::feed_parameters {
    parameters() : feed_parameters{.seed = 6, .events = 3000, .providers = 500, .partitions = 4} {}
    std::uint64_t members = 2;
    std::int64_t max_poll_interval_ms = 10000;
    std::int64_t session_timeout_ms =
        6000;                  // classic protocol; the members set it (librdkafka needs it <= the interval)
    std::uint64_t batch = 50;  // max.poll.records
    std::uint64_t healthy_latency_ms = 20;    // 1 s per batch
    std::uint64_t degraded_latency_ms = 400;  // 20 s per batch: twice the interval
    std::int64_t fix_interval_ms = 60000;     // fix 1: an interval three batches long
    std::uint64_t fix_batch = 5;              // fix 2: 2 s per batch
    std::int64_t run_ms = 75000;              // how long the members run (they finish the batch in hand)
    std::int64_t sample_every_ms = 1000;      // the broker's committed offsets and lag
    // client/protocol/scenario, in this order.
    std::vector<std::string> runs = all_runs();
    // Every run of `runs`, then every run again, this many times (absent: once).
    // The outcome of one configuration varied between full runs (a late
    // hand-over under Java's consumer protocol), so the full run repeats.
    std::optional<std::uint64_t> repeats;

    static std::vector<std::string> all_runs() {
        std::vector<std::string> out;
        for (const auto& c : known_clients())
            for (const auto& s : known_scenarios()) out.push_back(c + "/" + s);
        return out;
    }
    static parameters full() {
        parameters p;
        p.repeats = 3;
        return p;
    }
    std::uint64_t repeat_count() const { return repeats.value_or(1); }
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 600;
        p.providers = 100;
        p.max_poll_interval_ms = 6000;
        p.batch = 20;
        p.degraded_latency_ms = 600;  // 12 s per batch
        // 30 s: long enough for a degraded member to lose its partitions and the
        // next one to process a batch again (at 20 s, in CI at 189f468, nothing was
        // processed twice). Three runs, not four, keep the quick run under 3 minutes:
        // each takes about 40 s, and four took 166-179 s in CI. java/consumer stays
        // (it hands partitions over differently); java/classic degraded runs in a full run.
        p.run_ms = 30000;
        p.runs = {"cpp/classic/degraded", "java/consumer/degraded", "cpp/classic/fix-pause"};
        return p;
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (experiment::feed_parameters),
                      (members, max_poll_interval_ms, session_timeout_ms, batch, healthy_latency_ms,
                       degraded_latency_ms, fix_interval_ms, fix_batch, run_ms, sample_every_ms, runs, repeats))

/// What one run's members are told.
struct member_settings {
    std::string client;    // cpp | java
    std::string protocol;  // classic | consumer
    std::string scenario;
    std::int64_t batch = 0;
    std::int64_t latency_ms = 0;
    std::int64_t max_poll_interval_ms = 0;
    std::string mode = "plain";  // plain | pause
    /// The time one full batch takes.
    std::int64_t batch_ms() const { return batch * latency_ms; }
};
BOOST_DESCRIBE_STRUCT(member_settings, (), (client, protocol, scenario, batch, latency_ms, max_poll_interval_ms, mode))

/// "java/classic/fix-pause" as settings; throws std::invalid_argument naming what is unknown.
inline member_settings settings_of(const parameters& p, const std::string& run) {
    const auto a = run.find('/'), b = run.find('/', a == std::string::npos ? a : a + 1);
    if (a == std::string::npos || b == std::string::npos)
        throw std::invalid_argument("a run '" + run + "' is not client/protocol/scenario");
    member_settings m{run.substr(0, a), run.substr(a + 1, b - a - 1), run.substr(b + 1)};
    const auto client = m.client + "/" + m.protocol;
    if (std::find(known_clients().begin(), known_clients().end(), client) == known_clients().end())
        throw std::invalid_argument("a run '" + run +
                                    "': the client must be cpp/classic, java/classic or java/consumer");
    m.batch = static_cast<std::int64_t>(p.batch), m.latency_ms = static_cast<std::int64_t>(p.degraded_latency_ms);
    m.max_poll_interval_ms = p.max_poll_interval_ms;
    if (m.scenario == "healthy")
        m.latency_ms = static_cast<std::int64_t>(p.healthy_latency_ms);
    else if (m.scenario == "fix-interval")
        m.max_poll_interval_ms = p.fix_interval_ms;
    else if (m.scenario == "fix-batch")
        m.batch = static_cast<std::int64_t>(p.fix_batch);
    else if (m.scenario == "fix-pause")
        m.mode = "pause";
    else if (m.scenario != "degraded")
        throw std::invalid_argument(
            "a run '" + run + "': the scenario must be one of healthy, degraded, fix-interval, fix-batch, fix-pause");
    return m;
}

/// Parameters that cannot run, before anything is created.
inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t /*slots*/) {
    if (p.batch == 0 || p.fix_batch == 0) return std::string("--batch: a batch of 0 records or fewer cannot run");
    if (p.healthy_latency_ms == 0 || p.degraded_latency_ms == 0)
        return std::string("--latency: a latency of 0 ms or below simulates no dependency");
    if (p.max_poll_interval_ms < p.session_timeout_ms || p.fix_interval_ms < p.session_timeout_ms)
        return "a poll interval below the session timeout (" + std::to_string(p.session_timeout_ms) +
               " ms) is refused by librdkafka";
    if (p.run_ms <= 0 || p.members == 0 || p.events == 0)
        return std::string("a run of 0 ms, members or events cannot run");
    if (p.runs.empty()) return std::string("no runs");
    if (p.repeats && *p.repeats == 0) return std::string("repeats: 0 repeats run nothing");
    for (const auto& r : p.runs) {
        try {
            (void)settings_of(p, r);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
    }
    return std::nullopt;
}

inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    return plan;
}

}  // namespace rosterrig::e6

#endif
