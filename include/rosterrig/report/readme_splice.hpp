// rosterrig/report/readme_splice.hpp: generated sections of a markdown file.
//
// A generated section sits between two HTML comments, which GitHub does not
// render:
//
//   <!-- BEGIN e1 -->
//   ...replaced by the report...
//   <!-- END e1 -->
//
// splice_section replaces what is between them with "\n" + body (so the body
// starts on the line after BEGIN; a body ending in "\n" puts END on its own
// line). A marker that is missing, doubled or out of order is an error, not a
// skipped section: a report that quietly leaves a section alone lets a stale
// or hand-edited table pass --check.
#ifndef ROSTERRIG_REPORT_README_SPLICE_HPP
#define ROSTERRIG_REPORT_README_SPLICE_HPP

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rosterrig::report {

// (Strings here are built by appending: GCC 12 at -O3 raises a false
// -Wrestrict on "literal" + std::string&&, a known GCC 12 false positive.)
inline std::string begin_marker(std::string_view name) {
    return std::string("<!-- BEGIN ").append(name).append(" -->");
}
inline std::string end_marker(std::string_view name) { return std::string("<!-- END ").append(name).append(" -->"); }

/// A section's markers are not there exactly once each, BEGIN before END.
class missing_section : public std::runtime_error {
public:
    missing_section(std::string section, const std::string& problem)
        : std::runtime_error("section \"" + section + "\": " + problem + " (expected one " + begin_marker(section) +
                             " followed by one " + end_marker(section) + ")"),
          section_(std::move(section)) {}
    const std::string& section() const noexcept { return section_; }

private:
    std::string section_;
};

/// Replaces the text between name's markers with "\n" + body. Throws
/// missing_section (doc unchanged) when a marker is absent, appears more
/// than once, or END comes before BEGIN; std::invalid_argument for an empty
/// name or a body that contains one of the section's own markers (the next
/// run would then find it twice).
inline void splice_section(std::string& doc, std::string_view name, std::string_view body) {
    if (name.empty()) throw std::invalid_argument("splice_section: empty section name");
    const std::string begin = begin_marker(name), end = end_marker(name);
    if (body.find(begin) != std::string_view::npos || body.find(end) != std::string_view::npos)
        throw std::invalid_argument(
            std::string("splice_section: the body of section \"").append(name).append("\" contains its own marker"));
    const std::string section(name);
    const auto b = doc.find(begin), e = doc.find(end);
    if (b == std::string::npos && e == std::string::npos) throw missing_section(section, "no markers");
    if (b == std::string::npos) throw missing_section(section, begin + " is missing");
    if (e == std::string::npos) throw missing_section(section, end + " is missing");
    if (doc.find(begin, b + begin.size()) != std::string::npos)
        throw missing_section(section, begin + " appears twice");
    if (doc.find(end, e + end.size()) != std::string::npos) throw missing_section(section, end + " appears twice");
    if (e < b) throw missing_section(section, end + " comes before " + begin);
    const auto from = b + begin.size();
    doc.replace(from, e - from, std::string("\n").append(body));
}

/// The names of the BEGIN markers, in document order (a doubled one twice).
inline std::vector<std::string> section_names(const std::string& doc) {
    static constexpr std::string_view open = "<!-- BEGIN ", close = " -->";
    std::vector<std::string> names;
    for (auto at = doc.find(open); at != std::string::npos; at = doc.find(open, at + open.size())) {
        const auto from = at + open.size();
        const auto to = doc.find(close, from);
        if (to == std::string::npos) break;
        // A name is not empty and never spans lines: "<!-- BEGIN x" with no
        // " -->" on its line is not a marker.
        if (doc.find('\n', from) < to || to == from) continue;
        names.push_back(doc.substr(from, to - from));
    }
    return names;
}

}  // namespace rosterrig::report

#endif
