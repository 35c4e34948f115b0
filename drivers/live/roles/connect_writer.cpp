#include "roles/connect_writer.hpp"

#include <fstream>
#include <thread>

#include "roles/observe_table.hpp"
#include "roles/process_faults.hpp"
#include "adapters/poll.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

namespace {
constexpr const char* sink_class = "org.apache.iceberg.connect.IcebergSinkConnector";

std::int64_t number_in(const std::map<std::string, std::string>& config, const std::string& key,
                       std::int64_t fallback) {
    const auto it = config.find(key);
    if (it == config.end()) return fallback;
    try {
        return std::stoll(it->second);
    } catch (const std::exception&) {
        return fallback;
    }
}
}  // namespace

connect_names connect_names::of(const pipeline_spec& spec) {
    return {spec.group, spec.topic + "_control", "connect-" + spec.group, "connect-" + spec.group + "-coord"};
}

connect_writer::connect_writer(session& s, created_resources& created)
    : rest(s.stack.connect()), s_(s), created_(created) {}

std::map<std::string, std::string> connect_writer::config_of(const pipeline_spec& spec) const {
    const auto& st = s_.stack;
    const auto names = connect_names::of(spec);
    std::map<std::string, std::string> config{
        {"connector.class", sink_class},
        {"tasks.max", std::to_string(spec.config.parallelism)},
        {"topics", spec.topic},
        {"iceberg.tables", spec.ns + "." + spec.table},
        {"iceberg.catalog.type", "rest"},
        {"iceberg.catalog.uri", "http://" + st.catalog().where()},
        {"iceberg.catalog.io-impl", "org.apache.iceberg.aws.s3.S3FileIO"},
        {"iceberg.catalog.s3.endpoint", "http://" + st.s3().where()},
        {"iceberg.catalog.s3.path-style-access", "true"},
        {"iceberg.catalog.s3.access-key-id", st.described.access_key},
        {"iceberg.catalog.s3.secret-access-key", st.described.secret_key},
        {"iceberg.catalog.client.region", st.described.region},
        {"iceberg.control.topic", names.control_topic},
        {"iceberg.control.commit.interval-ms", std::to_string(spec.config.checkpoint_interval_ms)},
        // The sink's own Kafka clients (control topic, coordinator) would read
        // the worker's file from its command line; named here so nothing is guessed.
        {"iceberg.kafka.bootstrap.servers", st.kafka_bootstrap()},
        {"key.converter", "org.apache.kafka.connect.storage.StringConverter"},
        {"value.converter", "org.apache.kafka.connect.json.JsonConverter"},
        {"value.converter.schemas.enable", "false"},
        // A new group starts at the beginning of the topic, as the Flink jobs do (earliest-offset).
        {"consumer.override.auto.offset.reset", "earliest"},
        // A killed worker's consumers leave the group when their session ends:
        // the broker's minimum (6 s) instead of 45 s, so a restarted task is not held.
        {"consumer.override.session.timeout.ms", "6000"},
        {"consumer.override.heartbeat.interval.ms", "1500"},
    };
    for (const auto& [k, v] : overrides) config[k] = v;
    for (const auto& [k, v] : spec.connector_properties) config[k] = v;
    return config;
}

std::string connect_writer::start(const pipeline_spec& spec, bool create_table_too) {
    const auto names = connect_names::of(spec);
    if (create_table_too) {
        created_.table(spec.ns, spec.table);
        create_table(s_.stack, spec);
    }
    created_.topic(names.control_topic);
    s_.admin.create_topic(names.control_topic, 1);
    created_.group(names.consumer_group);
    // The coordinator's own group commits offsets on the control topic, so
    // the broker keeps it: deleted at clean-up once the connector is gone.
    // (The tasks' cg-control-<uuid> groups commit none; the broker drops them
    // on its own once empty.)
    created_.group(names.coordinator_group);
    created_.connector(names.connector);
    rest.put_config(names.connector, config_of(spec));
    return names.connector;
}

void connect_writer::recreate(const pipeline_spec& spec) {
    const auto names = connect_names::of(spec);
    created_.connector(names.connector);
    rest.put_config(names.connector, config_of(spec));
}

void connect_writer::stop(const std::string& connector) {
    rest.remove(connector);
    // The worker stops the tasks after answering: wait until it no longer lists the connector.
    poll_until(
        rest.where(), std::chrono::seconds(60), [&] { return !rest.status(connector).has_value(); },
        [&] { return "connector " + connector + " gone after DELETE"; });
}

savepoint_taken connect_writer::savepoint(const std::string& connector) {
    throw live_error(
        rest.where(),
        "connector " + connector + ": Kafka Connect has no savepoints; its position is the consumer group's offsets");
}

connect_in_force connect_writer::connect_settings(const std::string& connector, const pipeline_spec& spec) const {
    const auto stored = rest.config(connector);
    const auto st = rest.status(connector);
    connect_in_force x;
    x.commit_interval_ms = number_in(stored, "iceberg.control.commit.interval-ms", 300000);  // the sink's default
    x.tasks_max = number_in(stored, "tasks.max", 1);
    if (st) x.tasks_running = st->running_tasks();
    x.control_topic = stored.count("iceberg.control.topic") ? stored.at("iceberg.control.topic") : "control-iceberg";
    x.consumer_group =
        stored.count("iceberg.connect.group-id") ? stored.at("iceberg.connect.group-id") : "connect-" + connector;
    x.connector_class = stored.count("connector.class") ? stored.at("connector.class") : "";
    x.worker_version = rest.version();
    for (const auto& p : rest.plugins())
        if (p == sink_class) x.plugin_version = p;
    const auto want = connect_names::of(spec);
    std::string wrong;
    if (x.commit_interval_ms != spec.config.checkpoint_interval_ms)
        wrong += "commit interval " + std::to_string(x.commit_interval_ms) + " ms, not " +
                 std::to_string(spec.config.checkpoint_interval_ms) + "; ";
    if (x.tasks_max != spec.config.parallelism)
        wrong += "tasks.max " + std::to_string(x.tasks_max) + ", not " + std::to_string(spec.config.parallelism) + "; ";
    if (x.control_topic != want.control_topic)
        wrong += "control topic " + x.control_topic + ", not " + want.control_topic + "; ";
    if (x.consumer_group != want.consumer_group)
        wrong += "group " + x.consumer_group + ", not " + want.consumer_group + "; ";
    if (x.connector_class != sink_class) wrong += "class " + x.connector_class + "; ";
    if (x.plugin_version.empty()) wrong += "the worker has not loaded " + std::string(sink_class) + "; ";
    for (const auto& [k, v] : spec.connector_properties) {
        const auto it = stored.find(k);
        if (it == stored.end() || it->second != v)
            wrong += k + " " + (it == stored.end() ? "not stored" : it->second) + ", not " + v + "; ";
    }
    const auto reset = stored.find("iceberg.kafka.auto.offset.reset");
    x.control_offset_reset = reset == stored.end() ? "" : reset->second;
    if (!wrong.empty()) throw live_error(rest.where(), "connector " + connector + " does not run as asked: " + wrong);
    return x;
}

writer_in_force connect_writer::in_force(const std::string& connector, const pipeline_spec& spec) {
    const auto x = connect_settings(connector, spec);
    writer_in_force w;
    w.mode = "kafka_connect_transactions";  // no mode to choose: the sink always commits through the control topic
    w.interval_ms = x.commit_interval_ms;
    w.sink = "Iceberg Kafka Connect sink (" + x.connector_class + ") on Kafka Connect " + x.worker_version + ", " +
             std::to_string(x.tasks_running) + " of " + std::to_string(x.tasks_max) + " tasks running";
    w.writer_input = "Kafka consumer group " + x.consumer_group;
    return w;
}

std::string connect_scope::launch(const pipeline_spec& p, int partitions) {
    created.topic(p.topic);
    s_.admin.create_topic(p.topic, partitions);
    const auto name = writer.start(p, true);
    writer.rest.wait_running(name, std::chrono::seconds(120));
    return name;
}

worker_kill kill_connect_worker(session& s, const connect_rest& rest, const std::string& connector,
                                std::chrono::seconds heal_within) {
    if (!s.stack.local()) throw live_error(rest.where(), "killing the Connect worker needs the local stack's pid file");
    // Through the one interface for process faults: SIGKILL by the pid file, the supervisor's replacement.
    auto killed =
        kill_target(s.stack, {experiment::fault_target::connect_worker, rest.where(), s.stack.pid_file("connect"), {}});
    await_supervisor_replacement(killed, heal_within);
    worker_kill k;
    k.process = killed.record;
    poll_until(
        rest.where(), heal_within, [&] { return rest.answers(); },
        [&] { return "the restarted worker (pid " + std::to_string(k.process.replacement_pid) + ") answering GET /"; },
        {std::chrono::milliseconds(100), std::chrono::seconds(15)});
    k.rest_back_at_ms = now_ms();
    rest.wait_running(connector, heal_within);
    k.running_at_ms = now_ms();
    k.restarts_after = connect_worker_restarts(s.stack);
    return k;
}

long long connect_worker_restarts(const stack_config& stack) {
    std::ifstream in(stack.state_dir + "/connect.restarts");
    long long n = 0;
    if (!(in >> n))
        throw live_error("cannot read the Connect supervisor's restart count from " + stack.state_dir +
                         "/connect.restarts");
    return n;
}

experiment::checkpoint_state commit_state(session& s, const pipeline_spec& spec) {
    const auto t = s.catalog.load(spec.ns, spec.table);
    experiment::checkpoint_state c;
    c.completed = static_cast<std::int64_t>(t.snapshots.size());
    if (const auto cur = t.current()) c.latest_completed_at_ms = cur->timestamp_ms;
    c.restarts = connect_worker_restarts(s.stack);
    return c;
}

bool await_connect_landed(session& s, const pipeline_spec& spec, int partitions, long long records,
                          std::chrono::seconds deadline) {
    const auto group = connect_names::of(spec).consumer_group;
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < give_up) {
        throw_if_interrupted();
        if (s.admin.lag(group, spec.topic, partitions) == 0 &&
            committed_records(s.catalog, spec.ns, spec.table) >= records)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    progress(spec.table + ": not " + std::to_string(records) + " records within " + std::to_string(deadline.count()) +
             " s; reading back what it holds");
    return false;
}

std::optional<iceberg_snapshot> await_commit_after(session& s, const pipeline_spec& spec, long long snapshots,
                                                   std::chrono::seconds deadline) {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < give_up) {
        throw_if_interrupted();
        const auto t = s.catalog.load(spec.ns, spec.table);
        if (static_cast<long long>(t.snapshots.size()) > snapshots) return t.current();
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    return std::nullopt;
}

void rewind_once_group_empty(session& s, const std::string& group, const std::string& topic, int partitions) {
    std::string last;
    poll_until(
        s.stack.kafka(), std::chrono::seconds(60),
        [&] {
            try {
                s.admin.rewind_committed_offsets(group, topic, partitions);
                return true;
            } catch (const live_error& e) {
                last = e.what();
                return false;
            }
        },
        [&] { return "group " + group + " rewound to 0 once empty (last refusal: " + last + ")"; },
        {std::chrono::milliseconds(500), std::chrono::seconds(10)});
}

}  // namespace rosterrig::live
