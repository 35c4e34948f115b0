// rosterrig/engine/flink_error.hpp: the real error inside an error body from
// Flink's REST endpoints (the SQL Gateway in particular).
//
// The gateway answers a failed statement with {"errors": [summary, trace]}
// where the summary is a generic "Internal server error." and the trace is a
// Java stack trace whose deepest "Caused by:" is what went wrong (a missing
// table, a bad option). Reporting the first line would hide it.
#ifndef ROSTERRIG_ENGINE_FLINK_ERROR_HPP
#define ROSTERRIG_ENGINE_FLINK_ERROR_HPP

#include <cstddef>
#include <sstream>
#include <string>

#include <boost/json.hpp>

namespace rosterrig::engine {

/// The deepest "Caused by:" line of the body's "errors" (without the prefix),
/// else the first line of the body; at most `limit` characters. A body that is
/// not the JSON error shape is read as plain text.
inline std::string flink_cause(const std::string& body, std::size_t limit = 1500) {
    std::string text = body;
    boost::system::error_code ec;
    auto v = boost::json::parse(body, ec);
    if (!ec && v.is_object()) {
        if (auto* errs = v.as_object().if_contains("errors"); errs && errs->is_array()) {
            text.clear();
            for (const auto& e : errs->as_array())
                if (e.is_string()) text += std::string(e.as_string()) + "\n";
        }
    }
    std::string deepest;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        auto at = line.find("Caused by: ");
        if (at != std::string::npos) deepest = line.substr(at + 11);
    }
    if (deepest.empty()) deepest = text.substr(0, text.find('\n'));
    return deepest.substr(0, limit);
}

}  // namespace rosterrig::engine

#endif
