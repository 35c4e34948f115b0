// Every rule can fail. Each prediction rule of every registered experiment is
// judged on cases built by hand from its shipped run: a copy of the real
// samples with one named change. The registry test (rule_cases.tests.cpp)
// asks of every rule at least one case it refutes and one it holds or leaves
// undecided, so a rule that returns the same verdict whatever it is given
// fails a test. Two cases come free: the shipped run as recorded (its
// verdicts are recomputed by the claims tests) and no samples at all, which
// every rule must leave inconclusive ("a rule that cannot decide says so").
#ifndef ROSTERRIG_TEST_CLAIMS_RULE_CASES_HPP
#define ROSTERRIG_TEST_CLAIMS_RULE_CASES_HPP
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "shipped_result.hpp"

namespace rosterrig::claims_test {

template <class E>
struct rule_case {
    std::string rule;    ///< the prediction id, exactly
    std::string change;  ///< what the case changes in the shipped run, in words
    std::function<void(typename E::samples&, typename E::parameters&)> build;
    verdict_kind expected;
};

/// The first of `items` whose `key` (a member pointer, or a function of the
/// item for a name held deeper) equals `name`: how a case picks the run, cell
/// or step it changes. A name the shipped run no longer has throws, naming it
/// and the names there are, so a renamed cell fails its case instead of
/// changing nothing.
template <class T, class Key>
T& named(std::vector<T>& items, const std::string& name, Key key) {
    std::string there;
    for (auto& item : items) {
        const std::string& n = std::invoke(key, item);
        if (n == name) return item;
        there += (there.empty() ? "" : ", ") + n;
    }
    throw std::out_of_range("rule cases: nothing named \"" + name +
                            "\" in the shipped run (there are: " + (there.empty() ? "none" : there) + ")");
}

/// One experiment's hand-built cases (test/claims/rule_cases/<tag>.cpp).
template <class E>
std::vector<rule_case<E>> rule_cases();

/// The rules of E that judge a cell this version of the experiment does not
/// run: they cannot refute anything yet, so they are named here (in the same
/// file) instead of passing unseen, and must stay inconclusive on every case.
/// A listed rule that refutes, or that E no longer has, fails the test: the
/// list only shrinks as cells are built.
template <class E>
std::set<std::string> rules_not_run();

/// Which verdicts each rule was seen to give on a case that expected it.
using rule_coverage = std::map<std::string, std::set<verdict_kind>>;

/// Judges E's cases, the shipped run and no samples; checks each verdict and
/// returns what each rule was seen to give.
template <class E>
rule_coverage judge_rule_cases() {
    const auto& shipped = load<E>();
    const auto rules = E::rules();
    rule_coverage seen;
    auto rule_of = [&](const std::string& id) -> const auto* {
        for (const auto& r : rules)
            if (r.id == id) return &r;
        return static_cast<decltype(&rules.front())>(nullptr);
    };
    for (const auto& r : rules) {
        seen[r.id];
        // The shipped run, as the claims tests recompute it.
        seen[r.id].insert(r.judge(shipped.samples, shipped.params).verdict);
        // No samples: nothing to decide on.
        const auto none = r.judge(typename E::samples{}, shipped.params);
        INFO(E::tag << " " << r.id << " given no samples: " << to_string(none.verdict) << " (" << none.reason << ")");
        CHECK(none.verdict == verdict_kind::inconclusive);
        if (none.verdict == verdict_kind::inconclusive) seen[r.id].insert(verdict_kind::inconclusive);
    }
    for (const auto& c : rule_cases<E>()) {
        const auto* r = rule_of(c.rule);
        INFO(E::tag << " case for " << c.rule << ": " << c.change);
        REQUIRE(r != nullptr);
        auto s = shipped.samples;
        auto p = shipped.params;
        c.build(s, p);
        const auto v = r->judge(s, p);
        INFO("judged " << to_string(v.verdict) << " (" << v.reason << "), expected " << to_string(c.expected));
        CHECK(v.verdict == c.expected);
        if (v.verdict == c.expected) seen[c.rule].insert(v.verdict);
    }
    return seen;
}

/// Every rule of E has a case it refutes and one it does not, but the rules
/// of cells not run, which are only ever inconclusive.
template <class E>
void every_rule_can_fail_and_can_pass() {
    const auto seen = judge_rule_cases<E>();
    const auto not_run = rules_not_run<E>();
    for (const auto& id : not_run) {
        INFO(E::tag << " lists " << id << " as a rule of a cell not run");
        CHECK(seen.count(id) == 1);
    }
    for (const auto& [id, verdicts] : seen) {
        INFO(E::tag << " " << id << " was seen to give: " << (verdicts.count(verdict_kind::held) ? "held " : "")
                    << (verdicts.count(verdict_kind::refuted) ? "refuted " : "")
                    << (verdicts.count(verdict_kind::inconclusive) ? "inconclusive" : ""));
        if (not_run.count(id)) {
            CHECK(verdicts == std::set<verdict_kind>{verdict_kind::inconclusive});
            continue;
        }
        CHECK(verdicts.count(verdict_kind::refuted) == 1);
        CHECK((verdicts.count(verdict_kind::held) + verdicts.count(verdict_kind::inconclusive)) >= 1);
    }
}

}  // namespace rosterrig::claims_test

#endif
