// rosterrig/experiment/catalog_request.hpp: what a catalog client sent and
// got on one table's path, as a fault proxy in front of the Iceberg REST
// catalog logs it: each request with its times and statuses and, for a commit
// POST, the snapshot its body adds. Experiment 8's record; any experiment
// that watches commits through the proxy records the same.
#ifndef ROSTERRIG_EXPERIMENT_CATALOG_REQUEST_HPP
#define ROSTERRIG_EXPERIMENT_CATALOG_REQUEST_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include <boost/describe.hpp>
#include <boost/json.hpp>

namespace rosterrig::experiment {

/// What a commit POST carried, from its body: the snapshot it adds and that
/// snapshot's summary. Absent fields stay at their defaults.
struct commit_body {
    std::int64_t snapshot_id = 0;
    std::int64_t watermark = -1;  ///< flink.max-committed-checkpoint-id
    std::int64_t added_records = -1;
    std::string writer_id;  ///< flink.job-id
};

/// Reads an Iceberg REST commit request (updates[].action == "add-snapshot").
/// A body that is not such a request gives the defaults: a commit that adds
/// no snapshot, or a body the proxy cut short.
inline commit_body commit_body_of(const std::string& body) {
    commit_body out;
    boost::system::error_code ec;
    const auto v = boost::json::parse(body, ec);
    if (ec || !v.is_object()) return out;
    const auto* updates = v.as_object().if_contains("updates");
    if (!updates || !updates->is_array()) return out;
    const auto number = [](const boost::json::value* x) -> std::int64_t {
        if (!x) return -1;
        if (x->is_int64()) return x->as_int64();
        if (x->is_uint64()) return static_cast<std::int64_t>(x->as_uint64());
        if (x->is_string()) {
            try {
                return std::stoll(std::string(x->as_string()));
            } catch (...) {
                return -1;
            }
        }
        return -1;
    };
    for (const auto& u : updates->as_array()) {
        if (!u.is_object()) continue;
        const auto* action = u.as_object().if_contains("action");
        if (!action || !action->is_string() || action->as_string() != "add-snapshot") continue;
        const auto* snap = u.as_object().if_contains("snapshot");
        if (!snap || !snap->is_object()) continue;
        out.snapshot_id = std::max<std::int64_t>(0, number(snap->as_object().if_contains("snapshot-id")));
        if (const auto* summary = snap->as_object().if_contains("summary"); summary && summary->is_object()) {
            const auto& m = summary->as_object();
            out.watermark = number(m.if_contains("flink.max-committed-checkpoint-id"));
            out.added_records = number(m.if_contains("added-records"));
            if (const auto* id = m.if_contains("flink.job-id"); id && id->is_string())
                out.writer_id = std::string(id->as_string());
        }
    }
    return out;
}

/// One request to the table's path as the proxy saw it (times epoch ms, 0 = did not happen).
struct table_request {
    std::uint64_t event = 0;  ///< the proxy's log id
    std::string method;       ///< POST is a commit (the path excludes create and metrics), GET a load or refresh
    std::uint64_t rule = 0;   ///< the proxy rule that applied; 0 for none
    std::string action;       ///< forward or the rule's kind
    std::int64_t received_at_ms = 0;
    std::int64_t forwarded_at_ms = 0;
    std::int64_t upstream_replied_at_ms = 0;
    std::int64_t answered_at_ms = 0;
    std::int64_t dropped_at_ms = 0;
    unsigned upstream_status = 0;
    unsigned answered_status = 0;
    std::int64_t snapshot_id = 0;  ///< POST: the snapshot its body adds
    std::int64_t watermark = -1;   ///< POST: that snapshot's flink.max-committed-checkpoint-id
    std::string note;
    /// A held reply (http_hold_reply): when it was let go, and by what ("release",
    /// "heal" or "deadline"). Absent for other requests, and in runs from before.
    std::optional<std::int64_t> released_at_ms;
    std::optional<std::string> released_by;
};
BOOST_DESCRIBE_STRUCT(table_request, (),
                      (event, method, rule, action, received_at_ms, forwarded_at_ms, upstream_replied_at_ms,
                       answered_at_ms, dropped_at_ms, upstream_status, answered_status, snapshot_id, watermark, note,
                       released_at_ms, released_by))

}  // namespace rosterrig::experiment

#endif
