// rosterrig/result/machine_paths.hpp: what we publish names no folder of the
// machine that ran it. A path under a stack's state folder (the local stack's
// `.stack/` in the checkout: logs, pids, data, the warehouse) is written from
// `.stack/` on, relative to the checkout, wherever it appears in a recorded
// text: a log to read in an error, a component's own message quoting a file
// (Trino's "file:/…/.stack/data/warehouse/…"), a savepoint's location.
//
// Pure and standard-library only, so the report (rendering results recorded
// before this existed) and the drivers (recording new ones) share it.
#ifndef ROSTERRIG_RESULT_MACHINE_PATHS_HPP
#define ROSTERRIG_RESULT_MACHINE_PATHS_HPP

#include <cctype>
#include <string>
#include <string_view>

namespace rosterrig::result {

/// The state folder's name as a published path spells it.
inline constexpr std::string_view state_folder = ".stack";

namespace detail {
// Characters that end a path when walking back from inside it: a path in a
// message starts after a space, a bracket, a quote, an '=' or a scheme's ':'.
inline bool ends_a_path(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '(' || c == '[' || c == '"' || c == '\'' || c == '=' ||
           c == ':' || c == ',' || c == '<' || c == '`';
}
}  // namespace detail

/// `text` with every absolute path into a state folder ("/any/where/.stack/x")
/// written relative to the checkout (".stack/x"). Text without one is
/// returned unchanged; a relative ".stack/x" stays as it is.
inline std::string state_folder_relative(std::string text) {
    const std::string marker = "/" + std::string(state_folder) + "/";
    std::string out;
    std::size_t from = 0;
    for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + marker.size())) {
        // Walk back to where this path starts.
        std::size_t start = at;
        while (start > from && !detail::ends_a_path(text[start - 1])) --start;
        if (text[start] != '/') continue;  // not an absolute path (or the marker starts it: "/.stack/" itself)
        out.append(text, from, start - from);
        from = at + 1;  // keep ".stack/…"
    }
    out.append(text, from, std::string::npos);
    return out;
}

/// Whether `text` holds an absolute filesystem path of a machine: /work/,
/// /root/, /home/ or /tmp/ followed by a letter (the folders a checkout or a
/// scratch directory lives in here and on a usual machine).
inline bool holds_machine_path(std::string_view text) {
    for (const std::string_view root : {"/work/", "/root/", "/home/", "/tmp/"})
        for (auto at = text.find(root); at != std::string_view::npos; at = text.find(root, at + 1)) {
            const auto next = at + root.size();
            if (next < text.size() && std::isalpha(static_cast<unsigned char>(text[next]))) return true;
        }
    return false;
}

}  // namespace rosterrig::result

#endif
