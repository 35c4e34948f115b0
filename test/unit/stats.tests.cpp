#include <catch2/catch.hpp>

#include "rosterrig/stats/binomial_bounds.hpp"
#include "rosterrig/stats/quantile.hpp"
#include "rosterrig/stats/summary.hpp"

using namespace rosterrig::stats;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

TEST_CASE("with no events the 95% upper bound is 1 - 0.05^(1/n)", "[stats]") {
    CHECK_THAT(clopper_pearson_upper(0, 1), WithinAbs(0.95, 1e-12));
    CHECK_THAT(clopper_pearson_upper(0, 30), WithinAbs(0.09503385285530419, 1e-12));
    CHECK_THAT(clopper_pearson_upper(0, 100), WithinAbs(0.029513049607039932, 1e-12));
    CHECK(clopper_pearson_upper(5, 5) == 1.0);
}

TEST_CASE("with events the upper bound matches an independent implementation", "[stats]") {
    // Reference: scipy 1.17.1, python3 -c "from scipy.stats import beta;
    // print(beta.ppf(0.95, k+1, n-k))", computed once and pasted here.
    // Mutation check: using Beta(k, n-k+1) (the lower bound's shape) fails
    // (tried once).
    struct ref {
        std::uint64_t k, n;
        double upper;
    };
    const ref refs[] = {
        {1, 10, 0.39416330243650466},  {1, 30, 0.14859606865911312},        {3, 30, 0.23859785729325092},
        {5, 100, 0.1022533776432745},  {12, 1000, 0.019370199285059248},    {50, 100, 0.5863782853690882},
        {99, 100, 0.9994871985837377}, {1, 1000000, 4.743855638214234e-06},
    };
    for (const auto& r : refs) {
        INFO("k=" << r.k << " n=" << r.n);
        CHECK_THAT(clopper_pearson_upper(r.k, r.n), WithinRel(r.upper, 1e-9));
    }
    // lower bound, scipy beta.ppf(0.05, 3, 28)
    CHECK_THAT(clopper_pearson_lower(3, 30), WithinRel(0.027815549739749652, 1e-9));
    CHECK(clopper_pearson_lower(0, 30) == 0.0);
}

TEST_CASE("the regularized incomplete beta matches reference values", "[stats]") {
    // Reference: scipy.special.betainc(a, b, x).
    CHECK_THAT(regularized_incomplete_beta(2, 3, 0.4), WithinRel(0.5247999999999999, 1e-12));
    CHECK_THAT(regularized_incomplete_beta(0.5, 0.5, 0.2), WithinRel(0.2951672353008665, 1e-10));
    CHECK_THAT(regularized_incomplete_beta(10, 20, 0.3), WithinRel(0.3640040810719437, 1e-10));
    CHECK_THAT(regularized_incomplete_beta(100, 50, 0.7), WithinRel(0.8054481662277535, 1e-9));
    CHECK(regularized_incomplete_beta(2, 3, 0.0) == 0.0);
    CHECK(regularized_incomplete_beta(2, 3, 1.0) == 1.0);
    CHECK_THAT(inverse_regularized_incomplete_beta(2, 3, 0.5247999999999999), WithinAbs(0.4, 1e-12));
}

TEST_CASE("the upper bound falls as trials grow and rises with events", "[stats]") {
    for (std::uint64_t n = 2; n < 200; ++n) {
        REQUIRE(clopper_pearson_upper(1, n + 1) < clopper_pearson_upper(1, n));
        REQUIRE(clopper_pearson_upper(1, n) > clopper_pearson_upper(0, n));
        REQUIRE(clopper_pearson_upper(1, n) > 1.0 / n);  // above the point estimate
    }
}

TEST_CASE("bad inputs to the bounds throw instead of returning numbers", "[stats]") {
    CHECK_THROWS_AS(clopper_pearson_upper(0, 0), std::domain_error);
    CHECK_THROWS_AS(clopper_pearson_upper(3, 2), std::domain_error);
    CHECK_THROWS_AS(clopper_pearson_upper(1, 2, 1.0), std::domain_error);
}

TEST_CASE("summaries give min, median and max, and an even count averages the middle two", "[stats]") {
    CHECK(summarize({3, 1, 2}) == summary{1, 2, 3, 3});
    CHECK(summarize({4, 1, 3, 2}) == summary{1, 2.5, 4, 4});
    CHECK(summarize({7}) == summary{7, 7, 7, 1});
    CHECK_THROWS_AS(summarize({}), std::domain_error);
}

TEST_CASE(
    "a nearest-rank quantile is a measured value: the minimum at 0, the maximum at 1, the upper middle of an even count",
    "[stats]") {
    // Mutation check: truncating the rank instead of rounding it gives 2 for the
    // even median and 10 for the 95th percentile of 1..11, and fails.
    CHECK(nearest_rank_quantile({4, 1, 3, 2}, 0.5) == 3);
    CHECK(nearest_rank_quantile({3, 1, 2}, 0.5) == 2);
    CHECK(nearest_rank_quantile({5, 1, 9}, 0.0) == 1);
    CHECK(nearest_rank_quantile({5, 1, 9}, 1.0) == 9);
    CHECK(nearest_rank_quantile({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 0.9) == 10);
    CHECK(nearest_rank_quantile({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 0.95) == 11);
    CHECK_THROWS_AS(nearest_rank_quantile({}, 0.5), std::domain_error);
    CHECK_THROWS_AS(nearest_rank_quantile({1}, 1.5), std::domain_error);
}
