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

using experiment::phrase;

/// "No worker kill duplicates; the 95% bound is at most 0.10" (experiment 1's rule).
inline rule_verdict restart_no_duplicates(const samples& s) {
    if (!s.restart) return inconclusive({}, "part 1 did not run");
    return experiment::no_duplicates(&s.restart->run);
}

inline rule_verdict restart_nothing_missing(const samples& s) {
    if (!s.restart || s.restart->run.rows == 0) return inconclusive({}, "part 1's table was not read back");
    const auto& r = s.restart->run;
    return experiment::held_if(r.missing_runs.empty() && r.distinct_seq == r.events,
                               {{"missing_seqs", r.events - std::min(r.events, r.distinct_seq)},
                                {"events", r.events},
                                {"distinct_seqs", r.distinct_seq},
                                {"missing_runs", r.missing_runs.size()}},
                               "{missing_seqs} of {events} seqs missing, in {missing_runs} runs");
}

/// "Kafka refuses to rewind the group of a running connector": its tasks are members.
inline rule_verdict rewind_refused_while_running(const samples& s) {
    const auto& o = s.offsets;
    if (!o.rewind_while_running_tried) return inconclusive({}, "the rewind was not tried");
    if (o.rewind_while_running_refused)
        return held({{"refusal", o.rewind_while_running_refused->substr(0, 300)}}, "the broker refused: {refusal}");
    return refuted({{"refusal", nullptr}}, "the broker applied the rewind behind the running connector");
}

/// The extra rows a step found beyond the one copy of each seq.
inline phrase step_phrase(const offsets_step& x, std::uint64_t events) {
    return {{{"step", x.step},
             {"rows", x.rows},
             {"events", events},
             {"duplicate_rows", x.duplicate_rows},
             {"committed_offsets_sum", x.committed_offsets_sum},
             {"end_offsets_sum", x.end_offsets_sum}},
            "{step}: {rows} rows for {events} events, {duplicate_rows} duplicate rows, committed offsets "
            "{committed_offsets_sum} of {end_offsets_sum}"};
}
inline std::string step_text(const offsets_step& x, std::uint64_t events) { return step_phrase(x, events).text(); }

/// "A worker kill, and deleting and recreating the connector under the same
/// name, replay nothing": the group's offsets are where it resumes.
inline rule_verdict restarts_replay_nothing(const samples& s) {
    const auto& o = s.offsets;
    phrase why{{}, {}};
    for (const char* name : {step_worker_killed, step_recreated}) {
        const auto* x = find_step(o, name);
        if (!x) return inconclusive({{"step", name}}, "{step} did not run");
        if (x->rows == 0) return inconclusive({{"step", name}}, "{step}: the table was not read back");
        if (x->duplicate_rows > 0) return refuted(step_phrase(*x, o.events));
        why = why + (why.pattern.empty() ? "" : "; ") + experiment::nested(name, step_phrase(*x, o.events));
    }
    return held(why);
}

/// "The group's offsets are the truth: rewound while the connector is away,
/// the recreated connector replays the whole feed" (every seq twice).
inline rule_verdict rewound_group_replays_everything(const samples& s) {
    const auto& o = s.offsets;
    const auto* x = find_step(o, step_rewound_recreated);
    if (!x) return inconclusive({}, "the rewound recreate did not run");
    if (x->rows == 0) return inconclusive({}, "the table was not read back");
    return experiment::held_if(x->duplicate_rows == o.events && x->rows == 2 * o.events, step_phrase(*x, o.events));
}

/// "Every dial cell lands the feed once" (experiment 3's rule on this writer's cells).
inline rule_verdict dial_lands_once(const samples& s) {
    return experiment::for_each_of(
        s.dial, [](const experiment::cell_run& c) { return c.cell; },
        [](const experiment::cell_run& c) {
            return experiment::held_if(
                experiment::landed_once(c),
                {{"rows", c.rows},
                 {"events", c.events},
                 {"duplicate_rows", c.duplicate_rows},
                 {"missing_runs", c.missing_runs.size()}},
                "{rows} rows of {events}, {duplicate_rows} duplicates, {missing_runs} missing runs");
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
    if (cells.size() < 3) return inconclusive({{"cells", cells.size()}}, "fewer than three commit intervals ran");
    phrase why{{}, {}};
    bool monotone = true;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto a = experiment::analyze(*cells[i]);
        why = why + (why.pattern.empty() ? "" : "; ") +
              experiment::nested(cells[i]->cell, phrase{{{"cell", cells[i]->cell},
                                                         {"commits", a.commits_with_data},
                                                         {"mean_file_bytes", a.mean_file_bytes}},
                                                        "{cell}: {commits} commits, mean file {mean_file_bytes:.0} B"});
        if (i == 0) continue;
        const auto b = experiment::analyze(*cells[i - 1]);
        if (!(a.commits_with_data < b.commits_with_data && a.mean_file_bytes > b.mean_file_bytes)) monotone = false;
    }
    return experiment::held_if(monotone, why);
}

/// "Freshness follows the commit interval": the p50 grows with the interval
/// and stays within the interval plus 5 s.
inline constexpr std::int64_t freshness_slack_ms = 5000;
inline rule_verdict freshness_follows_interval(const samples& s) {
    const auto cells = dial_by_interval(s);
    if (cells.size() < 3) return inconclusive({{"cells", cells.size()}}, "fewer than three commit intervals ran");
    phrase why{{{"slack_ms", freshness_slack_ms}}, {}};
    bool ok = true;
    std::int64_t previous = -1;
    for (const auto* c : cells) {
        const auto a = experiment::analyze(*c);
        if (a.p50_ms < 0) return inconclusive({{"cell", c->cell}}, "{cell}: no freshness recorded");
        why = why + (why.pattern.empty() ? "" : "; ") +
              experiment::nested(
                  c->cell, phrase{{{"cell", c->cell}, {"p50_ms", a.p50_ms}, {"interval_ms", c->in_force.interval_ms}},
                                  "{cell}: p50 <= {p50_ms} ms"});
        if (a.p50_ms <= previous || a.p50_ms > c->in_force.interval_ms + freshness_slack_ms) ok = false;
        previous = a.p50_ms;
    }
    return experiment::held_if(ok, why);
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
