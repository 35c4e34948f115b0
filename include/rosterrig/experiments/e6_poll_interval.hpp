// rosterrig/experiments/e6_poll_interval.hpp: experiment 6, the consumer
// poll-interval trap, as data: parameters, the runs, the raw samples, the
// rules and the report.
//
// A consumer is watched by two clocks: heartbeats (alive) and the time
// between polls (max.poll.interval.ms: working). A member that takes a batch
// of B records and calls a dependency of latency L per record needs B x L
// between polls; once that exceeds the interval, the member leaves the group
// on its own, its partitions go to the other member, which fetches the same
// uncommitted records and leaves too, and the late commits fail. The runs:
// healthy, degraded (B x L = twice the interval), and the three fixes under
// the degraded latency (a larger interval; B small enough; pause the
// partitions, keep polling and process on a worker), each with our C++
// member (librdkafka) and the Java client with both group protocols.
// Everything is counted exactly from the members' own logs (every record
// processed, every commit and what the application was told) and from the
// broker (the group's committed offsets and lag, sampled).
#ifndef ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_HPP
#define ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

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

struct parameters {
    std::uint64_t seed = 6;
    std::uint64_t events = 3000;
    std::uint64_t providers = 500;
    std::uint32_t partitions = 4;
    std::uint64_t members = 2;
    std::int64_t max_poll_interval_ms = 10000;
    std::int64_t session_timeout_ms = 6000;  // classic protocol; the members set it (librdkafka needs it <= the interval)
    std::uint64_t batch = 50;                // max.poll.records
    std::uint64_t healthy_latency_ms = 20;   // 1 s per batch
    std::uint64_t degraded_latency_ms = 400; // 20 s per batch: twice the interval
    std::int64_t fix_interval_ms = 60000;    // fix 1: an interval three batches long
    std::uint64_t fix_batch = 5;             // fix 2: 2 s per batch
    std::int64_t run_ms = 75000;             // how long the members run (they finish the batch in hand)
    std::int64_t sample_every_ms = 1000;     // the broker's committed offsets and lag
    // client/protocol/scenario, each run once, in this order.
    std::vector<std::string> runs = all_runs();
    bool quick = false;

    static std::vector<std::string> all_runs() {
        std::vector<std::string> out;
        for (const auto& c : known_clients())
            for (const auto& s : known_scenarios()) out.push_back(c + "/" + s);
        return out;
    }
    static parameters full() { return {}; }
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 600;
        p.providers = 100;
        p.max_poll_interval_ms = 6000;
        p.batch = 20;
        p.degraded_latency_ms = 600;  // 12 s per batch
        p.run_ms = 30000;
        p.runs = {"cpp/classic/degraded", "java/classic/degraded", "java/consumer/degraded", "cpp/classic/fix-pause"};
        return p;
    }
    roster_spec feed() const { return roster_feed(seed, events, providers, partitions); }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, providers, partitions, members, max_poll_interval_ms, session_timeout_ms, batch,
                       healthy_latency_ms, degraded_latency_ms, fix_interval_ms, fix_batch, run_ms, sample_every_ms, runs, quick))

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
    if (a == std::string::npos || b == std::string::npos) throw std::invalid_argument("a run '" + run + "' is not client/protocol/scenario");
    member_settings m{run.substr(0, a), run.substr(a + 1, b - a - 1), run.substr(b + 1)};
    const auto client = m.client + "/" + m.protocol;
    if (std::find(known_clients().begin(), known_clients().end(), client) == known_clients().end())
        throw std::invalid_argument("a run '" + run + "': the client must be cpp/classic, java/classic or java/consumer");
    m.batch = static_cast<std::int64_t>(p.batch), m.latency_ms = static_cast<std::int64_t>(p.degraded_latency_ms);
    m.max_poll_interval_ms = p.max_poll_interval_ms;
    if (m.scenario == "healthy") m.latency_ms = static_cast<std::int64_t>(p.healthy_latency_ms);
    else if (m.scenario == "fix-interval") m.max_poll_interval_ms = p.fix_interval_ms;
    else if (m.scenario == "fix-batch") m.batch = static_cast<std::int64_t>(p.fix_batch);
    else if (m.scenario == "fix-pause") m.mode = "pause";
    else if (m.scenario != "degraded")
        throw std::invalid_argument("a run '" + run + "': the scenario must be one of healthy, degraded, fix-interval, fix-batch, fix-pause");
    return m;
}

/// Parameters that cannot run, before anything is created.
inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t /*slots*/) {
    if (p.batch == 0 || p.fix_batch == 0) return std::string("--batch: a batch of 0 records or fewer cannot run");
    if (p.healthy_latency_ms == 0 || p.degraded_latency_ms == 0)
        return std::string("--latency: a latency of 0 ms or below simulates no dependency");
    if (p.max_poll_interval_ms < p.session_timeout_ms || p.fix_interval_ms < p.session_timeout_ms)
        return "a poll interval below the session timeout (" + std::to_string(p.session_timeout_ms) + " ms) is refused by librdkafka";
    if (p.run_ms <= 0 || p.members == 0 || p.events == 0) return std::string("a run of 0 ms, members or events cannot run");
    if (p.runs.empty()) return std::string("no runs");
    for (const auto& r : p.runs) {
        try {
            (void)settings_of(p, r);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
    }
    return std::nullopt;
}

/// The group's position as the broker reports it, `t_ms` after the members were started.
struct offset_sample {
    std::int64_t t_ms = 0;
    std::int64_t committed = 0;  // sum over partitions of the committed offset (none: 0)
    std::int64_t lag = 0;        // sum of end offset - committed
};
BOOST_DESCRIBE_STRUCT(offset_sample, (), (t_ms, committed, lag))

struct consumer_run {
    std::string run;  // client/protocol/scenario
    member_settings settings;
    std::int64_t events = 0;          // records in the topic (every one acknowledged before the members start)
    std::int64_t run_ms = 0;          // the members' run; then each finishes the batch in hand and leaves
    std::int64_t started_at_ms = 0;   // epoch ms, when the members were started
    std::vector<std::string> clients;  // what each member's start line reported (client, protocol, mode, version)
    std::vector<std::int64_t> exit_codes;
    std::vector<experiment::consumer_event> log;  // every member's lines, in time order (the raw samples)
    std::vector<offset_sample> offsets;
    std::int64_t client_poll_warnings = 0;        // the clients' own log lines about the poll interval (stderr)
    std::vector<std::string> client_warning_examples;  // the distinct kinds of those lines
};
BOOST_DESCRIBE_STRUCT(consumer_run, (),
                      (run, settings, events, run_ms, started_at_ms, clients, exit_codes, log, offsets, client_poll_warnings,
                       client_warning_examples))

struct samples {
    std::vector<consumer_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

/// A client log line that is about the poll interval being exceeded.
inline bool is_poll_warning(const std::string& line) {
    return line.find("max.poll.interval.ms") != std::string::npos || line.find("poll interval") != std::string::npos ||
           line.find("poll timeout") != std::string::npos;
}

// ---- measures -------------------------------------------------------------------

inline experiment::consumer_accounting accounting(const consumer_run& r) { return experiment::account(r.log); }

/// The committed position at the end, as the broker last reported it.
inline std::int64_t committed_at_end(const consumer_run& r) { return r.offsets.empty() ? 0 : r.offsets.back().committed; }
inline std::int64_t lag_at_end(const consumer_run& r) { return r.offsets.empty() ? r.events : r.offsets.back().lag; }

/// The committed position at the end of the members' run (the last sample
/// before they began to wind down), as the broker reported it.
inline std::int64_t committed_during_run(const consumer_run& r) {
    std::int64_t c = 0;
    for (const auto& o : r.offsets)
        if (o.t_ms <= r.run_ms) c = std::max(c, o.committed);
    return c;
}

/// The group made no progress while its members ran: records were
/// processed, and the broker never showed a committed offset above zero.
/// (What the last member commits once the other has left is the wind-down,
/// not the group's progress: reported, not judged here.)
inline bool livelocked(const consumer_run& r, const experiment::consumer_accounting& a) {
    const bool any_sample = std::any_of(r.offsets.begin(), r.offsets.end(), [&](const offset_sample& o) { return o.t_ms <= r.run_ms; });
    return any_sample && a.processed > 0 && committed_during_run(r) == 0;
}
inline bool livelocked(const consumer_run& r) { return livelocked(r, accounting(r)); }

/// The application was handed an error: a failed commit or an error from poll.
inline std::int64_t errors_handed_to_application(const experiment::consumer_accounting& a) { return a.commits_failed + a.poll_errors; }

inline std::string run_text(const consumer_run& r) {
    const auto a = accounting(r);
    return r.run + ": " + std::to_string(a.processed) + " processed (" + std::to_string(a.distinct_records) + " distinct, " +
           std::to_string(a.processed_more_than_once) + " more than once), commits " + std::to_string(a.commits_ok) + " ok / " +
           std::to_string(a.commits_failed) + " failed, " + std::to_string(a.poll_errors) + " poll errors, " +
           std::to_string(a.assignments) + " assignments, committed at end " + std::to_string(committed_at_end(r)) + " of " +
           std::to_string(r.events) + ", " + std::to_string(r.client_poll_warnings) + " client warnings";
}

// ---- rules ----------------------------------------------------------------------

using rule = experiment::rule<samples, parameters>;
using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

inline std::vector<const consumer_run*> runs_of(const samples& s, const std::string& scenario, const std::string& client = "") {
    std::vector<const consumer_run*> out;
    for (const auto& r : s.runs)
        if (r.settings.scenario == scenario && (client.empty() || r.settings.client == client)) out.push_back(&r);
    return out;
}

template <class Decide>
rule_verdict each_run(const samples& s, const std::string& scenario, Decide&& decide, const std::string& client = "") {
    const auto rs = runs_of(s, scenario, client);
    return experiment::for_each_of(rs, [](const consumer_run* r) { return r->run; },
                                   [&](const consumer_run* r) { return decide(*r); },
                                   "no " + scenario + " run" + (client.empty() ? "" : " of the " + client + " client") + " in the samples");
}

/// Every record processed exactly once and committed: the group kept up.
inline rule_verdict progressed_once(const consumer_run& r, bool must_finish) {
    const auto a = accounting(r);
    const auto end = committed_at_end(r);
    if (a.processed == 0) return inconclusive("nothing was processed");
    if (a.processed_more_than_once > 0 || a.commits_failed > 0)
        return refuted(std::to_string(a.processed_more_than_once) + " records processed more than once, " +
                       std::to_string(a.commits_failed) + " failed commits");
    if (end <= 0) return refuted("the broker never showed a committed offset");
    if (must_finish && (end != r.events || a.distinct_records != r.events))
        return refuted("committed " + std::to_string(end) + " of " + std::to_string(r.events) + ", processed " +
                       std::to_string(a.distinct_records));
    return held(std::to_string(a.processed) + " processed once each, committed " + std::to_string(end) + " of " +
                std::to_string(r.events));
}

inline rule_verdict healthy_progresses_once(const samples& s) {
    return each_run(s, "healthy", [](const consumer_run& r) { return progressed_once(r, true); });
}

inline rule_verdict degraded_livelocks(const samples& s) {
    return each_run(s, "degraded", [](const consumer_run& r) {
        const auto a = accounting(r);
        const std::string facts = "committed while the members ran " + std::to_string(committed_during_run(r)) + " (at the end " +
                                  std::to_string(committed_at_end(r)) + "), " +
                                  std::to_string(a.processed_more_than_once) + " records processed more than once (up to " +
                                  std::to_string(a.most_times_processed) + " times), " + std::to_string(a.commits_failed) +
                                  " failed commits, " + std::to_string(a.commits_ok) + " ok";
        if (a.processed == 0) return inconclusive("nothing was processed");
        return livelocked(r, a) && a.processed_more_than_once > 0 && a.commits_failed > 0 ? held(facts) : refuted(facts);
    });
}

/// The seed's sentence whole: no progress, work done twice, commits that do
/// not take (made, and the broker shows no offset), and no error reaches the
/// application.
inline rule_verdict seed_silent_livelock(const samples& s) {
    return each_run(s, "degraded", [](const consumer_run& r) {
        const auto a = accounting(r);
        if (a.processed == 0) return inconclusive("nothing was processed");
        // "Commits fail" as the broker shows it: commits were made and no offset moved.
        const bool trap = livelocked(r, a) && a.processed_more_than_once > 0 && a.commits_ok + a.commits_failed > 0;
        const auto handed = errors_handed_to_application(a);
        const std::string facts = std::string(trap ? "no progress, work repeated, commits failed" : "not the livelock") + "; the application was handed " +
                                  std::to_string(handed) + " errors (" + std::to_string(a.commits_failed) + " failed commits, " +
                                  std::to_string(a.poll_errors) + " from poll)";
        return trap && handed == 0 ? held(facts) : refuted(facts);
    });
}

/// librdkafka hands the application the exceeded interval as an error from
/// its poll; the Java client's poll does not (only its log says so).
inline rule_verdict cpp_poll_reports_the_interval(const samples& s) {
    return each_run(s, "degraded", [](const consumer_run& r) {
        const auto a = accounting(r);
        std::int64_t about_interval = 0;
        for (const auto& e : r.log)
            if (e.kind == "error" && e.where == "poll" && is_poll_warning(e.error)) ++about_interval;
        const std::string facts = std::to_string(about_interval) + " poll errors about the interval, " + std::to_string(a.revocations) +
                                  " revocations";
        return about_interval > 0 ? held(facts) : refuted(facts);
    }, "cpp");
}

inline rule_verdict java_poll_stays_quiet(const samples& s) {
    return each_run(s, "degraded", [](const consumer_run& r) {
        const auto a = accounting(r);
        const std::string facts = std::to_string(a.poll_errors) + " errors from poll, " + std::to_string(r.client_poll_warnings) +
                                  " client log warnings about the poll interval, " + std::to_string(a.commits_failed) + " failed commits";
        return a.poll_errors == 0 && r.client_poll_warnings > 0 ? held(facts) : refuted(facts);
    }, "java");
}

inline rule_verdict fix_progresses(const samples& s, const std::string& scenario) {
    return each_run(s, scenario, [](const consumer_run& r) { return progressed_once(r, false); });
}

/// Each fix moves the committed offset at least half as fast as the members
/// could process at the degraded latency.
inline rule_verdict fixes_keep_throughput(const samples& s, const parameters& p) {
    rule_verdict out{rosterrig::verdict_kind::held, {}};
    bool any = false;
    for (const auto* scenario : {"fix-interval", "fix-batch", "fix-pause"})
        for (const auto* r : runs_of(s, scenario)) {
            any = true;
            const double possible = static_cast<double>(p.members) * static_cast<double>(p.run_ms) / static_cast<double>(r->settings.latency_ms);
            const double got = static_cast<double>(committed_at_end(*r));
            const double reference = std::min(possible, static_cast<double>(r->events));
            const bool ok = got >= 0.5 * reference;
            out.verdict = rosterrig::merge(out.verdict, ok ? rosterrig::verdict_kind::held : rosterrig::verdict_kind::refuted);
            // The reference is what the members could process at the degraded
            // latency (or the whole topic), not a ceiling: a fix that shortens
            // each record's work commits more than it.
            out.reason += r->run + ": committed " + std::to_string(committed_at_end(*r)) + ", at least " +
                          report::fixed(0.5 * reference, 0) + " needed (half of " + report::fixed(reference, 0) +
                          (possible <= static_cast<double>(r->events)
                               ? ", what " + std::to_string(p.members) + " members at " +
                                     std::to_string(r->settings.latency_ms) + " ms a record process in the run)"
                               : ", the whole topic)") +
                          "; ";
        }
    if (!any) return inconclusive("no fix run in the samples");
    return out;
}

inline std::vector<rule> rules() {
    return {{"e6.healthy-progresses-once", [](const samples& s, const parameters&) { return healthy_progresses_once(s); }},
            {"e6.degraded-livelocks", [](const samples& s, const parameters&) { return degraded_livelocks(s); }},
            {"e6.seed-silent-livelock", [](const samples& s, const parameters&) { return seed_silent_livelock(s); }},
            {"e6.cpp-poll-reports-the-interval", [](const samples& s, const parameters&) { return cpp_poll_reports_the_interval(s); }},
            {"e6.java-poll-stays-quiet", [](const samples& s, const parameters&) { return java_poll_stays_quiet(s); }},
            {"e6.fix-interval-progresses", [](const samples& s, const parameters&) { return fix_progresses(s, "fix-interval"); }},
            {"e6.fix-batch-progresses", [](const samples& s, const parameters&) { return fix_progresses(s, "fix-batch"); }},
            {"e6.fix-pause-progresses", [](const samples& s, const parameters&) { return fix_progresses(s, "fix-pause"); }},
            {"e6.fixes-keep-throughput", [](const samples& s, const parameters& p) { return fixes_keep_throughput(s, p); }}};
}

inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    return plan;
}

// ---- report ---------------------------------------------------------------------

inline std::map<std::string, std::string> timelines(const samples& s);

inline std::string errors_text(const experiment::consumer_accounting& a) {
    std::string out;
    for (const auto& [kind, n] : a.errors_seen) out += (out.empty() ? "" : "; ") + std::to_string(n) + "× " + kind;
    return out.empty() ? std::string("none") : out;
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    using report::fixed;
    std::string o =
        "The roster feed (" + report::with_thousands(static_cast<long long>(p.events)) + " events, " + std::to_string(p.partitions) +
        " partitions) read by a consumer group of " + std::to_string(p.members) + " members that take up to " + std::to_string(p.batch) +
        " records per poll, \"process\" each with a dependency of fixed latency (a sleep) and commit the batch synchronously; "
        "`max.poll.interval.ms` = " + fixed(static_cast<double>(p.max_poll_interval_ms) / 1000, 0) + " s. Healthy: " +
        std::to_string(p.healthy_latency_ms) + " ms per record (" + fixed(static_cast<double>(p.batch * p.healthy_latency_ms) / 1000, 1) +
        " s per batch); degraded: " + std::to_string(p.degraded_latency_ms) + " ms (" +
        fixed(static_cast<double>(p.batch * p.degraded_latency_ms) / 1000, 0) + " s per batch). The fixes run at the degraded "
        "latency: an interval of " + fixed(static_cast<double>(p.fix_interval_ms) / 1000, 0) + " s; " + std::to_string(p.fix_batch) +
        " records per poll; or the partitions paused while a worker thread processes and the loop keeps polling. Each run lasts " +
        fixed(static_cast<double>(p.run_ms) / 1000, 0) + " s (a member finishes the batch in hand). Counts are exact, from every "
        "line the members logged (each record processed, each commit and its answer, each error the application was handed, each "
        "assignment); committed offsets and lag are the broker's, sampled every " +
        fixed(static_cast<double>(p.sample_every_ms) / 1000, 0) + " s" + (p.quick ? ", **quick run**" : "") + ".\n\n";
    report::markdown_table t{{"Client / protocol", "Run", "Processed (distinct)", "Processed more than once (most times)",
                              "Commits ok / failed", "Committed at end (of events)", "Lag at end", "Assignments / revocations",
                              "What the application was handed", "Client log lines about the interval"}};
    for (const auto& r : s.runs) {
        const auto a = accounting(r);
        t.row({r.settings.client + " / " + r.settings.protocol, r.settings.scenario,
               report::with_thousands(a.processed) + " (" + report::with_thousands(a.distinct_records) + ")",
               report::with_thousands(a.processed_more_than_once) + " (" + std::to_string(a.most_times_processed) + ")",
               std::to_string(a.commits_ok) + " / " + std::to_string(a.commits_failed),
               report::with_thousands(committed_at_end(r)) + " (" + report::with_thousands(r.events) + ")",
               report::with_thousands(lag_at_end(r)), std::to_string(a.assignments) + " / " + std::to_string(a.revocations),
               errors_text(a), std::to_string(r.client_poll_warnings)});
    }
    o += t.render();
    std::string versions;
    for (const auto& r : s.runs)
        for (const auto& c : r.clients)
            if (versions.find(c) == std::string::npos) versions += (versions.empty() ? "" : "; ") + c;
    if (!versions.empty()) o += "\nThe members reported: " + versions + ".\n";
    std::string examples;
    for (const auto& r : s.runs)
        for (const auto& x : r.client_warning_examples)
            if (examples.find(x) == std::string::npos) examples += "\n- `" + x + "`";
    if (!examples.empty()) o += "\nWhat the clients logged about the interval (one line of each kind):\n" + examples + "\n";
    for (const auto& [file, svg] : timelines(s)) o += "\n![committed offsets and lag against time](" + file + ")\n";
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// The figure of one client: docs/e6_timeline_java_classic.svg.
inline std::string timeline_file(const std::string& client) {
    std::string f = client;
    std::replace(f.begin(), f.end(), '/', '_');
    return "docs/e6_timeline_" + f + ".svg";
}

/// One client's committed position (solid) and lag (dashed) against time,
/// for the degraded run and each fix.
inline std::string timeline_svg(const samples& s, const std::string& client) {
    report::line_plot plot;
    plot.title = "The poll-interval trap, " + client + ": committed offsets and lag";
    plot.x_label = "seconds since the members started";
    plot.y_label = "records committed (broker, summed over partitions)";
    plot.y2_label = "lag (dashed)";
    for (const auto& r : s.runs) {
        if (r.settings.scenario == "healthy" || r.settings.client + "/" + r.settings.protocol != client) continue;
        report::series committed{r.settings.scenario, {}}, lag{r.settings.scenario + ": lag", {}, report::axis::right, true};
        for (const auto& o : r.offsets) {
            committed.points.push_back({static_cast<double>(o.t_ms) / 1000, static_cast<double>(o.committed)});
            lag.points.push_back({static_cast<double>(o.t_ms) / 1000, static_cast<double>(o.lag)});
        }
        plot.add_series(std::move(committed));
        plot.add_series(std::move(lag));
    }
    if (!s.runs.empty() && s.runs.front().run_ms > 0)
        plot.add_reference({report::orientation::vertical, report::axis::left, static_cast<double>(s.runs.front().run_ms) / 1000,
                            "members take no new batch"});
    return plot.render();
}

/// A figure for each client with runs.
inline std::map<std::string, std::string> timelines(const samples& s) {
    std::map<std::string, std::string> out;
    for (const auto& r : s.runs) {
        const auto client = r.settings.client + "/" + r.settings.protocol;
        if (!out.count(timeline_file(client))) out[timeline_file(client)] = timeline_svg(s, client);
    }
    return out;
}

struct definition {
    using parameters = e6::parameters;
    using samples = e6::samples;
    static constexpr const char* id = "e6_poll_interval";
    static constexpr const char* tag = "e6";
    static constexpr const char* predictions_file = "predictions/e6_poll_interval.json";
    static constexpr const char* results_file = "results/e6_poll_interval.json";
    static constexpr experiment::hooks<parameters> hooks{
        .problems = &experiment::slot_problems<parameters, &e6::usage_problem>,
        .reads = {.task_slots = true}};
    static std::vector<rule> rules() { return e6::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e6::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e6::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples& s, const parameters&) {
        return timelines(s);
    }
};

}  // namespace rosterrig::e6

#endif
