// The claims' comparisons (compared.hpp) name what failed and its operands.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "compared.hpp"

using namespace rosterrig::claims_test;

// Mutation: noted() not recording the failure makes the first case fail.
TEST_CASE("a claim's failed comparison is printed with what it compared and both operands", "[claims][compared]") {
    auto& log = comparison_log::current();
    log.clear();
    CHECK(eq("rows", 3, 3u));
    CHECK_FALSE(eq("sinkv2 duplicate rows == excess records", std::size_t{3}, -2LL));
    CHECK(log.text() ==
          "the claim's comparison that failed: sinkv2 duplicate rows == excess records: 3 == -2 is false");
    CHECK_FALSE(ge("trials", 2, 300));
    CHECK(log.text() == "the claim's comparison that failed: trials: 2 >= 300 is false");
    CHECK_FALSE(that("a run of sinkv2", false));
    CHECK(log.text() == "the claim's comparison that failed: a run of sinkv2 is false");
    CHECK_FALSE(lt("kill 3 events sent before it", 12000u, 12000));
    CHECK(log.text() == "the claim's comparison that failed: kill 3 events sent before it: 12000 < 12000 is false");
    CHECK_FALSE(ne("kill 3 replacement pid", 41, 41));
    CHECK(log.text() == "the claim's comparison that failed: kill 3 replacement pid: 41 != 41 is false");
}

// Mutation: text_of() printing an optional through Catch2 ({?}) makes this fail.
TEST_CASE("a claim's failed comparison prints an optional as its value or as absent", "[claims][compared]") {
    auto& log = comparison_log::current();
    log.clear();
    CHECK_FALSE(eq("target bytes", std::optional<long long>{}, std::optional<long long>{1024}));
    CHECK(log.text() == "the claim's comparison that failed: target bytes: absent == 1024 is false");
    CHECK_FALSE(eq("feed digest", std::optional<std::string>{"ab"}, std::string("cd")));
    CHECK(log.text() == "the claim's comparison that failed: feed digest: \"ab\" == \"cd\" is false");
}

// Mutation: comparing with a built-in < instead of std::cmp_less_equal makes this fail (-1 converts to a huge size_t).
TEST_CASE("a claim's comparison of a negative and an unsigned count compares their values", "[claims][compared]") {
    CHECK(le("excess", -1, std::size_t{0}));
    CHECK_FALSE(gt("excess", -1, std::size_t{0}));
    CHECK(lt("excess", -1, std::size_t{0}));
    CHECK(ne("excess", -1, std::size_t(-1)));
}

TEST_CASE("a claim that answers false without a named comparison says so", "[claims][compared]") {
    auto& log = comparison_log::current();
    log.clear();
    CHECK(log.text() == "the claim answered false without a named comparison failing");
}
