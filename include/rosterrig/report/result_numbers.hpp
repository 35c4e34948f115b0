// rosterrig/report/result_numbers.hpp: the numbers a result yields, for the
// README check on hand-written figures (prose_figures.hpp).
//
// numbers_in_result yields every number in a JSON value: each numeric value,
// and each number written inside a string value (a reason, a verdict, a
// quoted log line: "lost 3 of 5", "12,000"), read as numbers_in_text reads
// them. Booleans and object keys are not numbers. The README check takes
// only the parts of a result a reader is shown or told
// (numbers_in_result_parts): every raw sample together holds every small
// integer there is, against which no small figure could fail.
#ifndef ROSTERRIG_REPORT_RESULT_NUMBERS_HPP
#define ROSTERRIG_REPORT_RESULT_NUMBERS_HPP

#include <boost/json.hpp>

#include <charconv>
#include <string>
#include <string_view>
#include <vector>

namespace rosterrig::report {

/// Every number written in `text`: digit runs, with comma groups of three
/// ("12,000") and a decimal part ("0.95"), appended to `out`.
inline void numbers_in_text(std::string_view text, std::vector<double>& out) {
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t i = 0; i < text.size();) {
        if (!digit(text[i])) {
            ++i;
            continue;
        }
        std::string n;
        const std::size_t from = i;
        while (i < text.size() && digit(text[i])) n += text[i++];
        if (i - from <= 3)
            while (i + 3 < text.size() && text[i] == ',' && digit(text[i + 1]) && digit(text[i + 2]) &&
                   digit(text[i + 3]) && (i + 4 == text.size() || !digit(text[i + 4]))) {
                n.append(text.substr(i + 1, 3));
                i += 4;
            }
        if (i + 1 < text.size() && text[i] == '.' && digit(text[i + 1])) {
            n += text[i++];
            while (i < text.size() && digit(text[i])) n += text[i++];
        }
        double v = 0;
        if (std::from_chars(n.data(), n.data() + n.size(), v).ec == std::errc{}) out.push_back(v);
    }
}

/// Every number in `v` (see above), appended to `out`.
inline void numbers_in_result(const boost::json::value& v, std::vector<double>& out) {
    switch (v.kind()) {
        case boost::json::kind::int64:
            out.push_back(static_cast<double>(v.get_int64()));
            break;
        case boost::json::kind::uint64:
            out.push_back(static_cast<double>(v.get_uint64()));
            break;
        case boost::json::kind::double_:
            out.push_back(v.get_double());
            break;
        case boost::json::kind::string:
            numbers_in_text(v.get_string(), out);
            break;
        case boost::json::kind::array:
            for (const auto& e : v.get_array()) numbers_in_result(e, out);
            break;
        case boost::json::kind::object:
            for (const auto& [key, e] : v.get_object()) numbers_in_result(e, out);
            break;
        default:
            break;  // null, bool
    }
}

/// The numbers of the parts of a result a reader is shown or told: its
/// parameters, its verdict's reason and every prediction's text and reason;
/// not the raw samples, which hold every small integer there is.
inline void numbers_in_result_parts(const boost::json::value& v, std::vector<double>& out) {
    if (!v.is_object()) return;
    const auto& o = v.get_object();
    for (const char* key : {"parameters", "verdict_reason", "prediction"})
        if (const auto* x = o.if_contains(key)) numbers_in_result(*x, out);
    if (const auto* s = o.if_contains("samples"); s && s->is_object())
        if (const auto* p = s->get_object().if_contains("predictions")) numbers_in_result(*p, out);
}

}  // namespace rosterrig::report

#endif
