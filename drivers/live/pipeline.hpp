// The Kafka → Flink → Iceberg job under test, submitted through the SQL Gateway
// from the templates in sql/, plus the bookkeeping that drops every topic, table
// and job an experiment created, on success, on failure and on Ctrl-C.
#ifndef ROSTERRIG_LIVE_PIPELINE_HPP
#define ROSTERRIG_LIVE_PIPELINE_HPP
#include <string>
#include <vector>
#include <rosterrig/experiment/pipeline_config.hpp>
#include "flink_rest.hpp"
#include "iceberg_catalog.hpp"
#include "kafka_admin.hpp"
#include "sql_gateway.hpp"
#include "stack_config.hpp"

namespace rosterrig::live {

struct pipeline_spec {
    std::string topic;
    std::string group;
    std::string ns = "rosterrig";
    std::string table;
    experiment::pipeline_config config;
    std::string restore_from;                  // savepoint or checkpoint path; empty: fresh
};

// Where the table lives in the chosen warehouse mode.
std::string table_location(const stack_config& stack, const pipeline_spec& spec);

// CREATE CATALOG, the namespace, optionally the table, the Kafka source, and the
// INSERT; returns the job id Flink assigned.
std::string submit_pipeline(const stack_config& stack, const pipeline_spec& spec, bool create_table);

// Everything an experiment created, undone in reverse on cleanup() or destruction.
class created_resources {
public:
    explicit created_resources(const stack_config& stack) : stack_(stack) {}
    ~created_resources();
    void topic(const std::string& name) { topics_.push_back(name); }
    void table(const std::string& ns, const std::string& name) { tables_.emplace_back(ns, name); }
    void job(const std::string& id) { jobs_.push_back(id); }
    void cleanup();  // logs, never throws

private:
    const stack_config& stack_;
    std::vector<std::string> topics_;
    std::vector<std::pair<std::string, std::string>> tables_;
    std::vector<std::string> jobs_;
};

// Reads a file of the source tree's sql/ directory.
std::string read_sql(const stack_config& stack, const std::string& name);

}  // namespace rosterrig::live

#endif
