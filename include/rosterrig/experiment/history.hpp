// rosterrig/experiment/history.hpp: a run's saved history read back as typed
// values, and judged from what was saved (never from memory), so `--analyze`,
// the report and the claim tests reach the verdict the driver reached.
//
// An experiment definition E supplies: E::parameters, E::samples (with a
// `predictions` member of prediction_outcome), E::id, E::rules().
#ifndef ROSTERRIG_EXPERIMENT_HISTORY_HPP
#define ROSTERRIG_EXPERIMENT_HISTORY_HPP

#include <string>
#include <vector>

#include "rosterrig/experiment/definition.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/result/envelope.hpp"
#include "rosterrig/result/prediction_file.hpp"

namespace rosterrig::experiment {

template <class E>
struct history {
    result::result_envelope envelope;
    typename E::parameters parameters;
    typename E::samples samples;
};

/// Reads a history or results file of experiment E, strictly; a file of
/// another experiment is a read_error naming $.experiment.
template <class E>
history<E> read_history(const std::string& file) {
    history<E> h;
    h.envelope = result::read_result(file);
    if (h.envelope.experiment != E::id)
        throw result::read_error(file, "$.experiment",
                                 "expected \"" + std::string(E::id) + "\", found \"" + h.envelope.experiment + "\"");
    h.parameters = result::parameters_as<typename E::parameters>(h.envelope, file);
    h.samples = result::samples_as<typename E::samples>(h.envelope, file);
    return h;
}

/// The predictions a run recorded in its samples (id, text, measure).
inline std::vector<result::prediction> recorded_predictions(const std::vector<prediction_outcome>& outcomes) {
    std::vector<result::prediction> out;
    for (const auto& o : outcomes) out.push_back({o.id, o.text, o.measure});
    return out;
}

/// Not judged yet: what a history holds while its run is under way.
inline std::vector<prediction_outcome> unjudged(const std::vector<result::prediction>& predictions) {
    std::vector<prediction_outcome> out;
    for (const auto& p : predictions)
        out.push_back({p.id, p.text, p.measure, verdict_kind::inconclusive, "not judged: the run has not completed",
                       std::nullopt});
    return out;
}

/// Judges the saved samples against the predictions the run recorded; a run
/// that did not complete gives only verdicts more trials cannot change.
template <class E>
std::vector<prediction_outcome> rejudge(const history<E>& h) {
    return judge(h.samples, h.parameters, recorded_predictions(h.samples.predictions), E::rules(),
                 h.envelope.status_or_complete() == result::run_status::complete);
}

/// The definition's hypotheses judged on the saved samples like its
/// predictions (none when it states none); they are not among the predictions
/// and do not decide the run's verdict.
template <class E>
std::vector<prediction_outcome> judge_hypotheses(const history<E>& h) {
    if constexpr (has_hypotheses<E>) {
        return judge_stated(h.samples, h.parameters, E::hypotheses(),
                            h.envelope.status_or_complete() == result::run_status::complete);
    } else {
        return {};
    }
}

/// The envelope's `$.prediction.text`: every prediction, one a line, each
/// with its verdict beside its id ("id (verdict): text"), so the published
/// prediction can never read as one held claim beside a merged "refuted".
inline std::string prediction_lines(const std::vector<prediction_outcome>& judged) {
    std::string out;
    for (const auto& p : judged) out += p.id + " (" + std::string(to_string(p.verdict)) + "): " + p.text + "\n";
    return out;
}

/// The envelope's verdict, reason lines and prediction text, from the judged
/// predictions: `$.verdict` is the merge of the verdicts `$.prediction.text`
/// shows.
inline void set_verdict(result::result_envelope& env, const std::vector<prediction_outcome>& judged) {
    env.prediction.text = prediction_lines(judged);
    env.verdict = overall(judged);
    env.verdict_reason.clear();
    for (const auto& p : judged)
        env.verdict_reason += p.id + ": " + std::string(to_string(p.verdict)) + " (" + p.reason + ")\n";
}

/// `--analyze`'s exit status: 0 held, 1 refuted, 3 inconclusive (2 is bad input).
inline int exit_code(verdict_kind v) {
    switch (v) {
        case verdict_kind::held:
            return 0;
        case verdict_kind::refuted:
            return 1;
        case verdict_kind::inconclusive:
            return 3;
    }
    return 3;
}

}  // namespace rosterrig::experiment

#endif
