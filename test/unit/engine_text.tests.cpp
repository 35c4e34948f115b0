// The text readers behind the offline claims about what the stack runs: the
// Flink SQL templates, the Flink config the stack writes, and the error text
// the SQL Gateway returns. Each reader refuses what it does not understand, so
// a claim built on it cannot pass by reading nothing.
#include <catch2/catch.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "rosterrig/engine/flink_config_text.hpp"
#include "rosterrig/engine/flink_error.hpp"
#include "rosterrig/engine/flink_sql_text.hpp"

using namespace rosterrig::engine;

// --- flink_sql_text ------------------------------------------------------------

TEST_CASE("flink_sql_text: a CREATE TABLE gives its columns, primary key and WITH options", "[unit][engine]") {
    const std::string sql = R"(-- Upsert (on the key); a comment with ( and ' in it
CREATE TABLE lake.ns.t (
  seq BIGINT,
  `npi` STRING,
  price DECIMAL(10, 2),
  PRIMARY KEY (npi) NOT ENFORCED
) WITH (
  'format-version' = '2',
  'write.upsert.enabled' = 'true',
  'location' = 's3://b/it''s'
);
)";
    const auto t = parse_create_table(sql);
    CHECK(t.name == "lake.ns.t");
    CHECK_FALSE(t.temporary);
    CHECK(column_names(t.columns) == std::vector<std::string>{"seq", "npi", "price"});
    CHECK(t.columns[2].type == "DECIMAL(10, 2)");
    REQUIRE(t.primary_key);
    CHECK(*t.primary_key == std::vector<std::string>{"npi"});
    CHECK(t.primary_key_not_enforced);
    CHECK(t.properties == std::map<std::string, std::string>{
                              {"format-version", "2"}, {"write.upsert.enabled", "true"}, {"location", "s3://b/it's"}});
}

TEST_CASE("flink_sql_text: a table without a key has none, and an enforced key is told apart", "[unit][engine]") {
    auto t = parse_create_table("CREATE TEMPORARY TABLE src (a INT, created_at STRING) WITH ('connector' = 'kafka')");
    CHECK(t.temporary);
    CHECK_FALSE(t.primary_key);
    CHECK(column_names(t.columns) == std::vector<std::string>{"a", "created_at"});

    t = parse_create_table("create table t (a INT, CONSTRAINT pk PRIMARY KEY (a, b)) with ('k'='v')");
    REQUIRE(t.primary_key);
    CHECK(*t.primary_key == std::vector<std::string>{"a", "b"});
    CHECK_FALSE(t.primary_key_not_enforced);
    CHECK(t.properties.at("k") == "v");
}

TEST_CASE("flink_sql_text: what is not one CREATE TABLE ... WITH (...) is refused", "[unit][engine]") {
    CHECK_THROWS_AS(parse_create_table("INSERT INTO t SELECT 1"), std::invalid_argument);
    CHECK_THROWS_AS(parse_create_table("CREATE TABLE t (a INT)"), std::invalid_argument);                // no WITH
    CHECK_THROWS_AS(parse_create_table("CREATE TABLE t (a INT WITH ('k'='v')"), std::invalid_argument);  // unbalanced
    CHECK_THROWS_AS(parse_create_table("CREATE TABLE t (a INT) WITH ('k'='v', 'k'='w')"), std::invalid_argument);
    CHECK_THROWS_AS(parse_create_table("CREATE TABLE t (a INT) WITH (k = 'v')"), std::invalid_argument);
    CHECK_THROWS_AS(parse_create_table("CREATE TABLE a (x INT) WITH ('k'='v'); CREATE TABLE b (x INT) WITH ('k'='v')"),
                    std::invalid_argument);
    // An unspliced fragment is not a column: the claims must splice first.
    CHECK_THROWS_AS(parse_create_table("CREATE TABLE t (\n${roster_columns}\n) WITH ('k'='v')"), std::invalid_argument);
}

TEST_CASE("flink_sql_text: splicing drops the fragment's comment lines and fills every placeholder", "[unit][engine]") {
    const std::string fragment = "-- the columns (shared)\n  a INT,\n  b STRING\n";
    CHECK(without_comment_lines(fragment) == "  a INT,\n  b STRING");
    CHECK(placeholders("x ${a} y ${b} ${a}") == std::vector<std::string>{"a", "b", "a"});
    CHECK_THROWS_AS(placeholders("x ${a"), std::invalid_argument);
    CHECK(fill_placeholder("(${c}) ${d} ${c}", "c", "1") == "(1) ${d} 1");
    CHECK(column_names(parse_columns(fragment)) == std::vector<std::string>{"a", "b"});
    CHECK_THROWS_AS(parse_columns("a INT, PRIMARY KEY (a) NOT ENFORCED"), std::invalid_argument);
}

// --- flink_config_text -----------------------------------------------------------

TEST_CASE("flink_config_text: the heredoc that writes a file is found and read as flat key: value lines",
          "[unit][engine]") {
    const std::string script = R"(write() {
  cat > "$CONF/log4j.properties" <<'EOF'
rootLogger.level = INFO
EOF
  cat > "$CONF/config.yaml" <<EOF
# a comment
rest.port: $RR_PORT
blob.server.port: "6124"

restart-strategy.fixed-delay.attempts: 1000   # trailing comment
restart-strategy.fixed-delay.delay: 2 s
EOF
  echo done
}
)";
    const auto body = heredoc_body(script, "config.yaml");
    CHECK(body.find("rootLogger") == std::string::npos);
    CHECK(body.find("echo done") == std::string::npos);
    const auto conf = parse_flat_config(body);
    CHECK(conf == std::map<std::string, std::string>{{"rest.port", "$RR_PORT"},
                                                     {"blob.server.port", "6124"},
                                                     {"restart-strategy.fixed-delay.attempts", "1000"},
                                                     {"restart-strategy.fixed-delay.delay", "2 s"}});
}

TEST_CASE("flink_config_text: a missing or unclosed heredoc, nesting and repeated keys are refused", "[unit][engine]") {
    CHECK_THROWS_AS(heredoc_body("cat > a.yaml <<EOF\nx: 1\nEOF\n", "config.yaml"), std::invalid_argument);
    CHECK_THROWS_AS(heredoc_body("cat > config.yaml <<EOF\nx: 1\n", "config.yaml"), std::invalid_argument);
    CHECK_THROWS_AS(parse_flat_config("a:\n  b: 1\n"), std::invalid_argument);
    CHECK_THROWS_AS(parse_flat_config("a: 1\na: 2\n"), std::invalid_argument);
    CHECK_THROWS_AS(parse_flat_config("a: [1, 2]\n"), std::invalid_argument);
    CHECK_THROWS_AS(parse_flat_config("just words\n"), std::invalid_argument);
}

// --- flink_error -------------------------------------------------------------------

namespace {
// What Flink 1.20's SQL Gateway returns for a CREATE TABLE that the catalog
// rejects: a generic summary, then the server-side trace with the real error
// as the deepest "Caused by:", followed by more frames.
const std::string gateway_error_body =
    R"({"errors":["Internal server error.","<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n\tat org.apache.flink.table.gateway.rest.handler.statement.FetchResultsHandler.handleRequest(FetchResultsHandler.java:91)\n\tat org.apache.flink.table.gateway.rest.handler.AbstractSqlGatewayRestHandler.respondToRequest(AbstractSqlGatewayRestHandler.java:84)\n\tat org.apache.flink.runtime.rest.handler.AbstractHandler.respondAsLeader(AbstractHandler.java:196)\n\tat java.base/java.lang.Thread.run(Thread.java:840)\nCaused by: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n\tat org.apache.flink.table.gateway.service.SqlGatewayServiceImpl.fetchResults(SqlGatewayServiceImpl.java:231)\n\t... 48 more\nCaused by: org.apache.flink.table.gateway.service.utils.SqlExecutionException: Failed to execute the operation 6f0c1b3e-5b9e-4a53-9d43-1f9b2a1f6f11.\n\tat org.apache.flink.table.gateway.service.operation.OperationManager$Operation.processThrowable(OperationManager.java:414)\n\tat java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)\n\t... 1 more\nCaused by: org.apache.flink.table.api.ValidationException: Could not execute CreateTable in path `lake`.`rr_e1`.`roster_upsert`\n\tat org.apache.flink.table.catalog.CatalogManager.execute(CatalogManager.java:1296)\n\tat org.apache.flink.table.catalog.CatalogManager.createTable(CatalogManager.java:946)\n\t... 14 more\nCaused by: org.apache.iceberg.exceptions.AlreadyExistsException: Table already exists: rr_e1.roster_upsert\n\tat org.apache.iceberg.rest.ErrorHandlers$DefaultErrorHandler.accept(ErrorHandlers.java:208)\n\tat org.apache.iceberg.rest.HTTPClient.throwFailure(HTTPClient.java:240)\n\tat org.apache.iceberg.rest.HTTPClient.execute(HTTPClient.java:336)\n\tat org.apache.iceberg.flink.FlinkCatalog.createIcebergTable(FlinkCatalog.java:419)\n\t... 17 more\n\nEnd of exception on server side>"]})";
}  // namespace

// Mutation: in flink_error.hpp, drop `if (deepest.empty())` before
// `deepest = text.substr(0, text.find('\n'));` (the first line instead of the
// cause): "Internal server error." comes back and this fails.
TEST_CASE("a real error survives output cleaning: flink_cause finds the root cause under the Java trace",
          "[unit][engine][claims]") {
    CHECK(flink_cause(gateway_error_body) ==
          "org.apache.iceberg.exceptions.AlreadyExistsException: Table already exists: rr_e1.roster_upsert");

    // The statement-rejected path (POST): one cause deep.
    const std::string posted =
        R"({"errors":["Internal server error.","<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to executeStatement.\n\tat org.apache.flink.table.gateway.service.SqlGatewayServiceImpl.executeStatement(SqlGatewayServiceImpl.java:262)\nCaused by: org.apache.flink.table.api.SqlParserException: SQL parse failed. Encountered \"WITH\" at line 3, column 3.\n\tat org.apache.flink.table.planner.parse.CalciteParser.parseSqlList(CalciteParser.java:81)\n\t... 9 more\n\nEnd of exception on server side>"]})";
    CHECK(flink_cause(posted) ==
          "org.apache.flink.table.api.SqlParserException: SQL parse failed. Encountered \"WITH\" at line 3, column 3.");
}

TEST_CASE("flink_cause: without a cause it gives the first line, for JSON and for plain bodies", "[unit][engine]") {
    CHECK(flink_cause(R"({"errors":["Session 3b1d not found.","trace line\n\tat x"]})") == "Session 3b1d not found.");
    CHECK(flink_cause("<html><body>502 Bad Gateway</body></html>\nmore") ==
          "<html><body>502 Bad Gateway</body></html>");
    CHECK(flink_cause("").empty());
    // A cause longer than the limit is cut, not dropped.
    const std::string long_cause(3000, 'x');
    CHECK(flink_cause("{\"errors\":[\"e\",\"Caused by: " + long_cause + "\"]}") == std::string(1500, 'x'));
    CHECK(flink_cause("Caused by: abc", 2) == "ab");
}

// Mutation: drop the newline after the token line in catalog_option_lines: the
// token and the first property share a line and this fails (checked).
TEST_CASE("flink_sql_text: a job's own catalog properties follow the token line, one quoted line each",
          "[unit][engine]") {
    using rosterrig::engine::catalog_option_lines;
    CHECK(catalog_option_lines("", {}).empty());
    CHECK(catalog_option_lines("", {{"rest.client.socket-timeout-ms", "600000"}}) ==
          "  'rest.client.socket-timeout-ms' = '600000',");
    CHECK(catalog_option_lines("  'token' = 't',", {{"a", "it's"}, {"b", "2"}}) ==
          "  'token' = 't',\n  'a' = 'it''s',\n  'b' = '2',");
}
