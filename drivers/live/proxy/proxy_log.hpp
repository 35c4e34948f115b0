// The fault proxy's data: its rules, the replies it holds, and the log of
// every request (HTTP mode) or connection (TCP mode) it saw and what it did.
// Described, so each is JSON through Boost.JSON's value_from (the control
// API and a driver's history both write them that way).
#ifndef ROSTERRIG_LIVE_PROXY_PROXY_LOG_HPP
#define ROSTERRIG_LIVE_PROXY_PROXY_LOG_HPP

#include <cstdint>
#include <string>

#include <boost/describe.hpp>

#include <rosterrig/experiment/fault.hpp>

namespace rosterrig::live::proxy {

/// HTTP: every request is parsed and may be matched by method and path.
/// TCP: bytes pass unread; a rule applies to whole connections.
enum class proxy_mode { http, tcp };
BOOST_DESCRIBE_ENUM(proxy_mode, http, tcp)

/// One armed fault: a proxy kind (http_* in HTTP mode, tcp_* in TCP mode)
/// with its parameters. parameters.count says how many matching requests (or
/// connections) it applies to before it disarms; 0 means every one until it
/// is removed.
struct proxy_rule {
    std::uint64_t id = 0;  ///< given by add_rule, from 1
    experiment::fault_kind kind = experiment::fault_kind::http_delay;
    experiment::fault_parameters parameters;
    std::uint64_t applied = 0;  ///< matching requests (connections) it has applied to
    bool armed() const { return parameters.count == 0 || applied < parameters.count; }
};
BOOST_DESCRIBE_STRUCT(proxy_rule, (), (id, kind, parameters, applied))

/// A reply the proxy keeps (http_hold_reply) until released or its deadline.
struct held_reply {
    std::uint64_t id = 0;  ///< what release() takes
    std::uint64_t rule = 0;
    std::uint64_t event = 0;  ///< the log entry of its request
    std::string method;
    std::string target;
    unsigned upstream_status = 0;
    std::int64_t held_since_ms = 0;  ///< epoch ms
    std::int64_t deadline_ms = 0;    ///< epoch ms: sent then if not released before
};
BOOST_DESCRIBE_STRUCT(held_reply, (), (id, rule, event, method, target, upstream_status, held_since_ms, deadline_ms))

/// One request (HTTP mode) or connection (TCP mode) and what the proxy did
/// with it. Times are epoch milliseconds; 0 means it did not happen.
struct proxy_event {
    std::uint64_t id = 0;                     ///< from 1, in the order received
    std::uint64_t connection = 0;             ///< the client connection it came on, from 1
    std::string method;                       ///< HTTP only
    std::string target;                       ///< HTTP only: the request target as sent
    std::uint64_t rule = 0;                   ///< the rule that applied; 0 for none (forwarded unchanged)
    std::string action;                       ///< "forward", or the rule's kind ("http_lose_reply", ...)
    std::int64_t received_at_ms = 0;          ///< request read whole (TCP: connection accepted)
    std::int64_t forwarded_at_ms = 0;         ///< request sent upstream (TCP: upstream connected)
    std::int64_t upstream_replied_at_ms = 0;  ///< upstream reply read whole (TCP: its first byte)
    std::int64_t answered_at_ms = 0;          ///< the client's answer written (TCP: connection closed)
    std::int64_t dropped_at_ms = 0;           ///< the client's connection closed (or reset) unanswered
    unsigned upstream_status = 0;
    unsigned answered_status = 0;
    std::uint64_t hold = 0;  ///< its held reply's id (http_hold_reply)
    std::int64_t released_at_ms = 0;
    std::string released_by;                ///< "release", "heal" or "deadline"
    std::uint64_t bytes_from_client = 0;    ///< TCP
    std::uint64_t bytes_from_upstream = 0;  ///< TCP
    std::string note;          ///< what went wrong, in words (an upstream that did not answer, a client gone)
    std::string request_body;  ///< HTTP, only for proxy_options::keep_body_of_method; cut at kept_body_limit
};
BOOST_DESCRIBE_STRUCT(proxy_event, (),
                      (id, connection, method, target, rule, action, received_at_ms, forwarded_at_ms,
                       upstream_replied_at_ms, answered_at_ms, dropped_at_ms, upstream_status, answered_status, hold,
                       released_at_ms, released_by, bytes_from_client, bytes_from_upstream, note, request_body))

/// Whether a proxy in `mode` can apply `kind` (http_* in HTTP mode, tcp_* in TCP mode).
inline bool applies_in(proxy_mode mode, experiment::fault_kind kind) {
    const auto layer = experiment::layer_of(kind);
    return mode == proxy_mode::http ? layer == experiment::fault_layer::proxy_http
                                    : layer == experiment::fault_layer::proxy_tcp;
}

}  // namespace rosterrig::live::proxy

#endif
