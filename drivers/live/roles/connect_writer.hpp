// The writer role implemented by Kafka Connect's Iceberg sink connector
// (Apache Iceberg's own, 1.10) on the stack's distributed worker. Its
// exactly-once rests on a coordinator task, a control topic, Kafka
// transactions, and the connector's consumer group: not on checkpoints. So
// `start` creates the table (through Trino), the control topic and the
// connector; `stop` deletes the connector; there are no savepoints. Every
// connector, topic, table and consumer group it creates is recorded in
// `created` first, so the run drops them however it ends.
#ifndef ROSTERRIG_LIVE_CONNECT_WRITER_HPP
#define ROSTERRIG_LIVE_CONNECT_WRITER_HPP
#include <map>
#include <optional>
#include <string>

#include <rosterrig/experiment/kill_record.hpp>

#include "adapters/connect_rest.hpp"
#include "adapters/process_fault.hpp"
#include "roles/session.hpp"
#include "roles/writer.hpp"

namespace rosterrig::live {

// The names a Connect pipeline uses, all derived from the spec, so a run's
// connector, control topic and groups carry its run id.
struct connect_names {
    std::string connector;          // the spec's group name
    std::string control_topic;      // <topic>_control
    std::string consumer_group;     // connect-<connector>: where the sink's source offsets are committed
    std::string coordinator_group;  // connect-<connector>-coord: the commit coordinator's, on the control topic
    static connect_names of(const pipeline_spec& spec);
};

// The sink's settings, as the worker stored them and as its tasks run.
struct connect_in_force {
    std::int64_t commit_interval_ms = 0;  // iceberg.control.commit.interval-ms, from the worker's stored config
    std::int64_t tasks_max = 0;           // tasks.max, stored
    std::int64_t tasks_running = 0;       // tasks the worker reports RUNNING
    std::string control_topic;
    std::string consumer_group;  // iceberg.connect.group-id or the sink's default, connect-<name>
    std::string connector_class;
    std::string worker_version;        // GET / on the worker
    std::string plugin_version;        // GET /connector-plugins, the sink's version
    std::string control_offset_reset;  // iceberg.kafka.auto.offset.reset, stored; "" unset (the sink's default: latest)
};

class connect_writer : public writer {
public:
    connect_writer(session& s, created_resources& created);
    // Creates the table (when asked) and the control topic, then the connector;
    // returns the connector's name. A config the worker refuses throws connect_rejected.
    std::string start(const pipeline_spec& spec, bool create_table) override;
    // Deletes the connector (its consumer group stays, as Kafka keeps it).
    void stop(const std::string& connector) override;
    savepoint_taken savepoint(const std::string& connector) override;  // throws: Connect has none
    writer_in_force in_force(const std::string& connector, const pipeline_spec& spec) override;
    // The sink's own settings, read back from the worker; throws when they are not the spec's.
    connect_in_force connect_settings(const std::string& connector, const pipeline_spec& spec) const;
    // The connector config this writer sends for `spec`.
    std::map<std::string, std::string> config_of(const pipeline_spec& spec) const;
    // Creates the connector again under the same name (after `stop`), without touching the table or topics.
    void recreate(const pipeline_spec& spec);

    connect_rest rest;
    // Settings laid over the writer's own (a user's --connector-config), sent as given.
    std::map<std::string, std::string> overrides;

private:
    session& s_;
    created_resources& created_;
};

// One SIGKILL of the Connect worker JVM (its supervisor restarts it), and the
// heal: a new pid, the REST API answering, the connector and its tasks RUNNING.
struct worker_kill {
    kill_record process;
    long long rest_back_at_ms = 0;  // the new worker answers GET /
    long long running_at_ms = 0;    // connector and every task RUNNING again
    long long restarts_after = 0;   // the supervisor's restart count once healed
    // As the experiments record a process kill: the heal is "every task RUNNING".
    experiment::kill_record as_kill_record() const {
        experiment::kill_record r;
        r.pid = process.pid, r.killed_at_ms = process.killed_at_ms;
        r.replacement_pid = process.replacement_pid, r.replaced_at_ms = process.replaced_at_ms;
        r.running_after_ms = running_at_ms - process.killed_at_ms, r.same_job_running = true;
        r.restarts_after = restarts_after;
        return r;
    }
};
worker_kill kill_connect_worker(session& s, const connect_rest& rest, const std::string& connector,
                                std::chrono::seconds heal_within = std::chrono::seconds(120));

// How often the worker's supervisor has restarted its JVM since the stack came up.
long long connect_worker_restarts(const stack_config& stack);

// The table's state just before a kill, as experiment 1 records a job's
// checkpoints: a commit for a checkpoint (count, newest timestamp), the
// supervisor's restarts for Flink's numRestarts.
experiment::checkpoint_state commit_state(session& s, const pipeline_spec& spec);

// Waits until the connector's group has read the whole topic and the table
// counts at least `records`; false when the deadline passes first (a missing
// record is an outcome to read back, not an error).
bool await_connect_landed(session& s, const pipeline_spec& spec, int partitions, long long records,
                          std::chrono::seconds deadline);

// The table's newest snapshot once it has more than `snapshots` of them (the
// first commit after a moment that had that many), or nothing after the deadline.
std::optional<iceberg_snapshot> await_commit_after(session& s, const pipeline_spec& spec, long long snapshots,
                                                   std::chrono::seconds deadline);

// Rewinds `group` to offset 0 once its last member has left (a deleted
// connector's tasks leave within seconds; the broker refuses while one remains).
void rewind_once_group_empty(session& s, const std::string& group, const std::string& topic, int partitions);

// The Connect writer's pipeline: topic, table, control topic, connector, all
// dropped with the scope.
class connect_scope {
public:
    explicit connect_scope(session& s) : created(s.stack, s.on_created, s.keep_tables), writer(s, created), s_(s) {}
    // Creates the topic, then everything `writer.start` creates; waits until every task runs.
    std::string launch(const pipeline_spec& p, int partitions);

    created_resources created;
    connect_writer writer;

private:
    session& s_;
};

}  // namespace rosterrig::live

#endif
