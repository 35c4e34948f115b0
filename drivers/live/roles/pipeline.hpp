// The Kafka → Flink → Iceberg job under test, submitted through the SQL Gateway
// from the templates in sql/, plus the bookkeeping that drops every topic, table
// and job an experiment created, on success, on failure and on Ctrl-C.
#ifndef ROSTERRIG_LIVE_PIPELINE_HPP
#define ROSTERRIG_LIVE_PIPELINE_HPP
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include <optional>
#include <rosterrig/experiment/job_template.hpp>
#include <rosterrig/experiment/pipeline_config.hpp>
#include <rosterrig/experiment/resource_kind.hpp>
#include "adapters/flink_rest.hpp"
#include "adapters/iceberg_catalog.hpp"
#include "adapters/kafka_admin.hpp"
#include "adapters/sql_gateway.hpp"
#include "adapters/stack_config.hpp"

namespace rosterrig::live {

struct pipeline_spec {
    std::string topic;
    std::string group;
    std::string ns = "rosterrig";
    std::string table;
    experiment::pipeline_config config;
    std::string restore_from;                             // savepoint or checkpoint path; empty: fresh
    std::map<std::string, std::string> table_properties;  // more Iceberg table properties at CREATE TABLE
    // The writer's catalog address when it is not the stack's: a fault proxy
    // in front of the catalog (host:port, no scheme); "" for the stack's own.
    std::string catalog_address;
    // More catalog properties in CREATE CATALOG ('rest.client.socket-timeout-ms' ...).
    std::map<std::string, std::string> catalog_properties;
    // More Kafka Connect connector config, applied after the writer's own
    // (the Iceberg sink's 'iceberg.kafka.*' client settings ...).
    std::map<std::string, std::string> connector_properties;
    // The job under test when it is not the rig's own (rig_job_template): a
    // user's template (--job FILE), run in its place.
    std::optional<experiment::job_template> job;

    // The same pipeline started from a savepoint or checkpoint.
    pipeline_spec restored_from(const std::string& path) const {
        auto x = *this;
        x.restore_from = path;
        return x;
    }
};

// The Kafka → Flink → Kafka job: the roster feed copied to a second topic by
// Flink's Kafka sink at exactly-once, in transactions named by the prefix.
struct kafka_pipeline_spec {
    std::string in_topic;
    std::string group;
    std::string out_topic;
    std::string transactional_id_prefix;
    long long transaction_timeout_ms = 0;  // the producer's transaction.timeout.ms
    experiment::pipeline_config config;    // interval, mode, parallelism, startup (table fields unused)
    std::string restore_from;              // a savepoint or checkpoint to start from, if any
    std::string sink_partitioner =
        "default";  // 'sink.partitioner': default (Kafka's) or fixed (subtask i -> partition i)
};

// The SQL Gateway session options every submitted job runs with.
// What sql/catalog.sql needs: the catalog and object store as Flink reaches them, and the namespace.
std::map<std::string, std::string> catalog_template_values(const stack_config& stack, const std::string& ns);
// The description's Java client settings for Flink's Kafka connector, as
// 'properties.<key>' = '<value>' lines of a WITH clause.
std::string flink_kafka_properties(const stack_config& stack);
// The job is named <job_prefix>:<name>.
std::map<std::string, std::string> session_options(const experiment::pipeline_config& config, const std::string& name,
                                                   const std::string& job_prefix);

// The INSERT's table hint: the Iceberg writer's own parallelism when the
// config sets one (a writer at another parallelism than its source is fed
// through an exchange), else nothing.
std::string sink_hints(const experiment::pipeline_config& config);

// The values every table, source and job template is filled with.
std::map<std::string, std::string> pipeline_template_values(const stack_config& stack, const pipeline_spec& spec);

// The rig's own job for a table kind, as a template: sql/<kind>_table.sql then sql/insert.sql.
experiment::job_template rig_job_template(const stack_config& stack, experiment::table_kind kind);

// Submits the Kafka → Kafka job; returns the job id Flink assigned.
std::string submit_kafka_pipeline(const stack_config& stack, const kafka_pipeline_spec& spec);

// Where the table lives in the chosen warehouse mode.
std::string table_location(const stack_config& stack, const pipeline_spec& spec);

// CREATE CATALOG, the namespace and the table, through the SQL Gateway, with no
// job: the table another writer (Kafka Connect) lands the feed in, the same
// shape as the Flink jobs' tables.
void create_table(const stack_config& stack, const pipeline_spec& spec);

// CREATE CATALOG, the namespace, optionally the table, the Kafka source, and the
// INSERT; returns the job id Flink assigned.
std::string submit_pipeline(const stack_config& stack, const pipeline_spec& spec, bool create_table);

// Everything an experiment created, undone in reverse on cleanup() or
// destruction. Each is recorded (and `on_record` told, so a run's history
// has it) before it is created: a crash between the two leaves a name
// recorded that may not exist, never the reverse.
class created_resources {
public:
    using recorder = std::function<void(const std::string& kind, const std::string& name)>;
    // `keep_tables`: cleanup() leaves the tables (and their files) for the
    // user to inspect and says where they are; jobs and topics still go.
    explicit created_resources(const stack_config& stack, recorder on_record = {}, bool keep_tables = false)
        : stack_(stack), on_record_(std::move(on_record)), keep_tables_(keep_tables) {}
    ~created_resources();
    void topic(const std::string& name) { add(experiment::resource_kind::topic, name); }
    void table(const std::string& ns, const std::string& name) {
        add(experiment::resource_kind::table, ns + "." + name);
    }
    void job(const std::string& id) { add(experiment::resource_kind::job, id); }
    void group(const std::string& name) { add(experiment::resource_kind::consumer_group, name); }
    // A Kafka Connect connector: deleted first, before its table and topics.
    void connector(const std::string& name) { add(experiment::resource_kind::connector, name); }
    // Each through remove_resource, in the order of resource_kind, the newest
    // of a kind first; logs, never throws.
    void cleanup();

private:
    void add(experiment::resource_kind kind, const std::string& name) {
        if (on_record_) on_record_(experiment::name_of(kind), name);
        created_.emplace_back(kind, name);
    }
    void keep_table(const std::string& recorded) const;  // logs where it is, never throws
    const stack_config& stack_;
    recorder on_record_;
    bool keep_tables_ = false;
    std::vector<std::pair<experiment::resource_kind, std::string>> created_;  // in the order created
};

// Where a job's savepoints go: a folder of their own per job
// (<data>/flink/savepoints/<job id>), so clean-up can remove exactly the
// savepoints of the jobs a run recorded.
std::string savepoint_dir_of(const stack_config& stack, const std::string& job);

// Removes the folders Flink kept for a job the run created (externalized
// checkpoints are retained on cancellation; savepoints always are): only
// <data>/flink/checkpoints/<job id> and <data>/flink/savepoints/<job id>, and
// only for an id Flink could have given. Returns how many there were.
int remove_job_folders(const stack_config& stack, const std::string& job);
// Those of the two folders that exist.
std::vector<std::string> job_folders(const stack_config& stack, const std::string& job);

// Reads a file of the source tree's sql/ directory.
std::string read_sql(const stack_config& stack, const std::string& name);

}  // namespace rosterrig::live

#endif
