#include "roles/job_template_plan.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <rosterrig/detail/sha256.hpp>
#include <rosterrig/engine/flink_execution_plan.hpp>

#include "adapters/sql_gateway.hpp"

namespace rosterrig::live {

namespace {

std::string joined(const std::vector<std::string>& xs) {
    std::string out;
    for (const auto& x : xs) out += (out.empty() ? "" : "; ") + x;
    return out;
}

std::string field_text(const boost::json::array& row, std::size_t i) {
    if (i >= row.size()) return {};
    const auto& v = row[i];
    if (v.is_string()) return std::string(v.as_string());
    if (v.is_null()) return {};
    return boost::json::serialize(v);
}

// DESCRIBE's key column reads "PRI(npi, x)" on each key column.
std::vector<std::string> key_of(const std::string& text) {
    std::vector<std::string> out;
    const auto open = text.find('('), close = text.rfind(')');
    if (text.rfind("PRI", 0) != 0 || open == std::string::npos || close == std::string::npos) return out;
    std::stringstream in(text.substr(open + 1, close - open - 1));
    for (std::string k; std::getline(in, k, ',');) {
        const auto a = k.find_first_not_of(' '), b = k.find_last_not_of(' ');
        if (a != std::string::npos) out.push_back(k.substr(a, b - a + 1));
    }
    return out;
}

}  // namespace

experiment::job_template read_job_template(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw template_refused("--job: cannot read " + file);
    std::ostringstream text;
    text << in.rdbuf();
    experiment::job_template t;
    t.name = std::filesystem::path(file).filename().string();
    t.text = text.str();
    t.sha256 = rosterrig::detail::sha256_hex(t.text);
    if (const auto problems = experiment::template_text_problems(t.text); !problems.empty())
        throw template_refused("--job " + file + ": " + joined(problems));
    return t;
}

experiment::template_plan plan_job_template(const stack_config& stack, const experiment::job_template& t,
                                            const experiment::pipeline_config& config) {
    pipeline_spec spec;
    spec.ns = "rosterrig_plan";
    spec.table = "planned";
    spec.config = config;
    spec.job = t;
    // A throw-away Hadoop catalog: the gateway creates the table's metadata
    // there, so the Iceberg sink can be planned without the stack's catalog.
    const std::string warehouse = "/tmp/rosterrig-plan-" + std::to_string(::getpid()) + "-" +
                                  std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    auto values = pipeline_template_values(stack, spec);
    values["location"] =
        "file://" + warehouse + "/" + spec.ns + "/" + spec.table;  // the Hadoop catalog's own place for it
    auto session = session_options(config, "plan", stack.described.job_prefix);
    session["table.exec.iceberg.use-v2-sink"] = config.sink == experiment::iceberg_sink::sink_v2 ? "true" : "false";

    sql_gateway gateway(stack.sql_gateway());
    gateway.open(session);
    const std::string table = "lake." + spec.ns + "." + spec.table;
    auto refuse = [&](const std::string& what, const std::exception& e) {
        return template_refused("--job " + t.name + ": " + what + ": " + e.what());
    };
    try {
        gateway.execute(
            "CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = 'file://" +
            warehouse + "')");
        gateway.execute("CREATE DATABASE lake." + spec.ns);
        gateway.execute_script(fill_template(read_sql(stack, "roster_source.sql"), values));
    } catch (const std::exception& e) {
        throw live_error(stack.sql_gateway(), std::string("planning a job template: the plan catalog: ") + e.what());
    }
    experiment::template_plan plan;
    std::string insert;
    try {
        for (const auto& s : experiment::sql_statements(fill_template(t.text, values))) {
            if (experiment::kind_of_statement(s) == experiment::statement_kind::insert)
                insert = s;
            else
                gateway.execute(s);
        }
    } catch (const std::exception& e) {
        throw refuse("Flink refused a statement", e);
    }
    struct drop_after {
        sql_gateway& g;
        std::string table, ns, dir;
        bool local;
        ~drop_after() {
            try {
                g.execute("DROP TABLE IF EXISTS " + table);
                g.execute("DROP DATABASE IF EXISTS lake." + ns);
            } catch (...) {
            }
            std::error_code ec;
            if (local) std::filesystem::remove_all(dir, ec);
        }
    } dropped{gateway, table, spec.ns, warehouse, stack.local()};
    try {
        for (const auto& row : gateway.execute("DESCRIBE " + table).rows) {
            plan.columns.push_back(
                {field_text(row, 0), field_text(row, 1) + (field_text(row, 2) == "false" ? " NOT NULL" : "")});
            for (auto& k : key_of(field_text(row, 3)))
                if (std::find(plan.primary_key.begin(), plan.primary_key.end(), k) == plan.primary_key.end())
                    plan.primary_key.push_back(k);
        }
    } catch (const std::exception& e) {
        throw refuse("the template's CREATE TABLE is not the run's table (lake.${namespace}.${table})", e);
    }
    if (const auto problems = experiment::sink_table_problems(plan); !problems.empty())
        throw template_refused("--job " + t.name + ": " + joined(problems));
    plan.kind = experiment::kind_of_key(plan.primary_key);
    try {
        const auto shown = gateway.execute("SHOW CREATE TABLE " + table).rows;
        if (!shown.empty()) plan.create_table = field_text(shown.front(), 0);
        const auto explained = gateway.execute("EXPLAIN JSON_EXECUTION_PLAN " + insert).rows;
        if (explained.empty()) throw live_error("EXPLAIN returned nothing");
        plan.edges = engine::execution_plan_edges(field_text(explained.front(), 0));
    } catch (const std::exception& e) {
        throw refuse("Flink could not plan the INSERT", e);
    }
    plan.sink = experiment::sink_in_plan(plan.edges);
    return plan;
}

experiment::job_template planned_job_template(const stack_config& stack, const std::string& file,
                                              const experiment::pipeline_config& config) {
    auto t = read_job_template(file);
    t.plan = plan_job_template(stack, t, config);
    return t;
}

}  // namespace rosterrig::live
