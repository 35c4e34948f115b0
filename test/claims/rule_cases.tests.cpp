// Every rule can fail (issue 30): the registry test over rule_cases.hpp. Every
// registered experiment has hand-built cases (test/claims/rule_cases/<tag>.cpp),
// and each of its rules refutes one of them and holds or stays undecided on
// another; given no samples, every rule is inconclusive.
#include "rule_cases.hpp"

#include <set>
#include <tuple>

#include <rosterrig/experiments/registry.hpp>

using namespace rosterrig;

namespace {
using all_experiments =
    std::tuple<e1::definition, e1b::definition, e1c::definition, e2::definition, e3::definition, e4::definition,
               e5::definition, e6::definition, e7::definition, e7b::definition, e8::definition>;

template <class... E>
std::set<std::string> tags_of(std::tuple<E...>*) {
    return {E::tag...};
}
template <class... E>
void check_each(std::tuple<E...>*) {
    (claims_test::every_rule_can_fail_and_can_pass<E>(), ...);
}
}  // namespace

TEST_CASE("every rule of every registered experiment refutes a hand-built case and does not refute another",
          "[claims][rules]") {
    // Mutation: give e6.degraded-livelocks' one case to another rule (rule_cases/e6.cpp), and this
    // fails: "e6 e6.degraded-livelocks was seen to give: held inconclusive".
    check_each(static_cast<all_experiments*>(nullptr));
}

TEST_CASE("the rule cases cover exactly the registered experiments", "[claims][rules]") {
    std::set<std::string> registered;
    for (const auto& e : experiments::registry()) registered.insert(e.section);
    // Mutation: leave e8::definition out of all_experiments (as a twelfth experiment without cases
    // would be left out), and this fails.
    CHECK(tags_of(static_cast<all_experiments*>(nullptr)) == registered);
}

TEST_CASE("a rule case finds what it changes by name, and a name the shipped run lacks fails naming it",
          "[claims][rules]") {
    struct step {
        std::string name;
        int rows = 0;
    };
    std::vector<step> steps{{"before", 1}, {"after", 2}, {"after", 3}};
    // The first holder of the name, by reference: a case changes the run itself.
    claims_test::named(steps, "after", &step::name).rows = 5;
    CHECK(steps[1].rows == 5);
    CHECK(steps[2].rows == 3);
    // Mutation: return the last item when no name matches, and this fails (a renamed
    // cell would silently change another cell).
    CHECK_THROWS_MATCHES(claims_test::named(steps, "during", &step::name), std::out_of_range,
                         Catch::Matchers::Message("rule cases: nothing named \"during\" in the shipped run (there are: "
                                                  "before, after, after)"));
}
