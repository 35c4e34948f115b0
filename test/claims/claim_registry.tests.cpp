// The claim registry (include/rosterrig/experiments/claims.hpp) is the README's
// claim table: these tests hold it to the test sources, so a claim cannot
// name a test that does not exist, a C++ claim test cannot go without the
// mutation that shows it can fail, and a claim test cannot go unlisted.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <rosterrig/experiments/claims.hpp>
#include <rosterrig/experiments/registry.hpp>

using namespace rosterrig;

namespace {
std::string source(const std::string& relative) {
    std::ifstream in(std::string(ROSTERRIG_SOURCE_DIR) + "/" + relative);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
// Every TEST_CASE in a source text: where its "TEST_CASE(" starts (at the
// start of a line: a mention in code or a comment is not a test), and its name
// (the first string literal, which the formatter may put on the next line).
struct test_case_at {
    std::size_t at;
    std::string name;
};
std::vector<test_case_at> test_cases(const std::string& text) {
    std::vector<test_case_at> out;
    for (auto at = text.find("TEST_CASE("); at != std::string::npos; at = text.find("TEST_CASE(", at + 1)) {
        if (at > 0 && text[at - 1] != '\n') continue;
        auto begin = text.find_first_not_of(" \t\n", at + 10);
        if (begin == std::string::npos || text[begin] != '"') continue;  // the macro's own mention, not a test
        const auto end = text.find('"', ++begin);
        out.push_back({at, text.substr(begin, end - begin)});
    }
    return out;
}
// The text around a test: from the end of the previous TEST_CASE's line to
// the next TEST_CASE, so a mutation named above the test or in its body counts.
std::string region_of(const std::string& text, const std::string& test) {
    const auto all = test_cases(text);
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].name != test) continue;
        const auto from = i == 0 ? 0 : text.find('\n', all[i - 1].at);
        const auto to = i + 1 < all.size() ? all[i + 1].at : text.size();
        return text.substr(from, to - from);
    }
    return {};
}
}  // namespace

TEST_CASE("every registered claim names a test that exists, with the mutation that makes it fail",
          "[claims][registry]") {
    const auto all = experiments::claims();
    REQUIRE(all.size() >= 30);
    for (const auto& c : all) {
        INFO(c.test << " in " << c.file);
        CHECK_FALSE(c.sentence.empty());
        CHECK_FALSE(c.mutation.empty());
        const auto text = source(c.file);
        REQUIRE_FALSE(text.empty());
        if (c.file.ends_with(".cpp")) {
            // Mutation: register a test name with one word changed and this fails.
            const auto region = region_of(text, c.test);
            REQUIRE_FALSE(region.empty());
            CHECK(region.find("Mutation") != std::string::npos);
        } else {
            CHECK(text.find(c.test) != std::string::npos);  // a ctest NAME in a CMake file
        }
    }
}

TEST_CASE("every claim test about the shipped results is in the registry", "[claims][registry]") {
    std::set<std::string> registered;
    for (const auto& c : experiments::claims()) registered.insert(c.test);
    for (const auto* file : {"test/claims/e1_claims.tests.cpp", "test/claims/e2_claims.tests.cpp",
                             "test/claims/engine_claims.tests.cpp"}) {
        const auto text = source(file);
        REQUIRE_FALSE(text.empty());
        // Mutation: remove one e1 claim from the registry and this fails.
        for (const auto& [at, name] : test_cases(text)) {
            INFO(file << ": " << name);
            CHECK(registered.count(name) == 1);
        }
    }
}

TEST_CASE("no test name has a semicolon, which ctest would split into two filters that check nothing",
          "[claims][registry]") {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(std::string(ROSTERRIG_SOURCE_DIR) + "/test")) {
        if (entry.path().extension() != ".cpp") continue;
        const auto text = source(std::filesystem::relative(entry.path(), ROSTERRIG_SOURCE_DIR).string());
        // ctest splits a discovered name at ';' into two arguments, each a
        // Catch2 filter that can match no test, and the run then reports
        // success: a claim test that checked nothing passed that way here.
        // Mutation: put "; " back into one test name and this fails.
        for (const auto& [at, name] : test_cases(text)) {
            INFO(entry.path().string() << ": " << name);
            CHECK(name.find(';') == std::string::npos);
        }
    }
}

TEST_CASE("every registered experiment's shipped result re-judges to the verdicts it records", "[claims][registry]") {
    const auto all = experiments::registry();
    REQUIRE(all.size() >= 2);
    for (const auto& e : all) {
        const auto file = std::string(ROSTERRIG_SOURCE_DIR) + "/" + e.results_file;
        INFO(file);
        REQUIRE(std::filesystem::exists(file));
        const auto judged = e.rejudge(file), recorded = e.recorded(file);
        // Mutation: have the judge skip predictions it has no rule for, and
        // the counts differ; flip one rule's verdict and the verdicts do.
        // Rewording a rule's reason changes nothing here: the verdicts and,
        // where the result recorded them, the facts are compared, never the
        // sentence (experiment::same_judgement).
        REQUIRE(!judged.empty());
        REQUIRE(judged.size() == recorded.size());
        for (std::size_t i = 0; i < judged.size(); ++i) {
            INFO(judged[i].id << ": recomputed " << to_string(judged[i].verdict) << ", recorded "
                              << to_string(recorded[i].verdict));
            CHECK(experiment::same_judgement(judged[i], recorded[i]));
        }
    }
}

TEST_CASE("every registered experiment has a claims file whose recompute case the findings table names",
          "[claims][registry]") {
    // The README's "What we found" names experiments::claims_file_of(e) as the test that
    // re-judges each finding. Mutation: rename one claims file (or drop its
    // recorded_verdicts_are_recomputed call) and this fails.
    for (const auto& e : experiments::registry()) {
        const auto file = experiments::claims_file_of(e);
        INFO(file);
        const auto text = source(file);
        REQUIRE_FALSE(text.empty());
        CHECK(text.find("recorded_verdicts_are_recomputed") != std::string::npos);
    }
}
