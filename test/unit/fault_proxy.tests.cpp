// The fault proxy (drivers/live/proxy) between a loopback client and a
// loopback upstream, both on 127.0.0.1 with ports the kernel picks: each
// mode does what it says, and the log records it. No stack.
//
// Time: only lower bounds ("a delay is at least its value"); the deadlines
// below are the calls' timeouts, not claims.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <thread>

#include <boost/asio/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/json.hpp>

#include "fault_proxy.hpp"
#include "loopback.hpp"
#include "proxy_control.hpp"
#include "proxy_faults.hpp"

using namespace rosterrig;
using namespace rosterrig::live::proxy;
using experiment::fault_kind;
using experiment::fault_parameters;
using namespace std::chrono_literals;

namespace {

// Polls `done` every 5 ms for at most 10 s (a timeout, so a broken proxy fails instead of hanging).
bool eventually(const std::function<bool()>& done) {
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < give_up) {
        if (done()) return true;
        std::this_thread::sleep_for(5ms);
    }
    return done();
}

fault_parameters http_match(std::string method, std::string path, std::uint64_t count = 0) {
    fault_parameters p;
    p.method = std::move(method);
    p.path = std::move(path);
    p.count = count;
    return p;
}

struct http_rig {
    loopback_http_upstream upstream;
    std::unique_ptr<fault_proxy> proxy;
    http_rig() {
        upstream.start();
        proxy_options o;
        o.upstream_port = upstream.port();
        o.mode = proxy_mode::http;
        proxy = std::make_unique<fault_proxy>(o);
        proxy->start();
    }
};

struct tcp_rig {
    loopback_echo echo;
    std::unique_ptr<fault_proxy> proxy;
    tcp_rig() {
        echo.start();
        proxy_options o;
        o.upstream_port = echo.port();
        o.mode = proxy_mode::tcp;
        proxy = std::make_unique<fault_proxy>(o);
        proxy->start();
    }
};

// The log once every request in it has been answered, dropped or failed: the
// client can read its reply before the proxy has noted that it sent it.
std::vector<proxy_event> settled_log(const fault_proxy& proxy, std::size_t events) {
    std::vector<proxy_event> log;
    eventually([&] {
        log = proxy.log();
        if (log.size() < events) return false;
        for (const auto& e : log)
            if (e.answered_at_ms == 0 && e.dropped_at_ms == 0 && e.note.empty()) return false;
        return true;
    });
    return log;
}

long long elapsed_ms(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

TEST_CASE("with no rule the proxy forwards, keeps the connection alive, and logs each step in order", "[proxy]") {
    http_rig rig;
    http_connection c(rig.proxy->port());
    const auto a = c.call("POST", "/v1/commit?x=1", "abc");
    const auto b = c.call("GET", "/v1/config");
    REQUIRE_FALSE(a.error);
    CHECK(a.status == 200);
    CHECK(a.body == "POST /v1/commit?x=1 #1 3");
    REQUIRE_FALSE(b.error);
    CHECK(b.body == "GET /v1/config #2 0");
    const auto log = settled_log(*rig.proxy, 2);
    REQUIRE(log.size() == 2);
    CHECK(log[0].connection == log[1].connection);  // one keep-alive connection
    for (const auto& e : log) {
        CHECK(e.action == "forward");
        CHECK(e.rule == 0);
        CHECK(e.received_at_ms > 0);
        CHECK(e.received_at_ms <= e.forwarded_at_ms);
        CHECK(e.forwarded_at_ms <= e.upstream_replied_at_ms);
        CHECK(e.upstream_replied_at_ms <= e.answered_at_ms);
        CHECK(e.answered_status == 200);
        CHECK(e.dropped_at_ms == 0);
    }
    CHECK(log[0].target == "/v1/commit?x=1");
}

// Mutation: in http_session's http_lose_reply branch, drop the close and let
// it fall through to answering: the client reads a 200 and this fails (checked).
TEST_CASE("a lost reply is applied upstream and the client's connection drops unanswered", "[proxy]") {
    http_rig rig;
    const auto id = rig.proxy->add_rule(fault_kind::http_lose_reply, http_match("POST", "/v1/commit", 1));
    http_connection c(rig.proxy->port());
    const auto r = c.call("POST", "/v1/commit", "{}");
    CHECK(r.error);  // end of stream (or a reset): no reply
    CHECK(r.status == 0);
    CHECK(rig.upstream.requests("POST /v1/commit") == 1);
    const auto log = settled_log(*rig.proxy, 1);
    REQUIRE(log.size() == 1);
    CHECK(log[0].rule == id);
    CHECK(log[0].action == "http_lose_reply");
    CHECK(log[0].upstream_status == 200);
    CHECK(log[0].upstream_replied_at_ms > 0);
    CHECK(log[0].dropped_at_ms >= log[0].upstream_replied_at_ms);
    CHECK(log[0].answered_at_ms == 0);
    // The rule had count 1: a new connection's request passes.
    const auto again = c.call("POST", "/v1/commit", "{}");
    REQUIRE_FALSE(again.error);
    CHECK(again.status == 200);
    CHECK(rig.upstream.requests("POST /v1/commit") == 2);
}

// Mutation: in http_session, skip the hold's timer wait (comment out the
// co_await h->timer.async_wait): no hold is ever listed, the client has its
// reply before any release, and this fails (checked).
TEST_CASE("a held reply reaches the client only after it is released", "[proxy]") {
    http_rig rig;
    fault_parameters p = http_match("POST", "/v1/.*/tables/.*", 1);
    p.duration_ms = 60'000;  // a deadline far past the release
    rig.proxy->add_rule(fault_kind::http_hold_reply, p);
    std::atomic<bool> answered{false};
    auto reply = std::async(std::launch::async, [&] {
        http_connection c(rig.proxy->port());
        auto r = c.call("POST", "/v1/ns/tables/t", "{}", 30s);
        answered = true;
        return r;
    });
    REQUIRE(eventually([&] { return rig.proxy->holds().size() == 1; }));
    const auto held = rig.proxy->holds().front();
    CHECK(held.upstream_status == 200);
    CHECK(rig.upstream.requests("POST /v1/ns/tables/t") == 1);  // applied upstream while held
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(answered.load());  // still held
    const auto released_at = epoch_ms();
    REQUIRE(rig.proxy->release(held.id));
    const auto r = reply.get();
    REQUIRE_FALSE(r.error);
    CHECK(r.status == 200);
    CHECK(r.answered_at_ms >= released_at);
    CHECK(rig.proxy->holds().empty());
    CHECK_FALSE(rig.proxy->release(held.id));  // not held any more
    const auto e = settled_log(*rig.proxy, 1).front();
    CHECK(e.hold == held.id);
    CHECK(e.released_by == "release");
    CHECK(e.released_at_ms >= released_at);
    CHECK(e.answered_at_ms >= e.released_at_ms);
}

TEST_CASE("a held reply nobody releases is sent at its deadline", "[proxy]") {
    http_rig rig;
    fault_parameters p = http_match("", ".*", 1);
    p.duration_ms = 300;
    rig.proxy->add_rule(fault_kind::http_hold_reply, p);
    http_connection c(rig.proxy->port());
    const auto r = c.call("PUT", "/bucket/key", "data");
    REQUIRE_FALSE(r.error);
    CHECK(r.status == 200);
    const auto e = settled_log(*rig.proxy, 1).front();
    CHECK(e.released_by == "deadline");
    CHECK(e.answered_at_ms - e.upstream_replied_at_ms >= 300);
}

// The client's read timeout ends its call (and closes its connection) while
// the reply is held: the proxy must not log the late reply as answered.
// Mutation: in http_session, drop the closed_by_peer check after a hold: the
// write goes into the socket's buffer, answered_at_ms is set and this fails.
TEST_CASE("a held reply whose client gave up meanwhile is logged as not delivered", "[proxy]") {
    http_rig rig;
    fault_parameters p = http_match("POST", ".*", 1);
    p.duration_ms = 800;
    rig.proxy->add_rule(fault_kind::http_hold_reply, p);
    {
        http_connection c(rig.proxy->port());
        const auto r = c.call("POST", "/v1/ns/tables/t", "{}", 100ms);
        CHECK(r.error);  // timed out: no reply within 100 ms
    }
    const auto e = settled_log(*rig.proxy, 1).front();
    CHECK(e.upstream_status == 200);
    CHECK(e.released_by == "deadline");
    CHECK(e.answered_at_ms == 0);
    CHECK(e.note.find("answering the client failed") != std::string::npos);
}

// Mutation: in http_session, move the http_status answer after the exchange
// (forward, then answer the status): the upstream counts the request and this
// fails (checked).
TEST_CASE("a status answer never reaches the upstream and the client gets that status", "[proxy]") {
    http_rig rig;
    fault_parameters p = http_match("", ".*");
    p.status = 503;
    rig.proxy->add_rule(fault_kind::http_status, p);
    http_connection c(rig.proxy->port());
    const auto r = c.call("POST", "/v1/commit", "{}");
    REQUIRE_FALSE(r.error);
    CHECK(r.status == 503);
    CHECK(r.keep_alive);
    CHECK(rig.upstream.requests() == 0);
    const auto e = settled_log(*rig.proxy, 1).front();
    CHECK(e.forwarded_at_ms == 0);
    CHECK(e.answered_status == 503);
}

TEST_CASE("forward_then_504 reaches the upstream and the client gets 504", "[proxy]") {
    http_rig rig;
    rig.proxy->add_rule(fault_kind::http_forward_then_504, http_match("POST", "/v1/commit"));
    http_connection c(rig.proxy->port());
    const auto r = c.call("POST", "/v1/commit", "{}");
    REQUIRE_FALSE(r.error);
    CHECK(r.status == 504);
    CHECK(rig.upstream.requests("POST /v1/commit") == 1);
    const auto e = settled_log(*rig.proxy, 1).front();
    CHECK(e.upstream_status == 200);
    CHECK(e.answered_status == 504);
}

// Mutation: in http_session, skip the http_delay timer: the call returns in a
// few ms and this fails (checked).
TEST_CASE("an HTTP delay holds the request back at least its value", "[proxy]") {
    http_rig rig;
    fault_parameters p = http_match("GET", "/slow");
    p.duration_ms = 250;
    rig.proxy->add_rule(fault_kind::http_delay, p);
    http_connection c(rig.proxy->port());
    const auto start = std::chrono::steady_clock::now();
    const auto r = c.call("GET", "/slow");
    REQUIRE_FALSE(r.error);
    CHECK(r.status == 200);
    CHECK(elapsed_ms(start) >= 250);
    const auto e = rig.proxy->log().front();
    CHECK(e.forwarded_at_ms - e.received_at_ms >= 250);
}

// Mutation: make proxy_rule::armed() ignore the count (return true): the third
// request is answered 503 too and this fails (checked).
TEST_CASE("a rule with count 1 affects only the first matching request, and others on the connection pass", "[proxy]") {
    http_rig rig;
    fault_parameters p = http_match("POST", "/v1/commit", 1);
    p.status = 503;
    rig.proxy->add_rule(fault_kind::http_status, p);
    http_connection c(rig.proxy->port());
    const auto other = c.call("GET", "/v1/commit");  // the method does not match
    const auto first = c.call("POST", "/v1/commit");
    const auto config = c.call("GET", "/v1/config");
    const auto second = c.call("POST", "/v1/commit");
    CHECK(other.status == 200);
    CHECK(first.status == 503);
    CHECK(config.status == 200);
    CHECK(second.status == 200);
    CHECK(rig.upstream.requests("POST /v1/commit") == 1);
    const auto log = rig.proxy->log();
    REQUIRE(log.size() == 4);
    for (const auto& e : log) CHECK(e.connection == log[0].connection);  // all on one kept-alive connection
    CHECK(rig.proxy->rules().front().applied == 1);
    CHECK_FALSE(rig.proxy->rules().front().armed());
}

TEST_CASE("clearing every rule heals: requests pass again, and a held reply is sent", "[proxy]") {
    http_rig rig;
    fault_parameters p = http_match("", ".*");
    p.duration_ms = 60'000;
    rig.proxy->add_rule(fault_kind::http_hold_reply, p);
    auto reply = std::async(std::launch::async, [&] {
        http_connection c(rig.proxy->port());
        return c.call("POST", "/v1/commit", "{}", 30s);
    });
    REQUIRE(eventually([&] { return rig.proxy->holds().size() == 1; }));
    const auto [removed, released] = rig.proxy->heal();
    CHECK(removed == 1);
    CHECK(released == 1);
    CHECK(reply.get().status == 200);
    CHECK(rig.proxy->rules().empty());
    http_connection c(rig.proxy->port());
    CHECK(c.call("POST", "/v1/commit").status == 200);
    CHECK(settled_log(*rig.proxy, 2).front().released_by == "heal");
}

TEST_CASE("a rule the proxy's mode cannot apply, or cannot apply as given, is refused", "[proxy]") {
    http_rig rig;
    fault_parameters p;
    p.duration_ms = 100;
    CHECK_THROWS_AS(rig.proxy->add_rule(fault_kind::tcp_delay, p), std::invalid_argument);
    CHECK_THROWS_AS(rig.proxy->add_rule(fault_kind::kill, p), std::invalid_argument);
    p.status = 404;
    CHECK_THROWS_AS(rig.proxy->add_rule(fault_kind::http_status, p), std::invalid_argument);
    p.path = "(";
    CHECK_THROWS_AS(rig.proxy->add_rule(fault_kind::http_delay, p), std::invalid_argument);
    CHECK(rig.proxy->rules().empty());
}

TEST_CASE("the control API arms, lists and removes rules, releases holds and serves the log as JSON", "[proxy]") {
    http_rig rig;
    auto& proxy = *rig.proxy;
    const auto added =
        answer_control(proxy, "POST", "/rules",
                       R"({"kind": "http_status", "method": "POST", "path": "/v1/.*", "status": 503, "count": 2})");
    REQUIRE(added.status == 201);
    const auto id = boost::json::parse(added.body).at("id").as_int64();
    CHECK(id == 1);
    CHECK(answer_control(proxy, "POST", "/rules", R"({"kind": "http_status", "colour": 1})").status == 400);
    CHECK(answer_control(proxy, "POST", "/rules", R"({"kind": "no_such_kind"})").status == 400);
    CHECK(answer_control(proxy, "POST", "/rules", R"({"kind": "tcp_reset"})").status == 400);
    const auto rules = boost::json::parse(answer_control(proxy, "GET", "/rules", "").body).at("rules").as_array();
    REQUIRE(rules.size() == 1);
    CHECK(rules[0].at("kind").as_string() == "http_status");
    CHECK(rules[0].at("parameters").at("status").as_int64() == 503);

    // Served on 127.0.0.1 as well: a request through the proxy, the log through the control port.
    control_server control(proxy);
    control.start();
    http_connection through(proxy.port());
    CHECK(through.call("POST", "/v1/x").status == 503);
    settled_log(proxy, 1);
    http_connection ctl(control.port());
    const auto log = ctl.call("GET", "/log");
    REQUIRE(log.status == 200);
    const auto events = boost::json::parse(log.body).at("events").as_array();
    REQUIRE(events.size() == 1);
    CHECK(events[0].at("action").as_string() == "http_status");
    CHECK(events[0].at("answered_status").as_int64() == 503);
    CHECK(ctl.call("GET", "/health").status == 200);
    CHECK(ctl.call("POST", "/holds/7/release").status == 404);
    CHECK(ctl.call("DELETE", "/rules/" + std::to_string(id)).status == 204);
    CHECK(ctl.call("DELETE", "/rules/" + std::to_string(id)).status == 404);
    CHECK(ctl.call("POST", "/heal").status == 200);
    CHECK(through.call("POST", "/v1/x").status == 200);
}

TEST_CASE("in TCP mode with no rule the bytes come back from the upstream unchanged", "[proxy][tcp]") {
    tcp_rig rig;
    const std::string payload(100'000, 'x');
    const auto r = tcp_exchange(rig.proxy->port(), payload, payload.size(), 10s);
    CHECK(r.received == payload);
    const auto e = rig.proxy->log().front();
    CHECK(e.action == "forward");
    CHECK(e.forwarded_at_ms >= e.received_at_ms);
    CHECK(e.bytes_from_client == payload.size());
}

// Mutation: in tcp_session, let a tcp_blackhole connection fall through to
// forwarding: the echo answers and this fails (checked).
TEST_CASE("a TCP blackhole accepts and reads but never forwards nor answers", "[proxy][tcp]") {
    tcp_rig rig;
    rig.proxy->add_rule(fault_kind::tcp_blackhole, {});
    const auto r = tcp_exchange(rig.proxy->port(), "hello", 5, 500ms);
    CHECK(r.error == boost::beast::error::timeout);  // the client's own deadline ended it
    CHECK(r.received.empty());
    CHECK(rig.echo.connections() == 0);
    REQUIRE(eventually([&] { return rig.proxy->log().front().bytes_from_client == 5; }));
}

TEST_CASE("removing a blackhole rule closes the connections it held, so their clients see the end", "[proxy][tcp]") {
    tcp_rig rig;
    const auto id = rig.proxy->add_rule(fault_kind::tcp_blackhole, {});
    auto r = std::async(std::launch::async, [&] { return tcp_exchange(rig.proxy->port(), "hello", 5, 30s); });
    REQUIRE(eventually([&] {
        const auto log = rig.proxy->log();
        return !log.empty() && log.front().bytes_from_client == 5;
    }));
    REQUIRE(rig.proxy->remove_rule(id));
    const auto got = r.get();
    CHECK(got.error == boost::asio::error::eof);
    CHECK(got.received.empty());
}

TEST_CASE("a TCP reset resets the connection without reaching the upstream", "[proxy][tcp]") {
    tcp_rig rig;
    rig.proxy->add_rule(fault_kind::tcp_reset, {});
    const auto r = tcp_exchange(rig.proxy->port(), "hello", 5, 10s);
    CHECK((r.error == boost::asio::error::connection_reset || r.error == boost::asio::error::broken_pipe));
    CHECK(r.received.empty());
    CHECK(rig.echo.connections() == 0);
    CHECK(eventually([&] { return rig.proxy->log().front().dropped_at_ms > 0; }));
}

TEST_CASE("a TCP delay holds back each way at least its value", "[proxy][tcp]") {
    tcp_rig rig;
    fault_parameters p;
    p.duration_ms = 150;
    rig.proxy->add_rule(fault_kind::tcp_delay, p);
    const auto start = std::chrono::steady_clock::now();
    const auto r = tcp_exchange(rig.proxy->port(), "hello", 5, 10s);
    CHECK(r.received == "hello");
    CHECK(elapsed_ms(start) >= 300);  // 150 ms there, 150 ms back
}

TEST_CASE("a TCP bandwidth limit passes no more than its bytes per second", "[proxy][tcp]") {
    tcp_rig rig;
    fault_parameters p;
    p.bytes_per_second = 8000;
    rig.proxy->add_rule(fault_kind::tcp_bandwidth, p);
    const std::string payload(4000, 'y');
    const auto start = std::chrono::steady_clock::now();
    const auto r = tcp_exchange(rig.proxy->port(), payload, payload.size(), 30s);
    CHECK(r.received == payload);
    CHECK(elapsed_ms(start) >= 500);  // 4000 bytes at 8000 B/s, one way alone
}

TEST_CASE("a TCP rule with count 1 applies to the first connection only", "[proxy][tcp]") {
    tcp_rig rig;
    fault_parameters p;
    p.count = 1;
    rig.proxy->add_rule(fault_kind::tcp_reset, p);
    CHECK(tcp_exchange(rig.proxy->port(), "a", 1, 10s).received.empty());
    CHECK(tcp_exchange(rig.proxy->port(), "b", 1, 10s).received == "b");
    CHECK(rig.echo.connections() == 1);
}

TEST_CASE("a planned proxy fault applied and healed leaves its record: times, what was done, what the proxy saw",
          "[proxy]") {
    http_rig rig;
    const experiment::scheduled_fault planned{
        1, "v",
        experiment::make_fault(fault_kind::http_lose_reply, experiment::fault_target::iceberg_catalog,
                               http_match("POST", "/v1/commit", 1))};
    auto handle = apply_on_proxy(*rig.proxy, planned);
    CHECK(handle.record.applied());
    CHECK(handle.record.done == "proxy rule 1: http_lose_reply on POST /v1/commit, for 1 matching");
    http_connection c(rig.proxy->port());
    CHECK(c.call("POST", "/v1/commit").error);
    CHECK(c.call("POST", "/v1/commit").status == 200);
    settled_log(*rig.proxy, 2);
    heal_on_proxy(*rig.proxy, handle);
    CHECK(rig.proxy->rules().empty());
    CHECK(handle.record.healed_at_ms >= handle.record.applied_at_ms);
    REQUIRE(handle.record.notes.count("iceberg_catalog") == 1);
    const auto& notes = handle.record.notes.at("iceberg_catalog");
    REQUIRE(notes.size() == 1);  // the second request passed: no rule applied to it
    CHECK(notes[0] ==
          "POST /v1/commit: http_lose_reply, upstream answered 200, the client's connection dropped unanswered");
}

// Mutation: in fault_proxy::stop, leave the open streams open (drop the loop
// that closes them): each call runs into its own 30 s deadline and this fails
// (checked).
TEST_CASE("stopping the proxy with a reply held and a connection blackholed ends every call", "[proxy]") {
    auto held = std::async(std::launch::async, [] {
        http_rig rig;
        fault_parameters p = http_match("", ".*");
        p.duration_ms = 60'000;
        rig.proxy->add_rule(fault_kind::http_hold_reply, p);
        auto reply = std::async(std::launch::async, [&] {
            http_connection c(rig.proxy->port());
            return c.call("POST", "/v1/commit", "{}", 30s);
        });
        eventually([&] { return rig.proxy->holds().size() == 1; });
        rig.proxy->stop();
        return reply.get();
    });
    const auto unanswered = held.get();
    CHECK(unanswered.error);                                  // the connection went with the proxy, unanswered,
    CHECK(unanswered.error != boost::beast::error::timeout);  // and not at the client's own deadline
    tcp_rig rig;
    rig.proxy->add_rule(fault_kind::tcp_blackhole, {});
    auto r = std::async(std::launch::async, [&] { return tcp_exchange(rig.proxy->port(), "hello", 5, 30s); });
    eventually([&] { return !rig.proxy->log().empty(); });
    rig.proxy->stop();
    const auto blackholed = r.get();
    CHECK(blackholed.error);
    CHECK(blackholed.error != boost::beast::error::timeout);
}

// Mutation: in http_session, drop the request_body assignment: the POST's body
// is not in the log and this fails (checked).
TEST_CASE("the log keeps the bodies of the method it is told to keep, cut at the limit, and no other", "[proxy]") {
    loopback_http_upstream upstream;
    upstream.start();
    proxy_options o;
    o.upstream_port = upstream.port();
    o.keep_body_of_method = "POST";
    o.kept_body_limit = 8;
    fault_proxy proxy(o);
    proxy.start();
    http_connection c(proxy.port());
    REQUIRE(c.call("POST", "/v1/commit", "0123456789").status == 200);
    REQUIRE(c.call("PUT", "/v1/other", "abcdef").status == 200);
    const auto log = settled_log(proxy, 2);
    REQUIRE(log.size() == 2);
    CHECK(log[0].request_body == "01234567");
    CHECK(log[1].request_body.empty());
}

// Mutation: make log_since return the whole log: the first check fails (checked by reading).
TEST_CASE("log_since gives the entries from an id on, and none past the last", "[proxy]") {
    http_rig rig;
    http_connection c(rig.proxy->port());
    REQUIRE(c.call("GET", "/a").status == 200);
    REQUIRE(c.call("GET", "/b").status == 200);
    settled_log(*rig.proxy, 2);
    const auto tail = rig.proxy->log_since(2);
    REQUIRE(tail.size() == 1);
    CHECK(tail[0].id == 2);
    CHECK(tail[0].target == "/b");
    CHECK(rig.proxy->log_since(1).size() == 2);
    CHECK(rig.proxy->log_since(3).empty());
}
