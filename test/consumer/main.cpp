// Builds against the installed headers only; prints the default feed's
// first line and the distinct NPIs of the default feed.
#include <iostream>

#include <rosterrig/rosterrig.hpp>

int main() {
    rosterrig::roster_spec spec;
    spec.events = 1;
    for (const auto& e : rosterrig::generate(spec)) std::cout << rosterrig::to_json_line(e);
    std::cout << rosterrig::expect_upsert(rosterrig::roster_spec{}).by_npi.size() << "\n";
    return rosterrig::is_valid_npi(rosterrig::generate(spec).front().npi) ? 0 : 1;
}
