// rosterrig/experiment/prediction_outcome.hpp: a prediction as judged after a
// run: what was predicted, the verdict the code computed, and why.
#ifndef ROSTERRIG_EXPERIMENT_PREDICTION_OUTCOME_HPP
#define ROSTERRIG_EXPERIMENT_PREDICTION_OUTCOME_HPP

#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/prediction/verdict.hpp"
#include "rosterrig/result/envelope.hpp"

namespace rosterrig::experiment {

struct prediction_outcome {
    std::string id;
    std::string text;
    std::string measure;
    verdict_kind verdict = verdict_kind::inconclusive;
    std::string reason;
    friend bool operator==(const prediction_outcome&, const prediction_outcome&) = default;
};
BOOST_DESCRIBE_STRUCT(prediction_outcome, (), (id, text, measure, verdict, reason))

/// The same judgement: the same prediction (id, text, measure) with the same
/// verdict. The reason is left out: it is a sentence rendered for a reader,
/// and a result keeps the reason it recorded, so rewording a rule's sentence
/// must change no comparison (and need no re-run). Rules expose no named
/// facts beside the sentence yet; when they do, they belong in here.
inline bool same_judgement(const prediction_outcome& a, const prediction_outcome& b) {
    return a.id == b.id && a.text == b.text && a.measure == b.measure && a.verdict == b.verdict;
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
