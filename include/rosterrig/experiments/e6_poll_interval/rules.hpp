// rosterrig/experiments/e6_poll_interval/rules.hpp: the measures (accounting, livelock, progress) and the verdict rules, rules()

#ifndef ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_RULES_HPP

#include "rosterrig/experiments/e6_poll_interval/samples.hpp"

namespace rosterrig::e6 {

// ---- measures -------------------------------------------------------------------

inline experiment::consumer_accounting accounting(const consumer_run& r) { return experiment::account(r.log); }

/// The committed position at the end, as the broker last reported it.
inline std::int64_t committed_at_end(const consumer_run& r) {
    return r.offsets.empty() ? 0 : r.offsets.back().committed;
}
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
    const bool any_sample =
        std::any_of(r.offsets.begin(), r.offsets.end(), [&](const offset_sample& o) { return o.t_ms <= r.run_ms; });
    return any_sample && a.processed > 0 && committed_during_run(r) == 0;
}
inline bool livelocked(const consumer_run& r) { return livelocked(r, accounting(r)); }

/// The application was handed an error: a failed commit or an error from poll.
inline std::int64_t errors_handed_to_application(const experiment::consumer_accounting& a) {
    return a.commits_failed + a.poll_errors;
}

inline std::string run_text(const consumer_run& r) {
    const auto a = accounting(r);
    return run_label(r) + ": " + std::to_string(a.processed) + " processed (" + std::to_string(a.distinct_records) +
           " distinct, " + std::to_string(a.processed_more_than_once) + " more than once), commits " +
           std::to_string(a.commits_ok) + " ok / " + std::to_string(a.commits_failed) + " failed, " +
           std::to_string(a.poll_errors) + " poll errors, " + std::to_string(a.assignments) +
           " assignments, committed at end " + std::to_string(committed_at_end(r)) + " of " + std::to_string(r.events) +
           ", " + std::to_string(r.client_poll_warnings) + " client warnings";
}

// ---- rules ----------------------------------------------------------------------

using rule = experiment::rule<samples, parameters>;
using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

inline std::vector<const consumer_run*> runs_of(const samples& s, const std::string& scenario,
                                                const std::string& client = "") {
    std::vector<const consumer_run*> out;
    for (const auto& r : s.runs)
        if (r.settings.scenario == scenario && (client.empty() || r.settings.client == client)) out.push_back(&r);
    return out;
}

template <class Decide>
rule_verdict each_run(const samples& s, const std::string& scenario, Decide&& decide, const std::string& client = "") {
    const auto rs = runs_of(s, scenario, client);
    return experiment::for_each_of(
        rs, [](const consumer_run* r) { return run_label(*r); }, [&](const consumer_run* r) { return decide(*r); },
        "no " + scenario + " run" + (client.empty() ? "" : " of the " + client + " client") + " in the samples");
}

/// Every record processed exactly once and committed: the group kept up.
inline rule_verdict progressed_once(const consumer_run& r, bool must_finish) {
    const auto a = accounting(r);
    const auto end = committed_at_end(r);
    if (a.processed == 0) return inconclusive({}, "nothing was processed");
    if (a.processed_more_than_once > 0 || a.commits_failed > 0)
        return refuted({{"processed_more_than_once", a.processed_more_than_once}, {"commits_failed", a.commits_failed}},
                       "{processed_more_than_once} records processed more than once, {commits_failed} failed commits");
    if (end <= 0) return refuted({{"committed_at_end", end}}, "the broker never showed a committed offset");
    if (must_finish && (end != r.events || a.distinct_records != r.events))
        return refuted({{"committed_at_end", end}, {"events", r.events}, {"distinct_records", a.distinct_records}},
                       "committed {committed_at_end} of {events}, processed {distinct_records}");
    return held({{"processed", a.processed}, {"committed_at_end", end}, {"events", r.events}},
                "{processed} processed once each, committed {committed_at_end} of {events}");
}

inline rule_verdict healthy_progresses_once(const samples& s) {
    return each_run(s, "healthy", [](const consumer_run& r) { return progressed_once(r, true); });
}

inline rule_verdict degraded_livelocks(const samples& s) {
    return each_run(s, "degraded", [](const consumer_run& r) {
        const auto a = accounting(r);
        if (a.processed == 0) return inconclusive({}, "nothing was processed");
        return experiment::held_if(
            livelocked(r, a) && a.processed_more_than_once > 0 && a.commits_failed > 0,
            {{"committed_during_run", committed_during_run(r)},
             {"committed_at_end", committed_at_end(r)},
             {"livelocked", livelocked(r, a)},
             {"processed_more_than_once", a.processed_more_than_once},
             {"most_times_processed", a.most_times_processed},
             {"commits_failed", a.commits_failed},
             {"commits_ok", a.commits_ok}},
            "committed while the members ran {committed_during_run} (at the end {committed_at_end}), "
            "{processed_more_than_once} records processed more than once (up to {most_times_processed} times), "
            "{commits_failed} failed commits, {commits_ok} ok");
    });
}

/// The seed's sentence whole: no progress, work done twice, commits that do
/// not take (made, and the broker shows no offset), and no error reaches the
/// application.
inline rule_verdict seed_silent_livelock(const samples& s) {
    return each_run(s, "degraded", [](const consumer_run& r) {
        const auto a = accounting(r);
        if (a.processed == 0) return inconclusive({}, "nothing was processed");
        // "Commits fail" as the broker shows it: commits were made and no offset moved.
        const bool trap = livelocked(r, a) && a.processed_more_than_once > 0 && a.commits_ok + a.commits_failed > 0;
        const auto handed = errors_handed_to_application(a);
        return experiment::held_if(
            trap && handed == 0,
            {{"livelock", trap},
             {"errors_handed", handed},
             {"commits_failed", a.commits_failed},
             {"poll_errors", a.poll_errors}},
            trap ? "no progress, work repeated, commits failed; the application was handed {errors_handed} errors "
                   "({commits_failed} failed commits, {poll_errors} from poll)"
                 : "not the livelock; the application was handed {errors_handed} errors ({commits_failed} failed "
                   "commits, {poll_errors} from poll)");
    });
}

/// librdkafka hands the application the exceeded interval as an error from
/// its poll; the Java client's poll does not (only its log says so).
inline rule_verdict cpp_poll_reports_the_interval(const samples& s) {
    return each_run(
        s, "degraded",
        [](const consumer_run& r) {
            const auto a = accounting(r);
            std::int64_t about_interval = 0;
            for (const auto& e : r.log)
                if (e.kind == "error" && e.where == "poll" && is_poll_warning(e.error)) ++about_interval;
            return experiment::held_if(about_interval > 0,
                                       {{"poll_errors_about_interval", about_interval}, {"revocations", a.revocations}},
                                       "{poll_errors_about_interval} poll errors about the interval, {revocations} "
                                       "revocations");
        },
        "cpp");
}

inline rule_verdict java_poll_stays_quiet(const samples& s) {
    return each_run(
        s, "degraded",
        [](const consumer_run& r) {
            const auto a = accounting(r);
            return experiment::held_if(
                a.poll_errors == 0 && r.client_poll_warnings > 0,
                {{"poll_errors", a.poll_errors},
                 {"client_poll_warnings", r.client_poll_warnings},
                 {"commits_failed", a.commits_failed}},
                "{poll_errors} errors from poll, {client_poll_warnings} client log warnings about "
                "the poll interval, {commits_failed} failed commits");
        },
        "java");
}

inline rule_verdict fix_progresses(const samples& s, const std::string& scenario) {
    return each_run(s, scenario, [](const consumer_run& r) { return progressed_once(r, false); });
}

/// Each fix moves the committed offset at least half as fast as the members
/// could process at the degraded latency.
inline rule_verdict fixes_keep_throughput(const samples& s, const parameters& p) {
    std::vector<const consumer_run*> fixes;
    for (const auto* scenario : {"fix-interval", "fix-batch", "fix-pause"})
        for (const auto* r : runs_of(s, scenario)) fixes.push_back(r);
    return experiment::for_each_of(
        fixes, [](const consumer_run* r) { return run_label(*r); },
        [&](const consumer_run* r) {
            const double possible = static_cast<double>(p.members) * static_cast<double>(p.run_ms) /
                                    static_cast<double>(r->settings.latency_ms);
            const double got = static_cast<double>(committed_at_end(*r));
            const double reference = std::min(possible, static_cast<double>(r->events));
            // The reference is what the members could process at the degraded
            // latency (or the whole topic), not a ceiling: a fix that shortens
            // each record's work commits more than it.
            return experiment::held_if(
                got >= 0.5 * reference,
                {{"committed_at_end", committed_at_end(*r)},
                 {"needed", 0.5 * reference},
                 {"reference", reference},
                 {"members", p.members},
                 {"latency_ms", r->settings.latency_ms}},
                possible <= static_cast<double>(r->events)
                    ? "committed {committed_at_end}, at least {needed:.0} needed (half of {reference:.0}, what "
                      "{members} members at {latency_ms} ms a record process in the run)"
                    : "committed {committed_at_end}, at least {needed:.0} needed (half of {reference:.0}, the whole "
                      "topic)");
        },
        "no fix run in the samples");
}

/// Clean: no record processed twice and no failed commit.
inline bool clean(const consumer_run& r) {
    const auto a = accounting(r);
    return a.processed_more_than_once == 0 && a.commits_failed == 0;
}

/// The one configuration whose outcome is predicted to vary between repeats:
/// under Java's consumer protocol a member gives partitions up only when it
/// polls, so with a 60 s interval the hand-over lands late, and whether a
/// commit is lost to it depended on timing in two full runs.
inline const char* predicted_to_vary = "java/consumer/fix-interval";

/// Repeated, every configuration but `predicted_to_vary` is clean every time
/// or never, and that one is clean in some repeats and not in others.
/// Configurations that ran once cannot show either and are left out; with
/// none repeated the rule cannot decide.
inline rule_verdict only_the_predicted_configuration_varies(const samples& s) {
    std::map<std::string, std::pair<int, int>> clean_and_not;  // run -> (clean repeats, other repeats)
    for (const auto& r : s.runs) {
        if (!r.repeat) continue;
        auto& [yes, no] = clean_and_not[r.run];
        (clean(r) ? yes : no) += 1;
    }
    experiment::facts shown;  // per configuration that varied or was predicted to
    std::string reason;
    bool as_predicted = true, any_repeated = false;
    for (const auto& [run, counts] : clean_and_not) {
        const auto [yes, no] = counts;
        if (yes + no < 2) continue;
        any_repeated = true;
        const bool varied = yes > 0 && no > 0;
        const bool expected = varied == (run == predicted_to_vary);
        as_predicted = as_predicted && expected;
        if (varied || run == predicted_to_vary) {
            experiment::facts one{{"clean", yes}, {"repeats", yes + no}};
            reason += run + ": " + experiment::render(one, "{clean} clean of {repeats}; ");
            shown[run] = std::move(one);
        }
    }
    if (!any_repeated) return inconclusive({}, "no configuration ran more than once");
    if (!clean_and_not.count(predicted_to_vary) ||
        clean_and_not.at(predicted_to_vary).first + clean_and_not.at(predicted_to_vary).second < 2)
        return inconclusive({{"predicted_to_vary", predicted_to_vary}},
                            "{predicted_to_vary} did not run more than once");
    reason += "every other repeated configuration gave one kind of outcome";
    if (!as_predicted) reason = "not as predicted: " + reason;
    shown["as_predicted"] = as_predicted;
    return experiment::from_parts(as_predicted ? verdict_kind::held : verdict_kind::refuted, std::move(shown), reason);
}

inline std::vector<rule> rules() {
    return {
        {"e6.healthy-progresses-once", [](const samples& s, const parameters&) { return healthy_progresses_once(s); }},
        {"e6.degraded-livelocks", [](const samples& s, const parameters&) { return degraded_livelocks(s); }},
        {"e6.seed-silent-livelock", [](const samples& s, const parameters&) { return seed_silent_livelock(s); }},
        {"e6.cpp-poll-reports-the-interval",
         [](const samples& s, const parameters&) { return cpp_poll_reports_the_interval(s); }},
        {"e6.java-poll-stays-quiet", [](const samples& s, const parameters&) { return java_poll_stays_quiet(s); }},
        {"e6.fix-interval-progresses",
         [](const samples& s, const parameters&) { return fix_progresses(s, "fix-interval"); }},
        {"e6.fix-batch-progresses", [](const samples& s, const parameters&) { return fix_progresses(s, "fix-batch"); }},
        {"e6.fix-pause-progresses", [](const samples& s, const parameters&) { return fix_progresses(s, "fix-pause"); }},
        {"e6.fixes-keep-throughput", [](const samples& s, const parameters& p) { return fixes_keep_throughput(s, p); }},
        {"e6.only-java-consumer-interval-fix-varies",
         [](const samples& s, const parameters&) { return only_the_predicted_configuration_varies(s); }}};
}

}  // namespace rosterrig::e6

#endif
