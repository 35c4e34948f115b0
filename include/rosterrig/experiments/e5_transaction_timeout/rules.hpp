// rosterrig/experiments/e5_transaction_timeout/rules.hpp: the analysis (aborts, committed fraction, hidden time) and the verdict rules, rules()

#ifndef ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_RULES_HPP

#include "rosterrig/experiments/e5_transaction_timeout/samples.hpp"

namespace rosterrig::e5 {

// ---- analysis ----------------------------------------------------------------

inline std::set<std::string> states_seen(const std::vector<transaction_state>& xs) {
    std::set<std::string> out;
    for (const auto& x : xs) out.insert(x.state);
    return out;
}
inline bool is_abort(const std::string& state) { return state == "PrepareAbort" || state == "CompleteAbort"; }
inline bool aborted(const std::vector<transaction_state>& xs) {
    return std::any_of(xs.begin(), xs.end(), [](const transaction_state& x) { return is_abort(x.state); });
}

/// When the broker's first abort happened, as the sampling bounds it: after
/// the last sample before the first sample that showed an abort (`after_ms`;
/// 0 when that was the first sample) and no later than that sample (`by_ms`).
struct abort_window {
    std::int64_t after_ms = 0;
    std::int64_t by_ms = 0;
};
inline std::optional<abort_window> first_abort(const std::vector<transaction_state>& xs) {
    std::optional<std::int64_t> by;
    for (const auto& x : xs)
        if (is_abort(x.state) && (!by || x.t_ms < *by)) by = x.t_ms;
    if (!by) return std::nullopt;
    abort_window w{0, *by};
    for (const auto& x : xs)
        if (x.t_ms < *by) w.after_ms = std::max(w.after_ms, x.t_ms);
    return w;
}
/// The fraction of the feed a read_committed reader got, once each.
inline double committed_fraction(const txn_run& r) {
    return r.events ? static_cast<double>(r.committed.distinct_seq) / static_cast<double>(r.events) : 0;
}
inline bool exactly_once(const output_read& o, std::uint64_t events) {
    return o.distinct_seq == events && o.duplicate_rows == 0 && o.missing_runs.empty();
}
/// What was left of the open transactions' timeout when the plain records
/// were acknowledged (may be below zero).
inline std::int64_t rest_of_timeout_ms(const stuck_run& s) {
    return s.requested_timeout_ms - std::max<std::int64_t>(s.open_for_ms_at_cancel, 0) - s.plain_acked_after_cancel_ms;
}

/// Plain records stayed invisible to read_committed from their write until this.
inline std::int64_t hidden_for_ms(const stuck_run& s) {
    for (const auto& v : s.visibility)
        if (v.visible > 0) return v.t_ms;
    return s.visibility.empty() ? -1 : s.visibility.back().t_ms;
}
inline std::string hidden_text(const stuck_run& st) {
    return "plain records hidden for " + std::to_string(hidden_for_ms(st)) + " ms, all visible after " +
           std::to_string(st.all_visible_after_ms) + " ms";
}

// ---- verdict rules -------------------------------------------------------------

using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

inline std::vector<txn_run> runs_where(const samples& s, const std::function<bool(const txn_run&)>& keep) {
    std::vector<txn_run> out;
    for (const auto& r : s.runs)
        if (keep(r)) out.push_back(r);
    return out;
}

using experiment::phrase;

/// Exception names as a fact: null ("none") when there were none.
inline boost::json::value names_fact(const std::vector<std::string>& names) {
    if (names.empty()) return nullptr;
    return boost::json::value_from(names);
}

/// What a reader got and what the job reported, as facts and their sentence.
inline phrase read_phrase(const txn_run& r) {
    return {{{"read_committed", r.committed.distinct_seq},
             {"events", r.events},
             {"duplicate_rows", r.committed.duplicate_rows},
             {"uncommitted", r.uncommitted.distinct_seq},
             {"job_state", r.signals.state},
             {"failed_checkpoints", r.signals.failed_checkpoints},
             {"log_warnings", r.signals.log_warnings}},
            "{read_committed} of {events} read committed ({duplicate_rows} duplicates), {uncommitted} uncommitted; "
            "job {job_state}, {failed_checkpoints} failed checkpoints, {log_warnings} transaction warnings in the "
            "logs"};
}
inline std::string read_text(const txn_run& r) { return read_phrase(r).text(); }

inline bool far_under(const txn_run& r) { return r.part != "above-max" && r.requested_timeout_ms * 2 <= r.interval_ms; }
inline bool seed_condition(const txn_run& r) { return r.part == "seed-condition"; }
inline bool just_under(const txn_run& r) {
    return r.part != "above-max" && r.requested_timeout_ms * 2 > r.interval_ms &&
           r.requested_timeout_ms < r.interval_ms;
}

/// Far under the interval (half of it or less): a read_committed reader gets
/// nothing, though every record was written (read_uncommitted sees them all),
/// and the broker aborted the transactions.
inline rule_verdict far_under_interval_loses_everything(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, far_under), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            const bool aborts = aborted(r.states);
            const auto why =
                read_phrase(r) + phrase{{{"aborted", aborts}}, aborts ? ", aborts seen" : ", no abort seen"};
            const bool ok = r.committed.distinct_seq == 0 && r.uncommitted.distinct_seq == r.events && aborts;
            return experiment::held_if(ok, why);
        },
        "no run had a timeout of half its interval or less");
}

/// With records still arriving after the broker aborted its transaction, the
/// writer's next send fails and the job fails over: its exception history is
/// not empty (the reference study's job, whose feed had ended, stayed quiet).
/// The seed's condition, whose feed ends before the abort, is not its case.
inline rule_verdict far_under_interval_job_fails_over(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) { return far_under(r) && !seed_condition(r); }),
        [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            return experiment::held_if(r.signals.exceptions > 0,
                                       {{"exceptions", r.signals.exceptions},
                                        {"exception_names", names_fact(r.signals.exception_names)},
                                        {"job_state", r.signals.state}},
                                       "{exceptions} exceptions ({exception_names}), job {job_state}");
        },
        "no run had a timeout of half its interval or less");
}

inline phrase seed_condition_phrase(const txn_run& r, const std::optional<abort_window>& w) {
    phrase p =
        read_phrase(r) +
        phrase{{{"exceptions", r.signals.exceptions}, {"exception_names", names_fact(r.signals.exception_names)}},
               r.signals.exception_names.empty() ? ", {exceptions} exceptions"
                                                 : ", {exceptions} exceptions ({exception_names})"};
    if (r.feed_done_ms)
        p = p + phrase{{{"feed_done_ms", *r.feed_done_ms}}, "; feed acknowledged {feed_done_ms} ms after the submit"};
    else
        p = p + "; feed acknowledged at an unrecorded time after the submit";
    if (w)
        return p + phrase{{{"abort_after_ms", w->after_ms}, {"abort_by_ms", w->by_ms}},
                          ", first abort after {abort_after_ms} and by {abort_by_ms} ms"};
    return p + ", first abort not seen";
}

/// The reference study's condition (the feed over before the broker's
/// abort): a read_committed reader gets nothing, and nothing reports it: the
/// job runs, with no exception and no failed checkpoint. A run whose feed was
/// not over before the abort's earliest bound is not the seed's condition:
/// inconclusive.
inline rule_verdict seed_condition_is_silent(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, seed_condition), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            const auto w = first_abort(r.states);
            const auto why = seed_condition_phrase(r, w);
            if (!r.feed_done_ms || !w || *r.feed_done_ms > w->after_ms)
                return inconclusive(phrase{{}, "not the seed's condition (no abort seen after the feed was over): "} +
                                    why);
            const bool silent = r.committed.distinct_seq == 0 && r.uncommitted.distinct_seq == r.events &&
                                r.signals.state == "RUNNING" && r.signals.exceptions == 0 &&
                                r.signals.failed_checkpoints == 0;
            return experiment::held_if(silent, why);
        },
        "no run had the seed's condition");
}

/// Just under the interval: every run loses at least one record for a read_committed reader.
inline rule_verdict just_under_interval_loses_records(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, just_under), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) { return experiment::held_if(r.committed.distinct_seq < r.events, read_phrase(r)); },
        "no run had a timeout between half its interval and the interval");
}

/// A timeout comfortably above the interval (1.5x or more): every record once.
inline rule_verdict above_interval_delivers_once(const samples& s) {
    return experiment::for_each_of(
        runs_where(
            s,
            [](const txn_run& r) { return r.part != "above-max" && r.requested_timeout_ms >= r.interval_ms * 3 / 2; }),
        [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            return experiment::held_if(
                exactly_once(r.committed, r.events),
                read_phrase(r) + phrase{{{"missing_runs", r.committed.missing_runs.size()}}, ""});
        },
        "no run had a timeout of 1.5 times its interval or more");
}

/// Just above the interval (more than 1x, under 1.5x): still every record once
/// on a healthy job, whose transactions live one interval plus a short checkpoint.
inline rule_verdict just_above_interval_suffices(const samples& s) {
    return experiment::for_each_of(
        runs_where(s,
                   [](const txn_run& r) {
                       return r.part != "above-max" && r.requested_timeout_ms > r.interval_ms &&
                              r.requested_timeout_ms < r.interval_ms * 3 / 2;
                   }),
        [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            return experiment::held_if(
                exactly_once(r.committed, r.events),
                read_phrase(r) + phrase{{{"missing_runs", r.committed.missing_runs.size()}}, ""});
        },
        "no run had a timeout between 1x and 1.5x its interval");
}

/// The broker registered the timeout the job asked for.
inline rule_verdict broker_registered_the_request(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) { return r.part != "above-max"; }), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            if (!r.registered_timeout_ms) return inconclusive({}, "the broker described none of the job's ids");
            return experiment::held_if(
                *r.registered_timeout_ms == r.requested_timeout_ms,
                {{"requested_timeout_ms", r.requested_timeout_ms}, {"registered_timeout_ms", *r.registered_timeout_ms}},
                "asked {requested_timeout_ms} ms, registered {registered_timeout_ms} ms");
        },
        "no run");
}

/// Above the broker's maximum the job fails loudly within a minute and delivers nothing.
inline rule_verdict above_max_fails_loudly(const samples& s) {
    return experiment::for_each_of(
        runs_where(s, [](const txn_run& r) { return r.part == "above-max"; }), [](const txn_run& r) { return r.name; },
        [](const txn_run& r) {
            const bool loud =
                r.signals.exceptions > 0 && r.committed.distinct_seq == 0 &&
                (r.signals.state == "FAILED" || r.signals.state == "RESTARTING" || r.failed_after_ms >= 0);
            return experiment::held_if(
                loud,
                {{"requested_timeout_ms", r.requested_timeout_ms},
                 {"broker_max_timeout_ms", r.broker_max_timeout_ms},
                 {"job_state", r.signals.state},
                 {"failed_after_ms", r.failed_after_ms},
                 {"exceptions", r.signals.exceptions},
                 {"exception_names", names_fact(r.signals.exception_names)},
                 {"read_committed", r.committed.distinct_seq}},
                r.failed_after_ms >= 0
                    ? "asked {requested_timeout_ms} ms over a maximum of {broker_max_timeout_ms} ms: job {job_state} "
                      "after {failed_after_ms} ms, exceptions: {exception_names}; {read_committed} records read "
                      "committed"
                    : "asked {requested_timeout_ms} ms over a maximum of {broker_max_timeout_ms} ms: job {job_state}, "
                      "exceptions: {exception_names}; {read_committed} records read committed");
        },
        "the above-maximum run did not run");
}

inline const stuck_run* stuck_ending(const samples& s, const std::string& ending) {
    for (const auto& x : s.stuck)
        if (x.ending == ending && x.sink_partitioner == "default") return &x;
    return nullptr;
}

inline phrase stuck_phrase(const stuck_run& st) {
    return {{{"hidden_for_ms", hidden_for_ms(st)},
             {"all_visible_after_ms", st.all_visible_after_ms},
             {"requested_timeout_ms", st.requested_timeout_ms},
             {"open_transactions", st.open_at_cancel.size()},
             {"open_for_ms", st.open_for_ms_at_cancel}},
            "plain records hidden for {hidden_for_ms} ms, all visible after {all_visible_after_ms} ms; timeout "
            "{requested_timeout_ms} ms, {open_transactions} transaction(s) open for {open_for_ms} ms when the job was "
            "cancelled"};
}

/// A graceful cancel closes the sink's writer, which aborts its open
/// transaction: the plain records written afterwards are visible within 10 s.
inline rule_verdict cancel_aborts_its_transaction(const samples& s) {
    const auto* st = stuck_ending(s, "cancel");
    if (!st) return inconclusive({}, "the cancel run did not run");
    if (st->open_at_cancel.empty()) return inconclusive({}, "no transaction was open when the job was cancelled");
    const bool ok = st->all_visible_after_ms >= 0 && st->all_visible_after_ms <= 10000;
    return experiment::held_if(ok, stuck_phrase(*st));
}

/// A transaction whose writer died (TaskManager SIGKILLed, then the job
/// cancelled so nothing recovers it) stays open: plain records written after
/// it stay invisible to read_committed readers for at least 80 % of the rest
/// of its timeout, and all become visible within 20 s after it runs out.
inline rule_verdict stuck_transaction_blocks_readers(const samples& s) {
    const auto* st = stuck_ending(s, "kill-then-cancel");
    if (!st) return inconclusive({}, "the kill-then-cancel run did not run");
    if (st->open_at_cancel.empty()) return inconclusive({}, "no transaction was open when the job was cancelled");
    const auto rest = rest_of_timeout_ms(*st);
    const bool ok = hidden_for_ms(*st) >= rest * 8 / 10 && st->all_visible_after_ms >= 0 &&
                    st->all_visible_after_ms <= std::max<std::int64_t>(rest, 0) + 20000;
    return experiment::held_if(ok, stuck_phrase(*st) + phrase{{{"rest_of_timeout_ms", rest}}, ""});
}

/// A killed writer's open transaction holds back exactly the partitions it
/// wrote to: on the others the plain records are visible within 10 s; on
/// those, hidden for at least 80 % of the rest of its timeout.
inline rule_verdict stuck_transaction_holds_only_its_partitions(const samples& s) {
    std::vector<stuck_run> killed;
    for (const auto& st : s.stuck)
        if (st.ending == "kill-then-cancel" && !st.partitions.empty()) killed.push_back(st);
    if (killed.empty()) return inconclusive({}, "no kill-then-cancel run measured its partitions");
    experiment::facts by_partitioner;  // per sink partitioner: its partitions and the rest of the timeout
    std::string why;
    bool ok = true, decided = false;
    for (const auto& st : killed) {
        const auto rest = std::max<std::int64_t>(rest_of_timeout_ms(st), 0);
        std::string one;
        boost::json::array partitions;
        bool held_any = false, free_any = false, fine = true;
        for (const auto& p : st.partitions) {
            if (p.plain_records == 0) continue;
            (p.held_by_open_transaction ? held_any : free_any) = true;
            experiment::facts f{{"partition", p.partition},
                                {"held_by_open_transaction", p.held_by_open_transaction},
                                {"all_visible_after_ms", p.all_visible_after_ms}};
            one += (one.empty() ? "" : ", ") +
                   experiment::render(f, p.held_by_open_transaction
                                             ? "partition {partition} (written by an open transaction) visible after "
                                               "{all_visible_after_ms} ms"
                                             : "partition {partition} (not written) visible after "
                                               "{all_visible_after_ms} ms");
            partitions.push_back(std::move(f));
            if (p.held_by_open_transaction)
                fine = fine && (p.all_visible_after_ms < 0 || p.all_visible_after_ms >= rest * 8 / 10);
            else
                fine = fine && p.all_visible_after_ms >= 0 && p.all_visible_after_ms <= 10000;
        }
        const bool decisive = held_any && free_any;
        experiment::facts f{{"partitions", std::move(partitions)},
                            {"rest_of_timeout_ms", rest},
                            {"decisive", decisive},
                            {"fine", fine}};
        why += (why.empty() ? "" : "; ") + st.sink_partitioner + " partitioner: " + one +
               experiment::render(f, decisive ? ", rest of the timeout {rest_of_timeout_ms} ms"
                                              : ", rest of the timeout {rest_of_timeout_ms} ms (not decisive: one "
                                                "kind of partition only)");
        by_partitioner[st.sink_partitioner] = std::move(f);
        if (decisive) decided = true, ok = ok && fine;
    }
    if (!decided) return experiment::from_parts(verdict_kind::inconclusive, std::move(by_partitioner), why);
    return experiment::from_parts(ok ? verdict_kind::held : verdict_kind::refuted, std::move(by_partitioner), why);
}

inline std::vector<restart_run> restarts_ending(const samples& s, const std::string& ending) {
    std::vector<restart_run> out;
    for (const auto& x : s.restarts)
        if (x.ending == ending) out.push_back(x);
    return out;
}
inline std::string restart_name(const restart_run& r) { return r.ending + " #" + std::to_string(r.repeat.value_or(1)); }

inline phrase restart_phrase(const restart_run& r) {
    return {{{"read_committed", r.committed.distinct_seq},
             {"events", r.events},
             {"missing_runs", r.committed.missing_runs.size()},
             {"duplicate_rows", r.committed.duplicate_rows},
             {"uncommitted", r.uncommitted.distinct_seq},
             {"pending_age_ms", pending_age_at_restore_ms(r)},
             {"requested_timeout_ms", r.requested_timeout_ms},
             {"job_state", r.signals.state},
             {"exceptions", r.signals.exceptions},
             {"failed_checkpoints", r.signals.failed_checkpoints},
             {"log_warnings", r.signals.log_warnings}},
            "{read_committed} of {events} read committed ({missing_runs} missing runs, {duplicate_rows} duplicates), "
            "{uncommitted} uncommitted; the pending transaction was {pending_age_ms} ms old when the restored job "
            "ran, timeout {requested_timeout_ms} ms; restored job {job_state}, {exceptions} exceptions, "
            "{failed_checkpoints} failed checkpoints, {log_warnings} transaction warnings in the logs"};
}
inline std::string restart_text(const restart_run& r) { return restart_phrase(r).text(); }

// Whether the kill was placed as the ending meant: a late restore runs after
// the pending transaction's timeout, a prompt one well within it.
inline std::optional<phrase> misplaced(const restart_run& r) {
    if (r.pending_at_savepoint.empty()) return phrase{{}, "no transaction of the savepoint's checkpoint was pending"};
    const auto age = pending_age_at_restore_ms(r);
    if (age < 0) return phrase{{}, "the pending transaction's age is unknown"};
    if (r.ending == "late" && age <= r.requested_timeout_ms)
        return phrase{{}, "the late restore ran within the timeout: "} + restart_phrase(r);
    if (r.ending == "prompt" && age >= r.requested_timeout_ms * 9 / 10)
        return phrase{{}, "the prompt restore came within 10 % of the timeout: "} + restart_phrase(r);
    return std::nullopt;
}

/// A restore after the timeout loses the savepoint's pending transaction: a
/// read_committed reader misses records that read_uncommitted sees, and none twice.
inline rule_verdict restart_late_loses_the_pending_transaction(const samples& s) {
    return experiment::for_each_of(
        restarts_ending(s, "late"), restart_name,
        [](const restart_run& r) {
            if (auto why = misplaced(r)) return inconclusive(*why);
            const bool ok = !r.committed.missing_runs.empty() && r.committed.duplicate_rows == 0 &&
                            r.uncommitted.distinct_seq == r.events;
            return experiment::held_if(ok, restart_phrase(r));
        },
        "the late restore did not run");
}

/// ... and says so only in the logs: the restored job runs, with no exception
/// in its history and no failed checkpoint, while the logs carry warnings
/// about the transaction.
inline rule_verdict restart_late_is_silent_but_for_the_logs(const samples& s) {
    return experiment::for_each_of(
        restarts_ending(s, "late"), restart_name,
        [](const restart_run& r) {
            if (auto why = misplaced(r)) return inconclusive(*why);
            const bool ok = r.signals.state == "RUNNING" && r.signals.exceptions == 0 &&
                            r.signals.failed_checkpoints == 0 && r.signals.log_warnings > 0;
            return experiment::held_if(ok, restart_phrase(r));
        },
        "the late restore did not run");
}

/// A restore within the timeout commits the pending transaction: every record once.
inline rule_verdict restart_prompt_delivers_once(const samples& s) {
    return experiment::for_each_of(
        restarts_ending(s, "prompt"), restart_name,
        [](const restart_run& r) {
            if (auto why = misplaced(r)) return inconclusive(*why);
            return experiment::held_if(exactly_once(r.committed, r.events), restart_phrase(r));
        },
        "the prompt restore did not run");
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    return {{"e5.far-under-interval-loses-everything",
             [](const samples& s, const parameters&) { return far_under_interval_loses_everything(s); }},
            {"e5.far-under-interval-job-fails-over",
             [](const samples& s, const parameters&) { return far_under_interval_job_fails_over(s); }},
            {"e5.seed-condition-is-silent",
             [](const samples& s, const parameters&) { return seed_condition_is_silent(s); }},
            {"e5.just-under-interval-loses-records",
             [](const samples& s, const parameters&) { return just_under_interval_loses_records(s); }},
            {"e5.above-interval-delivers-once",
             [](const samples& s, const parameters&) { return above_interval_delivers_once(s); }},
            {"e5.just-above-interval-suffices",
             [](const samples& s, const parameters&) { return just_above_interval_suffices(s); }},
            {"e5.broker-registers-the-request",
             [](const samples& s, const parameters&) { return broker_registered_the_request(s); }},
            {"e5.above-broker-max-fails-loudly",
             [](const samples& s, const parameters&) { return above_max_fails_loudly(s); }},
            {"e5.cancel-aborts-its-transaction",
             [](const samples& s, const parameters&) { return cancel_aborts_its_transaction(s); }},
            {"e5.stuck-transaction-blocks-readers",
             [](const samples& s, const parameters&) { return stuck_transaction_blocks_readers(s); }},
            {"e5.stuck-transaction-holds-only-its-partitions",
             [](const samples& s, const parameters&) { return stuck_transaction_holds_only_its_partitions(s); }},
            {"e5.restart-late-loses-the-pending-transaction",
             [](const samples& s, const parameters&) { return restart_late_loses_the_pending_transaction(s); }},
            {"e5.restart-late-is-silent-but-for-the-logs",
             [](const samples& s, const parameters&) { return restart_late_is_silent_but_for_the_logs(s); }},
            {"e5.restart-prompt-delivers-once",
             [](const samples& s, const parameters&) { return restart_prompt_delivers_once(s); }}};
}

}  // namespace rosterrig::e5

#endif
