// The shipped results file of one experiment, read once, and the shape every
// claim test takes: a claim holds on the shipped samples AND fails on a copy
// with the named mutation, so a claim cannot pass by checking nothing.
#ifndef ROSTERRIG_TEST_CLAIMS_SHIPPED_RESULT_HPP
#define ROSTERRIG_TEST_CLAIMS_SHIPPED_RESULT_HPP
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include <rosterrig/experiment/history.hpp>

#include "compared.hpp"

namespace rosterrig::claims_test {

template <class D>
std::string shipped_file() {
    return std::string(ROSTERRIG_SOURCE_DIR) + "/" + D::results_file;
}

template <class D>
struct shipped {
    result::result_envelope env;
    typename D::samples samples;
    typename D::parameters params;
};

template <class D>
const shipped<D>& load() {
    static const shipped<D> s = [] {
        const auto file = shipped_file<D>();
        shipped<D> out;
        out.env = result::read_result(file);
        out.samples = result::samples_as<typename D::samples>(out.env, file);
        out.params = result::parameters_as<typename D::parameters>(out.env, file);
        return out;
    }();
    return s;
}

template <class D>
using claim = std::function<bool(const typename D::samples&, const typename D::parameters&)>;

// Holds on the shipped samples, fails once mutated.
template <class D>
void holds_and_is_mutation_checked(const claim<D>& c, const std::function<void(typename D::samples&)>& mutate) {
    const auto& s = load<D>();
    comparison_log::current().clear();
    const bool holds = c(s.samples, s.params);
    INFO(comparison_log::current().text());
    REQUIRE(holds);
    auto broken = s.samples;
    mutate(broken);
    REQUIRE_FALSE(c(broken, s.params));
}

// The verdicts recorded in the shipped file are the ones the code computes
// from its samples: each prediction's id, text, measure and verdict, its
// facts where the file recorded them (a result written before rules returned
// facts has none), and the overall verdict. The reason sentence is not
// compared (same_judgement): it is rendered from the facts, a result keeps
// the reason it recorded, and rewording a rule's sentence must not fail a
// test or call for a re-run. Requires at least `at_least` predictions: a
// recompute over none would agree with anything. Returns the history for a
// data mutation.
template <class D>
experiment::history<D> recorded_verdicts_are_recomputed(std::size_t at_least) {
    auto h = experiment::read_history<D>(shipped_file<D>());
    const auto judged = experiment::rejudge(h);
    REQUIRE(judged.size() >= at_least);
    REQUIRE(judged.size() == h.samples.predictions.size());
    for (std::size_t i = 0; i < judged.size(); ++i) {
        const auto& recorded = h.samples.predictions[i];
        INFO(judged[i].id << ": recomputed " << to_string(judged[i].verdict) << " (" << judged[i].reason << "; facts "
                          << boost::json::serialize(judged[i].facts.value_or(experiment::facts{})) << "), recorded "
                          << to_string(recorded.verdict) << " (" << recorded.reason << "; facts "
                          << (recorded.facts ? boost::json::serialize(*recorded.facts) : std::string("not recorded"))
                          << ")");
        CHECK(experiment::same_judgement(judged[i], recorded));
    }
    CHECK(experiment::overall(judged) == h.envelope.verdict);
    return h;
}

// One experiment's claim helpers under one name: `using C = claims_of<e1::definition>;`.
template <class D>
struct claims_of {
    static std::string file() { return shipped_file<D>(); }
    static const shipped<D>& load() { return claims_test::load<D>(); }
    static experiment::history<D> recorded_verdicts_are_recomputed(std::size_t at_least) {
        return claims_test::recorded_verdicts_are_recomputed<D>(at_least);
    }
    static void holds_and_is_mutation_checked(const claim<D>& c,
                                              const std::function<void(typename D::samples&)>& mutate) {
        claims_test::holds_and_is_mutation_checked<D>(c, mutate);
    }
    // For claims that need only the samples.
    static void holds_and_is_mutation_checked(const std::function<bool(const typename D::samples&)>& c,
                                              const std::function<void(typename D::samples&)>& mutate) {
        claims_test::holds_and_is_mutation_checked<D>(
            [&](const typename D::samples& x, const typename D::parameters&) { return c(x); }, mutate);
    }
};

}  // namespace rosterrig::claims_test

#endif
