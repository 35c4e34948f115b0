// rosterrig/generate/npi.hpp: National Provider Identifiers.
//
// An NPI is ten digits: nine identifier digits, the first of which is 1 or 2,
// then a check digit. The check digit is the Luhn digit computed over the
// prefix "80840" followed by the nine identifier digits (CMS, "Requirements
// for the NPI check digit"). Equivalently: run Luhn over the nine digits alone
// and add the constant 24 that the doubled prefix contributes.
#ifndef ROSTERRIG_GENERATE_NPI_HPP
#define ROSTERRIG_GENERATE_NPI_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rosterrig {

/// The check digit for nine identifier digits (100000000..299999999).
constexpr unsigned npi_check_digit(std::uint64_t nine_digits) noexcept {
    // Luhn from the right of the 14-digit string "80840" + nine digits + check:
    // the rightmost identifier digit is doubled, then every second one.
    unsigned sum = 24;  // the prefix 80840 contributes 24 in the doubled positions
    bool doubled = true;
    for (int i = 0; i < 9; ++i) {
        unsigned digit = static_cast<unsigned>(nine_digits % 10);
        nine_digits /= 10;
        if (doubled) {
            digit *= 2;
            if (digit > 9) digit -= 9;
        }
        sum += digit;
        doubled = !doubled;
    }
    return (10 - sum % 10) % 10;
}

/// The full ten-digit NPI for nine identifier digits.
constexpr std::uint64_t make_npi(std::uint64_t nine_digits) noexcept {
    return nine_digits * 10 + npi_check_digit(nine_digits);
}

/// True when npi has ten digits, starts with 1 or 2 and its check digit holds.
constexpr bool is_valid_npi(std::uint64_t npi) noexcept {
    if (npi < 1000000000ULL || npi > 2999999999ULL) return false;
    return npi_check_digit(npi / 10) == npi % 10;
}

/// Generic Luhn validation of a digit string (used by tests as an
/// independent check of npi_check_digit: "80840" + npi must pass).
inline bool luhn_valid(std::string_view digits) noexcept {
    unsigned sum = 0;
    bool doubled = false;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (*it < '0' || *it > '9') return false;
        unsigned digit = static_cast<unsigned>(*it - '0');
        if (doubled) {
            digit *= 2;
            if (digit > 9) digit -= 9;
        }
        sum += digit;
        doubled = !doubled;
    }
    return !digits.empty() && sum % 10 == 0;
}

}  // namespace rosterrig

#endif
