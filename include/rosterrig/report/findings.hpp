// rosterrig/report/findings.hpp: the README's "What we found" table, one row per
// prediction of every shipped result, in the words the result records: the
// prediction's first clause, the verdict, what the rule measured (its reason,
// shortened at a clause boundary) and the claim test that re-judges it from the
// samples. Rendered, never written by hand, so it cannot drift from results/.
#ifndef ROSTERRIG_REPORT_FINDINGS_HPP
#define ROSTERRIG_REPORT_FINDINGS_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/report/markdown_table.hpp"

namespace rosterrig::report {

struct experiment_findings {
    std::string tag;          ///< e1: the README section's marker
    std::string claims_file;  ///< the claim tests whose recompute case re-judges these verdicts
    std::vector<experiment::prediction_outcome> outcomes;  ///< as the result records them
};

/// The prediction's first clause: up to the first ": " or ". " outside
/// parentheses (a prediction states its claim first and argues it after); a
/// leading "... " that continues the prediction before it is kept.
inline std::string first_clause(std::string_view text) {
    std::size_t cut = text.size();
    int depth = 0;
    for (std::size_t i = 0; i + 1 < text.size() && cut == text.size(); ++i) {
        if (text[i] == '(')
            ++depth;
        else if (text[i] == ')' && depth > 0)
            --depth;
        else if (depth == 0 && (text[i] == ':' || text[i] == '.') && text[i + 1] == ' ' && i > 3)
            cut = i;
    }
    std::string out(text.substr(0, cut));
    if (!out.empty() && out.back() != '.') out += '.';
    return out;
}

/// At most `limit` characters of a reason, cut after the last whole "; " part
/// that fits; a cut reason ends in " …" so the reader knows there is more.
inline std::string shortened(std::string_view reason, std::size_t limit) {
    if (reason.size() <= limit) return std::string(reason);
    const auto at = reason.substr(0, limit).rfind("; ");
    const std::size_t keep = at == std::string_view::npos || at == 0 ? limit : at;
    return std::string(reason.substr(0, keep)) + " …";
}

inline constexpr std::size_t findings_reason_limit = 200;

inline std::string findings_section(const std::vector<experiment_findings>& all) {
    std::size_t held = 0, refuted = 0, inconclusive = 0;
    markdown_table t{{"Experiment", "Prediction (its first clause)", "Verdict",
                      "What the run measured (the rule's reason, cut after 200 characters; whole in the section)",
                      "Re-judged from the samples by"}};
    for (const auto& e : all)
        for (const auto& o : e.outcomes) {
            switch (o.verdict) {
                case verdict_kind::held:
                    ++held;
                    break;
                case verdict_kind::refuted:
                    ++refuted;
                    break;
                default:
                    ++inconclusive;
                    break;
            }
            t.row({e.tag, first_clause(o.text), std::string(to_string(o.verdict)),
                   shortened(o.reason, findings_reason_limit), fmt::format("`{}`", e.claims_file)});
        }
    return fmt::format(
        "Every prediction of every shipped full run, as its result records it: {} held, {} refuted, {} inconclusive. "
        "A refuted prediction is a finding too: what we expected and the engines did not do.\n\n{}",
        held, refuted, inconclusive, t.render());
}

}  // namespace rosterrig::report

#endif
