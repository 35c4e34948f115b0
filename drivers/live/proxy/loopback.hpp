// Loopback stand-ins for a proxy to stand in front of, and a client to call
// through it: a counting HTTP upstream, a TCP echo server, and a blocking
// HTTP/1.1 connection with a deadline on every call. For the proxy's tests,
// its benchmark, and anyone checking a proxy before pointing a component at
// it. Every socket is on 127.0.0.1; port 0 picks a free one.
#ifndef ROSTERRIG_LIVE_PROXY_LOOPBACK_HPP
#define ROSTERRIG_LIVE_PROXY_LOOPBACK_HPP

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <boost/system/error_code.hpp>

namespace rosterrig::live::proxy {

/// An HTTP upstream on 127.0.0.1 that answers every request 200 with the
/// body "<METHOD> <target> #<n> <body bytes>" (n counts from 1 over all
/// requests) and counts what it was asked, per "METHOD path".
class loopback_http_upstream {
public:
    loopback_http_upstream();
    ~loopback_http_upstream();
    void start();
    void stop();
    unsigned short port() const;
    std::uint64_t requests() const;                                    ///< all requests served
    std::uint64_t requests(const std::string& method_and_path) const;  ///< e.g. "POST /v1/commit"
    std::int64_t last_request_at_ms() const;                           ///< epoch ms; 0 before the first

    class impl;

private:
    std::shared_ptr<impl> impl_;
};

/// A TCP server on 127.0.0.1 that writes back every byte it reads.
class loopback_echo {
public:
    loopback_echo();
    ~loopback_echo();
    void start();
    void stop();
    unsigned short port() const;
    std::uint64_t connections() const;

    class impl;

private:
    std::shared_ptr<impl> impl_;
};

struct http_result {
    boost::system::error_code error;  ///< set when no whole reply was read (closed, reset, timed out)
    unsigned status = 0;
    std::string body;
    bool keep_alive = false;
    std::int64_t answered_at_ms = 0;  ///< epoch ms the reply was read whole
};

/// One kept-alive HTTP/1.1 connection to 127.0.0.1:port. Blocking calls built
/// from async operations on a private io_context, so each has a deadline.
class http_connection {
public:
    explicit http_connection(unsigned short port, std::chrono::milliseconds deadline = std::chrono::seconds(10));
    ~http_connection();
    /// One request on this connection (connecting again first if it was closed).
    http_result call(const std::string& method, const std::string& target, const std::string& body = {},
                     std::chrono::milliseconds deadline = std::chrono::seconds(10));
    bool open() const;

    class impl;

private:
    std::unique_ptr<impl> impl_;
};

/// A TCP client for the echo tests: connect, write, read what comes back.
struct tcp_result {
    boost::system::error_code error;  ///< the read's end: eof, connection_reset, timed_out, or none
    std::string received;
};
/// Connects to 127.0.0.1:port, writes `payload`, and reads until `expect`
/// bytes came, the peer closed, or `deadline` passed.
tcp_result tcp_exchange(unsigned short port, const std::string& payload, std::size_t expect,
                        std::chrono::milliseconds deadline);

}  // namespace rosterrig::live::proxy

#endif
