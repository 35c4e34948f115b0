// rosterrig/generate/json_lines.hpp: the feed's wire format, written by hand.
//
// One JSON object per line, '\n' terminated, no spaces, fields always in this
// order (the pinned digest depends on it):
//
//   seq, npi, partition, source, revision, asserted_at,
//   name, taxonomy, address, city, state, zip, phone, status
//
// seq, partition and revision are JSON integers. npi is a JSON string of ten
// digits (an identifier, not a quantity). asserted_at is ISO-8601 UTC with
// milliseconds (timestamp.hpp). Strings are escaped per RFC 8259: '"', '\\'
// and control characters; bytes >= 0x80 pass through (the feed is UTF-8).
#ifndef ROSTERRIG_GENERATE_JSON_LINES_HPP
#define ROSTERRIG_GENERATE_JSON_LINES_HPP

#include <string>
#include <string_view>

#include "rosterrig/generate/roster_event.hpp"
#include "rosterrig/generate/timestamp.hpp"

namespace rosterrig {

/// Appends s as a quoted, escaped JSON string.
inline void append_json_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t plain = 0;  // fast path: the longest prefix needing no escape
    while (plain < s.size()) {
        const auto c = static_cast<unsigned char>(s[plain]);
        if (c < 0x20 || c == '"' || c == '\\') break;
        ++plain;
    }
    out.append(s.data(), plain);
    s.remove_prefix(plain);
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"':
                out.append("\\\"");
                break;
            case '\\':
                out.append("\\\\");
                break;
            case '\b':
                out.append("\\b");
                break;
            case '\f':
                out.append("\\f");
                break;
            case '\n':
                out.append("\\n");
                break;
            case '\r':
                out.append("\\r");
                break;
            case '\t':
                out.append("\\t");
                break;
            default:
                if (c < 0x20) {
                    out.append("\\u00");
                    out.push_back(hex[c >> 4]);
                    out.push_back(hex[c & 0xf]);
                } else {
                    out.push_back(ch);
                }
        }
    }
    out.push_back('"');
}

namespace detail {
inline void append_uint(std::string& out, std::uint64_t v) {
    char buf[24];
    int n = 0;
    do {
        buf[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0) out.push_back(buf[--n]);
}
}  // namespace detail

/// Appends the provider fields as `"name":...,...,"status":...` (no braces).
inline void append_json_fields(std::string& out, const provider_fields& f) {
    out.append("\"name\":");
    append_json_string(out, f.name);
    out.append(",\"taxonomy\":");
    append_json_string(out, f.taxonomy);
    out.append(",\"address\":");
    append_json_string(out, f.address);
    out.append(",\"city\":");
    append_json_string(out, f.city);
    out.append(",\"state\":");
    append_json_string(out, f.state);
    out.append(",\"zip\":");
    append_json_string(out, f.zip);
    out.append(",\"phone\":");
    append_json_string(out, f.phone);
    out.append(",\"status\":");
    append_json_string(out, f.status);
}

/// Appends one event as a JSON line, including the trailing '\n'.
inline void append_json_line(std::string& out, const roster_event& e) {
    out.append("{\"seq\":");
    detail::append_uint(out, e.seq);
    out.append(",\"npi\":\"");
    detail::append_uint(out, e.npi);
    out.append("\",\"partition\":");
    detail::append_uint(out, e.partition);
    out.append(",\"source\":\"");
    out.append(to_string(e.source));
    out.append("\",\"revision\":");
    detail::append_uint(out, e.revision);
    out.append(",\"asserted_at\":\"");
    append_iso8601_utc(out, e.asserted_at_ms);
    out.append("\",");
    append_json_fields(out, e.fields);
    out.append("}\n");
}

inline std::string to_json_line(const roster_event& e) {
    std::string s;
    append_json_line(s, e);
    return s;
}

}  // namespace rosterrig

#endif
