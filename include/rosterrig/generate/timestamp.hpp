// rosterrig/generate/timestamp.hpp: event time as ISO-8601 UTC text.
//
// The feed carries asserted_at as "YYYY-MM-DDTHH:MM:SS.mmmZ" (always UTC,
// always milliseconds), which sorts as text in time order and parses as a
// TIMESTAMP(3) in Flink SQL and Trino.
#ifndef ROSTERRIG_GENERATE_TIMESTAMP_HPP
#define ROSTERRIG_GENERATE_TIMESTAMP_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rosterrig {

namespace detail {
// Howard Hinnant's civil_from_days (proleptic Gregorian, public domain).
constexpr void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) noexcept {
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += (m <= 2);
}
// Its inverse, days_from_civil (the same source).
constexpr std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) noexcept {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}
inline void put_digits(char* out, unsigned value, int width) noexcept {
    for (int i = width - 1; i >= 0; --i) {
        out[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
}
}  // namespace detail

/// Appends the ISO-8601 UTC text of a millisecond timestamp (years 0..9999).
inline void append_iso8601_utc(std::string& out, std::int64_t epoch_ms) {
    std::int64_t days = epoch_ms / 86'400'000;
    std::int64_t rem = epoch_ms % 86'400'000;
    if (rem < 0) {
        rem += 86'400'000;
        --days;
    }
    std::int64_t y;
    unsigned m, d;
    detail::civil_from_days(days, y, m, d);
    char buf[24];
    detail::put_digits(buf, static_cast<unsigned>(y), 4);
    buf[4] = '-';
    detail::put_digits(buf + 5, m, 2);
    buf[7] = '-';
    detail::put_digits(buf + 8, d, 2);
    buf[10] = 'T';
    const auto ms = static_cast<unsigned>(rem);
    detail::put_digits(buf + 11, ms / 3'600'000, 2);
    buf[13] = ':';
    detail::put_digits(buf + 14, ms / 60'000 % 60, 2);
    buf[16] = ':';
    detail::put_digits(buf + 17, ms / 1000 % 60, 2);
    buf[19] = '.';
    detail::put_digits(buf + 20, ms % 1000, 3);
    out.append(buf, 23);
    out.push_back('Z');
}

inline std::string iso8601_utc(std::int64_t epoch_ms) {
    std::string s;
    append_iso8601_utc(s, epoch_ms);
    return s;
}

/// The epoch milliseconds of "YYYY-MM-DDTHH:MM:SS[.fff…]Z" (UTC; digits
/// past the milliseconds are dropped), as object stores list LastModified
/// and results record their times; nullopt for any other text.
inline std::optional<std::int64_t> parse_iso8601_utc(std::string_view t) {
    const auto num = [&](std::size_t at, std::size_t n) -> std::optional<unsigned> {
        if (at + n > t.size()) return std::nullopt;
        unsigned v = 0;
        for (std::size_t i = at; i < at + n; ++i) {
            if (t[i] < '0' || t[i] > '9') return std::nullopt;
            v = v * 10 + static_cast<unsigned>(t[i] - '0');
        }
        return v;
    };
    if (t.size() < 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':')
        return std::nullopt;
    const auto y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2), s = num(17, 2);
    if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 ||
        *s > 60)
        return std::nullopt;
    std::size_t at = 19;
    std::int64_t ms = 0;
    if (t[at] == '.') {
        std::size_t digits = 0;
        for (++at; at < t.size() && t[at] >= '0' && t[at] <= '9'; ++at, ++digits)
            if (digits < 3) ms = ms * 10 + (t[at] - '0');
        if (digits == 0) return std::nullopt;
        for (; digits < 3; ++digits) ms *= 10;
    }
    if (at + 1 != t.size() || t[at] != 'Z') return std::nullopt;
    return detail::days_from_civil(*y, *mo, *d) * 86'400'000 + *h * 3'600'000LL + *mi * 60'000LL + *s * 1000LL + ms;
}

}  // namespace rosterrig

#endif
