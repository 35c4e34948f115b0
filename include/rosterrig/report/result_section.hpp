// rosterrig/report/result_section.hpp: the parts every experiment's README
// section ends with: the judged predictions and where the result came from.
// Unlike the other report headers this one reads the result envelope, so it
// needs Boost.JSON (rosterrig::results).
#ifndef ROSTERRIG_REPORT_RESULT_SECTION_HPP
#define ROSTERRIG_REPORT_RESULT_SECTION_HPP

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/result/envelope.hpp"

namespace rosterrig::report {

/// One row per prediction: id, verdict, the rule's reason.
inline std::string verdict_table(const std::vector<experiment::prediction_outcome>& predictions,
                                 std::string_view first_column = "Prediction") {
    markdown_table t{{std::string(first_column), "Verdict", "Why"}};
    for (const auto& p : predictions) t.row({fmt::format("`{}`", p.id), std::string(to_string(p.verdict)), p.reason});
    return t.render();
}

/// When it ran, on which code, with which predictions, on which versions.
/// A commit as the report prints it: twelve hex digits, and "-dirty" kept
/// when the tree had uncommitted changes (cutting it would hide them).
inline std::string short_commit(const std::string& commit) {
    const bool dirty = commit.size() > 6 && commit.compare(commit.size() - 6, 6, "-dirty") == 0;
    return commit.substr(0, 12) + (dirty && commit.size() > 18 ? "-dirty" : "");
}

/// A resumed run says so: when, on which code, after what.
inline std::string resumptions(const result::result_envelope& env) {
    std::string out;
    if (!env.resumed) return out;
    for (const auto& r : *env.resumed)
        out += fmt::format(
            " Resumed {} on code {} after the run stopped ({}); the samples recorded before were kept and only what "
            "they lacked was run.",
            r.at, short_commit(r.code_commit),
            r.after_failure.empty() ? std::string("killed, no reason recorded") : r.after_failure);
    return out;
}

inline std::string provenance(const result::result_envelope& env) {
    std::string versions;
    for (const auto& [k, v] : env.component_versions)
        versions += fmt::format("{}{} {}", versions.empty() ? "" : ", ", k, v);
    return fmt::format(
        "Run {} to {}, code {}, predictions committed in {}. Versions as the components reported them: {}.{}\n",
        env.started_at, env.finished_at, short_commit(env.code_commit), short_commit(env.prediction.recorded_in_commit),
        versions, resumptions(env));
}

}  // namespace rosterrig::report

#endif
