// rosterrig/experiment/rule.hpp: verdict rules and the one judge over them.
//
// A rule turns saved samples and the run's parameters into a verdict, the
// facts it was decided on (facts.hpp) and a reason rendered from them. Rules are looked up by the prediction's exact id: a prediction no
// rule knows, or a rule that throws, is judged inconclusive with the reason in
// words (Jepsen's "unknown"), never dropped and never held by default.
#ifndef ROSTERRIG_EXPERIMENT_RULE_HPP
#define ROSTERRIG_EXPERIMENT_RULE_HPP

#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rosterrig/experiment/facts.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/result/prediction_file.hpp"

namespace rosterrig::experiment {

struct rule_verdict {
    verdict_kind verdict = verdict_kind::inconclusive;
    experiment::facts facts;  ///< the named values the verdict was decided on
    std::string reason;       ///< rendered from the facts, for a reader
    /// The verdict more trials cannot change, so a run that did not complete
    /// may already give it: one failing trial refutes an every-trial rule for
    /// good (refuted), one trial showing it holds an in-some-trial rule for
    /// good (held). The other verdict waits for the whole run.
    verdict_kind lasting = verdict_kind::refuted;
};

/// An in-some-trial verdict: one trial showing it holds it for good, so on a
/// run that did not complete its refutation waits for the whole run.
inline rule_verdict held_by_any_trial(rule_verdict v) {
    v.lasting = verdict_kind::held;
    return v;
}

/// `v` given on a run that did not complete: kept when more trials cannot
/// change it, else inconclusive with the verdict so far in its reason.
inline rule_verdict before_completion(rule_verdict v) {
    if (v.verdict == verdict_kind::inconclusive || v.verdict == v.lasting) return v;
    v.reason = "the run did not complete; so far " + std::string(to_string(v.verdict)) + ": " + v.reason;
    v.verdict = verdict_kind::inconclusive;
    return v;
}

/// A verdict with its facts and the reason `pattern` renders from them
/// (render() in facts.hpp): the only way a rule states a reason, so its
/// sentence holds no number the facts do not.
inline rule_verdict decided(verdict_kind v, experiment::facts f, std::string_view pattern) {
    std::string reason = render(f, pattern);
    return {v, std::move(f), std::move(reason)};
}
inline rule_verdict held(experiment::facts f, std::string_view pattern) {
    return decided(verdict_kind::held, std::move(f), pattern);
}
inline rule_verdict refuted(experiment::facts f, std::string_view pattern) {
    return decided(verdict_kind::refuted, std::move(f), pattern);
}
inline rule_verdict inconclusive(experiment::facts f, std::string_view pattern) {
    return decided(verdict_kind::inconclusive, std::move(f), pattern);
}
/// Held when `ok`, else refuted, on the same facts and sentence.
inline rule_verdict held_if(bool ok, experiment::facts f, std::string_view pattern) {
    return decided(ok ? verdict_kind::held : verdict_kind::refuted, std::move(f), pattern);
}
/// A verdict on facts held part by part (one entry per run, say) whose
/// sentence was rendered part by part from those entries, as for_each_of does.
inline rule_verdict from_parts(verdict_kind v, experiment::facts parts, std::string rendered) {
    return {v, std::move(parts), std::move(rendered)};
}
inline rule_verdict held(phrase p) { return held(std::move(p.values), p.pattern); }
inline rule_verdict refuted(phrase p) { return refuted(std::move(p.values), p.pattern); }
inline rule_verdict inconclusive(phrase p) { return inconclusive(std::move(p.values), p.pattern); }
inline rule_verdict held_if(bool ok, phrase p) { return held_if(ok, std::move(p.values), p.pattern); }

template <class Samples, class Parameters>
struct rule {
    std::string id;  ///< the prediction id it judges, exactly
    std::function<rule_verdict(const Samples&, const Parameters&)> judge;
};

/// Judges every prediction with the rule of the same id; on a run that did
/// not complete (`run_complete` false) only verdicts more trials cannot change.
template <class Samples, class Parameters>
std::vector<prediction_outcome> judge(const Samples& samples, const Parameters& parameters,
                                      const std::vector<result::prediction>& predictions,
                                      const std::vector<rule<Samples, Parameters>>& rules, bool run_complete = true) {
    std::vector<prediction_outcome> out;
    for (const auto& p : predictions) {
        prediction_outcome o{p.id,
                             p.text,
                             p.measure,
                             verdict_kind::inconclusive,
                             "no rule in the code judges this prediction",
                             experiment::facts{}};
        for (const auto& r : rules) {
            if (r.id != p.id) continue;
            try {
                auto v = r.judge(samples, parameters);
                if (!run_complete) v = before_completion(std::move(v));
                o.verdict = v.verdict;
                o.reason = std::move(v.reason);
                o.facts = std::move(v.facts);
            } catch (const std::exception& e) {
                const auto v = inconclusive({{"error", e.what()}}, "the rule could not decide: {error}");
                o.verdict = v.verdict;
                o.reason = v.reason;
                o.facts = v.facts;
            }
            break;
        }
        out.push_back(std::move(o));
    }
    return out;
}

/// Judges `rules` as if each stated a prediction of its own id (no text):
/// hypotheses, stated beside a run's predictions but never among them.
template <class Samples, class Parameters>
std::vector<prediction_outcome> judge_stated(const Samples& samples, const Parameters& parameters,
                                             const std::vector<rule<Samples, Parameters>>& rules, bool run_complete) {
    std::vector<result::prediction> stated;
    for (const auto& r : rules) stated.push_back({r.id, "", ""});
    return judge(samples, parameters, stated, rules, run_complete);
}

/// Judges one prediction per element of a group (a variant's repeats, say):
/// held only if it holds for each, refuted if it fails for any, inconclusive
/// when the group is empty or any element cannot be decided. `label` names an
/// element: its facts are the element's facts under that name, and its reason
/// the element's reasons, each after its label.
template <class Range, class Label, class Decide>
rule_verdict for_each_of(const Range& group, Label&& label, Decide&& decide, std::string_view when_empty) {
    rule_verdict out{verdict_kind::held, {}, {}};
    bool any = false;
    for (const auto& x : group) {
        any = true;
        rule_verdict v = decide(x);
        const std::string name = label(x);
        out.verdict = merge(out.verdict, v.verdict);
        out.reason += name + ": " + v.reason + "; ";
        out.facts[name] = std::move(v.facts);
    }
    if (!any) return inconclusive({}, when_empty);
    return out;
}

}  // namespace rosterrig::experiment

#endif
