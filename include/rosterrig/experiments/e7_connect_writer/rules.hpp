// rosterrig/experiments/e7_connect_writer/rules.hpp: experiment 7's measures (the kills' recovery, the dial cells in interval order) and verdict rules, rules().
#ifndef ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_RULES_HPP

#include "rosterrig/experiments/e7_connect_writer/samples.hpp"

namespace rosterrig::e7 {

/// The worker kills' recovery, summarized: medians of (new JVM, REST, tasks running, first commit), ms.
struct recovery_summary {
    double jvm_ms = 0, rest_ms = 0, running_ms = 0, first_commit_ms = 0;
    std::size_t kills = 0, commits_seen = 0;
};
inline recovery_summary summarize_recovery(const restart_run& r) {
    recovery_summary s;
    std::vector<double> jvm, rest, running, commit;
    for (std::size_t i = 0; i < r.run.kills.size() && i < r.worker_kills.size(); ++i) {
        jvm.push_back(static_cast<double>(r.run.kills[i].taskmanager_back_after_ms));
        rest.push_back(static_cast<double>(r.worker_kills[i].rest_back_after_ms));
        running.push_back(static_cast<double>(r.run.kills[i].job_running_after_ms));
        if (r.worker_kills[i].first_commit_after_ms >= 0)
            commit.push_back(static_cast<double>(r.worker_kills[i].first_commit_after_ms));
    }
    auto med = [](std::vector<double> v) { return v.empty() ? 0.0 : stats::summarize(std::move(v)).median; };
    s.jvm_ms = med(jvm), s.rest_ms = med(rest), s.running_ms = med(running), s.first_commit_ms = med(commit);
    s.kills = jvm.size(), s.commits_seen = commit.size();
    return s;
}

// ---- verdict rules -------------------------------------------------------------

using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

/// "No worker kill duplicates; the 95% bound is at most 0.10" (experiment 1's rule).
inline rule_verdict restart_no_duplicates(const samples& s) {
    if (!s.restart) return inconclusive("part 1 did not run");
    return experiment::no_duplicates(&s.restart->run);
}

inline rule_verdict restart_nothing_missing(const samples& s) {
    if (!s.restart || s.restart->run.rows == 0) return inconclusive("part 1's table was not read back");
    const auto& r = s.restart->run;
    const std::string why = std::to_string(r.events - std::min(r.events, r.distinct_seq)) + " of " +
                            std::to_string(r.events) + " seqs missing, in " + std::to_string(r.missing_runs.size()) +
                            " runs";
    return r.missing_runs.empty() && r.distinct_seq == r.events ? held(why) : refuted(why);
}

/// "Kafka refuses to rewind the group of a running connector": its tasks are members.
inline rule_verdict rewind_refused_while_running(const samples& s) {
    const auto& o = s.offsets;
    if (!o.rewind_while_running_tried) return inconclusive("the rewind was not tried");
    if (o.rewind_while_running_refused)
        return held("the broker refused: " + o.rewind_while_running_refused->substr(0, 300));
    return refuted("the broker applied the rewind behind the running connector");
}

/// The extra rows a step found beyond the one copy of each seq.
inline std::string step_text(const offsets_step& x, std::uint64_t events) {
    return x.step + ": " + std::to_string(x.rows) + " rows for " + std::to_string(events) + " events, " +
           std::to_string(x.duplicate_rows) + " duplicate rows, committed offsets " +
           std::to_string(x.committed_offsets_sum) + " of " + std::to_string(x.end_offsets_sum);
}

/// "A worker kill, and deleting and recreating the connector under the same
/// name, replay nothing": the group's offsets are where it resumes.
inline rule_verdict restarts_replay_nothing(const samples& s) {
    const auto& o = s.offsets;
    std::string why;
    for (const char* name : {step_worker_killed, step_recreated}) {
        const auto* x = find_step(o, name);
        if (!x) return inconclusive(std::string(name) + " did not run");
        if (x->rows == 0) return inconclusive(std::string(name) + ": the table was not read back");
        if (x->duplicate_rows > 0) return refuted(step_text(*x, o.events));
        why += (why.empty() ? "" : "; ") + step_text(*x, o.events);
    }
    return held(why);
}

/// "The group's offsets are the truth: rewound while the connector is away,
/// the recreated connector replays the whole feed" (every seq twice).
inline rule_verdict rewound_group_replays_everything(const samples& s) {
    const auto& o = s.offsets;
    const auto* x = find_step(o, step_rewound_recreated);
    if (!x) return inconclusive("the rewound recreate did not run");
    if (x->rows == 0) return inconclusive("the table was not read back");
    const auto why = step_text(*x, o.events);
    if (x->duplicate_rows == o.events && x->rows == 2 * o.events) return held(why);
    return refuted(why);
}

/// "Every dial cell lands the feed once" (experiment 3's rule on this writer's cells).
inline rule_verdict dial_lands_once(const samples& s) {
    return experiment::for_each_of(
        s.dial, [](const experiment::cell_run& c) { return c.cell; },
        [](const experiment::cell_run& c) {
            const std::string why = std::to_string(c.rows) + " rows of " + std::to_string(c.events) + ", " +
                                    std::to_string(c.duplicate_rows) + " duplicates, " +
                                    std::to_string(c.missing_runs.size()) + " missing runs";
            return experiment::landed_once(c) ? held(why) : refuted(why);
        },
        "no dial cell ran");
}

/// The dial cells in interval order.
inline std::vector<const experiment::cell_run*> dial_by_interval(const samples& s) {
    std::vector<const experiment::cell_run*> out;
    for (const auto& c : s.dial) out.push_back(&c);
    std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->interval_ms < b->interval_ms; });
    return out;
}

/// "A longer commit interval gives fewer commits and larger files": both
/// strictly monotone over the intervals run.
inline rule_verdict longer_interval_larger_files(const samples& s) {
    const auto cells = dial_by_interval(s);
    if (cells.size() < 3) return inconclusive("fewer than three commit intervals ran");
    std::string why;
    bool monotone = true;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto a = experiment::analyze(*cells[i]);
        why += (why.empty() ? "" : "; ") + cells[i]->cell + ": " + std::to_string(a.commits_with_data) +
               " commits, mean file " + std::to_string(static_cast<long long>(a.mean_file_bytes)) + " B";
        if (i == 0) continue;
        const auto b = experiment::analyze(*cells[i - 1]);
        if (!(a.commits_with_data < b.commits_with_data && a.mean_file_bytes > b.mean_file_bytes)) monotone = false;
    }
    return monotone ? held(why) : refuted(why);
}

/// "Freshness follows the commit interval": the p50 grows with the interval
/// and stays within the interval plus 5 s.
inline constexpr std::int64_t freshness_slack_ms = 5000;
inline rule_verdict freshness_follows_interval(const samples& s) {
    const auto cells = dial_by_interval(s);
    if (cells.size() < 3) return inconclusive("fewer than three commit intervals ran");
    std::string why;
    bool ok = true;
    std::int64_t previous = -1;
    for (const auto* c : cells) {
        const auto a = experiment::analyze(*c);
        if (a.p50_ms < 0) return inconclusive(c->cell + ": no freshness recorded");
        why += (why.empty() ? "" : "; ") + c->cell + ": p50 <= " + std::to_string(a.p50_ms) + " ms";
        if (a.p50_ms <= previous || a.p50_ms > c->in_force.interval_ms + freshness_slack_ms) ok = false;
        previous = a.p50_ms;
    }
    return ok ? held(why) : refuted(why);
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    auto only = [](rule_verdict (*f)(const samples&)) {
        return [f](const samples& s, const parameters&) { return f(s); };
    };
    return {{"e7.restart-no-duplicates", only(restart_no_duplicates)},
            {"e7.restart-nothing-missing", only(restart_nothing_missing)},
            {"e7.rewind-refused-while-running", only(rewind_refused_while_running)},
            {"e7.restarts-replay-nothing", only(restarts_replay_nothing)},
            {"e7.rewound-group-replays-everything", only(rewound_group_replays_everything)},
            {"e7.dial-lands-once", only(dial_lands_once)},
            {"e7.longer-interval-larger-files", only(longer_interval_larger_files)},
            {"e7.freshness-follows-interval", only(freshness_follows_interval)}};
}

}  // namespace rosterrig::e7

#endif
