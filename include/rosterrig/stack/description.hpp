// rosterrig/stack/description.hpp: where the rig finds each component of a
// stack, how it authenticates, under which names it may create things, and
// which commands inject its faults (a TaskManager kill, and per component
// target a kill, pause, resume and start). Read strictly from JSON (an unknown or
// misspelt member is an error naming its path), so a typo cannot silently
// leave the rig pointed at the wrong cluster. docs/STACK.md documents the
// format with an annotated example.
//
// A setting that may be secret is a string or {"env": "NAME"}: the value of
// that environment variable when the file is read; inside a string,
// ${env:NAME} is replaced the same way. Secrets are collected so that
// anything printed can be redacted (`redact`).
#ifndef ROSTERRIG_STACK_DESCRIPTION_HPP
#define ROSTERRIG_STACK_DESCRIPTION_HPP

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>
#include <boost/json.hpp>

#include "rosterrig/experiment/enum_names.hpp"
#include "rosterrig/experiment/fault.hpp"
#include "rosterrig/result/strict_reader.hpp"

namespace rosterrig::stack {

namespace json = boost::json;

/// A description that cannot be used: names the file and the JSON path.
class description_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// ---- the file, as written --------------------------------------------------

struct kafka_file {
    std::string bootstrap;  // host:port[,host:port...] as the rig reaches the brokers
    std::optional<std::map<std::string, json::value>>
        client;                                       // librdkafka properties (security.protocol, sasl.*, ssl.*)
    std::optional<std::string> bootstrap_from_flink;  // as Flink's tasks reach them (default: bootstrap)
    std::optional<std::map<std::string, json::value>>
        flink_client;                // Java client properties for Flink's Kafka connector
    std::optional<std::string> log;  // where to read the brokers' log (a path or a hint)
};
BOOST_DESCRIBE_STRUCT(kafka_file, (), (bootstrap, client, bootstrap_from_flink, flink_client, log))

struct endpoint_file {
    std::string address;  // host:port
    std::optional<std::string> log;
};
BOOST_DESCRIBE_STRUCT(endpoint_file, (), (address, log))

struct trino_file {
    std::string address;
    std::optional<std::string> user;  // default "rosterrig"
    std::optional<std::string> log;
};
BOOST_DESCRIBE_STRUCT(trino_file, (), (address, user, log))

struct catalog_file {
    std::string address;                            // the Iceberg REST catalog, host:port
    std::optional<std::string> address_from_flink;  // as Flink reaches it (default: address)
    std::optional<json::value> token;               // bearer token, or {"env": NAME}
    std::optional<std::string> log;
};
BOOST_DESCRIBE_STRUCT(catalog_file, (), (address, address_from_flink, token, log))

struct object_store_file {
    std::string address;  // S3-compatible endpoint, host:port
    std::string region;
    std::string bucket;  // the warehouse: s3://<bucket>/warehouse/<namespace>/<table>
    json::value access_key;
    json::value secret_key;
    std::optional<std::string> log;
};
BOOST_DESCRIBE_STRUCT(object_store_file, (), (address, region, bucket, access_key, secret_key, log))

struct names_file {
    std::optional<std::string> topic_prefix;  // default "rr_"
    std::optional<std::string> ns;            // the catalog namespace (default "rosterrig")
    std::optional<std::string> job_prefix;    // Flink's pipeline.name prefix (default "rosterrig")
};
BOOST_DESCRIBE_STRUCT(names_file, (), (topic_prefix, ns, job_prefix))

/// A fault as commands: `command` injects it; the rig then waits for Flink to
/// see the failure (the fault's effect, observed, or the run fails), and for
/// `came_back` to exit 0 when given (else a Flink REST condition, per fault).
/// Placeholders in any argument: see fault_command.hpp.
struct fault_file {
    std::vector<std::string> command;
    std::optional<std::vector<std::string>> came_back;
    std::optional<std::uint64_t> deadline_seconds;  // for the command, its effect and the return (default 60)
};
BOOST_DESCRIBE_STRUCT(fault_file, (), (command, came_back, deadline_seconds))

/// One component target's process faults as commands (the process-fault
/// interface, drivers/live/roles/process_faults.hpp, runs them): `kill` and
/// `pause` inject, `resume` heals a pause, `start` brings a killed or stopped
/// component back (without it a kill's return is `came_back` alone: the
/// cluster's own supervisor restarts it).
struct target_faults_file {
    std::optional<fault_file> kill, pause, resume, start;
};
BOOST_DESCRIBE_STRUCT(target_faults_file, (), (kill, pause, resume, start))

struct description_file {
    std::optional<std::string> name;  // how the stack is called in reports
    kafka_file kafka;
    endpoint_file flink;  // the JobManager's REST API
    endpoint_file sql_gateway;
    catalog_file catalog;
    trino_file trino;
    object_store_file object_store;
    std::optional<names_file> names;
    std::optional<std::map<std::string, fault_file>> faults;  // by fault kind: "kill_taskmanager"
    std::optional<std::map<std::string, target_faults_file>>
        process_faults;  // by experiment::fault_target's name: "iceberg_catalog"
};
BOOST_DESCRIBE_STRUCT(description_file, (),
                      (name, kafka, flink, sql_gateway, catalog, trino, object_store, names, faults, process_faults))

// ---- the description, resolved ---------------------------------------------

struct endpoint {
    std::string host;
    unsigned short port = 0;
    std::string log;  // "" when the file names none
    std::string where() const { return host + ":" + std::to_string(port); }
};

struct fault_commands {
    std::vector<std::string> command;
    std::vector<std::string> came_back;  // empty: the fault's Flink REST condition
    std::uint64_t deadline_seconds = 60;
};

struct description {
    std::string name;
    std::string kafka_bootstrap, kafka_bootstrap_from_flink;
    std::map<std::string, std::string> kafka_client;  // resolved
    std::map<std::string, std::string> kafka_flink_client;
    std::string kafka_log;
    endpoint flink, sql_gateway, catalog, trino, object_store;
    std::string catalog_from_flink;        // host:port
    std::string catalog_token;             // "" for none
    std::string trino_user = "rosterrig";  // Trino must name the Iceberg catalog `iceberg`
    std::string region, bucket, access_key, secret_key;
    std::string topic_prefix = "rr_", ns = "rosterrig", job_prefix = "rosterrig";
    std::map<std::string, fault_commands> faults;
    std::map<std::string, std::map<std::string, fault_commands>>
        process_faults;                // target name -> action (kill, pause, resume, start) -> commands
    std::vector<std::string> secrets;  // every value read from the environment or under a secret-looking key

    /// `text` with every secret value replaced by "***": for anything printed.
    std::string redact(std::string text) const {
        for (const auto& s : secrets) {
            if (s.empty()) continue;
            for (auto at = text.find(s); at != std::string::npos; at = text.find(s, at + 3))
                text.replace(at, s.size(), "***");
        }
        return text;
    }
};

/// The fault kinds a description may give commands for (experiment::fault_kind's
/// live faults).
inline const std::vector<std::string>& known_fault_kinds() {
    static const std::vector<std::string> kinds{"kill_taskmanager"};
    return kinds;
}

/// The actions a description may give per component target (process_faults).
inline const std::vector<std::string>& process_fault_actions() {
    static const std::vector<std::string> actions{"kill", "pause", "resume", "start"};
    return actions;
}

/// The component targets a description may give process faults for:
/// experiment::fault_target's names.
inline std::vector<std::string> process_fault_targets() {
    std::vector<std::string> out;
    for (const auto t : experiment::enumerators_of<experiment::fault_target>()) out.push_back(experiment::name_of(t));
    return out;
}

/// The description's commands for `action` on `target`, or nullptr. A
/// TaskManager's kill may also be the older `faults.kill_taskmanager` (a file
/// may give one or the other, not both).
inline const fault_commands* commands_for(const description& d, experiment::fault_target target,
                                          const std::string& action) {
    if (const auto t = d.process_faults.find(experiment::name_of(target)); t != d.process_faults.end())
        if (const auto a = t->second.find(action); a != t->second.end()) return &a->second;
    if (target == experiment::fault_target::flink_taskmanager && action == "kill")
        if (const auto k = d.faults.find("kill_taskmanager"); k != d.faults.end()) return &k->second;
    return nullptr;
}

/// Keys whose values are secrets even when written inline.
inline bool secret_looking(const std::string& key) {
    for (const char* word : {"password", "secret", "token", "jaas", "private"})
        if (key.find(word) != std::string::npos) return true;
    return false;
}

using environment_lookup = std::function<std::optional<std::string>(const std::string&)>;

namespace detail {

inline endpoint endpoint_of(const std::string& address, const std::optional<std::string>& log,
                            const std::string& path) {
    const auto colon = address.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
        throw description_error(path + ": expected host:port, got \"" + address + "\"");
    unsigned long port = 0;
    try {
        std::size_t used = 0;
        port = std::stoul(address.substr(colon + 1), &used);
        if (used != address.size() - colon - 1) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
        throw description_error(path + ": \"" + address.substr(colon + 1) + "\" is not a port number");
    }
    if (port == 0 || port > 65535)
        throw description_error(path + ": port " + std::to_string(port) + " is out of range");
    return {address.substr(0, colon), static_cast<unsigned short>(port), log.value_or("")};
}

/// A string, or {"env": NAME} read from the environment; `secret` collects
/// values that must never be printed.
inline std::string resolve(const json::value& v, const std::string& path, bool secret, const environment_lookup& env,
                           std::vector<std::string>& secrets) {
    if (v.is_string()) {
        // ${env:NAME} inside a string is that variable's value (a password
        // inside a JAAS line); what it brings in is a secret.
        const std::string text(v.as_string());
        std::string s;
        std::size_t pos = 0;
        for (auto at = text.find("${env:"); at != std::string::npos; at = text.find("${env:", pos)) {
            const auto close = text.find('}', at);
            if (close == std::string::npos) throw description_error(path + ": unclosed ${env:");
            const auto name = text.substr(at + 6, close - at - 6);
            auto value = env(name);
            if (!value) throw description_error(path + ": environment variable " + name + " is not set");
            secrets.push_back(*value);
            s += text.substr(pos, at - pos) + *value;
            pos = close + 1;
        }
        s += text.substr(pos);
        if (secret) secrets.push_back(s);
        return s;
    }
    if (const auto* o = v.if_object(); o && o->size() == 1 && o->contains("env") && o->at("env").is_string()) {
        const std::string name(o->at("env").as_string());
        auto value = env(name);
        if (!value) throw description_error(path + ": environment variable " + name + " is not set");
        secrets.push_back(*value);  // whatever comes from the environment is treated as secret
        return *value;
    }
    throw description_error(path + ": expected a string or {\"env\": \"NAME\"}");
}

inline std::map<std::string, std::string> resolve_all(const std::map<std::string, json::value>& in,
                                                      const std::string& path, const environment_lookup& env,
                                                      std::vector<std::string>& secrets) {
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : in) out[k] = resolve(v, path + "." + k, secret_looking(k), env, secrets);
    return out;
}

}  // namespace detail

/// Resolves a file's contents; `file` labels errors. Throws description_error.
inline description resolve(const description_file& f, const std::string& file, const environment_lookup& env) {
    const auto at = [&](const std::string& path) { return file + ": $." + path; };
    description d;
    d.name = f.name.value_or(file);
    if (f.kafka.bootstrap.empty()) throw description_error(at("kafka.bootstrap") + ": empty");
    d.kafka_bootstrap = f.kafka.bootstrap;
    d.kafka_bootstrap_from_flink = f.kafka.bootstrap_from_flink.value_or(f.kafka.bootstrap);
    for (const char* reserved : {"bootstrap.servers", "group.id", "transactional.id"})
        if (f.kafka.client && f.kafka.client->count(reserved))
            throw description_error(at(std::string("kafka.client.") + reserved) + ": the rig sets this itself");
    d.kafka_client = detail::resolve_all(f.kafka.client.value_or(std::map<std::string, json::value>{}),
                                         at("kafka.client"), env, d.secrets);
    d.kafka_flink_client = detail::resolve_all(f.kafka.flink_client.value_or(std::map<std::string, json::value>{}),
                                               at("kafka.flink_client"), env, d.secrets);
    d.kafka_log = f.kafka.log.value_or("");
    d.flink = detail::endpoint_of(f.flink.address, f.flink.log, at("flink.address"));
    d.sql_gateway = detail::endpoint_of(f.sql_gateway.address, f.sql_gateway.log, at("sql_gateway.address"));
    d.catalog = detail::endpoint_of(f.catalog.address, f.catalog.log, at("catalog.address"));
    d.catalog_from_flink = f.catalog.address_from_flink.value_or(f.catalog.address);
    detail::endpoint_of(d.catalog_from_flink, std::nullopt, at("catalog.address_from_flink"));
    if (f.catalog.token) d.catalog_token = detail::resolve(*f.catalog.token, at("catalog.token"), true, env, d.secrets);
    d.trino = detail::endpoint_of(f.trino.address, f.trino.log, at("trino.address"));
    d.trino_user = f.trino.user.value_or(d.trino_user);
    d.object_store = detail::endpoint_of(f.object_store.address, f.object_store.log, at("object_store.address"));
    d.region = f.object_store.region;
    d.bucket = f.object_store.bucket;
    d.access_key = detail::resolve(f.object_store.access_key, at("object_store.access_key"), false, env, d.secrets);
    d.secret_key = detail::resolve(f.object_store.secret_key, at("object_store.secret_key"), true, env, d.secrets);
    if (f.names) {
        d.topic_prefix = f.names->topic_prefix.value_or(d.topic_prefix);
        d.ns = f.names->ns.value_or(d.ns);
        d.job_prefix = f.names->job_prefix.value_or(d.job_prefix);
    }
    // Names go into SQL identifiers and topic names unquoted: keep them plain.
    const auto plain = [&](const std::string& value, const std::string& path) {
        if (value.empty()) throw description_error(at(path) + ": empty");
        for (char c : value)
            if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
                  c == '_'))
                throw description_error(at(path) + ": \"" + value + "\" may hold only a-z, 0-9 and _");
    };
    plain(d.topic_prefix, "names.topic_prefix");
    plain(d.ns, "names.ns");
    plain(d.job_prefix, "names.job_prefix");
    const auto commands = [&](const fault_file& fc, const std::string& path) {
        if (fc.command.empty()) throw description_error(at(path + ".command") + ": empty");
        fault_commands c;
        c.command = fc.command;
        c.came_back = fc.came_back.value_or(std::vector<std::string>{});
        c.deadline_seconds = fc.deadline_seconds.value_or(c.deadline_seconds);
        if (c.deadline_seconds == 0) throw description_error(at(path + ".deadline_seconds") + ": must be above 0");
        return c;
    };
    for (const auto& [kind, fc] : f.faults.value_or(std::map<std::string, fault_file>{})) {
        const auto& kinds = known_fault_kinds();
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
            throw description_error(at("faults." + kind) + ": no such fault kind (known: kill_taskmanager)");
        d.faults[kind] = commands(fc, "faults." + kind);
    }
    for (const auto& [target, tf] : f.process_faults.value_or(std::map<std::string, target_faults_file>{})) {
        const auto path = "process_faults." + target;
        if (!experiment::parse_name<experiment::fault_target>(target)) {
            std::string known;
            for (const auto& t : process_fault_targets()) known += (known.empty() ? "" : ", ") + t;
            throw description_error(at(path) + ": no such fault target (known: " + known + ")");
        }
        auto& actions = d.process_faults[target];
        const std::pair<const char*, const std::optional<fault_file>*> given[] = {
            {"kill", &tf.kill}, {"pause", &tf.pause}, {"resume", &tf.resume}, {"start", &tf.start}};
        for (const auto& [action, fc] : given)
            if (*fc) actions[action] = commands(**fc, path + "." + action);
        // Every fault carries its heal: a pause the rig could not resume would hang the cluster.
        if (actions.count("pause") && !actions.count("resume"))
            throw description_error(at(path + ".pause") + ": a pause needs its resume command (the heal)");
        if (actions.empty()) throw description_error(at(path) + ": no command (give kill, pause, resume or start)");
        if (target == "flink_taskmanager" && actions.count("kill") && d.faults.count("kill_taskmanager"))
            throw description_error(at(path + ".kill") +
                                    ": the TaskManager's kill is given twice (faults.kill_taskmanager too): keep one");
    }
    return d;
}

/// Reads and resolves a description file; the process environment supplies {"env": NAME}.
inline description read_description(const std::string& file) {
    try {
        const auto f = result::read_json_file<description_file>(file);
        return resolve(f, file, [](const std::string& name) -> std::optional<std::string> {
            const char* v = std::getenv(name.c_str());
            return v ? std::optional<std::string>(v) : std::nullopt;
        });
    } catch (const result::read_error& e) {
        throw description_error(e.what());
    }
}

}  // namespace rosterrig::stack

#endif
