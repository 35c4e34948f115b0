// Experiment 5's claims, asserted against the shipped results file; each claim
// is checked to hold on the shipped samples and to fail on a named mutation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include <rosterrig/experiment/history.hpp>

#include "shipped_result.hpp"
#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>

using namespace rosterrig;

using C = claims_test::claims_of<e5::definition>;

namespace {

// The reference pair's run with this timeout; throws when there is none.
const e5::txn_run& pair_run(const e5::samples& x, std::int64_t timeout) {
    for (const auto& r : x.runs)
        if (r.part == "pair" && r.requested_timeout_ms == timeout) return r;
    throw std::runtime_error("no pair run with a " + std::to_string(timeout) + " ms timeout");
}
e5::txn_run& pair_run(e5::samples& x, std::int64_t timeout) {
    return const_cast<e5::txn_run&>(pair_run(static_cast<const e5::samples&>(x), timeout));
}
// "late restore #2": the ending and, when it repeats, which repeat, for a claim's failed comparison.
e5::restart_run& restore(e5::samples& x, const std::string& ending) {
    return *std::find_if(x.restarts.begin(), x.restarts.end(), [&](const auto& r) { return r.ending == ending; });
}
e5::stuck_run& stuck(e5::samples& x, const std::string& ending, const std::string& partitioner) {
    return *std::find_if(x.stuck.begin(), x.stuck.end(),
                         [&](const auto& r) { return r.ending == ending && r.sink_partitioner == partitioner; });
}
}  // namespace

TEST_CASE(
    "the full e5 run ran every run its plan asks: the pair and the seed's condition three times each, every boundary ratio three times and half the interval five, each restore three times, the broker maximum and three stuck runs",
    "[claims][e5]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters& p) {
            std::vector<std::string> planned, ran;
            for (const auto& plan : e5::runs_of(p)) planned.push_back(plan.name);
            planned.push_back("above the broker's maximum");
            for (const auto& r : x.runs) ran.push_back(r.name);
            return claims_test::that("the runs recorded are the runs planned, in order", ran == planned) &&
                   claims_test::ge("pair repeats", p.pair_repeats.value_or(1), 3) &&
                   claims_test::ge("seed-condition repeats", p.seed_condition_repeats.value_or(0), 3) &&
                   claims_test::ge("boundary repeats", p.boundary_repeats, 3) &&
                   claims_test::ge("half-ratio repeats", p.half_ratio_repeats.value_or(0), 5) &&
                   claims_test::ge("restore repeats", p.restart_repeats.value_or(1), 3) &&
                   claims_test::eq("restore runs == endings times repeats", x.restarts.size(),
                                   p.restart_endings.size() * *p.restart_repeats) &&
                   claims_test::eq("stuck runs", x.stuck.size(), 3) &&
                   claims_test::eq("events of the 5 s pair run == of the 300 s one", pair_run(x, 5000).events,
                                   pair_run(x, 300000).events);
        },
        // Mutation: the last boundary run missing.
        [](e5::samples& x) {
            x.runs.erase(
                std::find_if(x.runs.rbegin(), x.runs.rend(), [](const auto& r) { return r.part == "boundary"; })
                    .base() -
                1);
        });
}

TEST_CASE("every e5 job ran at the interval it asked for, as Flink reports it", "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters& p) {
            for (const auto& r : x.runs) {
                const auto want =
                    r.part == "pair" || r.part == "seed-condition" ? p.pair_interval_ms : p.boundary_interval_ms;
                if (!claims_test::eq(r.name + " checkpoint interval (ms)", r.interval_ms, want)) return false;
            }
            for (const auto& r : x.restarts)
                if (!claims_test::eq(e5::restart_name(r) + " checkpoint interval (ms)", r.interval_ms,
                                     p.restart_interval_ms))
                    return false;
            return claims_test::gt("e5 runs", x.runs.size(), 0);
        },
        // Mutation: one boundary run at 60 s.
        [](e5::samples& x) { x.runs.at(3).interval_ms = 60000; });
}

TEST_CASE("the two reference runs differ only in the timeout", "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters&) {
            const auto &a = pair_run(x, 5000), &b = pair_run(x, 300000);
            return claims_test::eq("checkpoint interval of the 5 s pair run == of the 300 s one (ms)", a.interval_ms,
                                   b.interval_ms) &&
                   claims_test::eq("events of the 5 s pair run == of the 300 s one", a.events, b.events) &&
                   claims_test::eq("checkpoint interval of the pair runs (ms)", a.interval_ms, 120000) &&
                   claims_test::eq("distinct seqs read uncommitted in the 5 s pair run == in the 300 s one",
                                   a.uncommitted.distinct_seq, b.uncommitted.distinct_seq);
        },
        // Mutation: the 300 s run at another interval.
        [](e5::samples& x) { pair_run(x, 300000).interval_ms = 60000; });
}

TEST_CASE("the broker registered the 5 second timeout the job asked for", "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters&) {
            const auto& a = pair_run(x, 5000);
            return claims_test::that("the 5 s pair run's registered timeout recorded",
                                     a.registered_timeout_ms.has_value()) &&
                   claims_test::eq("the 5 s pair run's timeout the broker registered (ms)", *a.registered_timeout_ms,
                                   5000);
        },
        // Mutation: the broker registered 300 s.
        [](e5::samples& x) { pair_run(x, 5000).registered_timeout_ms = 300000; });
}

// Every 5 s pair run, with the number of them that lost everything.
template <class Samples, class Each>
void for_each_short_pair_run(Samples& x, Each&& each) {
    for (auto& r : x.runs)
        if (r.part == "pair" && r.requested_timeout_ms == 5000) each(r);
}

TEST_CASE(
    "a 5 s timeout against a 120 s interval cost a read_committed reader records in every repeat and all of them in most, though all were written",
    "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters&) {
            std::size_t runs = 0, lost_all = 0;
            bool every = true;
            for_each_short_pair_run(x, [&](const e5::txn_run& r) {
                ++runs, lost_all += r.committed.distinct_seq == 0;
                every = every &&
                        claims_test::lt(r.name + " distinct seqs read committed < events", r.committed.distinct_seq,
                                        r.events) &&
                        claims_test::eq(r.name + " distinct seqs read uncommitted == events",
                                        r.uncommitted.distinct_seq, r.events) &&
                        claims_test::gt(r.name + " events", r.events, 0);
            });
            // `every` is false only after a comparison above that failed, and named it.
            return claims_test::ge("5 s pair runs", runs, 3) && every &&
                   claims_test::gt("twice the 5 s pair runs that lost every record > the runs", lost_all * 2, runs);
        },
        // Mutation: count the topic at read_uncommitted.
        [](e5::samples& x) { for_each_short_pair_run(x, [](e5::txn_run& r) { r.committed = r.uncommitted; }); });
}

TEST_CASE(
    "in the seed's own condition, the feed over before the abort, every repeat the broker aborted before a checkpoint lost every record and nothing reported it, as the reference study found, and a repeat whose checkpoint committed first lost nothing",
    "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters&) {
            std::size_t lost_silently = 0, committed_first = 0, runs = 0;
            for (const auto& r : x.runs) {
                if (r.part != "seed-condition") continue;
                ++runs;
                const auto w = e5::first_abort(r.states);
                if (w) {  // aborted: the seed's condition, the feed over before the abort
                    if (!claims_test::that(r.name + " feed end recorded", r.feed_done_ms.has_value()) ||
                        !claims_test::le(r.name + " feed done <= last sample before the abort (ms)", *r.feed_done_ms,
                                         w->after_ms))
                        return false;
                    if (!claims_test::eq(r.name + " distinct seqs read committed", r.committed.distinct_seq, 0) ||
                        !claims_test::eq(r.name + " distinct seqs read uncommitted == events",
                                         r.uncommitted.distinct_seq, r.events) ||
                        !claims_test::eq(r.name + " job state at the end", r.signals.state, "RUNNING") ||
                        !claims_test::eq(r.name + " job exceptions", r.signals.exceptions, 0) ||
                        !claims_test::eq(r.name + " failed checkpoints", r.signals.failed_checkpoints, 0))
                        return false;
                    ++lost_silently;
                } else {  // never aborted: the first checkpoint's commit came first
                    const bool commit_seen = std::any_of(r.states.begin(), r.states.end(),
                                                         [](const auto& s) { return s.state == "CompleteCommit"; });
                    if (!claims_test::that(r.name + " a CompleteCommit seen", commit_seen) ||
                        !claims_test::that(r.name + " read committed: every record once",
                                           e5::exactly_once(r.committed, r.events)))
                        return false;
                    ++committed_first;
                }
            }
            return claims_test::ge("seed-condition runs", runs, 3) &&
                   claims_test::gt("twice the seed-condition runs that lost silently > the runs", lost_silently * 2,
                                   runs) &&
                   claims_test::eq("seed-condition runs that lost silently + that committed first == the runs",
                                   lost_silently + committed_first, runs);
        },
        // Mutation: one repeat's job fails over once.
        [](e5::samples& x) {
            for (auto& r : x.runs)
                if (r.part == "seed-condition") r.signals.exceptions = 1;
        });
}

TEST_CASE("the short timeout's transactions were aborted, not merely slow", "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters&) {
            return claims_test::that("the 5 s pair run's transactions seen aborted",
                                     e5::aborted(pair_run(x, 5000).states));
        },
        // Mutation: drop the aborted states from what the broker was seen to report.
        [](e5::samples& x) {
            auto& st = pair_run(x, 5000).states;
            st.erase(
                std::remove_if(st.begin(), st.end(),
                               [](const auto& s) { return s.state == "CompleteAbort" || s.state == "PrepareAbort"; }),
                st.end());
        });
}

TEST_CASE("raising the timeout to 300 s delivered every record once", "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x, const e5::parameters&) {
            std::size_t runs = 0;
            for (const auto& b : x.runs)
                if (b.part == "pair" && b.requested_timeout_ms == 300000) {
                    ++runs;
                    if (!claims_test::that(b.name + " read committed: every record once",
                                           e5::exactly_once(b.committed, b.events)) ||
                        !claims_test::that(b.name + " no transaction seen aborted", !e5::aborted(b.states)))
                        return false;
                }
            return claims_test::ge("300 s pair runs", runs, 3);
        },
        // Mutation: one missing run in the 300 s run's committed read.
        [](e5::samples& x) { pair_run(x, 300000).committed.missing_runs.push_back({1, 1}); });
}

TEST_CASE(
    "the losing job did not stay quiet: its exception history filled and the committer logged that it could not commit",
    "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x) {
            bool every = true;
            for_each_short_pair_run(x, [&](const e5::txn_run& a) {
                every = every && claims_test::gt(a.name + " job exceptions", a.signals.exceptions, 0) &&
                        claims_test::gt(a.name + " committer log warnings", a.signals.log_warnings, 0);
            });
            return every;  // false only after a comparison above that failed, and named it
        },
        // Mutation: an empty exception history, as in the reference study's run.
        [](e5::samples& x) { pair_run(x, 5000).signals.exceptions = 0; });
}

TEST_CASE(
    "below the interval the broker's sweep decides: at half of it one run lost records and another none, and nothing was lost from 1.1 up",
    "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x) {
            int half_lost = 0, half_whole = 0;
            for (const auto& r : x.runs) {
                if (r.part != "boundary" || !r.ratio) continue;
                if (*r.ratio == 0.5) (r.committed.distinct_seq < r.events ? half_lost : half_whole) += 1;
                if (*r.ratio >= 1.1 && !claims_test::that(r.name + " read committed: every record once",
                                                          e5::exactly_once(r.committed, r.events)))
                    return false;
                // every record was written
                if (!claims_test::eq(r.name + " distinct seqs read uncommitted == events", r.uncommitted.distinct_seq,
                                     r.events))
                    return false;
            }
            return claims_test::ge("runs at half the interval that lost records", half_lost, 1) &&
                   claims_test::ge("runs at half the interval that lost none", half_whole, 1);
        },
        // Mutation: the lossless run at half the interval missing one record too.
        [](e5::samples& x) {
            for (auto& r : x.runs)
                if (r.part == "boundary" && r.ratio && *r.ratio == 0.5 && r.committed.distinct_seq == r.events) {
                    r.committed.distinct_seq -= 1;
                    r.committed.missing_runs.push_back({1, 1});
                }
        });
}

TEST_CASE(
    "every restore after the pending transaction's timeout lost one run of records for read_committed, none twice, with the job RUNNING and no exception",
    "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x) {
            std::size_t runs = 0;
            for (const auto& r : x.restarts) {
                if (r.ending != "late") continue;
                ++runs;
                const auto run = e5::restart_name(r);
                if (!(claims_test::gt(run + " pending transaction's age at the restore > its timeout (ms)",
                                      e5::pending_age_at_restore_ms(r), r.requested_timeout_ms) &&
                      claims_test::eq(run + " missing runs read committed", r.committed.missing_runs.size(), 1) &&
                      claims_test::eq(run + " duplicate rows read committed", r.committed.duplicate_rows, 0) &&
                      claims_test::eq(run + " distinct seqs read uncommitted == events", r.uncommitted.distinct_seq,
                                      r.events) &&
                      claims_test::eq(run + " job state at the end", r.signals.state, "RUNNING") &&
                      claims_test::eq(run + " job exceptions", r.signals.exceptions, 0) &&
                      claims_test::eq(run + " failed checkpoints", r.signals.failed_checkpoints, 0)))
                    return false;
            }
            return claims_test::ge("late restores", runs, 3);
        },
        // Mutation: read the output at read_uncommitted, where nothing is missing.
        [](e5::samples& x) { restore(x, "late").committed = restore(x, "late").uncommitted; });
}

TEST_CASE("every restore of the same kind of savepoint within the timeout lost nothing", "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x) {
            std::size_t runs = 0;
            for (const auto& r : x.restarts) {
                if (r.ending != "prompt") continue;
                ++runs;
                const auto run = e5::restart_name(r);
                if (!(claims_test::lt(run + " pending transaction's age at the restore < its timeout (ms)",
                                      e5::pending_age_at_restore_ms(r), r.requested_timeout_ms) &&
                      claims_test::gt(run + " transactions pending at the savepoint", r.pending_at_savepoint.size(),
                                      0) &&
                      claims_test::that(run + " read committed: every record once",
                                        e5::exactly_once(r.committed, r.events))))
                    return false;
            }
            return claims_test::ge("prompt restores", runs, 3);
        },
        // Mutation: one missing run in the prompt restore.
        [](e5::samples& x) { restore(x, "prompt").committed.missing_runs.push_back({1, 1}); });
}

TEST_CASE("above the broker's maximum the job failed within seconds and delivered nothing", "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x) {
            for (const auto& r : x.runs)
                if (r.part == "above-max")
                    return claims_test::gt(r.name + " timeout requested > the broker's maximum (ms)",
                                           r.requested_timeout_ms, r.broker_max_timeout_ms) &&
                           claims_test::ge(r.name + " failed after (ms)", r.failed_after_ms, 0) &&
                           claims_test::lt(r.name + " failed after (ms)", r.failed_after_ms, 30000) &&
                           claims_test::gt(r.name + " job exceptions", r.signals.exceptions, 0) &&
                           claims_test::eq(r.name + " distinct seqs read committed", r.committed.distinct_seq, 0);
            return claims_test::that("an above-max run recorded", false);
        },
        // Mutation: the job never seen failing.
        [](e5::samples& x) {
            for (auto& r : x.runs)
                if (r.part == "above-max") r.failed_after_ms = -1;
        });
}

TEST_CASE("a graceful cancel left no transaction open: plain records written after it were visible within seconds",
          "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x) {
            for (const auto& st : x.stuck)
                if (st.ending == "cancel")
                    return claims_test::gt("transactions open at the cancel", st.open_at_cancel.size(), 0) &&
                           claims_test::ge("plain records all visible after the cancel (ms)", st.all_visible_after_ms,
                                           0) &&
                           claims_test::le("plain records all visible after the cancel (ms)", st.all_visible_after_ms,
                                           5000);
            return claims_test::that("a cancel run recorded", false);
        },
        // Mutation: the plain records hidden for a minute.
        [](e5::samples& x) { stuck(x, "cancel", "default").all_visible_after_ms = 60000; });
}

TEST_CASE(
    "a killed writer's open transaction held back read_committed readers of the partitions it wrote for most of its timeout, and only those",
    "[claims][e5]") {
    C::holds_and_is_mutation_checked(
        [](const e5::samples& x) {
            for (const auto& st : x.stuck) {
                if (st.ending != "kill-then-cancel" || st.sink_partitioner != "fixed") continue;
                bool held_any = false, free_any = false;
                for (const auto& p : st.partitions) {
                    const auto partition = "partition " + std::to_string(p.partition);
                    if (p.held_by_open_transaction) {
                        held_any = true;
                        if (!claims_test::ge(partition + " (held) records all visible after >= 80% of the timeout (ms)",
                                             p.all_visible_after_ms, st.requested_timeout_ms * 8 / 10))
                            return false;
                    } else {
                        free_any = true;
                        if (!claims_test::ge(partition + " (not held) plain records all visible after (ms)",
                                             p.all_visible_after_ms, 0) ||
                            !claims_test::le(partition + " (not held) plain records all visible after (ms)",
                                             p.all_visible_after_ms, 5000))
                            return false;
                    }
                }
                return claims_test::that("a partition held by the open transaction", held_any) &&
                       claims_test::that("a partition no open transaction held", free_any);
            }
            return claims_test::that("a kill-then-cancel run with the fixed partitioner recorded", false);
        },
        // Mutation: a partition no open transaction wrote hidden as long as the others.
        [](e5::samples& x) {
            for (auto& p : stuck(x, "kill-then-cancel", "fixed").partitions)
                if (!p.held_by_open_transaction) p.all_visible_after_ms = 285000;
        });
}

TEST_CASE("the e5 verdicts on record are the ones the code computes from the samples", "[claims][e5]") {
    auto h = C::recorded_verdicts_are_recomputed(14);
    // Mutation (data): the 300 s run read at read_committed with one record missing changes the recomputed verdict.
    for (auto& r : h.samples.runs)
        if (r.requested_timeout_ms >= r.interval_ms * 3 / 2 && r.part != "above-max")
            r.committed.missing_runs.push_back({1, 1});
    const auto broken = experiment::rejudge(h);
    const auto it = std::find_if(broken.begin(), broken.end(),
                                 [](const auto& p) { return p.id == "e5.above-interval-delivers-once"; });
    REQUIRE(it != broken.end());
    CHECK(it->verdict == verdict_kind::refuted);
}
