// rosterrig/experiments/e7b_connect_rebalance/rules.hpp: experiment 7b's measures over the trials and its verdict rules, rules().
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_RULES_HPP

#include "rosterrig/experiments/e7b_connect_rebalance/samples.hpp"

namespace rosterrig::e7b {

// ---- measures ------------------------------------------------------------------

inline bool landed_in_window(const trial& t) { return t.landed_after_ms >= 0; }
/// Coordinators the logs leave running at the window's end (started minus stopped).
inline std::int64_t coordinators_left(const trial& t) { return t.coordinators_started - t.coordinators_stopped; }
/// The table holds every acknowledged seq once and nothing else.
inline bool exact(const trial& t) {
    return t.duplicate_rows == 0 && t.missing_seq == 0 && t.rows == t.acknowledged && t.acknowledged > 0;
}

inline std::vector<const trial*> trials_of(const samples& s, const std::string& cell) {
    std::vector<const trial*> out;
    for (const auto& t : s.trials)
        if (t.cell == cell) out.push_back(&t);
    return out;
}

/// The after-commit cell's progress line on the table's first snapshot.
inline std::string first_snapshot_text(const trial& t) {
    return "the table's first snapshot " + (t.first_snapshot_after_ms < 0
                                                ? std::string("not seen")
                                                : "seen after " + std::to_string(t.first_snapshot_after_ms) + " ms");
}

inline std::string trial_text(const trial& t) {
    return "coordinator on worker " + std::to_string(t.coordinator_worker) + ", fault on worker " +
           std::to_string(t.target_worker) + "; " + std::to_string(t.records_at_window_end) + " of " +
           std::to_string(t.acknowledged) + " committed " +
           (landed_in_window(t) ? std::to_string(t.landed_after_ms / 1000) + " s after the heal"
                                : "at the window's end") +
           "; coordinators started/stopped (logged) " + std::to_string(t.coordinators_started) + "/" +
           std::to_string(t.coordinators_stopped) + "; commit rounds " + std::to_string(t.commit_rounds_started) +
           " (" + std::to_string(t.commit_rounds_timed_out) + " timed out, " + std::to_string(t.stray_answers) +
           " stray answers); coordinator group up to " + std::to_string(t.coord_group_max_members) + " members" +
           (t.restarted ? std::string("; restarted: ") +
                              (t.landed_after_restart_ms >= 0
                                   ? "all landed " + std::to_string(t.landed_after_restart_ms / 1000) + " s later"
                                   : std::to_string(t.records_after_restart) + " committed")
                        : "") +
           "; read back " + std::to_string(t.rows) + " rows, " + std::to_string(t.duplicate_rows) + " duplicate, " +
           std::to_string(t.missing_seq) + " missing";
}

// ---- rules ---------------------------------------------------------------------

using rule = experiment::rule<samples, parameters>;
using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

/// Held when at least one trial of `cell` shows `happened`, refuted when none
/// does; inconclusive with no trial (or none whose fault hit its target).
template <class Happened>
rule_verdict in_some_trial(const samples& s, const std::string& cell, Happened&& happened, const std::string& what) {
    std::uint64_t n = 0, k = 0;
    for (const auto* t : trials_of(s, cell)) {
        if (t->target_pid <= 0) continue;  // the fault never applied: nothing to judge
        ++n;
        if (happened(*t)) ++k;
    }
    if (n == 0) return inconclusive("no " + cell + " trial applied its fault");
    const auto facts = what + " in " + std::to_string(k) + " of " + std::to_string(n) + " " + cell + " trials";
    return k > 0 ? held(facts) : refuted(facts);
}

/// Held when every trial of `cell` shows `ok`; refuted when one does not. A
/// trial whose fault did not apply, or that `cannot_say` gives a reason for
/// (a condition the cell needs and the trial lacked), is inconclusive.
template <class CannotSay, class Ok>
rule_verdict in_every_trial(const samples& s, const std::string& cell, CannotSay&& cannot_say, Ok&& ok,
                            const std::string& what) {
    return experiment::for_each_of(
        trials_of(s, cell), [](const trial* t) { return t->cell + " #" + std::to_string(t->index); },
        [&](const trial* t) {
            if (t->target_pid <= 0) return inconclusive("the fault was not applied");
            if (const std::optional<std::string> why = cannot_say(*t)) return inconclusive(*why);
            return ok(*t) ? held(what) : refuted(trial_text(*t));
        },
        "no " + cell + " trial in the samples");
}
template <class Ok>
rule_verdict in_every_trial(const samples& s, const std::string& cell, Ok&& ok, const std::string& what) {
    return in_every_trial(
        s, cell, [](const trial&) { return std::optional<std::string>(); }, std::forward<Ok>(ok), what);
}
inline bool landed_exactly(const trial& t) { return landed_in_window(t) && exact(t); }

inline bool stalled(const trial& t) {
    return !landed_in_window(t) && t.records_at_window_end < static_cast<std::int64_t>(t.acknowledged);
}

/// The after-commit cell: exact in every trial whose kill came after the
/// table's first snapshot; a trial whose kill came before it cannot say. (A
/// kill after every record was committed has nothing left to lose and counts
/// as it ran: the rule the full run was judged by. What the kills had to work
/// with is a claim of its own, test/claims/e7b_claims.tests.cpp.)
inline rule_verdict kill_after_first_commit_exact(const samples& s) {
    return in_every_trial(
        s, coordinator_kill_after_commit,
        [](const trial& t) -> std::optional<std::string> {
            if (t.snapshots_before_fault < 1) return "no snapshot before the kill: the trial is the other cell's";
            return std::nullopt;
        },
        landed_exactly, "committed within the window, every acknowledged seq once, the kill after the first snapshot");
}

/// Every stalled trial (of any cell) had the sink's source offsets at the log
/// end at the window's end: the records missing from the table will not be
/// read again. Refuted by a stalled trial with lag left; inconclusive with no
/// stalled trial whose offsets were read.
inline rule_verdict stalled_sink_committed_its_offsets(const samples& s) {
    std::uint64_t n = 0, at_end = 0;
    std::string lagging;
    for (const auto& t : s.trials) {
        if (!stalled(t) || t.source_lag_at_window_end < 0) continue;
        ++n;
        if (t.source_lag_at_window_end == 0)
            ++at_end;
        else
            lagging +=
                t.cell + " #" + std::to_string(t.index) + " lag " + std::to_string(t.source_lag_at_window_end) + "; ";
    }
    if (n == 0) return inconclusive("no stalled trial whose source offsets were read");
    const auto facts = "source offsets at the log end (lag 0) with records missing from the table in " +
                       std::to_string(at_end) + " of " + std::to_string(n) + " stalled trials";
    return at_end == n ? held(facts) : refuted(facts + "; " + lagging);
}

/// "No data file is added by two snapshots" (the signature of apache/iceberg#16282),
/// over every trial that recorded its snapshots' files: refuted by one such
/// file; inconclusive when no trial recorded them (trials before the field).
inline rule_verdict no_file_committed_twice(const samples& s) {
    std::uint64_t trials = 0, with = 0, files = 0;
    std::string which;
    for (const auto& t : s.trials) {
        if (!t.files_added_twice) continue;
        ++trials;
        if (t.files_added_twice->empty()) continue;
        ++with, files += t.files_added_twice->size();
        which += t.cell + " #" + std::to_string(t.index) + ": " + std::to_string(t.files_added_twice->size()) +
                 " files, first " + t.files_added_twice->front().file_path + "; ";
    }
    if (trials == 0) return inconclusive("no trial recorded which snapshots added each data file");
    const auto facts = std::to_string(files) + " data files added by two or more snapshots, in " +
                       std::to_string(with) + " of " + std::to_string(trials) + " trials";
    return files == 0 ? held(facts) : refuted(facts + ": " + which);
}

inline std::vector<rule> rules() {
    return {
        {"e7b.coordinator-kill-stalls-commits",
         [](const samples& s, const parameters& p) {
             return in_some_trial(s, coordinator_kill, stalled,
                                  "acknowledged records still uncommitted " + std::to_string(p.settle_ms / 1000) +
                                      " s after the killed worker was back");
         }},
        {"e7b.coordinator-kill-leaves-two-coordinators",
         [](const samples& s, const parameters&) {
             return in_some_trial(
                 s, coordinator_kill, [](const trial& t) { return coordinators_left(t) >= 2; },
                 "two or more coordinators started and not stopped, as the workers logged");
         }},
        {"e7b.restart-recovers-exactly",
         [](const samples& s, const parameters&) {
             // A trial short at the window's end that was never restarted (no restart window) cannot say.
             return in_every_trial(
                 s, coordinator_kill,
                 [](const trial& t) {
                     return !landed_in_window(t) && !t.restarted
                                ? std::optional<std::string>("short at the window's end and not restarted")
                                : std::nullopt;
                 },
                 exact, "every acknowledged seq once, nothing else");
         }},
        {"e7b.zombie-pause-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, zombie_pause, landed_exactly,
                                   "committed within the window, every acknowledged seq once");
         }},
        {"e7b.one-worker-kill-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, one_worker_kill, landed_exactly,
                                   "committed within the window, every acknowledged seq once");
         }},
        {"e7b.kill-after-first-commit-exact",
         [](const samples& s, const parameters&) { return kill_after_first_commit_exact(s); }},
        {"e7b.earliest-recovers-exactly",
         [](const samples& s, const parameters&) {
             return in_every_trial(
                 s, coordinator_kill_earliest,
                 [](const trial& t) {
                     return t.control_offset_reset.value_or("") != "earliest"
                                ? std::optional<std::string>(
                                      "the worker did not store iceberg.kafka.auto.offset.reset=earliest")
                                : std::nullopt;
                 },
                 landed_exactly, "committed within the window, every acknowledged seq once");
         }},
        {"e7b.stalled-sink-committed-its-offsets",
         [](const samples& s, const parameters&) { return stalled_sink_committed_its_offsets(s); }},
        {"e7b.deleted-connector-leaves-coordinators",
         [](const samples& s, const parameters&) {
             return in_some_trial(
                 s, coordinator_kill, [](const trial& t) { return t.coord_members_after_delete > 0; },
                 "a coordinator still a member of the deleted connector's coordinator group 10 s after the deletion");
         }},
        {"e7b.no-duplicate",
         [](const samples& s, const parameters&) {
             std::uint64_t n = 0, dup = 0, with = 0;
             for (const auto& t : s.trials) {
                 if (t.rows == 0) continue;
                 ++n, dup += t.duplicate_rows, with += t.duplicate_rows > 0 ? 1 : 0;
             }
             if (n == 0) return inconclusive("no trial read rows back");
             const auto facts = std::to_string(dup) + " duplicate seq rows in " + std::to_string(with) + " of " +
                                std::to_string(n) + " trials";
             return dup == 0 ? held(facts) : refuted(facts);
         }},
        {"e7b.no-file-committed-twice", [](const samples& s, const parameters&) { return no_file_committed_twice(s); }},
    };
}

}  // namespace rosterrig::e7b

#endif
