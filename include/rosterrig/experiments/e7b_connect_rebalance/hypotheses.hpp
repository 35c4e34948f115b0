// rosterrig/experiments/e7b_connect_rebalance/hypotheses.hpp: the four hypotheses of docs/E7B_HYPOTHESES.md as rules, hypotheses(), judged over the trials of the cells the full run had not run when they were committed.
//
// They are not predictions: the run's predictions were recorded when it
// started and cannot change while it is under way. They were read off its
// first two cells (task-restart-in-commit, worker-leave) and committed before
// the other ten ran (5b64459), so those two cells are left out: a pattern is
// not tested on the trials it was read from.
#ifndef ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_HYPOTHESES_HPP
#define ROSTERRIG_EXPERIMENTS_E7B_CONNECT_REBALANCE_HYPOTHESES_HPP

#include "rosterrig/experiments/e7b_connect_rebalance/rules.hpp"

namespace rosterrig::e7b {

/// The cells the hypotheses were read from.
inline bool hypotheses_read_from(const std::string& cell) {
    return cell == task_restart_in_commit || cell == worker_leave;
}

/// The trials that test the hypotheses: recorded to their end, their fault
/// applied, of a cell the hypotheses were not read from.
inline samples hypothesis_trials(const samples& s) {
    samples out = s;
    drop_unfinished(out);
    std::erase_if(out.trials, [](const trial& t) { return hypotheses_read_from(t.cell) || t.target_pid <= 0; });
    return out;
}

/// Held when every lossy trial shows `ok`, refuted by one that does not, each
/// trial stated by `describe`; a lossy trial `cannot_say` gives a reason for is
/// inconclusive, and so is a run with no lossy trial (a condition for a loss
/// is not tested without one). A refutation names only the trials that refute
/// and counts the others, and a hold counts them (`held_as`: what each showed):
/// a full run has over a hundred lossy trials that agree.
template <class CannotSay, class Ok, class Describe>
rule_verdict every_lossy_trial(const samples& s, CannotSay&& cannot_say, Ok&& ok, Describe&& describe,
                               const std::string& held_as) {
    std::vector<const trial*> lossy_trials, refuting;
    bool any_cannot_say = false;
    for (const auto& t : s.trials)
        if (lossy(t)) {
            lossy_trials.push_back(&t);
            any_cannot_say = any_cannot_say || cannot_say(t).has_value();
            if (!cannot_say(t) && !ok(t)) refuting.push_back(&t);
        }
    if (refuting.empty() && !any_cannot_say && !lossy_trials.empty())
        return held({{"lossy", lossy_trials.size()}}, "all {lossy} trials that missed acknowledged seqs: " + held_as);
    const auto judge_trials = [&](const std::vector<const trial*>& trials) {
        return experiment::for_each_of(
            trials, [](const trial* t) { return t->cell + " #" + std::to_string(t->index); },
            [&](const trial* t) {
                if (const std::optional<phrase> why = cannot_say(*t)) return inconclusive(*why);
                return experiment::held_if(ok(*t), describe(*t) + phrase{{{"missing_seq", t->missing_seq}},
                                                                         "; {missing_seq} acknowledged seqs missing"});
            },
            "no trial missed an acknowledged seq");
    };
    if (refuting.empty()) return judge_trials(lossy_trials);
    auto v = judge_trials(refuting);
    v.reason += std::to_string(lossy_trials.size() - refuting.size()) + " other lossy trial(s) not named";
    return v;
}

inline std::vector<rule> hypotheses() {
    const std::vector<rule> over_their_trials = {
        {"e7b.hypothesis.loss-needs-a-table-without-a-snapshot",
         [](const samples& s, const parameters&) {
             return every_lossy_trial(
                 s, [](const trial&) { return std::optional<phrase>(); },
                 [](const trial& t) { return t.snapshots_before_fault == 0; },
                 [](const trial& t) {
                     return phrase{{{"snapshots_before_fault", t.snapshots_before_fault}},
                                   "{snapshots_before_fault} snapshots before the fault"};
                 },
                 "no snapshot before the fault");
         }},
        {"e7b.hypothesis.coordinator-kill-before-first-snapshot-can-lose",
         [](const samples& s, const parameters&) {
             samples before_first = s;
             std::erase_if(before_first.trials, [](const trial& t) { return t.snapshots_before_fault != 0; });
             if (trials_of(before_first, coordinator_kill).empty())
                 return inconclusive({}, "no coordinator-kill trial killed before the table's first snapshot");
             return in_some_trial(before_first, coordinator_kill, lossy,
                                  phrase{{},
                                         "acknowledged seqs missing from the final read-back after a kill before the "
                                         "table's first snapshot,"});
         }},
        {"e7b.hypothesis.earliest-reset-closes-it",
         [](const samples& s, const parameters&) {
             auto v = in_every_trial(
                 s, coordinator_kill_earliest, not_stored_earliest, [](const trial& t) { return !lossy(t); },
                 phrase{{}, "no acknowledged seq missing from the final read-back"});
             // Held: counted, not each trial named.
             if (v.verdict == verdict_kind::held)
                 v = held(
                     {{"trials", trials_of(s, coordinator_kill_earliest).size()}},
                     "no acknowledged seq missing from the final read-back in any of the {trials} "
                     "coordinator-kill-earliest trials, each stored with iceberg.kafka.auto.offset.reset=earliest");
             return v;
         }},
        {"e7b.hypothesis.loss-silent-to-lag",
         [](const samples& s, const parameters&) {
             return every_lossy_trial(
                 s,
                 [](const trial& t) {
                     return t.source_lag_at_window_end < 0
                                ? std::optional<phrase>(phrase{{}, "the sink's source offsets were not read"})
                                : std::nullopt;
                 },
                 [](const trial& t) { return t.source_lag_at_window_end == 0; },
                 [](const trial& t) {
                     return phrase{{{"source_lag", t.source_lag_at_window_end}},
                                   "source lag {source_lag} at the window's end"};
                 },
                 "source lag 0 at the window's end");
         }},
    };
    std::vector<rule> out;
    for (const auto& r : over_their_trials)
        out.push_back({r.id, [judge = r.judge](const samples& s, const parameters& p) {
                           return judge(hypothesis_trials(s), p);
                       }});
    return out;
}

}  // namespace rosterrig::e7b

#endif
