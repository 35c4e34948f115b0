#include <catch2/catch.hpp>

#include <sstream>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/cli/row_lines.hpp>

using namespace rosterrig;
using namespace rosterrig::cli;

TEST_CASE("the flag parser reads values, inline values and switches", "[cli]") {
    std::uint64_t seed = 0;
    std::uint32_t partitions = 4;
    double fraction = 0;
    std::string mode, rows;
    bool verbose = false;
    arg_parser p{"t", "test"};
    p.option("--seed", seed, "S", "seed", required)
        .option("--partitions", partitions, "K", "partitions")
        .option("--late-stale", fraction, "F", "fraction")
        .option("--rows", rows, "FILE", "rows")
        .choice("--mode", mode, {"append", "upsert"}, "mode")
        .flag("--verbose", verbose, "chatty");
    REQUIRE(p.parse({"--seed", "12", "--late-stale=0.25", "--mode", "upsert", "--rows", "-", "--verbose"}));
    CHECK(seed == 12);
    CHECK(partitions == 4);
    CHECK(fraction == 0.25);
    CHECK(mode == "upsert");
    CHECK(rows == "-");
    CHECK(verbose);
    CHECK(p.given("--seed"));
    CHECK_FALSE(p.given("--partitions"));
}

TEST_CASE("the flag parser refuses what it does not understand", "[cli]") {
    auto fails_with = [](std::vector<std::string> args, const std::string& message) {
        std::uint64_t seed = 0;
        std::string mode;
        bool verbose = false;
        arg_parser p{"t", "test"};
        p.option("--seed", seed, "S", "seed", required)
            .choice("--mode", mode, {"a", "b"}, "mode")
            .flag("--v", verbose, "v");
        CHECK_THROWS_WITH(p.parse(args), message);
    };
    fails_with({"--seed", "1", "--colour", "red"}, "unknown flag --colour");
    fails_with({"--seed"}, "--seed needs a value (S)");
    fails_with({"--seed", "-3"}, "--seed: expected a whole number >= 0, got \"-3\"");
    fails_with({"--seed", "12x"}, "--seed: expected a whole number >= 0, got \"12x\"");
    fails_with({"--seed", "1", "--seed", "2"}, "--seed given twice");
    fails_with({"--mode", "a"}, "missing required flag --seed");
    fails_with({"--seed", "1", "--mode", "c"}, "--mode: expected one of a, b, got \"c\"");
    fails_with({"--seed", "1", "--v=1"}, "--v takes no value");
    fails_with({"seed"}, "unexpected argument \"seed\"");
}

// Mutation: keep empty names (drop the check in convert) and the ",," case no longer throws.
TEST_CASE("the flag parser reads a comma-separated list of names, and refuses an empty one", "[cli]") {
    std::vector<std::string> cells{"default"};
    arg_parser p{"t", "test"};
    p.option("--cells", cells, "CELL,..", "cells");
    REQUIRE(p.parse({"--cells", "worker-join,coordinator-pause"}));
    CHECK(cells == std::vector<std::string>{"worker-join", "coordinator-pause"});
    for (const std::string bad : {"a,,b", "", "a,"}) {
        std::vector<std::string> out;
        arg_parser q{"t", "test"};
        q.option("--cells", out, "CELL,..", "cells");
        CHECK_THROWS_WITH(q.parse({"--cells", bad}),
                          "--cells: expected names separated by commas, got \"" + bad + "\"");
    }
}

TEST_CASE("--help prints the usage and stops parsing, even beside bad flags", "[cli]") {
    std::uint64_t seed = 0;
    arg_parser p{"rosterrig t", "Does t."};
    p.option("--seed", seed, "S", "the seed", required);
    std::ostringstream out;
    CHECK_FALSE(p.parse({"--bogus", "--help"}, out));
    CHECK(out.str().find("usage: rosterrig t --seed S") == 0);
    CHECK(out.str().find("the seed (required)") != std::string::npos);
}

TEST_CASE("rows are read with npi as string or integer and fields all or none", "[cli][rows]") {
    row_reader reader;
    read_row row;
    reader.parse(R"({"seq": 3, "npi": "1234567893"})", row);
    CHECK(row.seq == std::optional<std::uint64_t>(3));
    CHECK(row.npi == 1234567893ULL);
    CHECK_FALSE(row.has_fields);
    reader.parse(R"({"npi": 1234567893, "name": "A", "taxonomy": "T", "address": "1 Main St", "city": "C",
                     "state": "IL", "zip": "62701", "phone": "217-555-0100", "status": "active", "extra": 1})",
                 row);
    CHECK_FALSE(row.seq);
    CHECK(row.has_fields);
    CHECK(row.observed().fields_digest == fields_digest(row.fields));
    CHECK_THROWS_WITH(reader.parse(R"({"seq": 1})", row), "npi: missing");
    CHECK_THROWS_WITH(reader.parse(R"({"seq": -1, "npi": "1"})", row), "seq: expected a non-negative integer");
    CHECK_THROWS_WITH(reader.parse(R"({"npi": "12ab"})", row), "npi: expected digits, got \"12ab\"");
    CHECK_THROWS_WITH(reader.parse(R"({"npi": "1", "name": "A"})", row), Catch::Contains("taxonomy: missing"));
    CHECK_THROWS_WITH(reader.parse(R"([1, 2])", row), "expected a JSON object");
    CHECK_THROWS_WITH(reader.parse(R"({"npi": )", row), Catch::Contains("invalid JSON"));
}
