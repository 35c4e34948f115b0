// Rules return facts: a verdict with the named values it was decided on, and
// a reason rendered from them. A recompute compares the facts, never the
// sentence, so rewording a reason changes no test and calls for no re-run.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>

#include <rosterrig/experiment/facts.hpp>
#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiment/rule.hpp>
#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>

namespace fs = std::filesystem;
using namespace rosterrig;

namespace {
experiment::prediction_outcome outcome(verdict_kind v, std::optional<experiment::facts> f, std::string reason) {
    return {"e1.no-duplicates:x", "No kill duplicates.", "duplicate seq rows", v, std::move(reason), std::move(f)};
}
}  // namespace

TEST_CASE("a reason is rendered from the facts it names, and a name no fact has is an error", "[judge][facts]") {
    const experiment::facts f{{"duplicated", 3}, {"kills", 30}, {"bound", 0.0295133}, {"after_kills", {4, 9}}};
    CHECK(experiment::render(f,
                             "{duplicated} of {kills} kills duplicated (after kills {after_kills}); bound "
                             "{bound:.3}, {{braces}}") ==
          "3 of 30 kills duplicated (after kills 4, 9); bound 0.030, {braces}");
    const auto v = experiment::refuted(f, "{duplicated} of {kills} kills duplicated");
    CHECK(v.verdict == verdict_kind::refuted);
    CHECK(v.facts == f);
    CHECK(v.reason == "3 of 30 kills duplicated");
    // A sentence may state only what was decided on.
    CHECK_THROWS_AS(experiment::render(f, "{duplicates} duplicated"), std::logic_error);
}

TEST_CASE("the facts a rule decided on round-trip through a result file", "[judge][facts]") {
    // The shipped e1 run re-judged: real facts (counts, bounds, nested
    // per-configuration facts) written with the run and read back.
    auto h = experiment::read_history<e1::definition>(std::string(ROSTERRIG_SOURCE_DIR) + "/" +
                                                      e1::definition::results_file);
    const auto judged = experiment::rejudge(h);
    REQUIRE(!judged.empty());
    h.samples.predictions = judged;
    h.envelope.samples = result::to_json(h.samples);
    const fs::path dir = fs::temp_directory_path() / "rosterrig-rule-facts-tests";
    fs::create_directories(dir);
    const auto file = (dir / "e1_with_facts.json").string();
    result::write_result(file, h.envelope);
    const auto back = experiment::read_history<e1::definition>(file).samples.predictions;
    REQUIRE(back.size() == judged.size());
    bool any_bound = false;
    for (std::size_t i = 0; i < judged.size(); ++i) {
        INFO(judged[i].id);
        REQUIRE(back[i].facts.has_value());
        CHECK(experiment::same_facts(*back[i].facts, *judged[i].facts));
        CHECK(experiment::same_judgement(back[i], judged[i]));
        any_bound = any_bound || boost::json::serialize(*back[i].facts).find("\"bound\"") != std::string::npos;
    }
    CHECK(any_bound);  // a double (a 95% bound) survived the file too
}

TEST_CASE("an outcome recorded before rules returned facts still reads and compares by its verdict", "[judge][facts]") {
    // The shape of every result committed before facts: no "facts" member.
    const auto v = boost::json::parse(R"({"id": "e1.no-duplicates:x", "text": "No kill duplicates.",
        "measure": "duplicate seq rows", "verdict": "held", "reason": "0 of 30 kills duplicated"})");
    const auto old = result::strict_value_to<experiment::prediction_outcome>(v);
    CHECK_FALSE(old.facts.has_value());
    const auto now = outcome(verdict_kind::held, experiment::facts{{"kills", 30}}, "thirty clean kills");
    CHECK(experiment::same_judgement(old, now));
    CHECK(experiment::same_judgement(now, old));
    CHECK_FALSE(experiment::same_judgement(old, outcome(verdict_kind::refuted, experiment::facts{{"kills", 30}}, "")));
}

TEST_CASE("two outcomes with the same verdict and different facts are not the same judgement", "[judge][facts]") {
    const auto recorded = outcome(verdict_kind::held, experiment::facts{{"kills", 30}, {"bound", 0.0951}}, "held");
    const auto recomputed = outcome(verdict_kind::held, experiment::facts{{"kills", 29}, {"bound", 0.0951}}, "held");
    // Mutation: drop the facts comparison from same_judgement and this fails.
    CHECK_FALSE(experiment::same_judgement(recorded, recomputed));
    // A fact missing on one side is a difference too.
    CHECK_FALSE(
        experiment::same_judgement(recorded, outcome(verdict_kind::held, experiment::facts{{"kills", 30}}, "")));
}

TEST_CASE("a reworded reason with the same facts is the same judgement", "[judge][facts]") {
    const experiment::facts f{{"kills", std::uint64_t{30}}, {"bound", 0.0951}};
    const auto before = experiment::held(f, "0 of {kills} kills duplicated; 95% upper bound {bound}");
    const auto after = experiment::held(f, "none of the {kills} kills duplicated a row (bound {bound:.2})");
    REQUIRE(before.reason != after.reason);
    CHECK(experiment::same_judgement(outcome(before.verdict, before.facts, before.reason),
                                     outcome(after.verdict, after.facts, after.reason)));
    // An unsigned count read back from a file is a signed integer: the same fact.
    CHECK(experiment::same_facts(experiment::facts{{"kills", std::uint64_t{30}}},
                                 experiment::facts{{"kills", std::int64_t{30}}}));
}
