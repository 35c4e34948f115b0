// Claims about rosterrig/report/prose_figures.hpp and result_numbers.hpp: the
// README check on figures written by hand. Each test names, under
// "Mutation:", a change to the header that makes it fail; each was made, seen
// to fail, and reverted.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "rosterrig/report/prose_figures.hpp"
#include "rosterrig/report/result_numbers.hpp"

using namespace rosterrig::report;

namespace {

std::vector<std::string> written(const std::vector<prose_figure>& figures) {
    std::vector<std::string> out;
    for (const auto& f : figures) out.push_back(f.written);
    return out;
}

prose_figure figure(double value, int decimals, std::string unit, double scale = 1) {
    prose_figure f;
    f.value = value;
    f.decimals = decimals;
    f.unit = std::move(unit);
    f.scale = scale;
    return f;
}

bool yields(const prose_figure& f, std::vector<double> numbers) {
    std::sort(numbers.begin(), numbers.end());
    return yielded_by(f, numbers);
}

}  // namespace

// Mutation: in unsourced_figures, push every figure (drop `!yielded_by(f,
// yielded)`) and "12,000 records" is reported too; return no figure at all
// (`if (false)`) and the hand-written "12,345 records" passes.
TEST_CASE("report check: a figure added by hand to prose fails the check, a figure a result yields passes",
          "[report][prose]") {
    const std::string doc =
        "# Title\n"
        "\n"
        "The run wrote 12,000 records and\n"
        "lost 12,345 records.\n";
    const auto orphans = unsourced_figures(doc, {12000, 3, 0.95});
    REQUIRE(written(orphans) == std::vector<std::string>{"12,345 records"});
    CHECK(orphans[0].line == 4);
    CHECK(unsourced_figures(doc, {12000, 12345}).empty());
}

// Mutation: in prose_only, never enter a generated section (`generated =
// false` after a BEGIN line) and "99,999 rows" is reported; drop the code-span
// pass and "12,345 records" is.
TEST_CASE("report check: generated sections, code, comments and link targets are not prose", "[report][prose]") {
    const std::string doc =
        "Before.\n"
        "<!-- BEGIN e1 -->\n"
        "| lost | 99,999 rows |\n"
        "<!-- END e1 -->\n"
        "Run `rosterrig-e1 --events 12,345 records`, or `--with\n"
        "e3='--seed 7 20 s'` across a line break.\n"
        "\n"
        "```\n"
        "lost 54,321 records\n"
        "```\n"
        "<!-- a comment with 77,777 rows -->\n"
        "See [the thread](https://example.org/issues/1,234,567 s).\n";
    CHECK(prose_figures(doc).empty());
}

// Mutation: drop the rule for a number after a capitalised word (let `figure`
// fall through to the decimal rule) and "Kafka 4.3" and "Flink 1.20" are
// reported; drop `!release_word` from `decimal` and "fixed in 1.11" is.
TEST_CASE("report check: issue numbers, versions, section numbers, dates, ports, seeds and identifiers are not figures",
          "[report][prose]") {
    const std::string doc =
        "### 7b. The Connect sink\n"
        "\n"
        "1. **What does a restart replay** (section 1c, experiment 7, questions 1 and 3)\n"
        "2. Kafka 4.3, Flink 1.20, Iceberg 1.10.1, Debian 12, Java 25, C++20, Trino 476, not 478.\n"
        "\n"
        "apache/iceberg#15846 and PR #18006 (#16282), fixed in 1.11, read in 1.10's code,\n"
        "after 1.10; Flink 2.x. Results up to 2026-11-30 at 12:30 on 127.0.0.1:8181 with\n"
        "seed 7, SHA-256, SigV4, e3, a 5xx or 504, exit 2, lag 0, parallelism 2.\n";
    CHECK(written(prose_figures(doc)).empty());
}

// Mutation: drop the range rule in prose_figures (never give the first number
// the second's unit) and "15", "0" and "7" are not figures; drop "at most"
// from `quantified` and "626" is not.
TEST_CASE("report check: a figure is a quantity: a unit, a grouping, a percentage, a factor, a decimal or a quantifier",
          "[report][prose]") {
    const std::string doc =
        "It paused 120 s and wrote 20,000 records; the 95% bound, at 100× the feed,\n"
        "held in 5 of 5 trials at a ratio of 0.5, at most 626 (250), within\n"
        "15 to 21 kill cycles, kills 0-4 s apart, 1.2 M events, 12ms, up to 7 and 8 times.\n";
    CHECK(written(prose_figures(doc)) == std::vector<std::string>{"120 s", "20,000 records", "95%", "100×", "5",
                                                                  "5 trials", "0.5", "626", "250", "15", "21 kill", "0",
                                                                  "4 s", "1.2 M events", "12ms", "7", "8 times"});
}

// Mutation: make the tolerance exact (`1e-9 * (1 + target)`) and "12 ms" from
// 12.4 fails; drop the from-milliseconds factor and "0.5 s" from 500 fails.
TEST_CASE(
    "report check: a result yields a figure rounded to the precision written, converted from ms, s or bytes, "
    "as a percentage or with a scale word",
    "[report][prose]") {
    CHECK(yields(figure(12, 0, "ms"), {12.4}));
    CHECK_FALSE(yields(figure(12, 0, "ms"), {12.6}));
    CHECK(yields(figure(0.5, 1, "s"), {500}));  // pause_ms: 500
    CHECK_FALSE(yields(figure(0.5, 1, "s"), {600}));
    CHECK(yields(figure(2, 0, "minutes"), {120}));    // a run of 120 s
    CHECK(yields(figure(1, 0, "GB"), {1073741824}));  // bytes, binary
    CHECK(yields(figure(95, 0, "%"), {0.95}));        // a fraction
    CHECK(yields(figure(1.2, 1, "events", 1e6), {1249999}));
    CHECK_FALSE(yields(figure(1.2, 1, "events", 1e6), {1260000}));
    CHECK(yields(figure(5, 0, "records"), {-5}));                // "lost 5", a change of -5
    CHECK_FALSE(yields(figure(12345, 0, "records"), {12.345}));  // no unit conversion for a count
    CHECK_FALSE(yields(figure(3.25, 2, ""), {3.2, 3.3}));        // written to two decimals, held to them
}

// Mutation: ignore `allowed` in unsourced_figures (`listed = false`) and
// "128 MB" is reported.
TEST_CASE("report check: an allowed figure passes, and only as written", "[report][prose]") {
    const allowed_figure allowed[] = {{"128 MB", "Parquet's default row group"}};
    const std::string doc = "A 128 MB row group, and a 256 MB one.\n";
    CHECK(written(unsourced_figures(doc, {}, allowed)) == std::vector<std::string>{"256 MB"});
}

// Mutation: start the line count at 0 in prose_figures and the line is 2.
TEST_CASE("report check: an orphan is named with its line and the words around it", "[report][prose]") {
    const std::string doc = "# T\n\nNothing here.\nThe job lost 12,345 records after the kill.\n";
    const auto orphans = unsourced_figures(doc, {});
    REQUIRE(orphans.size() == 1);
    CHECK(orphans[0].line == 4);
    CHECK(orphans[0].context == "The job lost 12,345 records after the kill.");
}

// Mutation: drop the string case in numbers_in_result and 12,000 and 0.95 are
// not yielded; count booleans as 1 and the list has a 1 too.
TEST_CASE("report check: a result yields its numeric values and the numbers in its strings, not booleans or keys",
          "[report][prose]") {
    const auto v = boost::json::parse(R"({"zombie_409": true, "n": 3, "x": 2.5,
                                          "reason": "lost 12,000 of 3 at 0.95", "a": [-1, 7, null]})");
    std::vector<double> numbers;
    numbers_in_result(v, numbers);
    std::sort(numbers.begin(), numbers.end());
    CHECK(numbers == std::vector<double>{-1, 0.95, 2.5, 3, 3, 7, 12000});
}

TEST_CASE("report check: the README is held to what a result shows or tells, not to its raw samples",
          "[report][prose]") {
    // A raw sample (a lost count no sentence reports) is not a source: every small integer is in some sample.
    // Mutation check: adding "samples" to numbers_in_result_parts's keys yields 5101 and fails the first CHECK.
    const auto v = boost::json::parse(R"({"parameters": {"events": 12000}, "verdict_reason": "3 of 5 held",
                                          "prediction": {"text": "at most 0.10"},
                                          "samples": {"runs": [{"lost": 5101}], "predictions": [{"reason": "lost 777"}]}})");
    std::vector<double> numbers;
    numbers_in_result_parts(v, numbers);
    std::sort(numbers.begin(), numbers.end());
    CHECK(numbers == std::vector<double>{0.10, 3, 5, 777, 12000});
    CHECK(unsourced_figures("One run lost 5,101 records.\n", numbers).size() == 1);
    CHECK(unsourced_figures("It lost 777 records.\n", numbers).empty());
}
