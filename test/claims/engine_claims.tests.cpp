// Claims about what the experiments ask the engine for, held offline against
// the shipped files: the SQL templates the drivers submit (sql/*.sql, spliced
// as drivers/live/roles/pipeline.cpp splices them) and the Flink config the stack
// writes (compose/flink/component.sh). Each test names the one-line change to
// a shipped file that makes it fail; each was applied and seen to fail.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>
#include "rosterrig/engine/flink_config_text.hpp"
#include "rosterrig/engine/flink_sql_text.hpp"

using namespace rosterrig;
using namespace rosterrig::engine;

namespace {
std::string read_source(const std::string& relative) {
    const std::string path = std::string(ROSTERRIG_SOURCE_DIR) + "/" + relative;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The roster columns as pipeline.cpp splices them: the fragment without its
// comment lines, in place of ${roster_columns}.
std::string roster_columns_fragment() { return without_comment_lines(read_source("sql/roster_columns.sql")); }

create_table_text spliced_table(const std::string& file, const std::map<std::string, std::string>& more = {},
                                const std::string& kafka_properties = "") {
    return parse_create_table(fill_placeholder(
        fill_placeholder(fill_placeholder(read_source("sql/" + file), "roster_columns", roster_columns_fragment()),
                         "table_properties", table_properties_text(more)),
        "kafka_properties", kafka_properties));
}

bool has_column(const create_table_text& t, const std::string& name) {
    const auto names = column_names(t.columns);
    return std::find(names.begin(), names.end(), name) != names.end();
}
}  // namespace

// Mutation: delete the line `'write.upsert.enabled' = 'true',` from
// sql/upsert_table.sql (or its PRIMARY KEY line): this fails.
TEST_CASE("an upsert table declares the primary key and the upsert flag together", "[claims][sql]") {
    const auto t = spliced_table("upsert_table.sql");
    // The Iceberg sink writes an equality delete per key only with both; either
    // alone is an append table or a Flink error.
    REQUIRE(t.primary_key);
    CHECK(*t.primary_key == std::vector<std::string>{"npi"});
    CHECK(t.primary_key_not_enforced);
    CHECK(has_column(t, "npi"));
    REQUIRE(t.properties.count("write.upsert.enabled") == 1);
    CHECK(t.properties.at("write.upsert.enabled") == "true");
    // Equality deletes exist only in Iceberg format v2.
    REQUIRE(t.properties.count("format-version") == 1);
    CHECK(t.properties.at("format-version") == "2");
}

// Mutation: add `'write.upsert.enabled' = 'true',` (or a
// `PRIMARY KEY (npi) NOT ENFORCED` line) to sql/append_table.sql: this fails.
TEST_CASE("an append table declares no primary key and no upsert flag", "[claims][sql]") {
    const auto t = spliced_table("append_table.sql");
    CHECK_FALSE(t.primary_key);
    CHECK(t.properties.count("write.upsert.enabled") == 0);
}

// Mutation: drop `${table_properties}` from sql/append_table.sql (experiment
// 3's target size would never reach the table): this fails.
TEST_CASE("a table property an experiment asks for is in the CREATE TABLE, beside the fixed ones", "[claims][sql]") {
    for (const std::string file : {"append_table.sql", "upsert_table.sql"}) {
        INFO(file);
        const auto t = spliced_table(file, {{"write.target-file-size-bytes", "1024"}});
        REQUIRE(t.properties.count("write.target-file-size-bytes") == 1);
        CHECK(t.properties.at("write.target-file-size-bytes") == "1024");
        CHECK(t.properties.at("format-version") == "2");
    }
}

// Mutation: in sql/append_table.sql, replace `${roster_columns}` with the
// column lines copied from roster_columns.sql (or add a column after it): this fails.
TEST_CASE("both table shapes and the source take the roster columns from one file", "[claims][sql]") {
    const auto roster = column_names(parse_columns(roster_columns_fragment()));
    REQUIRE(roster.size() >= 2);
    for (const std::string file : {"roster_source.sql", "append_table.sql", "upsert_table.sql"}) {
        INFO(file);
        const auto slots = placeholders(read_source("sql/" + file));
        CHECK(std::count(slots.begin(), slots.end(), "roster_columns") == 1);
        // Spliced, the statement declares exactly the fragment's columns.
        CHECK(column_names(spliced_table(file).columns) == roster);
    }
    CHECK(spliced_table("roster_source.sql").temporary);
}

// Mutation: drop `${kafka_properties}` from sql/roster_source.sql (a stack
// description's SASL or TLS settings would never reach Flink's Kafka source): this fails.
TEST_CASE("the Kafka client settings of a stack description reach Flink's Kafka source", "[claims][sql]") {
    const auto t =
        spliced_table("roster_source.sql", {},
                      "  'properties.security.protocol' = 'SASL_PLAINTEXT',\n"
                      "  'properties.sasl.jaas.config' = 'x required username=\"u\" password=\"it''s\";',\n");
    REQUIRE(t.properties.count("properties.security.protocol") == 1);
    CHECK(t.properties.at("properties.security.protocol") == "SASL_PLAINTEXT");
    CHECK(t.properties.count("properties.sasl.jaas.config") == 1);
    CHECK(t.properties.at("connector") == "kafka");
}

namespace {
std::map<std::string, std::string> stack_flink_config() {
    return parse_flat_config(heredoc_body(read_source("compose/flink/component.sh"), "config.yaml"));
}

// The most kills an experiment makes on one job: E1's kills per configuration.
std::int64_t most_kills_per_job() {
    const std::string file = std::string(ROSTERRIG_SOURCE_DIR) + "/results/e1_restart_replay.json";
    const auto env = result::read_result(file);
    const auto params = result::parameters_as<e1::parameters>(env, file);
    return static_cast<std::int64_t>(params.kills_per_configuration);
}
}  // namespace

// Mutation: in compose/flink/component.sh, `restart-strategy.fixed-delay.attempts: 1000`
// → `restart-strategy.fixed-delay.attempts: 1`: this fails.
TEST_CASE("the stack's Flink restarts a killed job at least as many times as an experiment kills it",
          "[claims][flink]") {
    const auto conf = stack_flink_config();
    const auto kills = most_kills_per_job();
    REQUIRE(kills >= 30);  // the full run of E1
    // Attempts count only for fixed-delay; another strategy has other limits.
    REQUIRE(conf.count("restart-strategy.type") == 1);
    CHECK(conf.at("restart-strategy.type") == "fixed-delay");
    REQUIRE(conf.count("restart-strategy.fixed-delay.attempts") == 1);
    CHECK(std::stoll(conf.at("restart-strategy.fixed-delay.attempts")) >= kills);
}

// Mutation: in compose/flink/component.sh, `web.exception-history-size: 1000`
// → `web.exception-history-size: 16` (Flink's default): this fails.
TEST_CASE("the stack's Flink keeps an exception-history entry for every kill an experiment makes", "[claims][flink]") {
    // E1 counts the history entries as the evidence that each kill was seen.
    const auto conf = stack_flink_config();
    REQUIRE(conf.count("web.exception-history-size") == 1);
    CHECK(std::stoll(conf.at("web.exception-history-size")) >= most_kills_per_job());
}
