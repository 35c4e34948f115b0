// rosterrig/experiment/fault.hpp: one fault as data. What it does (kind), to
// whom (target), with which parameters, when (a trigger in words and a delay
// after it), and what undoes it (its heal, in words, derived from kind and
// target by heal_of, so that no fault exists without one: Jepsen's rule that
// every nemesis carries its own undo).
//
// The kinds fall in five layers (layer_of): a process fault a driver applies
// with a signal, the component's own supervisor or its start (kill, pause, stop, start); a
// Flink job fault (restore_from_savepoint); a table fault
// (maintenance_procedure); the fault proxy's kinds (http_*, tcp_*), which
// the proxy in drivers/live/proxy/ applies to the traffic in front of one
// component; and an operator's call to the component's own admin API
// (reconfigure, restart_task). Pure: no I/O, no clock.
#ifndef ROSTERRIG_EXPERIMENT_FAULT_HPP
#define ROSTERRIG_EXPERIMENT_FAULT_HPP

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/enum_names.hpp"

namespace rosterrig::experiment {

/// What a fault does. The first three are the names shipped results use
/// (results/*.json read them by name): keep them, in words and in order.
enum class fault_kind {
    kill_taskmanager,        ///< SIGKILL of the TaskManager; healed by the supervisor starting a new one
    restore_from_savepoint,  ///< stop the job, start a new one from an older savepoint
    maintenance_procedure,   ///< a table procedure run while the job writes
    kill,                    ///< SIGKILL of the target; healed by its supervisor or the experiment's restart
    pause,                   ///< SIGSTOP for duration_ms; healed by SIGCONT
    stop,                    ///< a clean stop; healed by starting it again after duration_ms
    start,                   ///< a process not running is started (a worker joining its group); no heal: it runs on
    http_lose_reply,         ///< proxy: forward, read the reply, close the client's connection unanswered
    http_hold_reply,         ///< proxy: forward, keep the reply until released or duration_ms passes
    http_status,             ///< proxy: answer `status` (500/502/503/504) without forwarding
    http_forward_then_504,   ///< proxy: forward, discard the reply, answer 504
    http_delay,              ///< proxy: wait duration_ms, then forward
    tcp_delay,               ///< proxy: every chunk waits duration_ms before it is passed on
    tcp_blackhole,           ///< proxy: accept and read, never forward nor answer
    tcp_reset,               ///< proxy: reset the connection (RST) after duration_ms
    tcp_bandwidth,           ///< proxy: pass at most bytes_per_second each way
    reconfigure,             ///< the target's configuration changed through its own API (an operator's update); no heal
    restart_task             ///< one task of the target restarted through its own API (Connect's task restart); no heal
};
BOOST_DESCRIBE_ENUM(fault_kind, kill_taskmanager, restore_from_savepoint, maintenance_procedure, kill, pause, stop,
                    start, http_lose_reply, http_hold_reply, http_status, http_forward_then_504, http_delay, tcp_delay,
                    tcp_blackhole, tcp_reset, tcp_bandwidth, reconfigure, restart_task)

/// Whom a fault is aimed at.
enum class fault_target {
    flink_jobmanager,
    flink_taskmanager,
    sql_gateway,
    iceberg_catalog,
    object_store,
    kafka_broker,
    connect_worker,
    trino
};
BOOST_DESCRIBE_ENUM(fault_target, flink_jobmanager, flink_taskmanager, sql_gateway, iceberg_catalog, object_store,
                    kafka_broker, connect_worker, trino)

/// Who applies a kind of fault.
enum class fault_layer { process, flink_job, table, proxy_http, proxy_tcp, admin_api };
BOOST_DESCRIBE_ENUM(fault_layer, process, flink_job, table, proxy_http, proxy_tcp, admin_api)

inline fault_layer layer_of(fault_kind k) {
    switch (k) {
        case fault_kind::kill_taskmanager:
        case fault_kind::kill:
        case fault_kind::pause:
        case fault_kind::stop:
        case fault_kind::start:
            return fault_layer::process;
        case fault_kind::restore_from_savepoint:
            return fault_layer::flink_job;
        case fault_kind::maintenance_procedure:
            return fault_layer::table;
        case fault_kind::http_lose_reply:
        case fault_kind::http_hold_reply:
        case fault_kind::http_status:
        case fault_kind::http_forward_then_504:
        case fault_kind::http_delay:
            return fault_layer::proxy_http;
        case fault_kind::tcp_delay:
        case fault_kind::tcp_blackhole:
        case fault_kind::tcp_reset:
        case fault_kind::tcp_bandwidth:
            return fault_layer::proxy_tcp;
        case fault_kind::reconfigure:
        case fault_kind::restart_task:
            return fault_layer::admin_api;
    }
    return fault_layer::process;
}

/// Whether the target answers HTTP, so an http_* fault can stand in front of it
/// (the TaskManager and the broker speak their own protocols: tcp_* only).
inline bool speaks_http(fault_target t) {
    return t != fault_target::flink_taskmanager && t != fault_target::kafka_broker;
}

/// The target in words, for heals and notes.
inline std::string words_for(fault_target t) {
    switch (t) {
        case fault_target::flink_jobmanager:
            return "the Flink JobManager";
        case fault_target::flink_taskmanager:
            return "the TaskManager";
        case fault_target::sql_gateway:
            return "the SQL Gateway";
        case fault_target::iceberg_catalog:
            return "the Iceberg REST catalog";
        case fault_target::object_store:
            return "the object store";
        case fault_target::kafka_broker:
            return "the Kafka broker";
        case fault_target::connect_worker:
            return "the Connect worker";
        case fault_target::trino:
            return "Trino";
    }
    return "the component";
}

/// What a fault needs besides its kind and target. A member a kind does not
/// use is left at its default.
struct fault_parameters {
    std::int64_t duration_ms =
        0;  ///< pause, stop: how long; http_hold_reply: the deadline; *_delay: the delay; tcp_reset: after how long
    unsigned status = 0;      ///< http_status: 500, 502, 503 or 504
    std::string method;       ///< http_*: the request method to match ("" any)
    std::string path = ".*";  ///< http_*: ECMAScript regex the whole request path (no query) must match
    std::uint64_t count =
        0;  ///< proxy kinds: how many matching requests (connections, for tcp_*) it applies to; 0 = all until healed
    std::uint64_t bytes_per_second = 0;  ///< tcp_bandwidth
    friend bool operator==(const fault_parameters&, const fault_parameters&) = default;
};
BOOST_DESCRIBE_STRUCT(fault_parameters, (), (duration_ms, status, method, path, count, bytes_per_second))

/// What undoes a fault of `kind` against `target`, in words. Defined for
/// every pair, so no fault is without its heal.
inline std::string heal_of(fault_kind kind, fault_target target) {
    const std::string who = words_for(target);
    switch (kind) {
        case fault_kind::kill_taskmanager:
            // The words every shipped result records for its kills: keep them.
            return "the supervisor starts a new TaskManager; Flink restarts the job from its latest checkpoint";
        case fault_kind::restore_from_savepoint:
            return "none: the restored job runs on; the question is what the table shows";
        case fault_kind::maintenance_procedure:
            return "none: the procedure returns; the question is what the table shows";
        case fault_kind::kill:
            if (target == fault_target::flink_taskmanager) return heal_of(fault_kind::kill_taskmanager, target);
            return "the supervisor (or the experiment) starts " + who + " again" +
                   (target == fault_target::flink_jobmanager ? "; the job is resubmitted from its latest checkpoint"
                                                             : "");
        case fault_kind::pause:
            return "SIGCONT after duration_ms: " + who + " runs on from where it stopped";
        case fault_kind::stop:
            return who + " is started again after duration_ms";
        case fault_kind::start:
            return "none: " + who + " runs on once started; the question is what the table shows";
        case fault_kind::http_lose_reply:
        case fault_kind::http_status:
        case fault_kind::http_forward_then_504:
        case fault_kind::http_delay:
            return "the proxy's rule is removed (or disarms after its count): requests to " + who + " pass unchanged";
        case fault_kind::http_hold_reply:
            return "the held reply is released (through the proxy's control API, or at duration_ms) and the rule removed: "
                   "requests to " +
                   who + " pass unchanged";
        case fault_kind::tcp_delay:
        case fault_kind::tcp_blackhole:
        case fault_kind::tcp_reset:
        case fault_kind::tcp_bandwidth:
            return "the proxy's rule is removed (or disarms after its count): new connections to " + who +
                   " pass unchanged";
        case fault_kind::reconfigure:
            return "none: " + who + " runs on with the new configuration; the question is what the table shows";
        case fault_kind::restart_task:
            return "none: " + who + " runs the task again once restarted; the question is what the table shows";
    }
    return "unknown";
}

/// One fault.
struct fault {
    fault_kind kind = fault_kind::kill;
    fault_target target = fault_target::flink_taskmanager;
    fault_parameters parameters;
    std::string trigger;        ///< what the delay counts from, in words
    std::int64_t delay_ms = 0;  ///< after the trigger
    std::string heal;           ///< heal_of(kind, target)
    friend bool operator==(const fault&, const fault&) = default;
};
BOOST_DESCRIBE_STRUCT(fault, (), (kind, target, parameters, trigger, delay_ms, heal))

/// A fault with its heal filled in.
inline fault make_fault(fault_kind kind, fault_target target, fault_parameters parameters = {},
                        std::string trigger = {}, std::int64_t delay_ms = 0) {
    return {kind, target, std::move(parameters), std::move(trigger), delay_ms, heal_of(kind, target)};
}

/// Why a fault cannot be applied as given, in words; nullopt when it can.
inline std::optional<std::string> fault_problem(const fault& f) {
    const auto& p = f.parameters;
    if (f.heal.empty()) return "no heal";
    if (f.delay_ms < 0) return "a negative delay";
    if (p.duration_ms < 0) return "a negative duration_ms";
    const auto layer = layer_of(f.kind);
    if (f.kind == fault_kind::kill_taskmanager && f.target != fault_target::flink_taskmanager)
        return "kill_taskmanager aims at the TaskManager only (use kill)";
    if ((f.kind == fault_kind::restore_from_savepoint) && f.target != fault_target::flink_jobmanager &&
        f.target != fault_target::sql_gateway)
        return "a savepoint restore goes through Flink (the JobManager or the SQL Gateway)";
    if ((f.kind == fault_kind::pause || f.kind == fault_kind::stop) && p.duration_ms == 0)
        return name_of(f.kind) + " needs a duration_ms above 0";
    if (layer == fault_layer::proxy_http) {
        if (!speaks_http(f.target)) return words_for(f.target) + " does not speak HTTP: use a tcp_* kind";
        try {
            std::regex check(p.path, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return "path \"" + p.path + "\" is not a regular expression: " + e.what();
        }
    }
    if (f.kind == fault_kind::http_status && p.status != 500 && p.status != 502 && p.status != 503 && p.status != 504)
        return "http_status answers 500, 502, 503 or 504, not " + std::to_string(p.status);
    if (f.kind == fault_kind::http_hold_reply && p.duration_ms == 0)
        return "http_hold_reply needs a deadline (duration_ms above 0)";
    if ((f.kind == fault_kind::http_delay || f.kind == fault_kind::tcp_delay) && p.duration_ms == 0)
        return name_of(f.kind) + " needs a duration_ms above 0";
    if (f.kind == fault_kind::tcp_bandwidth && p.bytes_per_second == 0)
        return "tcp_bandwidth needs bytes_per_second above 0";
    if (layer == fault_layer::admin_api && f.target != fault_target::connect_worker)
        return name_of(f.kind) + " goes through the Connect worker's REST API: no other target takes one yet";
    return std::nullopt;
}

}  // namespace rosterrig::experiment

#endif
