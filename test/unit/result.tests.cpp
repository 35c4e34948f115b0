#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

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
}  // namespace test_schema

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
}  // namespace

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
        CHECK(std::string(err.what()) ==
              "results/e1.json: $.samples.kills[1].duplicates: expected integer, found string");
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

// Mutation: return `text` unchanged from state_folder_relative and this fails.
TEST_CASE("a path into the stack's state folder is written from .stack/ on, wherever a message puts it",
          "[result][paths]") {
    CHECK(state_folder_relative("kafka at 127.0.0.1:29092: refused (read /work/main/.stack/logs/kafka.log)") ==
          "kafka at 127.0.0.1:29092: refused (read .stack/logs/kafka.log)");
    CHECK(state_folder_relative("Error opening Iceberg split file:/work/main/.stack/data/warehouse/ns/t/a.parquet") ==
          "Error opening Iceberg split file:.stack/data/warehouse/ns/t/a.parquet");
    CHECK(state_folder_relative("a walk of /home/me/rosterrig/.stack/data/warehouse/ns/t, and /tmp/x/.stack/pids") ==
          "a walk of .stack/data/warehouse/ns/t, and .stack/pids");
    CHECK(state_folder_relative("/tmp/x/.stacked/pids") == "/tmp/x/.stacked/pids");  // not a state folder
    CHECK(state_folder_relative("\"/a/.stack/logs/x.log\" and \"/b/.stack/logs/y.log\"") ==
          "\".stack/logs/x.log\" and \".stack/logs/y.log\"");
    // Unchanged: no state folder, or one already relative.
    CHECK(state_folder_relative("s3://rosterrig/warehouse/ns/t") == "s3://rosterrig/warehouse/ns/t");
    CHECK(state_folder_relative("read .stack/logs/kafka.log") == "read .stack/logs/kafka.log");
    CHECK(state_folder_relative("") == "");
}

// Mutation: check only "/work/" in holds_machine_path and the /root, /home
// and /tmp cases fail.
TEST_CASE("an absolute path under /work, /root, /home or /tmp followed by a letter is a machine path",
          "[result][paths]") {
    CHECK(holds_machine_path("read /work/main/.stack/logs/kafka.log"));
    CHECK(holds_machine_path("/root/x"));
    CHECK(holds_machine_path("file:/home/me/t"));
    CHECK(holds_machine_path("scratch in /tmp/rosterrig-1"));
    CHECK_FALSE(holds_machine_path("read .stack/logs/kafka.log"));
    CHECK_FALSE(holds_machine_path("s3://rosterrig/warehouse/ns/t"));
    CHECK_FALSE(holds_machine_path("/tmp/"));
    CHECK_FALSE(holds_machine_path("/tmp/1"));
}

// Mutation: write the envelope's JSON as it is in write_result (no
// make_state_paths_relative) and this fails.
TEST_CASE("a result file is written with paths into the state folder relative, in values and member names",
          "[result][paths]") {
    result_envelope e;
    e.experiment = "e_paths";
    e.failure = "trino at 127.0.0.1:28080: failed (read /work/main/.stack/logs/trino.log)";
    json::object samples;
    samples["savepoint_path"] = "file:/work/main/.stack/data/flink/savepoints/job/savepoint-1";
    samples["log_sizes"] = json::object{{"/work/main/.stack/logs/kafka.log", 12}};
    samples["errors"] = json::array{"no path here", "walk of /work/main/.stack/data/warehouse/ns/t"};
    e.samples = samples;
    const auto dir = fs::temp_directory_path() / "rosterrig-result-paths";
    fs::create_directories(dir);
    const auto file = (dir / "paths.json").string();
    write_result(file, e);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    CHECK_FALSE(holds_machine_path(text.str()));
    const auto back = read_result(file);
    CHECK(*back.failure == "trino at 127.0.0.1:28080: failed (read .stack/logs/trino.log)");
    CHECK(back.samples.at("savepoint_path") == "file:.stack/data/flink/savepoints/job/savepoint-1");
    CHECK(back.samples.at("log_sizes").as_object().contains(".stack/logs/kafka.log"));
    CHECK(back.samples.at("errors").as_array().at(1) == "walk of .stack/data/warehouse/ns/t");
    CHECK(back.samples.at("errors").as_array().at(0) == "no path here");
}
