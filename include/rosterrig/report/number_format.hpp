// rosterrig/report/number_format.hpp: numbers as the README prints them.
//
//   with_thousands(12000)        "12,000"     with_thousands(-1234)  "-1,234"
//   fixed(0.09503, 4)            "0.0950"     fixed(2.5, 0)          "2"
//   seconds_from_ms(11500)       "11.5 s"     seconds_from_ms(-20)   "0.0 s"
//
// The report's --check compares bytes, so formatting must not depend on the
// process: std::to_chars ignores the locale (an ostream or printf would pick
// up a global locale's decimal comma or grouping), and rounds the exact binary
// value, which is what the report's std::fixed ostream output did before.
// One deliberate difference: a value that rounds to zero prints without a
// sign ("0.0", not "-0.0"), because a reader takes "-0.0 s" for a measurement.
#ifndef ROSTERRIG_REPORT_NUMBER_FORMAT_HPP
#define ROSTERRIG_REPORT_NUMBER_FORMAT_HPP

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <system_error>

namespace rosterrig::report {

namespace detail {
// "1234567" -> "1,234,567". Built by appending: GCC 12 at -O3 raises a false
// -Wrestrict on std::string::insert (a known GCC 12 false positive).
inline std::string group_thousands(std::string_view digits) {
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}
}  // namespace detail

/// Decimal digits grouped in threes with commas; exact for every long long
/// (LLONG_MIN included: the magnitude is taken as unsigned).
inline std::string with_thousands(long long v) {
    const unsigned long long magnitude =
        v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    std::string out = v < 0 ? "-" : "";
    out += detail::group_thousands(std::to_string(magnitude));
    return out;
}

/// v with exactly `digits` decimals (clamped to 0..30), no grouping; "nan",
/// "inf" and "-inf" for the non-finite values.
inline std::string fixed(double v, int digits) {
    digits = std::clamp(digits, 0, 30);
    char buf[400];  // DBL_MAX has 309 integer digits; + sign, point, 30 decimals
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits);
    std::string s = ec == std::errc{} ? std::string(buf, end) : std::string("?");
    // "-0", "-0.00": the sign of something that printed as zero is noise.
    if (s.size() > 1 && s[0] == '-' && s.find_first_not_of("0.", 1) == std::string::npos) s.erase(0, 1);
    return s;
}

/// A duration in milliseconds as seconds: "11.5 s".
inline std::string seconds_from_ms(long long ms, int digits = 1) {
    return fixed(static_cast<double>(ms) / 1000.0, digits) + " s";
}

}  // namespace rosterrig::report

#endif
