// The fault proxy's sessions: C++20 coroutines on one io_context, one thread.
// Shared state (rules, holds, log) is behind one mutex, because the API is
// called from the driver's threads while the sessions run on the proxy's.
//
// Aliases (as Beast's examples name them):
//   net   = boost::asio           <boost/asio.hpp>
//   beast = boost::beast          <boost/beast/core.hpp>
//   http  = boost::beast::http    <boost/beast/http.hpp>
//   tcp   = boost::asio::ip::tcp
#include "fault_proxy.hpp"
#include "listen_loopback.hpp"

#include <sys/socket.h>

#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <stdexcept>
#include <thread>

#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace rosterrig::live::proxy {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using boost::system::error_code;
using experiment::fault_kind;
using namespace std::chrono_literals;

std::int64_t epoch_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

namespace {

auto redirect(error_code& ec) { return net::redirect_error(net::use_awaitable, ec); }

std::string path_of(std::string_view target) {
    const auto q = target.find('?');
    return std::string(q == std::string_view::npos ? target : target.substr(0, q));
}

bool same_method(const std::string& wanted, const std::string& got) {
    return wanted.empty() || beast::iequals(wanted, got);
}

// An answer the proxy makes itself (http_status, http_forward_then_504, an
// upstream it could not reach).
http::response<http::string_body> own_answer(unsigned status, unsigned version, bool keep_alive, std::string text) {
    http::response<http::string_body> r{static_cast<http::status>(status), version};
    r.set(http::field::server, "rosterrig-proxy");
    r.set(http::field::content_type, "text/plain");
    r.keep_alive(keep_alive);
    r.body() = std::move(text) + "\n";
    r.prepare_payload();
    return r;
}

// A kept-alive upstream connection the upstream has closed meanwhile (or
// that holds bytes nobody asked for): not to be reused. Sending a request on
// it could fail after the upstream read it, and the proxy never resends.
bool stale(beast::tcp_stream& s) {
    if (!s.socket().is_open()) return true;
    char byte = 0;
    const auto n = ::recv(s.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || n > 0) return true;
    return !(errno == EAGAIN || errno == EWOULDBLOCK);
}

}  // namespace

class fault_proxy::impl {
public:
    explicit impl(proxy_options o) : opts(std::move(o)) {}

    proxy_options opts;
    // The client (and TCP upstream) streams open now, touched on the io thread
    // only: stop() closes them. Declared before ioc, so it outlives the
    // sessions' frames, which the io_context destroys.
    std::map<std::uint64_t, beast::tcp_stream*> open_streams;
    std::uint64_t next_stream = 1;
    struct registration {
        impl* self;
        std::uint64_t key;
        registration(impl* s, beast::tcp_stream& stream) : self(s), key(s->next_stream++) {
            s->open_streams[key] = &stream;
        }
        ~registration() { self->open_streams.erase(key); }
        registration(const registration&) = delete;
        registration& operator=(const registration&) = delete;
    };
    net::io_context ioc{1};
    tcp::acceptor acceptor{ioc};
    tcp::resolver::results_type upstream_endpoints;
    std::thread thread;
    unsigned short bound_port = 0;

    struct armed_rule {
        proxy_rule rule;
        std::regex path;
    };
    struct hold_state {
        explicit hold_state(net::io_context& c) : timer(c) {}
        held_reply info;
        net::steady_timer timer;
        std::string released_by;  // set (under the mutex) by release or heal
    };
    struct governed_connection {
        std::uint64_t rule = 0;
        fault_kind kind{};
        std::weak_ptr<beast::tcp_stream> client;
    };

    mutable std::mutex mu;
    bool started = false, stopped = false;
    std::vector<armed_rule> rules_;
    std::uint64_t next_rule = 1, next_connection = 1, next_hold = 1;
    std::vector<proxy_event> events_;
    std::map<std::uint64_t, std::shared_ptr<hold_state>> holds_;
    std::map<std::uint64_t, governed_connection> governed_;

    // ---- state, under the mutex ---------------------------------------------
    std::uint64_t connection_number() {
        std::lock_guard lock(mu);
        return next_connection++;
    }
    std::uint64_t record(proxy_event e) {
        std::lock_guard lock(mu);
        e.id = events_.size() + 1;
        events_.push_back(std::move(e));
        return events_.back().id;
    }
    template <class F>
    void update(std::uint64_t id, F&& f) {
        std::lock_guard lock(mu);
        if (id >= 1 && id <= events_.size()) f(events_[id - 1]);
    }
    std::optional<proxy_rule> match_http(const std::string& method, const std::string& path) {
        std::lock_guard lock(mu);
        for (auto& r : rules_)
            if (r.rule.armed() && same_method(r.rule.parameters.method, method) && std::regex_match(path, r.path)) {
                ++r.rule.applied;
                return r.rule;
            }
        return std::nullopt;
    }
    std::optional<proxy_rule> match_tcp() {
        std::lock_guard lock(mu);
        for (auto& r : rules_)
            if (r.rule.armed()) {
                ++r.rule.applied;
                return r.rule;
            }
        return std::nullopt;
    }
    bool rule_present(std::uint64_t id) const {
        std::lock_guard lock(mu);
        for (const auto& r : rules_)
            if (r.rule.id == id) return true;
        return false;
    }
    // Closes the blackholed connections of a removed rule (on the io thread).
    void release_governed_locked(std::uint64_t rule) {
        if (stopped) return;
        for (auto it = governed_.begin(); it != governed_.end();) {
            if (it->second.rule == rule && it->second.kind == fault_kind::tcp_blackhole) {
                net::post(ioc, [weak = it->second.client] {
                    if (auto s = weak.lock()) {
                        error_code ignored;
                        s->socket().shutdown(tcp::socket::shutdown_both, ignored);
                        s->socket().close(ignored);
                    }
                });
                it = governed_.erase(it);
            } else {
                ++it;
            }
        }
    }
    bool release_locked(std::uint64_t hold, const std::string& by) {
        const auto it = holds_.find(hold);
        if (stopped || it == holds_.end() || !it->second->released_by.empty()) return false;
        it->second->released_by = by;
        net::post(ioc, [h = it->second] { h->timer.cancel(); });
        return true;
    }

    // ---- sessions -----------------------------------------------------------
    net::awaitable<void> accept_loop() {
        for (;;) {
            error_code ec;
            tcp::socket s = co_await acceptor.async_accept(redirect(ec));
            if (ec) {
                if (!acceptor.is_open()) co_return;
                continue;
            }
            if (opts.mode == proxy_mode::http)
                net::co_spawn(ioc, http_session(std::move(s)), net::detached);
            else
                net::co_spawn(ioc, tcp_session(std::move(s)), net::detached);
        }
    }

    // Sends `request` upstream and reads its reply; "" or what failed.
    net::awaitable<std::string> exchange(std::optional<beast::tcp_stream>& upstream, beast::flat_buffer& buffer,
                                         http::request<http::string_body>& request,
                                         http::response<http::string_body>& reply, std::uint64_t event) {
        error_code ec;
        if (upstream && stale(*upstream)) upstream.reset();
        if (!upstream) {
            buffer.clear();
            upstream.emplace(ioc);
            upstream->expires_after(opts.upstream_timeout);
            co_await upstream->async_connect(upstream_endpoints, redirect(ec));
            if (ec) {
                upstream.reset();
                co_return "cannot connect upstream: " + ec.message();
            }
        }
        upstream->expires_after(opts.upstream_timeout);
        co_await http::async_write(*upstream, request, redirect(ec));
        if (ec) {
            upstream.reset();
            co_return "writing the request upstream failed: " + ec.message();
        }
        update(event, [](proxy_event& e) { e.forwarded_at_ms = epoch_ms(); });
        http::response_parser<http::string_body> parser;
        parser.body_limit(opts.body_limit);
        if (request.method() == http::verb::head) parser.skip(true);
        upstream->expires_after(opts.upstream_timeout);
        co_await http::async_read(*upstream, buffer, parser, redirect(ec));
        if (ec) {
            upstream.reset();
            co_return "reading the upstream reply failed: " + ec.message();
        }
        reply = parser.release();
        const auto status = reply.result_int();
        update(event, [&](proxy_event& e) {
            e.upstream_replied_at_ms = epoch_ms();
            e.upstream_status = status;
        });
        if (!reply.keep_alive()) upstream.reset();
        co_return std::string{};
    }

    // Whether the client closed its side of the connection: a non-blocking
    // peek reads end-of-stream (or a reset) instead of "would block".
    static bool closed_by_peer(beast::tcp_stream& client) {
        auto& socket = client.socket();
        error_code ec, ignored;
        const bool was_non_blocking = socket.non_blocking();
        socket.non_blocking(true, ec);
        if (ec) return false;
        char byte = 0;
        const auto n = socket.receive(net::buffer(&byte, 1), tcp::socket::message_peek, ec);
        socket.non_blocking(was_non_blocking, ignored);
        return ec == net::error::eof || ec == net::error::connection_reset || (!ec && n == 0);
    }

    template <class Message>
    net::awaitable<error_code> answer(beast::tcp_stream& client, Message& m, std::uint64_t event) {
        error_code ec;
        client.expires_after(opts.upstream_timeout);
        co_await http::async_write(client, m, redirect(ec));
        const auto status = m.result_int();
        update(event, [&](proxy_event& e) {
            if (ec) {
                e.note += (e.note.empty() ? "" : "; ") + std::string("answering the client failed: ") + ec.message();
            } else {
                e.answered_at_ms = epoch_ms();
                e.answered_status = status;
            }
        });
        co_return ec;
    }

    net::awaitable<void> http_session(tcp::socket socket) {
        const auto connection = connection_number();
        beast::tcp_stream client(std::move(socket));
        const registration registered(this, client);
        std::optional<beast::tcp_stream> upstream;
        beast::flat_buffer client_buffer, upstream_buffer;
        error_code ec;
        for (;;) {
            http::request_parser<http::string_body> parser;
            parser.body_limit(opts.body_limit);
            parser.header_limit(64 * 1024);
            client.expires_after(opts.idle_timeout);
            co_await http::async_read_header(client, client_buffer, parser, redirect(ec));
            if (ec) break;
            if (beast::iequals(parser.get()[http::field::expect], "100-continue")) {
                // Answered here: the upstream gets the whole request at once.
                parser.get().erase(http::field::expect);
                http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
                client.expires_after(opts.upstream_timeout);
                co_await http::async_write(client, go_on, redirect(ec));
                if (ec) break;
            }
            client.expires_after(opts.upstream_timeout);
            co_await http::async_read(client, client_buffer, parser, redirect(ec));
            if (ec) break;
            auto request = parser.release();
            const bool keep_alive = request.keep_alive();
            proxy_event e;
            e.connection = connection;
            e.method = std::string(request.method_string());
            e.target = std::string(request.target());
            e.received_at_ms = epoch_ms();
            if (!opts.keep_body_of_method.empty() && e.method == opts.keep_body_of_method)
                e.request_body = request.body().substr(0, opts.kept_body_limit);
            const auto rule = match_http(e.method, path_of(e.target));
            e.rule = rule ? rule->id : 0;
            e.action = rule ? experiment::name_of(rule->kind) : "forward";
            const auto event = record(e);
            const std::optional<fault_kind> kind = rule ? std::optional(rule->kind) : std::nullopt;

            if (kind == fault_kind::http_status) {
                auto a = own_answer(rule->parameters.status, request.version(), keep_alive,
                                    "rosterrig-proxy: rule " + std::to_string(rule->id) + " answers " +
                                        std::to_string(rule->parameters.status));
                if ((co_await answer(client, a, event)) || !keep_alive) break;
                continue;
            }
            if (kind == fault_kind::http_delay) {
                net::steady_timer wait(ioc, std::chrono::milliseconds(rule->parameters.duration_ms));
                co_await wait.async_wait(redirect(ec));
            }
            http::response<http::string_body> reply;
            const auto failed = co_await exchange(upstream, upstream_buffer, request, reply, event);
            if (!failed.empty()) {
                update(event, [&](proxy_event& x) { x.note = failed; });
                auto a = own_answer(502, request.version(), keep_alive, "rosterrig-proxy: " + failed);
                if ((co_await answer(client, a, event)) || !keep_alive) break;
                continue;
            }
            const bool reply_keep_alive = reply.keep_alive();
            if (kind == fault_kind::http_lose_reply) {
                // The upstream applied it; the client sees its connection drop.
                error_code ignored;
                client.socket().shutdown(tcp::socket::shutdown_both, ignored);
                client.socket().close(ignored);
                update(event, [](proxy_event& x) { x.dropped_at_ms = epoch_ms(); });
                co_return;
            }
            if (kind == fault_kind::http_forward_then_504) {
                auto a = own_answer(504, request.version(), keep_alive,
                                    "rosterrig-proxy: rule " + std::to_string(rule->id) + " replaced the reply (" +
                                        std::to_string(reply.result_int()) + ") with 504");
                if ((co_await answer(client, a, event)) || !keep_alive) break;
                continue;
            }
            if (kind == fault_kind::http_hold_reply) {
                auto h = std::make_shared<hold_state>(ioc);
                {
                    std::lock_guard lock(mu);
                    h->info.id = next_hold++;
                    h->info.rule = rule->id;
                    h->info.event = event;
                    h->info.method = e.method;
                    h->info.target = e.target;
                    h->info.upstream_status = reply.result_int();
                    h->info.held_since_ms = epoch_ms();
                    h->info.deadline_ms = h->info.held_since_ms + rule->parameters.duration_ms;
                    holds_[h->info.id] = h;
                    events_[event - 1].hold = h->info.id;
                }
                // release() posts the cancel to this thread, so it runs only once
                // this wait has begun.
                h->timer.expires_after(std::chrono::milliseconds(rule->parameters.duration_ms));
                co_await h->timer.async_wait(redirect(ec));
                {
                    std::lock_guard lock(mu);
                    holds_.erase(h->info.id);
                    auto& x = events_[event - 1];
                    x.released_at_ms = epoch_ms();
                    x.released_by = h->released_by.empty() ? "deadline" : h->released_by;
                }
                // A client that gave up while its reply was held has closed its
                // side; writing would still succeed into the socket's buffer, so
                // the log would say "answered" to a client that never read it.
                if (closed_by_peer(client)) {
                    update(event, [](proxy_event& x) {
                        x.note += (x.note.empty() ? "" : "; ") +
                                  std::string(
                                      "answering the client failed: it had closed its connection while "
                                      "its reply was held");
                    });
                    break;
                }
            }
            if ((co_await answer(client, reply, event)) || !keep_alive || !reply_keep_alive) break;
        }
        error_code ignored;
        client.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }

    net::awaitable<void> tcp_session(tcp::socket socket) {
        const auto connection = connection_number();
        auto client = std::make_shared<beast::tcp_stream>(std::move(socket));
        const registration registered(this, *client);
        const auto rule = match_tcp();
        proxy_event e;
        e.connection = connection;
        e.received_at_ms = epoch_ms();
        e.rule = rule ? rule->id : 0;
        e.action = rule ? experiment::name_of(rule->kind) : "forward";
        const auto event = record(e);
        const std::optional<fault_kind> kind = rule ? std::optional(rule->kind) : std::nullopt;
        if (rule) {
            std::lock_guard lock(mu);
            governed_[connection] = {rule->id, rule->kind, client};
        }
        const auto done = [&] {
            std::lock_guard lock(mu);
            governed_.erase(connection);
        };
        error_code ec;
        if (kind == fault_kind::tcp_reset) {
            if (rule->parameters.duration_ms > 0) {
                net::steady_timer wait(ioc, std::chrono::milliseconds(rule->parameters.duration_ms));
                co_await wait.async_wait(redirect(ec));
            }
            error_code ignored;
            client->socket().set_option(net::socket_base::linger(true, 0), ignored);
            client->socket().close(ignored);
            update(event, [](proxy_event& x) { x.dropped_at_ms = epoch_ms(); });
            done();
            co_return;
        }
        if (kind == fault_kind::tcp_blackhole) {
            std::vector<char> buffer(16 * 1024);
            for (;;) {
                client->expires_after(opts.idle_timeout);
                const auto n = co_await client->async_read_some(net::buffer(buffer), redirect(ec));
                if (ec) break;
                update(event, [&](proxy_event& x) { x.bytes_from_client += n; });
            }
            error_code ignored;
            client->socket().close(ignored);
            update(event, [&](proxy_event& x) { x.dropped_at_ms = epoch_ms(); });
            done();
            co_return;
        }
        auto upstream = std::make_shared<beast::tcp_stream>(ioc);
        const registration registered_upstream(this, *upstream);
        upstream->expires_after(opts.upstream_timeout);
        co_await upstream->async_connect(upstream_endpoints, redirect(ec));
        if (ec) {
            update(event, [&](proxy_event& x) { x.note = "cannot connect upstream: " + ec.message(); });
            error_code ignored;
            client->socket().close(ignored);
            done();
            co_return;
        }
        update(event, [](proxy_event& x) { x.forwarded_at_ms = epoch_ms(); });
        using namespace net::experimental::awaitable_operators;
        co_await (pipe(client, upstream, event, true, rule) && pipe(upstream, client, event, false, rule));
        update(event, [](proxy_event& x) { x.answered_at_ms = epoch_ms(); });
        done();
    }

    // One direction of a TCP connection. EOF is passed on as a half close, an
    // error as a reset of the other side.
    net::awaitable<void> pipe(std::shared_ptr<beast::tcp_stream> from, std::shared_ptr<beast::tcp_stream> to,
                              std::uint64_t event, bool from_client, std::optional<proxy_rule> rule) {
        const auto rate = rule && rule->kind == fault_kind::tcp_bandwidth ? rule->parameters.bytes_per_second : 0;
        // Small reads under a bandwidth limit, so the rate holds within a second.
        std::vector<char> buffer(rate ? std::max<std::size_t>(1, std::min<std::uint64_t>(64 * 1024, rate / 20))
                                      : 64 * 1024);
        error_code ec;
        bool first = true;
        for (;;) {
            from->expires_after(opts.idle_timeout);
            const auto n = co_await from->async_read_some(net::buffer(buffer), redirect(ec));
            error_code ignored;
            if (ec == net::error::eof) {
                to->socket().shutdown(tcp::socket::shutdown_send, ignored);
                break;
            }
            if (ec) {
                to->socket().set_option(net::socket_base::linger(true, 0), ignored);
                to->socket().close(ignored);
                from->socket().close(ignored);
                break;
            }
            update(event, [&](proxy_event& x) {
                (from_client ? x.bytes_from_client : x.bytes_from_upstream) += n;
                if (!from_client && first) x.upstream_replied_at_ms = epoch_ms();
            });
            first = false;
            if (rule && rule_present(rule->id)) {
                std::chrono::microseconds wait{0};
                if (rule->kind == fault_kind::tcp_delay) wait = std::chrono::milliseconds(rule->parameters.duration_ms);
                if (rate) wait = std::chrono::microseconds(static_cast<std::int64_t>(n * 1'000'000ull / rate));
                if (wait.count() > 0) {
                    net::steady_timer t(ioc, wait);
                    co_await t.async_wait(redirect(ec));
                }
            }
            to->expires_after(opts.idle_timeout);
            co_await net::async_write(*to, net::buffer(buffer.data(), n), redirect(ec));
            if (ec) {
                to->socket().close(ignored);
                from->socket().set_option(net::socket_base::linger(true, 0), ignored);
                from->socket().close(ignored);
                break;
            }
        }
    }
};

fault_proxy::fault_proxy(proxy_options options) : impl_(std::make_shared<impl>(std::move(options))) {}

fault_proxy::~fault_proxy() { stop(); }

void fault_proxy::start() {
    {
        std::lock_guard lock(impl_->mu);
        if (impl_->started) throw std::logic_error("fault_proxy: started twice");
        impl_->started = true;
    }
    auto& i = *impl_;
    tcp::resolver resolver(i.ioc);
    i.upstream_endpoints = resolver.resolve(i.opts.upstream_host, std::to_string(i.opts.upstream_port));
    i.bound_port = listen_on_loopback(i.acceptor, i.opts.listen_port);
    net::co_spawn(i.ioc, i.accept_loop(), net::detached);
    i.thread = std::thread([&i] { i.ioc.run(); });
}

void fault_proxy::stop() {
    {
        std::lock_guard lock(impl_->mu);
        if (!impl_->started || impl_->stopped) return;
        impl_->stopped = true;
    }
    // On the io thread: no new connection, every open one closed (its peer
    // sees the end now, not when the frames go), then the loop ends.
    auto& i = *impl_;
    net::post(i.ioc, [&i] {
        error_code ignored;
        i.acceptor.close(ignored);
        for (auto& [key, stream] : i.open_streams) {
            stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
            stream->socket().close(ignored);
        }
        i.ioc.stop();
    });
    if (i.thread.joinable()) i.thread.join();
}

unsigned short fault_proxy::port() const { return impl_->bound_port; }
const proxy_options& fault_proxy::options() const { return impl_->opts; }

std::uint64_t fault_proxy::add_rule(fault_kind kind, const experiment::fault_parameters& parameters) {
    if (!applies_in(impl_->opts.mode, kind))
        throw std::invalid_argument("a proxy in " + experiment::name_of(impl_->opts.mode) + " mode cannot apply " +
                                    experiment::name_of(kind));
    // A target that can take the kind, so only the parameters are judged.
    const auto target = impl_->opts.mode == proxy_mode::http ? experiment::fault_target::iceberg_catalog
                                                             : experiment::fault_target::kafka_broker;
    if (const auto problem = experiment::fault_problem(experiment::make_fault(kind, target, parameters)))
        throw std::invalid_argument(*problem);
    impl::armed_rule r{
        {0, kind, parameters, 0},
        std::regex(impl_->opts.mode == proxy_mode::http ? parameters.path : ".*", std::regex::ECMAScript)};
    std::lock_guard lock(impl_->mu);
    r.rule.id = impl_->next_rule++;
    impl_->rules_.push_back(std::move(r));
    return impl_->rules_.back().rule.id;
}

std::uint64_t fault_proxy::add_rule(const experiment::fault& f) { return add_rule(f.kind, f.parameters); }

bool fault_proxy::remove_rule(std::uint64_t id) {
    std::lock_guard lock(impl_->mu);
    auto& rules = impl_->rules_;
    const auto before = rules.size();
    std::erase_if(rules, [&](const impl::armed_rule& r) { return r.rule.id == id; });
    impl_->release_governed_locked(id);
    return rules.size() != before;
}

std::size_t fault_proxy::clear_rules() {
    std::lock_guard lock(impl_->mu);
    const auto n = impl_->rules_.size();
    for (const auto& r : impl_->rules_) impl_->release_governed_locked(r.rule.id);
    impl_->rules_.clear();
    return n;
}

bool fault_proxy::release(std::uint64_t hold_id) {
    std::lock_guard lock(impl_->mu);
    return impl_->release_locked(hold_id, "release");
}

std::size_t fault_proxy::release_all() {
    std::lock_guard lock(impl_->mu);
    std::size_t n = 0;
    for (const auto& [id, h] : impl_->holds_) n += impl_->release_locked(id, "release");
    return n;
}

std::pair<std::size_t, std::size_t> fault_proxy::heal() {
    const auto removed = clear_rules();
    std::lock_guard lock(impl_->mu);
    std::size_t released = 0;
    for (const auto& [id, h] : impl_->holds_) released += impl_->release_locked(id, "heal");
    return {removed, released};
}

std::vector<proxy_rule> fault_proxy::rules() const {
    std::lock_guard lock(impl_->mu);
    std::vector<proxy_rule> out;
    for (const auto& r : impl_->rules_) out.push_back(r.rule);
    return out;
}

std::vector<held_reply> fault_proxy::holds() const {
    std::lock_guard lock(impl_->mu);
    std::vector<held_reply> out;
    for (const auto& [id, h] : impl_->holds_)
        if (h->released_by.empty()) out.push_back(h->info);
    return out;
}

std::vector<proxy_event> fault_proxy::log() const {
    std::lock_guard lock(impl_->mu);
    return impl_->events_;
}

std::vector<proxy_event> fault_proxy::log_since(std::uint64_t first) const {
    std::lock_guard lock(impl_->mu);
    const auto skip = std::min<std::size_t>(impl_->events_.size(), first == 0 ? 0 : first - 1);
    return {impl_->events_.begin() + static_cast<std::ptrdiff_t>(skip), impl_->events_.end()};
}

}  // namespace rosterrig::live::proxy
