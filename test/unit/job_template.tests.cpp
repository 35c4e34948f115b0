#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "rosterrig/engine/flink_execution_plan.hpp"
#include "rosterrig/experiment/job_template.hpp"
#include "rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp"

using namespace rosterrig;
using namespace rosterrig::experiment;

namespace {
std::string source_file(const std::string& path) {
    std::ifstream in(std::string(ROSTERRIG_SOURCE_DIR) + "/" + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

template_plan roster_table(std::vector<std::string> key = {}) {
    template_plan p;
    for (const auto& c : checked_columns()) p.columns.push_back(c);
    p.primary_key = std::move(key);
    return p;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
    for (const auto& p : problems)
        if (p.find(what) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST_CASE("job template: a sink table without seq is refused, naming the column", "[job_template]") {
    // Mutation check: dropping seq from checked_columns() lets this table through and fails here.
    auto p = roster_table();
    p.columns.erase(p.columns.begin());
    const auto problems = sink_table_problems(p);
    REQUIRE(problems.size() == 1);
    CHECK(problems.front() == "the sink table has no column seq (BIGINT)");
}

TEST_CASE("job template: every column the checks read must be there, of its type", "[job_template]") {
    CHECK(sink_table_problems(roster_table()).empty());
    auto p = roster_table();
    p.columns[1].type = "BIGINT";  // npi as a number
    p.columns.pop_back();          // no status
    const auto problems = sink_table_problems(p);
    CHECK(mentions(problems, "npi is BIGINT, not STRING"));
    CHECK(mentions(problems, "no column status"));
    auto q = roster_table();
    q.columns[0].type = "INT NOT NULL";  // seq as INT is a whole number too
    q.columns[2].type = "VARCHAR(200)";
    CHECK(sink_table_problems(q).empty());
}

TEST_CASE("job template: a key without npi is refused, and a key holding npi makes an upsert table", "[job_template]") {
    CHECK(mentions(sink_table_problems(roster_table({"seq"})), "primary key is (seq)"));
    CHECK(sink_table_problems(roster_table({"npi", "npi_shard"})).empty());
    CHECK(kind_of_key({"npi", "npi_shard"}) == table_kind::upsert);
    CHECK(kind_of_key({"npi"}) == table_kind::upsert);
    CHECK(kind_of_key({}) == table_kind::append);
}

TEST_CASE("job template: unknown placeholders, a second INSERT or no table are refused from the text alone",
          "[job_template]") {
    const std::string ok =
        "CREATE TABLE lake.${namespace}.${table} (x INT);\nINSERT INTO lake.${namespace}.${table} SELECT 1;\n";
    CHECK(template_text_problems(ok).empty());
    CHECK(mentions(template_text_problems(ok + "INSERT INTO t SELECT 2;\n"), "2 INSERT statements"));
    CHECK(mentions(template_text_problems("INSERT INTO lake.${namespace}.${table} SELECT 1;\n"), "0 CREATE TABLE"));
    // The feed is the rig's (roster_feed): a template has no topic of its own to name.
    CHECK(mentions(template_text_problems(ok + "-- ${topic}\n"), "unknown placeholder ${topic}"));
    CHECK(
        mentions(template_text_problems("CREATE TABLE lake.${namespace}.${tabel} (x INT);\nINSERT INTO x SELECT 1;\n"),
                 "unknown placeholder ${tabel}"));
    CHECK(
        mentions(template_text_problems("CREATE TABLE t (x INT);\nINSERT INTO t SELECT 1;\n"), "never uses ${table}"));
}

TEST_CASE(
    "job template: statements split where a line ends in a semicolon, comments dropped, kinds from the first words",
    "[job_template]") {
    const auto s =
        sql_statements("-- a comment\nSET 'a' = 'b';\n  create   table x (\n  y INT\n);\ninsert into x\nSELECT 1;\n");
    REQUIRE(s.size() == 3);
    CHECK(kind_of_statement(s[0]) == statement_kind::set);
    CHECK(kind_of_statement(s[1]) == statement_kind::create_table);
    CHECK(kind_of_statement(s[2]) == statement_kind::insert);
    CHECK(s[1] == "  create   table x (\n  y INT\n)");
}

TEST_CASE("job template: the rig's own jobs and the worked example pass the offline checks", "[job_template]") {
    CHECK(template_text_problems(source_file("sql/append_table.sql") + "\n" + source_file("sql/insert.sql")).empty());
    CHECK(template_text_problems(source_file("sql/upsert_table.sql") + "\n" + source_file("sql/insert.sql")).empty());
    CHECK(template_text_problems(source_file("docs/examples/upsert_partitioned_hash_sinkv2.sql")).empty());
}

TEST_CASE("job template: EXPLAIN's execution plan gives the writer's input, and the sink by its operators' names",
          "[job_template]") {
    // Flink 1.20's EXPLAIN JSON_EXECUTION_PLAN for the worked example (SinkV2, hash, writer at 4), trimmed.
    const std::string v2 = R"plan(== Optimized Execution Plan ==
Sink(table=[lake.p.t])

== Physical Execution Plan ==
{
  "nodes" : [ { "id" : 17, "type" : "Source: roster_feed[4]", "contents" : "[4]:TableSourceScan(table=[[roster_feed]])", "parallelism" : 2 },
  { "id" : 19, "type" : "ConstraintEnforcer[6]", "contents" : "[6]:ConstraintEnforcer", "parallelism" : 2,
    "predecessors" : [ { "id" : 17, "ship_strategy" : "FORWARD", "side" : "second" } ] },
  { "id" : 22, "type" : "lake.p.t: Writer", "contents" : "lake.p.t: Writer", "parallelism" : 4,
    "predecessors" : [ { "id" : 19, "ship_strategy" : "HASH", "side" : "second" } ] },
  { "id" : 25, "type" : "x", "contents" : "lake.p.t: Sink pre-commit aggregator: lake.p.t", "parallelism" : 1,
    "predecessors" : [ { "id" : 22, "ship_strategy" : "GLOBAL", "side" : "second" } ] },
  { "id" : 27, "type" : "x", "contents" : "lake.p.t: Committer", "parallelism" : 4,
    "predecessors" : [ { "id" : 25, "ship_strategy" : "GLOBAL", "side" : "second" } ] } ]
})plan";
    const auto edges = engine::execution_plan_edges(v2);
    REQUIRE(edges.size() == 5);
    CHECK(edges[0].from.empty());
    const auto f = fan_in_of(edges);
    CHECK(f.ship_strategy == "HASH");
    CHECK(f.upstream_parallelism == 2);
    CHECK(f.writer_parallelism == 4);
    CHECK(sink_in_plan(edges).rfind("IcebergSink (SinkV2", 0) == 0);
    // FlinkSink's operators; its trailing discarding sink is named "IcebergSink <table>: Writer" and must not read as SinkV2.
    const std::vector<plan_edge> v1{{"", "Source", "NONE (source)", {}, 2},
                                    {"Source", "IcebergStreamWriter", "HASH", 2, 4},
                                    {"IcebergStreamWriter", "IcebergFilesCommitter", "REBALANCE", 4, 1},
                                    {"IcebergFilesCommitter", "IcebergSink lake.p.t: Writer", "FORWARD", 1, 1}};
    CHECK(sink_in_plan(v1).rfind("FlinkSink", 0) == 0);
    CHECK(sink_in_plan({}).rfind("unknown", 0) == 0);
    CHECK_THROWS(engine::execution_plan_edges("== Optimized Execution Plan ==\nno JSON here"));
}

TEST_CASE(
    "e1 with a user's job runs one configuration of the planned kind, and a full run of it has its own fault plan",
    "[job_template][e1]") {
    auto p = e1::parameters::full();
    CHECK(e1::configurations_of(p).size() == 4);
    p.job = job_template{"mine.sql", "digest", "text", roster_table({"npi", "npi_shard"})};
    p.job->plan->kind = kind_of_key(p.job->plan->primary_key);
    const auto cs = e1::configurations_of(p);
    REQUIRE(cs.size() == 1);
    CHECK(cs[0].name == "your job: mine.sql");
    CHECK(cs[0].table == table_kind::upsert);
    CHECK(e1::short_name_of(cs[0]) == "job_upsert");
    CHECK(e1::fault_plan(p).steps.size() == p.kills_per_configuration);
    CHECK(e1::definition::hooks.job_config(p).table == table_kind::upsert);
}

namespace {
e1::samples job_run(table_kind kind, std::size_t kills) {
    e1::samples s;
    experiment::configuration_run r;
    r.name = "your job: mine.sql";
    r.table_kind = kind;
    r.kills.resize(kills);
    s.configurations.push_back(r);
    return s;
}
}  // namespace

TEST_CASE(
    "e1 your-job rule: holds on a clean upsert table after 30 kills, refutes a stale row, cannot say after one kill",
    "[job_template][e1]") {
    // Mutation check: leaving stale_rows out of `wrong` makes the second case hold and fails here.
    CHECK(e1::your_job_lands_exactly_once(job_run(table_kind::upsert, 30)).verdict == verdict_kind::held);
    auto stale = job_run(table_kind::upsert, 30);
    stale.configurations[0].stale_rows = 1;
    CHECK(e1::your_job_lands_exactly_once(stale).verdict == verdict_kind::refuted);
    CHECK(e1::your_job_lands_exactly_once(job_run(table_kind::upsert, 1)).verdict == verdict_kind::inconclusive);
    CHECK(e1::your_job_lands_exactly_once(job_run(table_kind::upsert, 0)).verdict == verdict_kind::inconclusive);
}

TEST_CASE(
    "e1 your-job rule: an append table with a missing run or a duplicate is refuted, and the rig's runs are inconclusive",
    "[job_template][e1]") {
    auto missing = job_run(table_kind::append, 30);
    missing.configurations[0].missing_runs = {{5, 9}};
    CHECK(e1::your_job_lands_exactly_once(missing).verdict == verdict_kind::refuted);
    auto twice = job_run(table_kind::append, 30);
    twice.configurations[0].duplicate_rows = 1;
    CHECK(e1::your_job_lands_exactly_once(twice).verdict == verdict_kind::refuted);
    CHECK(e1::your_job_lands_exactly_once(job_run(table_kind::append, 30)).verdict == verdict_kind::held);
    e1::samples rig;
    rig.configurations.push_back({});
    rig.configurations[0].name = "exactly-once + append";
    CHECK(e1::your_job_lands_exactly_once(rig).verdict == verdict_kind::inconclusive);
}
