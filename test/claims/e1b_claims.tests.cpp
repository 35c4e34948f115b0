// Experiment 1b's claims, asserted against the shipped results file. Each
// test checks the claim holds on the shipped samples AND fails on a copy with
// the named mutation, so a claim cannot pass by checking nothing.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp>
#include <rosterrig/generate/feed_digest.hpp>

#include "shipped_result.hpp"

using namespace rosterrig;

using C = claims_test::claims_of<e1b::definition>;

namespace {
bool every_configuration_ran(const e1b::samples& s) {
    return claims_test::eq("e1b configurations that ran", s.configurations.size(), e1b::configurations().size());
}
}  // namespace

// Mutation: one paced configuration recorded a kill short.
TEST_CASE("the e1b full run made at least thirty kills in each paced configuration and five in each saturated one",
          "[claims][e1b]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e1b::samples& x) {
            for (const auto& c : x.configurations)
                if (!claims_test::ge(c.run.name + " kills", c.run.kills.size(),
                                     c.saturated ? e1b::saturated_kills_to_refute : e1b::kills_to_refute))
                    return false;
            return every_configuration_ran(x);
        },
        [](e1b::samples& x) { x.configurations.at(1).run.kills.resize(29); });
}

// Mutation: a kill recorded when the table already held the whole feed.
TEST_CASE("every e1b kill landed while the table still lacked part of the feed", "[claims][e1b]") {
    C::holds_and_is_mutation_checked(
        [](const e1b::samples& x, const e1b::parameters& p) {
            for (const auto& c : x.configurations) {
                if (!claims_test::eq(c.run.name + " table records noted == kills", c.table_records_at_kills.size(),
                                     c.run.kills.size()))
                    return false;
                const auto held = c.run.name + " table records just before a kill";
                for (auto records : c.table_records_at_kills)
                    if (!claims_test::ge(held, records, 0) ||
                        !claims_test::lt(held + " < the feed's events", static_cast<std::uint64_t>(records), p.events))
                        return false;
            }
            return every_configuration_ran(x);
        },
        [](e1b::samples& x) { x.configurations.at(2).table_records_at_kills.back() = 1'200'000; });
}

// Mutation: the plan shows the writer chained with the source.
TEST_CASE("every e1b writer was fed through an exchange by several source subtasks, as Flink's plan reported",
          "[claims][e1b]") {
    C::holds_and_is_mutation_checked(
        [](const e1b::samples& x, const e1b::parameters& p) {
            for (const auto& c : x.configurations) {
                const auto f = experiment::fan_in_of(c.run.edges);  // recomputed from the recorded plan
                if (!claims_test::eq(c.run.name + " fan-in problem", e1b::fan_in_problem(f),
                                     std::optional<std::string>()) ||
                    !claims_test::eq(c.run.name + " writer input channels == source parallelism", f.input_channels,
                                     p.source_parallelism) ||
                    !claims_test::eq(c.run.name + " writer parallelism in the plan", f.writer_parallelism,
                                     p.writer_parallelism))
                    return false;
            }
            return every_configuration_ran(x);
        },
        [](e1b::samples& x) {
            for (auto& e : x.configurations.at(0).run.edges)
                if (experiment::holds_writer(e.to)) e.from.clear(), e.to = "Source: roster_feed -> " + e.to;
        });
}

// Mutation: one configuration's alignment figures dropped.
TEST_CASE("the writer's barrier alignment was recorded from Flink for at least ten checkpoints per configuration",
          "[claims][e1b]") {
    C::holds_and_is_mutation_checked(
        [](const e1b::samples& x) {
            for (const auto& c : x.configurations)
                if (!claims_test::ge(c.run.name + " checkpoints with the writer's alignment",
                                     e1b::summarize_alignment(c).checkpoints, 10))
                    return false;
            return every_configuration_ran(x);
        },
        [](e1b::samples& x) {
            for (auto& k : x.configurations.at(0).checkpoints) k.writer_subtasks = 0;
        });
}

// Mutation: the unaligned configuration recorded as aligned in force.
TEST_CASE("each e1b job ran with the mode and alignment requested, as Flink reported them", "[claims][e1b]") {
    C::holds_and_is_mutation_checked(
        [](const e1b::samples& x, const e1b::parameters& p) {
            for (const auto& c : x.configurations) {
                const std::string want =
                    c.run.checkpoint_mode_requested == "AT_LEAST_ONCE" ? "at_least_once" : "exactly_once";
                if (!claims_test::eq(c.run.name + " checkpointing mode in force", c.run.checkpoint_mode_in_force,
                                     want) ||
                    !claims_test::eq(c.run.name + " checkpoint interval in force (ms)",
                                     c.run.checkpoint_interval_in_force_ms, p.checkpoint_interval_ms))
                    return false;
                if (!claims_test::that(c.run.name + " unaligned checkpoints in force recorded",
                                       c.unaligned_in_force.has_value()) ||
                    !claims_test::eq(c.run.name + " unaligned checkpoints in force == requested", *c.unaligned_in_force,
                                     c.unaligned_requested))
                    return false;
            }
            return every_configuration_ran(x);
        },
        [](e1b::samples& x) { x.configurations.at(2).unaligned_in_force = false; });
}

// Mutation: one duplicate copy lost from the record.
TEST_CASE("every duplicate row of every e1b table is attributed to exactly one kill", "[claims][e1b]") {
    C::holds_and_is_mutation_checked(
        [](const e1b::samples& x) {
            for (auto c : x.configurations) {
                e1b::attribute_by_checkpoint(c);  // recomputed from the recorded copies
                std::uint64_t attributed = 0;
                for (const auto& k : c.run.kills) attributed += k.duplicates;
                if (!claims_test::eq(c.run.name + " duplicates attributed to kills == duplicate rows", attributed,
                                     c.run.duplicate_rows) ||
                    !claims_test::eq(c.run.name + " unattributed duplicates", c.run.unattributed_duplicates, 0))
                    return false;
            }
            return every_configuration_ran(x);
        },
        [](e1b::samples& x) {
            for (auto& c : x.configurations)
                if (!c.duplicate_copies.empty()) c.duplicate_copies.pop_back();
        });
}

// Mutation: one configuration's recorded digest with a changed digit.
TEST_CASE("each e1b run's feed regenerates to the digest the results recorded", "[claims][e1b]") {
    const auto feed = feed_sha256(C::load().params.feed());
    C::holds_and_is_mutation_checked(
        [&](const e1b::samples& x) {
            for (const auto& c : x.configurations)
                if (!claims_test::eq(c.run.name + " feed digest recorded == regenerated", c.run.feed_sha256, feed))
                    return false;
            return every_configuration_ran(x);
        },
        [](e1b::samples& x) {
            auto& d = *x.configurations.at(1).run.feed_sha256;
            d.at(0) = d.at(0) == '0' ? '1' : '0';
        });
}

TEST_CASE("the e1b verdicts on record are the ones the code computes from the samples", "[claims][e1b]") {
    auto h = C::recorded_verdicts_are_recomputed(6);
    // Mutation (data): a duplicate under aligned exactly-once changes the recomputed verdict.
    h.samples.configurations.at(1).run.duplicate_rows = 1;
    CHECK(experiment::rejudge(h).at(1).verdict == verdict_kind::refuted);
}
