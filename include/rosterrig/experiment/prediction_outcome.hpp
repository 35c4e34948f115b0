// rosterrig/experiment/prediction_outcome.hpp: a prediction as judged after a
// run: what was predicted, the verdict the code computed, the facts it was
// decided on, and why.
#ifndef ROSTERRIG_EXPERIMENT_PREDICTION_OUTCOME_HPP
#define ROSTERRIG_EXPERIMENT_PREDICTION_OUTCOME_HPP

#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/facts.hpp"
#include "rosterrig/prediction/verdict.hpp"
#include "rosterrig/result/envelope.hpp"

namespace rosterrig::experiment {

struct prediction_outcome {
    std::string id;
    std::string text;
    std::string measure;
    verdict_kind verdict = verdict_kind::inconclusive;
    std::string reason;  ///< rendered from the facts when the run was judged
    /// The named values the verdict was decided on; absent in results
    /// written before rules returned them (and while a run is unjudged).
    std::optional<experiment::facts> facts;
    friend bool operator==(const prediction_outcome&, const prediction_outcome&) = default;
};
BOOST_DESCRIBE_STRUCT(prediction_outcome, (), (id, text, measure, verdict, reason, facts))

/// The same judgement: the same prediction (id, text, measure) with the same
/// verdict and, when both sides recorded them, the same facts. The reason is
/// left out: it is a sentence rendered from the facts for a reader, and a
/// result keeps the reason it recorded, so rewording a rule's sentence must
/// change no comparison (and need no re-run). A result written before rules
/// returned facts compares by verdict alone.
inline bool same_judgement(const prediction_outcome& a, const prediction_outcome& b) {
    const bool same = a.id == b.id && a.text == b.text && a.measure == b.measure && a.verdict == b.verdict;
    if (!a.facts || !b.facts) return same;
    return same && same_facts(*a.facts, *b.facts);
}

/// The envelope's single verdict: refuted if any prediction was, else
/// inconclusive if any was (or none was judged), else held.
inline verdict_kind overall(const std::vector<prediction_outcome>& judged) {
    verdict_kind v = verdict_kind::held;
    for (const auto& p : judged) v = merge(v, p.verdict);
    return judged.empty() ? verdict_kind::inconclusive : v;
}

}  // namespace rosterrig::experiment

#endif
