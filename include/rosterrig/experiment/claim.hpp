// rosterrig/experiment/claim.hpp: a sentence the README states, the test that
// holds it, and the change that makes that test fail (Catch2's claims, with
// the mutation that shows the test can fail written down). The README's claim
// table is generated from these, and a test checks that each named test
// exists and names its mutation where it is written.
#ifndef ROSTERRIG_EXPERIMENT_CLAIM_HPP
#define ROSTERRIG_EXPERIMENT_CLAIM_HPP

#include <string>

namespace rosterrig::experiment {

struct claim {
    std::string sentence;         ///< what the README says
    std::string test;             ///< the exact test name (a Catch2 TEST_CASE or a ctest NAME)
    std::string file;             ///< where that test is written, relative to the checkout
    std::string mutation;         ///< the change to code or data that makes the test fail
    bool from_reference = false;  ///< the reference study makes this claim too
};

}  // namespace rosterrig::experiment

#endif
