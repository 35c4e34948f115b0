// The contract between an experiment definition and the runner: every
// registered definition satisfies experiment_definition, its optional hooks
// read through experiment_traits, and its pre-run checks come back as a list.
// That a mistake in a definition does not compile is contract_compile_fail.cmake's.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/experiment_traits.hpp>
#include <rosterrig/experiments/registry.hpp>

using namespace rosterrig;
using experiment::experiment_definition;
using experiment::experiment_traits;

TEST_CASE("contract: every registered experiment satisfies experiment_definition") {
    STATIC_REQUIRE(experiment_definition<e1::definition>);
    STATIC_REQUIRE(experiment_definition<e1b::definition>);
    STATIC_REQUIRE(experiment_definition<e1c::definition>);
    STATIC_REQUIRE(experiment_definition<e2::definition>);
    STATIC_REQUIRE(experiment_definition<e3::definition>);
    STATIC_REQUIRE(experiment_definition<e4::definition>);
    STATIC_REQUIRE(experiment_definition<e5::definition>);
    STATIC_REQUIRE(experiment_definition<e6::definition>);
    STATIC_REQUIRE(experiment_definition<e7::definition>);
    STATIC_REQUIRE(experiment_definition<e7b::definition>);
    STATIC_REQUIRE(experiment_definition<e8::definition>);
    // The list above is the registry's: one more registered experiment must be added here.
    CHECK(experiments::registry().size() == 11);
}

TEST_CASE("contract: the traits give each hook a definition declares, and the default otherwise") {
    CHECK(experiment_traits<e1b::definition>::command() == "rosterrig-e1 --multi-input");
    CHECK(experiment_traits<e1c::definition>::command() == "rosterrig-e1c");
    STATIC_REQUIRE(experiment_traits<e3::definition>::resumable);
    STATIC_REQUIRE(experiment_traits<e4::definition>::resumable);
    STATIC_REQUIRE_FALSE(experiment_traits<e1::definition>::resumable);
    STATIC_REQUIRE(experiment_traits<e1::definition>::has_warehouse);
    STATIC_REQUIRE_FALSE(experiment_traits<e7::definition>::has_warehouse);
    STATIC_REQUIRE(experiment_traits<e1::definition>::has_job);
    STATIC_REQUIRE_FALSE(experiment_traits<e2::definition>::has_job);
    STATIC_REQUIRE(experiment_traits<e8::definition>::has_repro);
    STATIC_REQUIRE(experiment_traits<e8::definition>::local_stack_only != nullptr);
    STATIC_REQUIRE(experiment_traits<e1::definition>::local_stack_only == nullptr);
    STATIC_REQUIRE(experiment_traits<e5::definition>::reads.broker_transaction_max_timeout_ms);
    STATIC_REQUIRE_FALSE(experiment_traits<e2::definition>::reads.task_slots);
    CHECK(experiment_traits<e2::definition>::problems(e2::parameters::full(), {}).empty());
}

TEST_CASE("contract: pre-run checks list what the parameters alone forbid first, then what the stack's facts forbid") {
    auto p = e3::parameters::full();
    CHECK(experiment_traits<e3::definition>::problems(p, {}).empty());
    // Slots unknown: only the parameters decide; known: four writers do not fit in one slot.
    p.parallelisms = {4};
    CHECK(experiment_traits<e3::definition>::problems(p, {}).empty());
    const auto one_slot = experiment_traits<e3::definition>::problems(
        p, {.task_slots = 1, .broker_transaction_max_timeout_ms = std::nullopt});
    REQUIRE(one_slot.size() == 1);
    CHECK(one_slot.front().rfind("--parallelisms", 0) == 0);
    p.intervals_ms = {0};
    CHECK(experiment_traits<e3::definition>::problems(p, {}).size() == 1);
}

TEST_CASE("contract: experiment 5 checks its transaction timeouts against the broker's maximum once it is read") {
    auto p = e5::parameters::full();
    CHECK(experiment_traits<e5::definition>::problems(p, {}).empty());
    CHECK(experiment_traits<e5::definition>::problems(p, {.task_slots = 4, .broker_transaction_max_timeout_ms = 1})
              .size() == 1);
    CHECK(experiment_traits<e5::definition>::problems(p, {.task_slots = 4, .broker_transaction_max_timeout_ms = 900000})
              .empty());
}
