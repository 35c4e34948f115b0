// Experiment 7's claims (Kafka Connect's Iceberg sink), asserted against the
// shipped results file. Each holds on the shipped samples AND fails on a copy
// with the named mutation, so a claim cannot pass by checking nothing.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>
#include <rosterrig/generate/feed_digest.hpp>

#include "shipped_result.hpp"

using namespace rosterrig;

using C = claims_test::claims_of<e7::definition>;

// Mutation: drop one kill.
TEST_CASE("the e7 full run SIGKILLed the Connect worker at least thirty times", "[claims][e7]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e7::samples& x) {
            return claims_test::that("the restart part recorded", x.restart.has_value()) &&
                   claims_test::ge("worker kills", x.restart->run.kills.size(), 30) &&
                   claims_test::eq("worker kill records == kills", x.restart->worker_kills.size(),
                                   x.restart->run.kills.size());
        },
        [](e7::samples& x) { x.restart->run.kills.pop_back(), x.restart->worker_kills.pop_back(); });
}

// Mutation: a kill whose replacement pid is the killed one.
TEST_CASE("every e7 kill ended the worker JVM, its supervisor started another and the new worker answered",
          "[claims][e7]") {
    C::holds_and_is_mutation_checked(
        [](const e7::samples& x) {
            if (!claims_test::that("the restart part recorded", x.restart.has_value())) return false;
            for (std::size_t i = 0; i < x.restart->run.kills.size(); ++i) {
                const auto& k = x.restart->run.kills[i];
                const auto kill = "kill " + std::to_string(k.index);
                if (!claims_test::gt(kill + " killed pid", k.killed_pid, 0) ||
                    !claims_test::gt(kill + " replacement pid", k.replacement_pid, 0) ||
                    !claims_test::ne(kill + " replacement pid != killed pid", k.replacement_pid, k.killed_pid))
                    return false;
                if (!claims_test::gt(kill + " worker answering again after (ms)",
                                     x.restart->worker_kills[i].rest_back_after_ms, 0))
                    return false;
            }
            return claims_test::gt("kills", x.restart->run.kills.size(), 0);
        },
        [](e7::samples& x) { x.restart->run.kills.at(3).replacement_pid = x.restart->run.kills.at(3).killed_pid; });
}

// Mutation: one kill whose supervisor count did not move.
TEST_CASE("the Connect worker's supervisor counted exactly one restart for each e7 kill", "[claims][e7]") {
    C::holds_and_is_mutation_checked(
        [](const e7::samples& x) {
            if (!claims_test::that("the restart part recorded", x.restart.has_value()) ||
                !claims_test::gt("kills", x.restart->run.kills.size(), 0))
                return false;
            for (const auto& k : x.restart->run.kills)
                if (!claims_test::eq("kill " + std::to_string(k.index) + " supervisor restarts after == before + 1",
                                     k.restarts_after, k.restarts_before + 1))
                    return false;
            return claims_test::ge("restarts the supervisor reported >= kills", x.restart->run.restarts_reported,
                                   static_cast<std::int64_t>(x.restart->run.kills.size()));
        },
        [](e7::samples& x) { x.restart->run.kills.at(5).restarts_after = x.restart->run.kills.at(5).restarts_before; });
}

// Mutation: a kill recorded after the whole feed was sent.
TEST_CASE("every e7 kill landed while data was still arriving", "[claims][e7]") {
    C::holds_and_is_mutation_checked(
        [](const e7::samples& x, const e7::parameters& p) {
            if (!claims_test::that("the restart part recorded", x.restart.has_value())) return false;
            for (const auto& k : x.restart->run.kills)
                if (!claims_test::lt("kill " + std::to_string(k.index) + " events sent before it < the feed's events",
                                     k.sent_before_kill, p.events))
                    return false;
            return true;
        },
        [](e7::samples& x) { x.restart->run.kills.back().sent_before_kill = x.restart->run.events; });
}

// Mutation: one dial cell's commit interval in force differs from the one requested.
TEST_CASE("every e7 connector ran with the commit interval and tasks requested, as the worker reported them",
          "[claims][e7]") {
    C::holds_and_is_mutation_checked(
        [](const e7::samples& x, const e7::parameters& p) {
            if (!claims_test::that("the restart part recorded", x.restart.has_value()) ||
                !claims_test::eq("restart connector's commit interval in force (ms)",
                                 x.restart->in_force.commit_interval_ms, p.commit_interval_ms) ||
                !claims_test::eq("restart connector's tasks running", x.restart->in_force.tasks_running, p.tasks) ||
                !claims_test::eq("restart run's commit interval in force (ms)",
                                 x.restart->run.checkpoint_interval_in_force_ms, p.commit_interval_ms))
                return false;
            if (!claims_test::eq("dial cells", x.dial.size(), p.dial_intervals_ms.size())) return false;
            for (std::size_t i = 0; i < x.dial.size(); ++i) {
                const auto cell = "dial cell " + x.dial[i].cell;
                if (!claims_test::eq(cell + " commit interval in force (ms)", x.dial[i].in_force.interval_ms,
                                     p.dial_intervals_ms[i]) ||
                    !claims_test::eq(cell + " commit interval asked (ms)", x.dial[i].interval_ms,
                                     p.dial_intervals_ms[i]) ||
                    !claims_test::eq(cell + " tasks in force", x.dial[i].in_force.writer_parallelism, p.tasks))
                    return false;
            }
            return true;
        },
        [](e7::samples& x) { x.dial.at(1).in_force.interval_ms += 1000; });
}

// Mutation: the group's offsets right after the rewind recorded as the end offsets.
TEST_CASE("the e7 group read back as rewound to zero before the connector was created again", "[claims][e7]") {
    C::holds_and_is_mutation_checked(
        [](const e7::samples& x) {
            const auto* s = e7::find_step(x.offsets, e7::step_rewound_recreated);
            return claims_test::that("the rewound-and-recreated step recorded", s != nullptr) &&
                   claims_test::that("the group's offsets after the rewind recorded",
                                     s->committed_after_action.has_value()) &&
                   claims_test::lt("the group's committed offsets after the rewind < the offsets part's events",
                                   *s->committed_after_action, static_cast<std::int64_t>(x.offsets.events)) &&
                   claims_test::gt("offsets watch samples", s->watch.size(), 0) &&
                   claims_test::lt("committed offsets at the first watch sample < the offsets part's events",
                                   s->watch.front().committed_offsets_sum, static_cast<std::int64_t>(x.offsets.events));
        },
        [](e7::samples& x) {
            for (auto& s : x.offsets.steps)
                if (s.step == e7::step_rewound_recreated) {
                    s.committed_after_action = static_cast<std::int64_t>(x.offsets.events);
                    for (auto& w : s.watch) w.committed_offsets_sum = static_cast<std::int64_t>(x.offsets.events);
                }
        });
}

// Mutation: one recorded digest with a changed digit.
TEST_CASE("each e7 feed regenerates to the digest the results recorded", "[claims][e7]") {
    const auto& p = C::load().params;
    const auto restart = feed_sha256(p.feed()), offsets = feed_sha256(p.offsets_feed());
    C::holds_and_is_mutation_checked(
        [&](const e7::samples& x) {
            return claims_test::that("the restart part recorded", x.restart.has_value()) &&
                   claims_test::eq("restart part's feed digest recorded == regenerated", x.restart->run.feed_sha256,
                                   restart) &&
                   claims_test::eq("offsets part's feed digest recorded == regenerated", x.offsets.feed_sha256,
                                   offsets);
        },
        [](e7::samples& x) {
            auto& d = *x.offsets.feed_sha256;
            d.at(0) = d.at(0) == '0' ? '1' : '0';
        });
}

TEST_CASE("the e7 verdicts on record are the ones the code computes from the samples", "[claims][e7]") {
    auto h = C::recorded_verdicts_are_recomputed(8);
    // Mutation (data): a duplicate row after the worker kills changes the recomputed verdict.
    h.samples.restart->run.duplicate_rows = 1;
    CHECK(experiment::rejudge(h).at(0).verdict == verdict_kind::refuted);
}
