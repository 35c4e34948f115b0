#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <boost/describe.hpp>

#include "rosterrig/result/result.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace rosterrig;
using namespace rosterrig::result;

namespace test_schema {
struct kill_sample {
    std::uint64_t at_event = 0;
    std::uint64_t duplicates = 0;
    std::optional<std::string> note;
    friend bool operator==(const kill_sample&, const kill_sample&) = default;
};
BOOST_DESCRIBE_STRUCT(kill_sample, (), (at_event, duplicates, note))

struct samples {
    std::vector<kill_sample> kills;
    double bound = 0;
    friend bool operator==(const samples&, const samples&) = default;
};
BOOST_DESCRIBE_STRUCT(samples, (), (kills, bound))

struct parameters {
    std::uint64_t seed = 0;
    std::string mode;
    friend bool operator==(const parameters&, const parameters&) = default;
};
BOOST_DESCRIBE_STRUCT(parameters, (), (seed, mode))
} // namespace test_schema

namespace {
fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "rosterrig-result-tests";
    fs::create_directories(dir);
    const fs::path p = dir / name;
    fs::remove_all(p);
    fs::remove_all(p.string() + ".tmp");
    return p;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

result_envelope example() {
    result_envelope e;
    e.experiment = "e1-restart-replay";
    e.parameters = to_json_object(test_schema::parameters{42, "upsert"});
    e.component_versions = {{"flink", "1.20.3"}, {"kafka", "4.3.1"}};
    e.code_commit = "0123abcd";
    e.started_at = "2025-01-01T00:00:00.000Z";
    e.finished_at = "2025-01-01T00:10:00.000Z";
    e.prediction = {"no duplicates", "fedcba98", "predictions/e1.json"};
    e.verdict = verdict_kind::refuted;
    e.verdict_reason = "3 duplicate rows";
    e.samples = to_json(test_schema::samples{{{10, 0, std::nullopt}, {20, 3, "late"}}, 0.5});
    return e;
}

void expect_read_error(const fs::path& file, const std::string& text, const std::string& message) {
    std::ofstream(file) << text;
    try {
        (void)read_result(file.string());
        FAIL("no error for " << text);
    } catch (const read_error& e) {
        CHECK(std::string(e.what()) == file.string() + ": " + message);
    }
}
} // namespace

TEST_CASE("a result written and read back is the same result", "[result]") {
    const fs::path file = scratch("roundtrip.json");
    const result_envelope e = example();
    write_result(file.string(), e);
    const result_envelope back = read_result(file.string());
    CHECK(back.experiment == e.experiment);
    CHECK(back.parameters == e.parameters);
    CHECK(back.component_versions == e.component_versions);
    CHECK(back.prediction == e.prediction);
    CHECK(back.verdict == verdict_kind::refuted);
    CHECK(back.samples == e.samples);
    CHECK(parameters_as<test_schema::parameters>(back) == test_schema::parameters{42, "upsert"});
    CHECK(samples_as<test_schema::samples>(back).kills.at(1).note == std::optional<std::string>("late"));
    CHECK(slurp(file).find("\"verdict\": \"refuted\"") != std::string::npos);
    CHECK_FALSE(fs::exists(file.string() + ".tmp"));
}

TEST_CASE("reading a result names the file and the JSON path of what is wrong", "[result]") {
    // Mutation check: dropping the unknown-member loop in read_described
    // lets the third case through and fails this test (tried once).
    const fs::path file = scratch("bad.json");
    json::object good = to_json(example()).as_object();

    json::object missing = good;
    missing.erase("code_commit");
    expect_read_error(file, json::serialize(missing), "$.code_commit: missing field (expected string)");

    json::object wrong = good;
    wrong["prediction"].as_object()["text"] = 5;
    expect_read_error(file, json::serialize(wrong), "$.prediction.text: expected string, found integer");

    json::object unknown = good;
    unknown["verdikt"] = "held";
    expect_read_error(file, json::serialize(unknown), "$.verdikt: unknown field");

    json::object bad_enum = good;
    bad_enum["verdict"] = "maybe";
    expect_read_error(file, json::serialize(bad_enum),
                      "$.verdict: expected one of held|refuted|inconclusive, found \"maybe\"");

    expect_read_error(file, "{\"experiment\": \n  oops}", "$: invalid JSON at line 2 column 3: syntax error");
}

TEST_CASE("typed samples are read strictly, with paths into arrays", "[result]") {
    result_envelope e = example();
    e.samples.as_object()["kills"].as_array()[1].as_object()["duplicates"] = "three";
    try {
        (void)samples_as<test_schema::samples>(e, "results/e1.json");
        FAIL("no error");
    } catch (const read_error& err) {
        CHECK(std::string(err.what()) == "results/e1.json: $.samples.kills[1].duplicates: expected integer, found string");
        CHECK(err.path() == "$.samples.kills[1].duplicates");
    }
    e.samples.as_object()["kills"].as_array()[1].as_object()["duplicates"] = -1;
    CHECK_THROWS_WITH(samples_as<test_schema::samples>(e), Catch::Contains("integer out of range"));
    e.samples.as_object()["kills"].as_array()[1].as_object()["duplicates"] = 1.5;
    CHECK_THROWS_WITH(samples_as<test_schema::samples>(e), Catch::Contains("expected integer, found number"));
}

TEST_CASE("a failed write leaves the complete result in place", "[result]") {
    // Mutation check: writing straight to `file` instead of `file.tmp` in
    // write_file_atomically truncates the old result and fails this test
    // (tried once).
    const fs::path file = scratch("keep.json");
    write_result(file.string(), example());
    const std::string before = slurp(file);
    fs::create_directories(file.string() + ".tmp");  // the temporary file cannot be created
    result_envelope changed = example();
    changed.verdict = verdict_kind::held;
    CHECK_THROWS_WITH(write_result(file.string(), changed), Catch::Contains("cannot create temporary file"));
    CHECK(slurp(file) == before);
    fs::remove_all(file.string() + ".tmp");
    CHECK_THROWS(write_json_file((scratch("no-such-dir") / "x.json").string(), json::value(1)));
}

TEST_CASE("predictions files are lists of id, text and measure, read strictly", "[result][prediction]") {
    const fs::path file = scratch("e1.predictions.json");
    std::ofstream(file) << R"([{"id": "alo-append", "text": "duplicates appear", "measure": "duplicate_rows > 0"},
                              {"id": "eo-append", "text": "none", "measure": "duplicate_rows == 0"}])";
    const auto list = read_predictions(file.string());
    REQUIRE(list.size() == 2);
    CHECK(find_prediction(list, "eo-append").measure == "duplicate_rows == 0");
    CHECK_THROWS_AS(find_prediction(list, "nope"), std::out_of_range);

    std::ofstream(file) << R"([{"id": "a", "text": "t", "measure": "m"}, {"id": "a", "text": "t", "measure": "m"}])";
    CHECK_THROWS_WITH(read_predictions(file.string()), Catch::Contains("$[1].id: duplicate id \"a\""));
    std::ofstream(file) << R"([{"id": "a", "text": "t"}])";
    CHECK_THROWS_WITH(read_predictions(file.string()), Catch::Contains("$[0].measure: missing field"));
}

TEST_CASE("verdicts merge as refuted over inconclusive over held", "[result][prediction]") {
    CHECK(merge(verdict_kind::held, verdict_kind::held) == verdict_kind::held);
    CHECK(merge(verdict_kind::held, verdict_kind::inconclusive) == verdict_kind::inconclusive);
    CHECK(merge(verdict_kind::inconclusive, verdict_kind::refuted) == verdict_kind::refuted);
    CHECK(to_string(verdict_kind::refuted) == "refuted");
}
