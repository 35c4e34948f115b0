// rosterrig/experiments/e7b_connect_rebalance/rules.hpp: experiment 7b's measures over the trials and its verdict rules, rules().
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_RULES_HPP

#include "rosterrig/experiments/e7b_connect_rebalance/samples.hpp"

namespace rosterrig::e7b {

// ---- measures ------------------------------------------------------------------

inline bool landed_in_window(const trial& t) { return t.landed_after_ms >= 0; }
/// The trial's final read-back misses acknowledged seqs.
inline bool lossy(const trial& t) { return t.missing_seq > 0; }
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

/// A trial as facts and their sentence: what refutes an every-trial rule.
inline experiment::phrase trial_phrase(const trial& t) {
    std::string pattern =
        "coordinator on worker {coordinator_worker}, fault on worker {target_worker}; {records_at_window_end} of "
        "{acknowledged} committed ";
    pattern += landed_in_window(t) ? "{landed_after_s} s after the heal" : "at the window's end";
    pattern +=
        "; coordinators started/stopped (logged) {coordinators_started}/{coordinators_stopped}; commit rounds "
        "{commit_rounds_started} ({commit_rounds_timed_out} timed out, {stray_answers} stray answers); coordinator "
        "group up to {coord_group_max_members} members";
    if (t.restarted)
        pattern += t.landed_after_restart_ms >= 0 ? "; restarted: all landed {landed_after_restart_s} s later"
                                                  : "; restarted: {records_after_restart} committed";
    pattern += "; read back {rows} rows, {duplicate_rows} duplicate, {missing_seq} missing";
    return {{{"coordinator_worker", t.coordinator_worker},
             {"target_worker", t.target_worker},
             {"records_at_window_end", t.records_at_window_end},
             {"acknowledged", t.acknowledged},
             {"landed_after_s", t.landed_after_ms / 1000},
             {"coordinators_started", t.coordinators_started},
             {"coordinators_stopped", t.coordinators_stopped},
             {"commit_rounds_started", t.commit_rounds_started},
             {"commit_rounds_timed_out", t.commit_rounds_timed_out},
             {"stray_answers", t.stray_answers},
             {"coord_group_max_members", t.coord_group_max_members},
             {"restarted", t.restarted},
             {"landed_after_restart_s", t.landed_after_restart_ms / 1000},
             {"records_after_restart", t.records_after_restart},
             {"rows", t.rows},
             {"duplicate_rows", t.duplicate_rows},
             {"missing_seq", t.missing_seq}},
            pattern};
}
inline std::string trial_text(const trial& t) { return trial_phrase(t).text(); }

// ---- rules ---------------------------------------------------------------------

using rule = experiment::rule<samples, parameters>;
using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

using experiment::phrase;

/// Held when at least one trial of `cell` shows `happened`, refuted when none
/// does (on a run that did not complete, only once it has: held_by_any_trial);
/// inconclusive with no trial (or none whose fault hit its target).
template <class Happened>
rule_verdict in_some_trial(const samples& s, const std::string& cell, Happened&& happened, const phrase& what) {
    std::uint64_t n = 0, k = 0;
    for (const auto* t : trials_of(s, cell)) {
        if (t->target_pid <= 0) continue;  // the fault never applied: nothing to judge
        ++n;
        if (happened(*t)) ++k;
    }
    if (n == 0) return inconclusive({{"cell", cell}}, "no {cell} trial applied its fault");
    return experiment::held_by_any_trial(
        experiment::held_if(k > 0, what + phrase{{{"trials_showing", k}, {"trials", n}, {"cell", cell}},
                                                 " in {trials_showing} of {trials} {cell} trials"}));
}

/// Held when a trial of `cell` ended with two or more coordinators started and
/// not stopped, as the workers logged.
inline rule_verdict left_two_coordinators(const samples& s, const std::string& cell) {
    return in_some_trial(
        s, cell, [](const trial& t) { return coordinators_left(t) >= 2; },
        phrase{{}, "two or more coordinators started and not stopped, as the workers logged"});
}

/// Held when a trial of `cell` misses acknowledged seqs in its final read-back
/// (after the REST restart's window, when it had one).
inline rule_verdict lost_for_good(const samples& s, const std::string& cell) {
    return in_some_trial(s, cell, lossy,
                         phrase{{}, "acknowledged seqs missing from the final read-back, after the restart window,"});
}

/// Held when every trial of `cell` shows `ok`; refuted when one does not. A
/// trial whose fault did not apply, or that `cannot_say` gives a reason for
/// (a condition the cell needs and the trial lacked), is inconclusive.
template <class CannotSay, class Ok>
rule_verdict in_every_trial(const samples& s, const std::string& cell, CannotSay&& cannot_say, Ok&& ok,
                            const phrase& what) {
    return experiment::for_each_of(
        trials_of(s, cell), [](const trial* t) { return t->cell + " #" + std::to_string(t->index); },
        [&](const trial* t) {
            if (t->target_pid <= 0) return inconclusive({}, "the fault was not applied");
            if (const std::optional<phrase> why = cannot_say(*t)) return inconclusive(*why);
            return ok(*t) ? held(what) : refuted(trial_phrase(*t));
        },
        "no " + cell + " trial in the samples");
}
template <class Ok>
rule_verdict in_every_trial(const samples& s, const std::string& cell, Ok&& ok, const phrase& what) {
    return in_every_trial(s, cell, [](const trial&) { return std::optional<phrase>(); }, std::forward<Ok>(ok), what);
}
inline bool landed_exactly(const trial& t) { return landed_in_window(t) && exact(t); }

/// The earliest cell's premise, unmet: the worker did not store the
/// connector with iceberg.kafka.auto.offset.reset=earliest.
inline std::optional<phrase> not_stored_earliest(const trial& t) {
    if (t.control_offset_reset.value_or("") == "earliest") return std::nullopt;
    return phrase{{{"offset_reset", t.control_offset_reset.value_or("")}},
                  "the worker did not store iceberg.kafka.auto.offset.reset=earliest"};
}

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
        [](const trial& t) -> std::optional<phrase> {
            if (t.snapshots_before_fault < 1)
                return phrase{{{"snapshots_before_fault", t.snapshots_before_fault}},
                              "no snapshot before the kill: the trial is the other cell's"};
            return std::nullopt;
        },
        landed_exactly,
        phrase{{}, "committed within the window, every acknowledged seq once, the kill after the first snapshot"});
}

/// Every stalled trial (of any cell) had the sink's source offsets at the log
/// end at the window's end: the records missing from the table will not be
/// read again. Refuted by a stalled trial with lag left; inconclusive with no
/// stalled trial whose offsets were read.
inline rule_verdict stalled_sink_committed_its_offsets(const samples& s) {
    std::uint64_t n = 0, at_end = 0;
    phrase lagging{{}, {}};  // each lagging trial, under its name
    for (const auto& t : s.trials) {
        if (!stalled(t) || t.source_lag_at_window_end < 0) continue;
        ++n;
        if (t.source_lag_at_window_end == 0)
            ++at_end;
        else {
            const std::string name = t.cell + " #" + std::to_string(t.index);
            lagging = lagging + experiment::nested(name, phrase{{{"trial", name}, {"lag", t.source_lag_at_window_end}},
                                                                "{trial} lag {lag}; "});
        }
    }
    if (n == 0) return inconclusive({}, "no stalled trial whose source offsets were read");
    const phrase counts{{{"at_log_end", at_end}, {"stalled", n}},
                        "source offsets at the log end (lag 0) with records missing from the table in {at_log_end} of "
                        "{stalled} stalled trials"};
    return at_end == n ? held(counts) : refuted(counts + "; " + lagging);
}

/// "No data file is added by two snapshots" (the signature of apache/iceberg#16282),
/// over every trial that recorded its snapshots' files: refuted by one such
/// file; inconclusive when no trial recorded them (trials before the field).
inline rule_verdict no_file_committed_twice(const samples& s) {
    std::uint64_t trials = 0, with = 0, files = 0;
    phrase which{{}, {}};
    for (const auto& t : s.trials) {
        if (!t.files_added_twice) continue;
        ++trials;
        if (t.files_added_twice->empty()) continue;
        ++with, files += t.files_added_twice->size();
        const auto label = t.cell + " #" + std::to_string(t.index);
        which = which + experiment::nested(label, phrase{{{"trial", label},
                                                          {"files", t.files_added_twice->size()},
                                                          {"first", t.files_added_twice->front().file_path}},
                                                         "{trial}: {files} files, first {first}; "});
    }
    if (trials == 0) return inconclusive({}, "no trial recorded which snapshots added each data file");
    const phrase facts{{{"files_added_twice", files}, {"trials_with", with}, {"trials", trials}},
                       "{files_added_twice} data files added by two or more snapshots, in {trials_with} of {trials} "
                       "trials"};
    return files == 0 ? held(facts) : refuted(facts + ": " + which);
}

/// Workers in words: "1, 2", or "none".
inline std::string workers_text(const std::vector<std::int64_t>& workers) {
    std::string out;
    for (const auto w : workers) out += (out.empty() ? "" : ", ") + std::to_string(w);
    return out.empty() ? "none" : out;
}

/// coordinator-pause's premise: in every trial the worker not paused logged a
/// coordinator election between the SIGSTOP and the SIGCONT (the coordinator
/// moved while the old one was stopped). A trial that did not record the
/// elections, or whose paused worker is unknown, cannot say.
inline rule_verdict coordinator_pause_moves_coordinator(const samples& s) {
    return experiment::for_each_of(
        trials_of(s, coordinator_pause), [](const trial* t) { return t->cell + " #" + std::to_string(t->index); },
        [](const trial* t) {
            if (t->target_pid <= 0) return inconclusive({}, "the fault was not applied");
            if (!t->elected_during_fault) return inconclusive({}, "the elections during the pause were not recorded");
            if (t->target_worker < 1 || t->target_worker > 2)
                return inconclusive({{"paused", t->target_worker}}, "the paused worker is unknown ({paused})");
            const auto other = 3 - t->target_worker;
            const auto& elected = *t->elected_during_fault;
            return experiment::held_if(
                std::find(elected.begin(), elected.end(), other) != elected.end(),
                phrase{{{"paused", t->target_worker}, {"other", other}, {"elected", workers_text(elected)}},
                       "worker {paused} paused; coordinator elections logged during the pause by workers {elected} "
                       "(the other is worker {other})"});
        },
        "no coordinator-pause trial in the samples");
}

/// tasks-4's kill stalls commits in at least one trial whose connector the
/// worker stored with tasks.max 4; a trial stored otherwise (or from before
/// the field) is not the cell's and is left out.
inline rule_verdict tasks_4_kill_stalls_commits(const samples& s, const parameters& p) {
    samples four;
    bool any = false;
    for (const auto& t : s.trials) {
        if (t.cell != tasks_4) continue;
        any = true;
        if (t.tasks_max == 4) four.trials.push_back(t);
    }
    if (any && four.trials.empty()) return inconclusive({}, "no tasks-4 trial's connector was stored with tasks.max 4");
    return in_some_trial(four, tasks_4, stalled,
                         phrase{{{"settle_s", p.settle_ms / 1000}},
                                "acknowledged records still uncommitted {settle_s} s after the killed worker was back, "
                                "tasks.max 4 as stored,"});
}

/// worker-join: a trial in which two workers did not answer at the window's
/// end had no join to judge.
inline std::optional<phrase> no_join(const trial& t) {
    if (!t.workers_at_window_end) return phrase{{}, "the workers answering at the window's end were not recorded"};
    if (*t.workers_at_window_end < 2)
        return phrase{{{"workers", *t.workers_at_window_end}},
                      "{workers} worker(s) answering at the window's end: the second did not join"};
    return std::nullopt;
}

inline std::vector<rule> rules() {
    std::vector<rule> judged_as_written = {
        {"e7b.coordinator-kill-stalls-commits",
         [](const samples& s, const parameters& p) {
             return in_some_trial(s, coordinator_kill, stalled,
                                  phrase{{{"settle_s", p.settle_ms / 1000}},
                                         "acknowledged records still uncommitted {settle_s} s after the killed worker "
                                         "was back"});
         }},
        {"e7b.coordinator-kill-leaves-two-coordinators",
         [](const samples& s, const parameters&) { return left_two_coordinators(s, coordinator_kill); }},
        {"e7b.restart-recovers-exactly",
         [](const samples& s, const parameters&) {
             // A trial short at the window's end that was never restarted (no restart window) cannot say.
             return in_every_trial(
                 s, coordinator_kill,
                 [](const trial& t) {
                     return !landed_in_window(t) && !t.restarted
                                ? std::optional<phrase>(phrase{{}, "short at the window's end and not restarted"})
                                : std::nullopt;
                 },
                 exact, phrase{{}, "every acknowledged seq once, nothing else"});
         }},
        {"e7b.zombie-pause-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, zombie_pause, landed_exactly,
                                   phrase{{}, "committed within the window, every acknowledged seq once"});
         }},
        {"e7b.one-worker-kill-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, one_worker_kill, landed_exactly,
                                   phrase{{}, "committed within the window, every acknowledged seq once"});
         }},
        {"e7b.kill-after-first-commit-exact",
         [](const samples& s, const parameters&) { return kill_after_first_commit_exact(s); }},
        {"e7b.earliest-recovers-exactly",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, coordinator_kill_earliest, not_stored_earliest, landed_exactly,
                                   phrase{{}, "committed within the window, every acknowledged seq once"});
         }},
        {"e7b.stalled-sink-committed-its-offsets",
         [](const samples& s, const parameters&) { return stalled_sink_committed_its_offsets(s); }},
        {"e7b.deleted-connector-leaves-coordinators",
         [](const samples& s, const parameters&) {
             return in_some_trial(
                 s, coordinator_kill, [](const trial& t) { return t.coord_members_after_delete > 0; },
                 phrase{{},
                        "a coordinator still a member of the deleted connector's coordinator group 10 s after the "
                        "deletion"});
         }},
        {"e7b.no-duplicate",
         [](const samples& s, const parameters&) {
             std::uint64_t n = 0, dup = 0, with = 0;
             for (const auto& t : s.trials) {
                 if (t.rows == 0) continue;
                 ++n, dup += t.duplicate_rows, with += t.duplicate_rows > 0 ? 1 : 0;
             }
             if (n == 0) return inconclusive({}, "no trial read rows back");
             return experiment::held_if(dup == 0, {{"duplicate_rows", dup}, {"trials_with", with}, {"trials", n}},
                                        "{duplicate_rows} duplicate seq rows in {trials_with} of {trials} trials");
         }},
        {"e7b.no-file-committed-twice", [](const samples& s, const parameters&) { return no_file_committed_twice(s); }},
        // The cells added for issue 35 (coordinator-pause, tasks-4, worker-leave, worker-join).
        {"e7b.coordinator-pause-moves-coordinator",
         [](const samples& s, const parameters&) { return coordinator_pause_moves_coordinator(s); }},
        {"e7b.coordinator-pause-stalls-commits",
         [](const samples& s, const parameters& p) {
             return in_some_trial(s, coordinator_pause, stalled,
                                  phrase{{{"settle_s", p.settle_ms / 1000}},
                                         "acknowledged records still uncommitted {settle_s} s after the SIGCONT"});
         }},
        {"e7b.coordinator-pause-two-coordinators",
         [](const samples& s, const parameters&) {
             return in_some_trial(
                 s, coordinator_pause, [](const trial& t) { return t.coord_group_samples_with_two > 0; },
                 phrase{{}, "a sample of the coordinators' group with two or more members after the SIGCONT"});
         }},
        {"e7b.tasks-4-kill-stalls-commits",
         [](const samples& s, const parameters& p) { return tasks_4_kill_stalls_commits(s, p); }},
        {"e7b.worker-leave-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, worker_leave, landed_exactly,
                                   phrase{{}, "committed within the window, every acknowledged seq once"});
         }},
        {"e7b.worker-join-exact",
         [](const samples& s, const parameters&) {
             return in_every_trial(s, worker_join, no_join, landed_exactly,
                                   phrase{{}, "committed within the window, every acknowledged seq once"});
         }},
        {"e7b.config-update-two-coordinators",
         [](const samples& s, const parameters&) { return left_two_coordinators(s, config_update); }},
        {"e7b.config-update-loses-records",
         [](const samples& s, const parameters&) { return lost_for_good(s, config_update); }},
        {"e7b.task-restart-two-coordinators",
         [](const samples& s, const parameters&) { return left_two_coordinators(s, task_restart); }},
        {"e7b.task-restart-loses-records",
         [](const samples& s, const parameters&) { return lost_for_good(s, task_restart); }},
        {"e7b.task-restart-in-commit-loses-records",
         [](const samples& s, const parameters&) {
             // Only the aimed trials: a restart that found no round to follow is task-restart's.
             auto aimed = s;
             std::erase_if(aimed.trials, [](const trial& t) { return !t.aimed_in_commit.value_or(false); });
             return lost_for_good(aimed, task_restart_in_commit);
         }},
    };
    // A trial a stopped run recorded only halfway (its fault applied, its
    // window cut short) judges nothing: the resume runs it again.
    std::vector<rule> out;
    for (auto& r : judged_as_written)
        out.push_back({r.id, [judge = std::move(r.judge)](const samples& s, const parameters& p) {
                           samples finished_trials = s;
                           drop_unfinished(finished_trials);
                           return judge(finished_trials, p);
                       }});
    return out;
}

}  // namespace rosterrig::e7b

#endif
