// Experiment 7b's claims (the Connect sink under rebalances), asserted against
// the shipped results file. Each holds on the shipped samples AND fails on a
// copy with the named mutation, so a claim cannot pass by checking nothing.
#include <catch2/catch.hpp>

#include <functional>

#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

#include "shipped_result.hpp"

using namespace rosterrig;

using C = claims_test::claims_of<e7b::definition>;

namespace {
// "coordinator-kill trial 3": the cell and the trial, for a claim's failed comparison.
std::string trial_label(const e7b::trial& t) { return t.cell + " trial " + std::to_string(t.index); }

// The verdict the code computes for one hypothesis of docs/E7B_HYPOTHESES.md
// on these samples, as a completed run (the shipped result is one).
verdict_kind hypothesis_verdict(const e7b::samples& x, const e7b::parameters& p, const std::string& id) {
    for (const auto& o : experiment::judge_stated(x, p, e7b::hypotheses(), true))
        if (o.id == id) return o.verdict;
    FAIL("no hypothesis " << id);
    return verdict_kind::inconclusive;
}

// The claim that hypothesis `id` is judged `expected` on the shipped run, and
// is not once `mutate` changed the samples.
void hypothesis_is(const std::string& id, verdict_kind expected, const std::function<void(e7b::samples&)>& mutate) {
    C::holds_and_is_mutation_checked(
        [&](const e7b::samples& x, const e7b::parameters& p) {
            return claims_test::eq(id + "'s verdict", hypothesis_verdict(x, p, id), expected);
        },
        mutate);
}

// The trials of a cell that lost acknowledged records for good.
std::size_t lossy_trials(const e7b::samples& x, const std::string& cell) {
    const auto ts = e7b::trials_of(x, cell);
    return static_cast<std::size_t>(std::count_if(ts.begin(), ts.end(), [](const auto* t) { return e7b::lossy(*t); }));
}
}  // namespace

// Mutation: drop one trial.
TEST_CASE("the e7b full run made every planned trial of every cell, each with its fault applied", "[claims][e7b]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x, const e7b::parameters& p) {
            for (const auto& cell : p.cells) {
                const auto ts = e7b::trials_of(x, cell);
                if (!claims_test::eq(cell + " trials", ts.size(), p.trials)) return false;
                for (const auto* t : ts) {
                    const auto trial = trial_label(*t);
                    if (!claims_test::gt(trial + " target pid", t->target_pid, 0) ||
                        !claims_test::gt(trial + " fault at (ms)", t->fault_at_ms, 0) ||
                        !claims_test::ge(trial + " healed at >= fault at (ms)", t->healed_at_ms, t->fault_at_ms))
                        return false;
                }
            }
            return claims_test::eq("trials == trials per cell times cells", x.trials.size(),
                                   p.trials * p.cells.size()) &&
                   claims_test::ge("trials per cell", p.trials, 3);
        },
        [](e7b::samples& x) { x.trials.pop_back(); });
}

// Mutation: a pause healed after 5 s. (The first full run read the state
// letter right after each SIGSTOP, too soon to show the stop; this run reads
// it until T, for at most 2 s.)
TEST_CASE(
    "every e7b kill ended the worker JVM and its supervisor started another, every pause stopped the worker (state T) and was healed by SIGCONT after its full duration, and every REST restart or update left the worker JVM in place with its tasks RUNNING again",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x, const e7b::parameters& p) {
            for (const auto& t : x.trials) {
                const auto trial = trial_label(t);
                if (e7b::kind_of(t.cell) == experiment::fault_kind::pause) {
                    if (!claims_test::eq(trial + " replacement pid (none for a pause)", t.replacement_pid, 0) ||
                        !claims_test::eq(trial + " process state seen paused", t.state_seen_paused, "T") ||
                        !claims_test::ge(trial + " paused for (ms)", t.healed_at_ms - t.fault_at_ms, p.pause_ms))
                        return false;
                } else if (e7b::kind_of(t.cell) == experiment::fault_kind::start) {
                    // A join starts a worker: nothing is replaced; the started JVM is the target.
                    if (!claims_test::gt(trial + " started pid", t.target_pid, 0)) return false;
                } else if (e7b::kind_of(t.cell) == experiment::fault_kind::reconfigure ||
                           e7b::kind_of(t.cell) == experiment::fault_kind::restart_task) {
                    // A REST call signals no process: the worker JVM stays, its tasks run again.
                    if (!claims_test::eq(trial + " replacement pid (none for a REST call)", t.replacement_pid, 0) ||
                        !claims_test::ge(trial + " every task RUNNING again after (ms)", t.running_again_after_ms, 0))
                        return false;
                } else if (!claims_test::gt(trial + " replacement pid", t.replacement_pid, 0) ||
                           !claims_test::ne(trial + " replacement pid != target pid", t.replacement_pid,
                                            t.target_pid)) {
                    return false;
                }
            }
            return claims_test::gt("e7b trials", x.trials.size(), 0);
        },
        [](e7b::samples& x) {
            for (auto& t : x.trials)
                if (t.cell == e7b::zombie_pause) {
                    t.healed_at_ms = t.fault_at_ms + 5000;
                    break;
                }
        });
}

// Mutation: one trial recorded at a 30 s commit interval. (The first full run
// read the tasks RUNNING right after the start, 1 of 2 in four trials; this
// run polls for all of them, for at most 30 s, before the feed.)
TEST_CASE(
    "every e7b connector ran with the commit interval requested, as the worker stored it, every task RUNNING before the feed, on the workers each cell asks",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x, const e7b::parameters& p) {
            for (const auto& t : x.trials) {
                const auto trial = trial_label(t);
                if (!claims_test::eq(trial + " commit interval as stored (ms)", t.commit_interval_ms,
                                     p.commit_interval_ms) ||
                    !claims_test::eq(trial + " tasks running before the feed", t.tasks_running,
                                     e7b::tasks_of(p, t.cell)) ||
                    !claims_test::eq(trial + " workers in the group", t.workers, e7b::workers_of(t.cell)))
                    return false;
            }
            return claims_test::gt("e7b trials", x.trials.size(), 0);
        },
        [](e7b::samples& x) { x.trials.front().commit_interval_ms = 30000; });
}

// Mutation: a coordinator-kill trial whose fault hit the other worker.
TEST_CASE(
    "every e7b coordinator kill hit the worker whose log elected the coordinator, and every zombie pause the other one",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x) {
            for (const auto& t : x.trials) {
                const auto trial = trial_label(t);
                if (!claims_test::ge(trial + " coordinator worker", t.coordinator_worker, 1) ||
                    !claims_test::le(trial + " coordinator worker", t.coordinator_worker, 2))
                    return false;
                // The zombie and the leave hit the other worker, the join the second, the rest the coordinator's.
                if (!claims_test::eq(trial + " worker hit", t.target_worker,
                                     e7b::target_worker_of(t.cell, t.coordinator_worker)))
                    return false;
            }
            return claims_test::gt("e7b trials", x.trials.size(), 0);
        },
        [](e7b::samples& x) {
            for (auto& t : x.trials)
                if (t.cell == e7b::coordinator_kill) {
                    t.target_worker = 3 - t.coordinator_worker;
                    break;
                }
        });
}

TEST_CASE("the e7b verdicts on record are the ones the code computes from the samples", "[claims][e7b]") {
    auto h = C::recorded_verdicts_are_recomputed(22);
    // Mutation (data): a duplicate seq row in the first trial that read rows back refutes no-duplicate.
    for (auto& t : h.samples.trials)
        if (t.rows > 0) {
            t.duplicate_rows = 1;
            break;
        }
    const auto judged = experiment::rejudge(h);
    const auto it =
        std::find_if(judged.begin(), judged.end(), [](const auto& o) { return o.id == "e7b.no-duplicate"; });
    REQUIRE(it != judged.end());
    CHECK(it->verdict == verdict_kind::refuted);
}

// What the after-commit cell's null had to work with: at least three kills
// came after the table's first snapshot with acknowledged records still
// uncommitted (a kill after every record was committed has nothing to lose,
// and the rule leaves it undecided).
// Mutation: every after-commit trial but two recorded with all its records committed before the kill.
TEST_CASE(
    "at least three e7b after-commit kills came after the table's first snapshot, with acknowledged records still uncommitted",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x) {
            std::size_t with_something_to_lose = 0;
            for (const auto* t : e7b::trials_of(x, e7b::coordinator_kill_after_commit))
                with_something_to_lose += t->snapshots_before_fault >= 1 && t->first_snapshot_after_ms >= 0 &&
                                          t->records_before_fault < static_cast<std::int64_t>(t->acknowledged);
            return claims_test::ge("after-commit kills with acknowledged records still uncommitted",
                                   with_something_to_lose, 3);
        },
        [](e7b::samples& x) {
            std::size_t kept = 0;
            for (auto& t : x.trials)
                if (t.cell == e7b::coordinator_kill_after_commit && ++kept > 2)
                    t.records_before_fault = static_cast<std::int64_t>(t.acknowledged);
        });
}

// The fifth cell's contrast with the first is one setting: the same kill,
// before any table snapshot, on a connector whose stored config holds
// iceberg.kafka.auto.offset.reset=earliest; no other cell has it.
// Mutation: one earliest trial recorded with the setting unset.
TEST_CASE(
    "every e7b earliest-cell connector ran with auto.offset.reset earliest as the worker stored it, no other cell's did, and its kills came before the table's first snapshot",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x) {
            for (const auto& t : x.trials) {
                const bool earliest = t.control_offset_reset.value_or("") == "earliest";
                const auto trial = trial_label(t);
                if (!claims_test::eq(trial + " in the earliest cell == stored auto.offset.reset earliest",
                                     t.cell == e7b::coordinator_kill_earliest, earliest))
                    return false;
                if (earliest && !claims_test::eq(trial + " snapshots before the fault", t.snapshots_before_fault, 0))
                    return false;
            }
            return claims_test::ge("earliest-cell trials", e7b::trials_of(x, e7b::coordinator_kill_earliest).size(), 3);
        },
        [](e7b::samples& x) {
            for (auto& t : x.trials)
                if (t.cell == e7b::coordinator_kill_earliest) {
                    t.control_offset_reset.reset();
                    break;
                }
        });
}

// ---- the hypotheses of docs/E7B_HYPOTHESES.md, computed over the ten cells that had not run when they were stated

// Mutation: every lossy trial recorded with no snapshot before its fault.
TEST_CASE(
    "e7b hypothesis 1 (a loss needs a table without a snapshot) is refuted: one-worker-kill trials lost records after the table's first snapshot",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x, const e7b::parameters& p) {
            std::size_t lossy_with_a_snapshot = 0;
            for (const auto* t : e7b::trials_of(x, e7b::one_worker_kill))
                lossy_with_a_snapshot += e7b::lossy(*t) && t->snapshots_before_fault > 0;
            return claims_test::eq("hypothesis 1's verdict",
                                   hypothesis_verdict(x, p, "e7b.hypothesis.loss-needs-a-table-without-a-snapshot"),
                                   verdict_kind::refuted) &&
                   claims_test::ge("one-worker-kill trials lossy after a snapshot", lossy_with_a_snapshot, 1);
        },
        [](e7b::samples& x) {
            for (auto& t : x.trials)
                if (e7b::lossy(t)) t.snapshots_before_fault = 0;
        });
}

// Mutation: every coordinator kill before the first snapshot recorded as landing every record.
TEST_CASE("e7b hypothesis 2 (a coordinator killed before the first snapshot can lose) holds", "[claims][e7b]") {
    hypothesis_is("e7b.hypothesis.coordinator-kill-before-first-snapshot-can-lose", verdict_kind::held,
                  [](e7b::samples& x) {
                      for (auto& t : x.trials)
                          if (t.cell == e7b::coordinator_kill && t.snapshots_before_fault == 0) t.missing_seq = 0;
                  });
}

// Mutation: one earliest-cell trial recorded with 100 acknowledged seqs missing.
TEST_CASE("e7b hypothesis 3 (the earliest reset closes it) holds: no coordinator-kill-earliest trial lost a record",
          "[claims][e7b]") {
    hypothesis_is("e7b.hypothesis.earliest-reset-closes-it", verdict_kind::held, [](e7b::samples& x) {
        for (auto& t : x.trials)
            if (t.cell == e7b::coordinator_kill_earliest) {
                t.missing_seq = 100;
                break;
            }
    });
}

// Mutation: one lossy trial of a cell the hypotheses were not read from recorded with source lag 17.
TEST_CASE("e7b hypothesis 4 (the loss is silent to the sink's lag) holds", "[claims][e7b]") {
    hypothesis_is("e7b.hypothesis.loss-silent-to-lag", verdict_kind::held, [](e7b::samples& x) {
        for (auto& t : x.trials)
            if (e7b::lossy(t) && !e7b::hypotheses_read_from(t.cell)) {
                t.source_lag_at_window_end = 17;
                break;
            }
    });
}

// ---- the losses the full run found

// Mutation: three coordinator-pause trials recorded as landing every record.
TEST_CASE(
    "the coordinator's worker killed or paused before the table's first snapshot lost acknowledged records for good in at least 28 of 30 trials of each such cell",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x) {
            for (const auto& cell : {e7b::coordinator_kill, e7b::coordinator_pause, e7b::tasks_4})
                if (!claims_test::ge(std::string(cell) + " lossy trials", lossy_trials(x, cell), 28)) return false;
            return true;
        },
        [](e7b::samples& x) {
            int changed = 0;
            for (auto& t : x.trials)
                if (t.cell == e7b::coordinator_pause && e7b::lossy(t) && changed++ < 3) t.missing_seq = 0;
        });
}

// Mutation: one-worker-kill's lossy trials with a snapshot before the kill recorded as landing every record.
TEST_CASE(
    "the control (one worker, SIGKILLed) lost acknowledged records for good in at least 29 of 30 trials, four of them after the table's first snapshot",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x) {
            std::size_t after_a_snapshot = 0;
            for (const auto* t : e7b::trials_of(x, e7b::one_worker_kill))
                after_a_snapshot += e7b::lossy(*t) && t->snapshots_before_fault > 0;
            return claims_test::ge("one-worker-kill lossy trials", lossy_trials(x, e7b::one_worker_kill), 29) &&
                   claims_test::eq("of them after the table's first snapshot", after_a_snapshot, 4);
        },
        [](e7b::samples& x) {
            for (auto& t : x.trials)
                if (t.cell == e7b::one_worker_kill && t.snapshots_before_fault > 0) t.missing_seq = 0;
        });
}

// No process was signalled in these three cells: a REST call alone.
// Mutation: one config-update trial recorded as landing every record.
TEST_CASE(
    "a task restart or a configuration update through Connect's REST API, on one worker, lost acknowledged records for good: task-restart 11, task-restart-in-commit 11, config-update 3 of 30",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x) {
            return claims_test::eq("task-restart lossy trials", lossy_trials(x, e7b::task_restart), 11) &&
                   claims_test::eq("task-restart-in-commit lossy trials", lossy_trials(x, e7b::task_restart_in_commit),
                                   11) &&
                   claims_test::eq("config-update lossy trials", lossy_trials(x, e7b::config_update), 3);
        },
        [](e7b::samples& x) {
            for (auto& t : x.trials)
                if (t.cell == e7b::config_update && e7b::lossy(t)) {
                    t.missing_seq = 0;
                    break;
                }
        });
}

// Mutation: one lossy task-restart-in-commit trial (a cell hypothesis 4 leaves out) recorded with source lag 17.
TEST_CASE(
    "every e7b trial that lost records, in every cell, had the sink's source offsets at the log end: the records will not be read again",
    "[claims][e7b]") {
    C::holds_and_is_mutation_checked(
        [](const e7b::samples& x) {
            std::size_t lossy = 0;
            for (const auto& t : x.trials)
                if (e7b::lossy(t)) {
                    ++lossy;
                    if (!claims_test::eq(trial_label(t) + " source lag at the window's end", t.source_lag_at_window_end,
                                         0))
                        return false;
                }
            return claims_test::gt("lossy trials", lossy, 0);
        },
        [](e7b::samples& x) {
            for (auto& t : x.trials)
                if (t.cell == e7b::task_restart_in_commit && e7b::lossy(t)) {
                    t.source_lag_at_window_end = 17;
                    break;
                }
        });
}
