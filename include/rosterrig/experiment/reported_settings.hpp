// rosterrig/experiment/reported_settings.hpp: settings the experiments depend
// on, as the running components report them (not as the config files or the
// SQL ask): Flink's restart strategy, which decides whether a kill ends the
// job, and the table's upsert settings, which decide whether a replay is
// hidden. The offline claims hold the files; these hold what was in force.
#ifndef ROSTERRIG_EXPERIMENT_REPORTED_SETTINGS_HPP
#define ROSTERRIG_EXPERIMENT_REPORTED_SETTINGS_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/pipeline_config.hpp"

namespace rosterrig::experiment {

/// Flink's restart strategy, from its REST API's configuration entries.
struct restart_strategy {
    std::string type;                      ///< restart-strategy.type; "" when Flink lists no such key
    std::optional<std::int64_t> attempts;  ///< restart-strategy.fixed-delay.attempts, when listed and a number
    std::string delay;                     ///< restart-strategy.fixed-delay.delay as Flink writes it ("2 s")
    std::string reported_by;               ///< the REST path that answered
};
BOOST_DESCRIBE_STRUCT(restart_strategy, (), (type, attempts, delay, reported_by))

/// The strategy in Flink's [{key, value}, ...] configuration entries.
inline restart_strategy restart_strategy_of(const std::vector<std::pair<std::string, std::string>>& entries,
                                            std::string reported_by) {
    restart_strategy r;
    r.reported_by = std::move(reported_by);
    for (const auto& [key, value] : entries) {
        if (key == "restart-strategy.type")
            r.type = value;
        else if (key == "restart-strategy.fixed-delay.delay")
            r.delay = value;
        else if (key == "restart-strategy.fixed-delay.attempts") {
            try {
                std::size_t used = 0;
                const auto n = std::stoll(value, &used);
                if (used == value.size()) r.attempts = n;
            } catch (const std::exception&) {
            }  // not a number: not reported as attempts
        }
    }
    return r;
}

/// How fast the stack recovers from a lost TaskManager, as the running
/// processes report it (compose/flink/README.md, "Recovery profiles"): none
/// of it changes what a recovery restores, only how soon.
struct recovery_settings {
    std::string heartbeat_interval;               ///< heartbeat.interval (ms) as Flink lists it
    std::string heartbeat_rpc_failure_threshold;  ///< heartbeat.rpc-failure-threshold
    std::string rest_refresh_interval;            ///< web.refresh-interval (ms): how stale a REST job view may be
    std::int64_t taskmanagers_registered = 0;     ///< GET /overview
    std::int64_t taskmanagers_sharing_classes =
        0;  ///< TaskManager JVMs started with -XX:SharedArchiveFile (their command lines)
    std::string supervisor_restart_pause;  ///< TM_RESTART_PAUSE in the supervisors' environment ("" when unset: 1 s)
};
BOOST_DESCRIBE_STRUCT(recovery_settings, (),
                      (heartbeat_interval, heartbeat_rpc_failure_threshold, rest_refresh_interval,
                       taskmanagers_registered, taskmanagers_sharing_classes, supervisor_restart_pause))

/// The Flink-held part of recovery_settings, from its configuration entries.
inline recovery_settings recovery_settings_of(const std::vector<std::pair<std::string, std::string>>& entries) {
    recovery_settings r;
    for (const auto& [key, value] : entries) {
        if (key == "heartbeat.interval")
            r.heartbeat_interval = value;
        else if (key == "heartbeat.rpc-failure-threshold")
            r.heartbeat_rpc_failure_threshold = value;
        else if (key == "web.refresh-interval")
            r.rest_refresh_interval = value;
    }
    return r;
}

/// Fixed-delay restarts with at least `attempts` attempts, as reported (nothing reported: no).
inline bool reports_fixed_delay_of_at_least(const std::optional<restart_strategy>& r, std::int64_t attempts) {
    return r && r->type == "fixed-delay" && r->attempts.value_or(0) >= attempts;
}

/// A table's upsert settings, as the Iceberg catalog holds them.
struct table_settings {
    std::optional<std::string> write_upsert_enabled;  ///< the property's value; absent when the table does not set it
    std::int64_t format_version = 0;                  ///< the metadata's format-version
    std::vector<std::string> identifier_fields;       ///< the current schema's identifier fields, by name
    // Absent in runs from before they were recorded:
    std::optional<std::string>
        distribution_mode;  ///< write.distribution-mode; "(unset)" when the table does not set it
    std::optional<std::vector<std::string>>
        partition_fields;  ///< the default spec's, "bucket[4](npi)"; empty: unpartitioned
};
BOOST_DESCRIBE_STRUCT(table_settings, (),
                      (write_upsert_enabled, format_version, identifier_fields, distribution_mode, partition_fields))

/// An upsert table as the sink needs it: the flag on, and the key as identifier.
inline bool reports_upsert_on(const table_settings& t, const std::string& key) {
    return t.write_upsert_enabled == std::string("true") && t.identifier_fields == std::vector<std::string>{key};
}
/// An append table: no flag set to true, no identifier fields.
inline bool reports_no_upsert(const table_settings& t) {
    return t.write_upsert_enabled.value_or("false") == "false" && t.identifier_fields.empty();
}
/// A table of this kind as reported: format v2 (equality deletes need it);
/// upsert: the flag and `key`; append: neither. Nothing reported: no.
inline bool reports_table_kind(const std::optional<table_settings>& t, table_kind kind, const std::string& key) {
    if (!t || t->format_version != 2) return false;
    return kind == table_kind::upsert ? reports_upsert_on(*t, key) : reports_no_upsert(*t);
}

}  // namespace rosterrig::experiment

#endif
