#include "roles/pipeline.hpp"

#include "roles/remove_resource.hpp"

#include <rosterrig/detail/sha256.hpp>
#include <rosterrig/engine/flink_sql_text.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "roles/job_waits.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

std::string read_sql(const stack_config& stack, const std::string& name) {
    const std::string path = stack.compose_dir + "/../sql/" + name;
    std::ifstream in(path);
    if (!in) throw live_error("cannot read SQL template " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The description's Java client settings for Flink's Kafka connector, as
// 'properties.<key>' = '<value>' lines of a WITH clause.
std::string flink_kafka_properties(const stack_config& stack) {
    std::string out;
    for (const auto& [k, v] : stack.described.kafka_flink_client)
        out += "  'properties." + k + "' = '" + engine::sql_string_body(v) + "',\n";
    return out;
}

std::map<std::string, std::string> catalog_template_values(const stack_config& stack, const std::string& ns) {
    return {{"catalog_uri", "http://" + stack.described.catalog_from_flink},
            {"catalog_options", stack.described.catalog_token.empty()
                                    ? std::string()
                                    : "  'token' = '" + engine::sql_string_body(stack.described.catalog_token) + "',"},
            {"s3_endpoint", "http://" + stack.s3().where()},
            {"s3_access_key", stack.described.access_key},
            {"s3_secret_key", stack.described.secret_key},
            {"s3_region", stack.described.region},
            {"namespace", ns}};
}

std::string table_location(const stack_config& stack, const pipeline_spec& spec) {
    if (spec.config.store == experiment::warehouse::local)
        return "file://" + stack.data_dir() + "/warehouse/" + spec.ns + "/" + spec.table;
    return "s3://" + stack.described.bucket + "/warehouse/" + spec.ns + "/" + spec.table;
}

std::map<std::string, std::string> session_options(const experiment::pipeline_config& config, const std::string& name,
                                                   const std::string& job_prefix) {
    std::map<std::string, std::string> out{
        {"execution.runtime-mode", "streaming"},
        {"execution.checkpointing.interval", std::to_string(config.checkpoint_interval_ms) + "ms"},
        {"execution.checkpointing.mode", std::string(flink_option(config.mode))},
        {"parallelism.default", std::to_string(config.parallelism)},
        {"pipeline.name", job_prefix + ":" + name}};
    // Without an aligned-checkpoint timeout, every checkpoint is unaligned.
    if (config.unaligned_checkpoints) out["execution.checkpointing.unaligned.enabled"] = "true";
    if (config.checkpoint_timeout_ms > 0)
        out["execution.checkpointing.timeout"] = std::to_string(config.checkpoint_timeout_ms) + "ms";
    if (config.tolerable_failed_checkpoints >= 0)
        out["execution.checkpointing.tolerable-failed-checkpoints"] =
            std::to_string(config.tolerable_failed_checkpoints);
    return out;
}

std::string sink_hints(const experiment::pipeline_config& config) {
    if (config.writer_parallelism <= 0) return {};
    return " /*+ OPTIONS('write-parallelism'='" + std::to_string(config.writer_parallelism) + "') */";
}

std::string submit_kafka_pipeline(const stack_config& stack, const kafka_pipeline_spec& spec) {
    wait_free_slots(flink_rest(stack.flink()), spec.config.parallelism);
    std::map<std::string, std::string> values{
        {"topic", spec.in_topic},
        {"out_topic", spec.out_topic},
        {"bootstrap", stack.described.kafka_bootstrap_from_flink},
        {"kafka_properties", flink_kafka_properties(stack)},
        {"group", spec.group},
        {"startup_mode", std::string(flink_option(spec.config.startup))},
        {"transactional_id_prefix", spec.transactional_id_prefix},
        {"transaction_timeout_ms", std::to_string(spec.transaction_timeout_ms)},
        {"sink_partitioner", spec.sink_partitioner},
        {"roster_columns", engine::without_comment_lines(read_sql(stack, "roster_columns.sql"))},
    };
    sql_gateway gateway(stack.sql_gateway());
    auto session = session_options(spec.config, spec.out_topic, stack.described.job_prefix);
    if (!spec.restore_from.empty()) session["execution.savepoint.path"] = spec.restore_from;
    gateway.open(session);
    gateway.execute_script(fill_template(read_sql(stack, "roster_source.sql"), values));
    gateway.execute_script(fill_template(read_sql(stack, "kafka_sink.sql"), values));
    auto jobs = gateway.execute_script(fill_template(read_sql(stack, "insert_kafka.sql"), values));
    if (jobs.size() != 1)
        throw live_error(stack.sql_gateway(), "the INSERT into " + spec.out_topic + " returned no job id");
    return jobs.front();
}

std::map<std::string, std::string> pipeline_template_values(const stack_config& stack, const pipeline_spec& spec) {
    auto values = catalog_template_values(stack, spec.ns);
    if (!spec.catalog_address.empty()) values["catalog_uri"] = "http://" + spec.catalog_address;
    values["catalog_options"] = engine::catalog_option_lines(values["catalog_options"], spec.catalog_properties);
    values.insert({
        {"table", spec.table},
        {"location", table_location(stack, spec)},
        {"topic", spec.topic},
        {"bootstrap", stack.described.kafka_bootstrap_from_flink},
        {"kafka_properties", flink_kafka_properties(stack)},
        {"group", spec.group},
        {"startup_mode", std::string(flink_option(spec.config.startup))},
        {"roster_columns", engine::without_comment_lines(read_sql(stack, "roster_columns.sql"))},
        {"table_properties", engine::table_properties_text(spec.table_properties)},
        {"sink_hints", sink_hints(spec.config)},
        {"catalog", "lake"},
    });
    return values;
}

experiment::job_template rig_job_template(const stack_config& stack, experiment::table_kind kind) {
    experiment::job_template t;
    t.name = "rig: " + std::string(experiment::name_of(kind)) + " (sql/" + std::string(experiment::name_of(kind)) +
             "_table.sql, sql/insert.sql)";
    t.text =
        read_sql(stack, std::string(experiment::name_of(kind)) + "_table.sql") + "\n" + read_sql(stack, "insert.sql");
    t.sha256 = rosterrig::detail::sha256_hex(t.text);
    return t;
}

namespace {
// The template's statements filled in with `values`, without its CREATE TABLE when the table exists already.
std::vector<std::string> template_statements(const stack_config& stack, const pipeline_spec& spec,
                                             const std::map<std::string, std::string>& values, bool with_create_table,
                                             bool with_insert) {
    const auto t = spec.job ? *spec.job : rig_job_template(stack, spec.config.table);
    std::vector<std::string> out;
    for (auto& s : experiment::sql_statements(fill_template(t.text, values))) {
        const auto kind = experiment::kind_of_statement(s);
        if ((kind == experiment::statement_kind::create_table && !with_create_table) ||
            (kind == experiment::statement_kind::insert && !with_insert))
            continue;
        out.push_back(std::move(s));
    }
    return out;
}
}  // namespace

void create_table(const stack_config& stack, const pipeline_spec& spec) {
    const auto values = pipeline_template_values(stack, spec);
    sql_gateway gateway(stack.sql_gateway());
    gateway.open(session_options(spec.config, spec.table, stack.described.job_prefix));
    gateway.execute_script(fill_template(read_sql(stack, "catalog.sql"), values));
    for (const auto& s : template_statements(stack, spec, values, true, false))
        if (experiment::kind_of_statement(s) == experiment::statement_kind::create_table) gateway.execute(s);
}

std::string submit_pipeline(const stack_config& stack, const pipeline_spec& spec, bool create_table) {
    wait_free_slots(flink_rest(stack.flink()), spec.config.parallelism);
    const auto values = pipeline_template_values(stack, spec);
    auto session = session_options(spec.config, spec.table, stack.described.job_prefix);
    session["table.exec.iceberg.use-v2-sink"] =
        spec.config.sink == experiment::iceberg_sink::sink_v2 ? "true" : "false";
    if (!spec.restore_from.empty()) session["execution.savepoint.path"] = spec.restore_from;

    sql_gateway gateway(stack.sql_gateway());
    gateway.open(session);
    gateway.execute_script(fill_template(read_sql(stack, "catalog.sql"), values));
    gateway.execute_script(fill_template(read_sql(stack, "roster_source.sql"), values));
    // The job template (the rig's or the user's): its SETs, its table, its INSERT, in its order.
    std::vector<std::string> jobs;
    for (const auto& s : template_statements(stack, spec, values, create_table, true))
        if (auto r = gateway.execute(s); !r.job_id.empty()) jobs.push_back(r.job_id);
    if (jobs.size() != 1) throw live_error(stack.sql_gateway(), "the INSERT returned no job id");
    return jobs.front();
}

namespace {
void require_flink_job_id(const std::string& job) {
    const bool flink_id = job.size() == 32 && std::all_of(job.begin(), job.end(), [](char c) {
                              return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                          });
    if (!flink_id) throw live_error("refusing to name folders of '" + job + "': not a Flink job id");
}
}  // namespace

std::string savepoint_dir_of(const stack_config& stack, const std::string& job) {
    require_flink_job_id(job);
    return "file://" + stack.data_dir() + "/flink/savepoints/" + job;
}

std::vector<std::string> job_folders(const stack_config& stack, const std::string& job) {
    require_flink_job_id(job);
    std::vector<std::string> out;
    for (const char* kind : {"checkpoints", "savepoints"}) {
        const auto dir = std::filesystem::path(stack.data_dir()) / "flink" / kind / job;
        std::error_code ec;
        if (std::filesystem::exists(dir, ec)) out.push_back(dir.string());
    }
    return out;
}

int remove_job_folders(const stack_config& stack, const std::string& job) {
    int removed = 0;
    for (const auto& dir : job_folders(stack, job)) {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        if (ec) throw live_error("removing " + dir + ": " + ec.message());
        ++removed;
    }
    return removed;
}

created_resources::~created_resources() { cleanup(); }

void created_resources::cleanup() {
    auto order = std::move(created_);
    created_.clear();
    std::reverse(order.begin(), order.end());  // the newest of a kind first
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [kind, name] : order) {
        if (kind == experiment::resource_kind::table && keep_tables_)
            keep_table(name);
        else
            remove_and_log(stack_, kind, name);
    }
}

void created_resources::keep_table(const std::string& recorded) const {
    try {
        const auto [ns, t] = table_name_of(stack_, recorded);
        progress("kept table " + recorded + " at " + iceberg_catalog(stack_.catalog()).load(ns, t).location +
                 " (--keep-tables; drop it with Trino: DROP TABLE iceberg." + recorded + ")");
    } catch (const std::exception& e) {
        progress("cleanup: table " + recorded + ": " + e.what());
    }
}

}  // namespace rosterrig::live
