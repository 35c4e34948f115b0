// rosterrig/experiments/e6_poll_interval/report.hpp: the report section and the per-client timeline figures

#ifndef ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_REPORT_HPP

#include "rosterrig/experiments/e6_poll_interval/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e6 {

// ---- report ---------------------------------------------------------------------

inline std::map<std::string, std::string> timelines(const samples& s);

inline std::string errors_text(const experiment::consumer_accounting& a) {
    std::string out;
    for (const auto& [kind, n] : a.errors_seen) out += fmt::format("{}{}× {}", out.empty() ? "" : "; ", n, kind);
    return out.empty() ? std::string("none") : out;
}

/// "12" or "0–50": the least and the most of a count over the repeats.
inline std::string spread_text(std::vector<std::int64_t> v) {
    if (v.empty()) return "–";
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return *lo == *hi ? report::with_thousands(*lo)
                      : fmt::format("{}–{}", report::with_thousands(*lo), report::with_thousands(*hi));
}

/// The repeats of each configuration side by side: how many were clean, and
/// the least and the most of each count.
inline std::string spread_table(const samples& s) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const consumer_run*>> by_run;
    for (const auto& r : s.runs) {
        if (!by_run.count(r.run)) order.push_back(r.run);
        by_run[r.run].push_back(&r);
    }
    report::markdown_table t{{"Client / protocol", "Run", "Repeats", "Clean (no record twice, no failed commit)",
                              "Processed more than once, least–most", "Failed commits, least–most",
                              "Committed at end, least–most (of events)"}};
    for (const auto& run : order) {
        const auto& rs = by_run.at(run);
        std::vector<std::int64_t> twice, failed, committed;
        std::int64_t clean_runs = 0;
        for (const auto* r : rs) {
            const auto a = accounting(*r);
            twice.push_back(a.processed_more_than_once), failed.push_back(a.commits_failed),
                committed.push_back(committed_at_end(*r));
            clean_runs += clean(*r) ? 1 : 0;
        }
        const auto& first = *rs.front();
        t.row({fmt::format("{} / {}", first.settings.client, first.settings.protocol), first.settings.scenario,
               std::to_string(rs.size()), fmt::format("{} of {}", clean_runs, rs.size()), spread_text(twice),
               spread_text(failed),
               fmt::format("{} ({})", spread_text(committed), report::with_thousands(first.events))});
    }
    return "The repeats side by side:\n\n" + t.render();
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    using report::fixed;
    std::string o = fmt::format(
        "The roster feed ({} events, {} partitions) read by a consumer group of {} members that take up to {} records "
        "per poll, \"process\" each with a dependency of fixed latency (a sleep) and commit the batch synchronously; "
        "`max.poll.interval.ms` = {} s. Healthy: {} ms per record ({} s per batch); degraded: {} ms ({} s per batch). "
        "The fixes run at the degraded latency: an interval of {} s; {} records per poll; or the partitions paused "
        "while a worker thread processes and the loop keeps polling. Each run lasts {} s (a member finishes the batch "
        "in hand){}. Counts are exact, from every line the members logged (each record processed, each commit and its "
        "answer, each error the application was handed, each assignment); committed offsets and lag are the broker's, "
        "sampled every {} s{}.\n\n",
        report::with_thousands(static_cast<long long>(p.events)), p.partitions, p.members, p.batch,
        fixed(static_cast<double>(p.max_poll_interval_ms) / 1000, 0), p.healthy_latency_ms,
        fixed(static_cast<double>(p.batch * p.healthy_latency_ms) / 1000, 1), p.degraded_latency_ms,
        fixed(static_cast<double>(p.batch * p.degraded_latency_ms) / 1000, 0),
        fixed(static_cast<double>(p.fix_interval_ms) / 1000, 0), p.fix_batch,
        fixed(static_cast<double>(p.run_ms) / 1000, 0),
        p.repeat_count() > 1
            ? fmt::format("; every configuration ran {} times, the whole list once before it began again",
                          p.repeat_count())
            : std::string(),
        fixed(static_cast<double>(p.sample_every_ms) / 1000, 0), p.quick ? ", **quick run**" : "");
    report::markdown_table t{{"Client / protocol", "Run", "Repeat", "Processed (distinct)",
                              "Processed more than once (most times)", "Commits ok / failed",
                              "Committed at end (of events)", "Lag at end", "Assignments / revocations",
                              "What the application was handed", "Client log lines about the interval"}};
    for (const auto& r : s.runs) {
        const auto a = accounting(r);
        t.row({fmt::format("{} / {}", r.settings.client, r.settings.protocol), r.settings.scenario,
               r.repeat ? std::to_string(*r.repeat) : "only",
               fmt::format("{} ({})", report::with_thousands(a.processed), report::with_thousands(a.distinct_records)),
               fmt::format("{} ({})", report::with_thousands(a.processed_more_than_once), a.most_times_processed),
               fmt::format("{} / {}", a.commits_ok, a.commits_failed),
               fmt::format("{} ({})", report::with_thousands(committed_at_end(r)), report::with_thousands(r.events)),
               report::with_thousands(lag_at_end(r)), fmt::format("{} / {}", a.assignments, a.revocations),
               errors_text(a), std::to_string(r.client_poll_warnings)});
    }
    o += t.render();
    if (any_repeat(s)) o += "\n" + spread_table(s);
    std::string versions;
    for (const auto& r : s.runs)
        for (const auto& c : r.clients)
            if (versions.find(c) == std::string::npos) versions += (versions.empty() ? "" : "; ") + c;
    if (!versions.empty()) o += fmt::format("\nThe members reported: {}.\n", versions);
    std::string examples;
    for (const auto& r : s.runs)
        for (const auto& x : r.client_warning_examples)
            if (examples.find(x) == std::string::npos) examples += fmt::format("\n- `{}`", x);
    if (!examples.empty())
        o += "\nWhat the clients logged about the interval (one line of each kind):\n" + examples + "\n";
    for (const auto& [file, svg] : timelines(s))
        o += fmt::format("\n![committed offsets and lag against time]({})\n", file);
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// The figure of one client: docs/e6_timeline_java_classic.svg.
inline std::string timeline_file(const std::string& client) {
    std::string f = client;
    std::replace(f.begin(), f.end(), '/', '_');
    return fmt::format("docs/e6_timeline_{}.svg", f);
}

/// One client's committed position (solid) and lag (dashed) against time,
/// for the degraded run and each fix.
inline std::string timeline_svg(const samples& s, const std::string& client) {
    report::line_plot plot;
    plot.title = fmt::format("The poll-interval trap, {}: committed offsets and lag{}", client,
                             any_repeat(s) ? " (first repeat)" : "");
    plot.x_label = "seconds since the members started";
    plot.y_label = "records committed (broker, summed over partitions)";
    plot.y2_label = "lag (dashed)";
    for (const auto& r : s.runs) {
        // The first repeat only: the table above gives every repeat.
        if (r.settings.scenario == "healthy" || r.settings.client + "/" + r.settings.protocol != client ||
            r.repeat.value_or(1) != 1)
            continue;
        report::series committed{r.settings.scenario, {}},
            lag{r.settings.scenario + ": lag", {}, report::axis::right, true};
        for (const auto& o : r.offsets) {
            committed.points.push_back({static_cast<double>(o.t_ms) / 1000, static_cast<double>(o.committed)});
            lag.points.push_back({static_cast<double>(o.t_ms) / 1000, static_cast<double>(o.lag)});
        }
        plot.add_series(std::move(committed));
        plot.add_series(std::move(lag));
    }
    if (!s.runs.empty() && s.runs.front().run_ms > 0)
        plot.add_reference({report::orientation::vertical, report::axis::left,
                            static_cast<double>(s.runs.front().run_ms) / 1000, "members take no new batch"});
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

}  // namespace rosterrig::e6

#endif
