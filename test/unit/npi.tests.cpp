#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "rosterrig/generate/generator.hpp"
#include "rosterrig/generate/npi.hpp"

using namespace rosterrig;

TEST_CASE("a known valid NPI passes and every one-digit change of it fails", "[npi]") {
    // 1234567893 is the worked example in CMS's check digit note.
    CHECK(is_valid_npi(1234567893ULL));
    CHECK(npi_check_digit(123456789) == 3);
    std::uint64_t power = 1;
    for (int position = 0; position < 10; ++position, power *= 10) {
        const std::uint64_t digit = 1234567893ULL / power % 10;
        for (std::uint64_t d = 0; d < 10; ++d) {
            if (d == digit) continue;
            const std::uint64_t changed = 1234567893ULL - digit * power + d * power;
            CHECK_FALSE(is_valid_npi(changed));
        }
    }
}

TEST_CASE("the check digit is the Luhn digit over the 80840 prefix", "[npi]") {
    // Independent of npi_check_digit: generic Luhn over "80840" + the NPI.
    // Mutation check: replacing the constant 24 with 0 in npi_check_digit
    // fails this test (tried once).
    splitmix64 rng{1};
    for (int i = 0; i < 5000; ++i) {
        const std::uint64_t nine = 100'000'000 + uniform_below(rng, 200'000'000);
        const std::uint64_t npi = make_npi(nine);
        REQUIRE(luhn_valid("80840" + std::to_string(npi)));
        REQUIRE(is_valid_npi(npi));
        REQUIRE_FALSE(luhn_valid("80840" + std::to_string(nine * 10 + (npi % 10 + 1) % 10)));
    }
}

TEST_CASE("NPIs outside ten digits starting with 1 or 2 are invalid", "[npi]") {
    CHECK_FALSE(is_valid_npi(0));
    CHECK_FALSE(is_valid_npi(123456789));
    CHECK_FALSE(is_valid_npi(make_npi(312345678)));
    CHECK_FALSE(luhn_valid(""));
    CHECK_FALSE(luhn_valid("12a4"));
}

TEST_CASE("distinct providers always get distinct valid NPIs", "[npi][generate]") {
    std::set<std::uint64_t> seen;
    for (std::uint64_t i = 0; i < 200000; ++i) {
        const auto npi = npi_for_provider(5, i);
        REQUIRE(is_valid_npi(npi));
        REQUIRE(seen.insert(npi).second);
    }
    CHECK(npi_for_provider(5, 0) != npi_for_provider(6, 0));
}
