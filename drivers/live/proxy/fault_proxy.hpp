// The fault proxy: listens on 127.0.0.1:<port>, forwards to one upstream
// host:port, and applies the proxy's fault kinds to what passes.
//
// HTTP mode parses each request (Beast) and matches the armed rules, in the
// order added, by method and a regex over the path; the first match applies
// (lose, hold or replace the reply, answer a status, delay), the others on
// the same keep-alive connection pass unless a rule matches them. One
// upstream connection per client connection, so keep-alive is kept on both
// sides. TCP mode reads nothing: a rule applies to a whole connection
// (delay each chunk, blackhole, reset, limit the bandwidth).
//
// Embedded: construct, start() (binds, then runs its own io_context on its own
// thread), port(), add_rule/remove_rule/release/heal from any thread, log(),
// stop(). The executable rosterrig-proxy wraps the same class with a JSON
// control API (proxy_control.hpp).
//
// Every network operation has a deadline (proxy_options). Errors: add_rule
// throws std::invalid_argument for a rule this mode cannot apply; start()
// throws boost::system::system_error when it cannot bind; nothing else throws
// across the API.
#ifndef ROSTERRIG_LIVE_PROXY_FAULT_PROXY_HPP
#define ROSTERRIG_LIVE_PROXY_FAULT_PROXY_HPP

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <rosterrig/experiment/fault.hpp>

#include "proxy_log.hpp"

namespace rosterrig::live::proxy {

struct proxy_options {
    unsigned short listen_port = 0;  ///< on 127.0.0.1; 0 picks a free port (see port())
    std::string upstream_host = "127.0.0.1";
    unsigned short upstream_port = 0;
    proxy_mode mode = proxy_mode::http;
    /// HTTP: connecting upstream, writing one request and reading its reply,
    /// each; and reading one request's body from the client. TCP: connecting.
    std::chrono::milliseconds upstream_timeout{60'000};
    /// HTTP: the longest a client connection waits between requests. TCP: the
    /// longest a connection passes nothing before it is closed (longer than
    /// Kafka's 10-minute idle close, so the proxy is never the one that closes).
    std::chrono::milliseconds idle_timeout{15 * 60'000};
    std::uint64_t body_limit = 1ull << 30;  ///< largest request or reply body (HTTP)
    /// HTTP: requests of this method keep their body in the log (proxy_event::
    /// request_body), up to kept_body_limit bytes: what a catalog commit carried
    /// (its snapshot id and summary) is the link between a request and a snapshot.
    /// "" keeps none.
    std::string keep_body_of_method;
    std::size_t kept_body_limit = 256 * 1024;
};

class fault_proxy {
public:
    explicit fault_proxy(proxy_options options);
    ~fault_proxy();  ///< stop()
    fault_proxy(const fault_proxy&) = delete;
    fault_proxy& operator=(const fault_proxy&) = delete;

    /// Binds 127.0.0.1:listen_port and starts serving on its own thread.
    void start();
    /// Stops accepting, drops every connection and joins the thread. Idempotent.
    void stop();
    /// The port it listens on (after start()).
    unsigned short port() const;
    const proxy_options& options() const;

    /// Arms a rule; returns its id. Throws std::invalid_argument when this
    /// mode cannot apply the kind or the parameters are not usable
    /// (experiment::fault_problem, against a target that speaks HTTP).
    std::uint64_t add_rule(experiment::fault_kind kind, const experiment::fault_parameters& parameters);
    /// add_rule(f.kind, f.parameters).
    std::uint64_t add_rule(const experiment::fault& f);
    /// Removes one rule (connections it governs in TCP mode pass unchanged from
    /// then on; a blackholed one is closed). False when there is no such rule.
    bool remove_rule(std::uint64_t id);
    /// Removes every rule; returns how many. Held replies stay held.
    std::size_t clear_rules();
    /// Sends one held reply now. False when it is not held (released, expired, unknown).
    bool release(std::uint64_t hold_id);
    /// Sends every held reply now; returns how many.
    std::size_t release_all();
    /// The heal: clear_rules() and release_all(); returns {rules removed, replies released}.
    std::pair<std::size_t, std::size_t> heal();

    std::vector<proxy_rule> rules() const;
    std::vector<held_reply> holds() const;
    std::vector<proxy_event> log() const;
    /// The entries from id `first` on (ids count from 1, in the order received): what a
    /// poll that already read the earlier ones needs, without copying them again.
    std::vector<proxy_event> log_since(std::uint64_t first) const;

    class impl;

private:
    std::shared_ptr<impl> impl_;
};

/// Current wall-clock time in epoch milliseconds.
std::int64_t epoch_ms();

}  // namespace rosterrig::live::proxy

#endif
