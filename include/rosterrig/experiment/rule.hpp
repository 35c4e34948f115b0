// rosterrig/experiment/rule.hpp: verdict rules and the one judge over them.
//
// A rule turns saved samples and the run's parameters into a verdict and a
// reason. Rules are looked up by the prediction's exact id: a prediction no
// rule knows, or a rule that throws, is judged inconclusive with the reason in
// words (Jepsen's "unknown"), never dropped and never held by default.
#ifndef ROSTERRIG_EXPERIMENT_RULE_HPP
#define ROSTERRIG_EXPERIMENT_RULE_HPP

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/result/prediction_file.hpp"

namespace rosterrig::experiment {

struct rule_verdict {
    verdict_kind verdict = verdict_kind::inconclusive;
    std::string reason;
};

inline rule_verdict held(std::string why) { return {verdict_kind::held, std::move(why)}; }
inline rule_verdict refuted(std::string why) { return {verdict_kind::refuted, std::move(why)}; }
inline rule_verdict inconclusive(std::string why) { return {verdict_kind::inconclusive, std::move(why)}; }

template <class Samples, class Parameters>
struct rule {
    std::string id;  ///< the prediction id it judges, exactly
    std::function<rule_verdict(const Samples&, const Parameters&)> judge;
};

/// Judges every prediction with the rule of the same id.
template <class Samples, class Parameters>
std::vector<prediction_outcome> judge(const Samples& samples, const Parameters& parameters,
                                      const std::vector<result::prediction>& predictions,
                                      const std::vector<rule<Samples, Parameters>>& rules) {
    std::vector<prediction_outcome> out;
    for (const auto& p : predictions) {
        prediction_outcome o{p.id, p.text, p.measure, verdict_kind::inconclusive,
                             "no rule in the code judges this prediction"};
        for (const auto& r : rules) {
            if (r.id != p.id) continue;
            try {
                auto v = r.judge(samples, parameters);
                o.verdict = v.verdict;
                o.reason = std::move(v.reason);
            } catch (const std::exception& e) {
                o.verdict = verdict_kind::inconclusive;
                o.reason = std::string("the rule could not decide: ") + e.what();
            }
            break;
        }
        out.push_back(std::move(o));
    }
    return out;
}

/// Judges one prediction per element of a group (a variant's repeats, say):
/// held only if it holds for each, refuted if it fails for any, inconclusive
/// when the group is empty or any element cannot be decided. `label` names an
/// element in the reason.
template <class Range, class Label, class Decide>
rule_verdict for_each_of(const Range& group, Label&& label, Decide&& decide, const std::string& when_empty) {
    rule_verdict out{verdict_kind::held, {}};
    bool any = false;
    for (const auto& x : group) {
        any = true;
        rule_verdict v = decide(x);
        out.verdict = merge(out.verdict, v.verdict);
        out.reason += label(x) + ": " + v.reason + "; ";
    }
    if (!any) return inconclusive(when_empty);
    return out;
}

}  // namespace rosterrig::experiment

#endif
