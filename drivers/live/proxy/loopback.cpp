#include "loopback.hpp"

#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "fault_proxy.hpp"
#include "listen_loopback.hpp"

namespace rosterrig::live::proxy {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using boost::system::error_code;

namespace {
auto redirect(error_code& ec) { return net::redirect_error(net::use_awaitable, ec); }

// The common shape: an acceptor on 127.0.0.1, a session per connection, one thread.
struct loopback_server {
    net::io_context ioc{1};
    tcp::acceptor acceptor{ioc};
    std::thread thread;
    unsigned short bound = 0;
    bool running = false;

    template <class Session>
    void start(Session session) {
        bound = listen_on_loopback(acceptor, 0);
        net::co_spawn(
            ioc,
            [this, session]() -> net::awaitable<void> {
                for (;;) {
                    error_code ec;
                    tcp::socket s = co_await acceptor.async_accept(redirect(ec));
                    if (ec) co_return;
                    net::co_spawn(ioc, session(std::move(s)), net::detached);
                }
            },
            net::detached);
        thread = std::thread([this] { ioc.run(); });
        running = true;
    }
    void stop() {
        if (!running) return;
        running = false;
        ioc.stop();
        thread.join();
    }
};
}  // namespace

// ---- loopback_http_upstream ---------------------------------------------------

class loopback_http_upstream::impl {
public:
    loopback_server server;
    mutable std::mutex mu;
    std::uint64_t total = 0;
    std::map<std::string, std::uint64_t> per_path;
    std::int64_t last_at = 0;

    net::awaitable<void> session(tcp::socket s) {
        beast::tcp_stream stream(std::move(s));
        beast::flat_buffer buffer;
        error_code ec;
        for (;;) {
            http::request_parser<http::string_body> parser;
            parser.body_limit(1ull << 30);
            stream.expires_after(std::chrono::seconds(60));
            co_await http::async_read(stream, buffer, parser, redirect(ec));
            if (ec) break;
            auto request = parser.release();
            std::string target(request.target());
            const auto path = target.substr(0, target.find('?'));
            std::uint64_t n = 0;
            {
                std::lock_guard lock(mu);
                n = ++total;
                ++per_path[std::string(request.method_string()) + " " + path];
                last_at = epoch_ms();
            }
            http::response<http::string_body> reply{http::status::ok, request.version()};
            reply.set(http::field::content_type, "text/plain");
            reply.keep_alive(request.keep_alive());
            reply.body() = std::string(request.method_string()) + " " + target + " #" + std::to_string(n) + " " +
                           std::to_string(request.body().size());
            reply.prepare_payload();
            stream.expires_after(std::chrono::seconds(60));
            co_await http::async_write(stream, reply, redirect(ec));
            if (ec || !request.keep_alive()) break;
        }
        error_code ignored;
        stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }
};

loopback_http_upstream::loopback_http_upstream() : impl_(std::make_shared<impl>()) {}
loopback_http_upstream::~loopback_http_upstream() { stop(); }
void loopback_http_upstream::start() {
    auto* i = impl_.get();
    i->server.start([i](tcp::socket s) { return i->session(std::move(s)); });
}
void loopback_http_upstream::stop() { impl_->server.stop(); }
unsigned short loopback_http_upstream::port() const { return impl_->server.bound; }
std::uint64_t loopback_http_upstream::requests() const {
    std::lock_guard lock(impl_->mu);
    return impl_->total;
}
std::uint64_t loopback_http_upstream::requests(const std::string& method_and_path) const {
    std::lock_guard lock(impl_->mu);
    const auto it = impl_->per_path.find(method_and_path);
    return it == impl_->per_path.end() ? 0 : it->second;
}
std::int64_t loopback_http_upstream::last_request_at_ms() const {
    std::lock_guard lock(impl_->mu);
    return impl_->last_at;
}

// ---- loopback_echo ------------------------------------------------------------

class loopback_echo::impl {
public:
    loopback_server server;
    std::atomic<std::uint64_t> connections{0};

    net::awaitable<void> session(tcp::socket s) {
        ++connections;
        beast::tcp_stream stream(std::move(s));
        std::vector<char> buffer(64 * 1024);
        error_code ec;
        for (;;) {
            stream.expires_after(std::chrono::seconds(60));
            const auto n = co_await stream.async_read_some(net::buffer(buffer), redirect(ec));
            if (ec) break;
            stream.expires_after(std::chrono::seconds(60));
            co_await net::async_write(stream, net::buffer(buffer.data(), n), redirect(ec));
            if (ec) break;
        }
        error_code ignored;
        stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }
};

loopback_echo::loopback_echo() : impl_(std::make_shared<impl>()) {}
loopback_echo::~loopback_echo() { stop(); }
void loopback_echo::start() {
    auto* i = impl_.get();
    i->server.start([i](tcp::socket s) { return i->session(std::move(s)); });
}
void loopback_echo::stop() { impl_->server.stop(); }
unsigned short loopback_echo::port() const { return impl_->server.bound; }
std::uint64_t loopback_echo::connections() const { return impl_->connections; }

// ---- http_connection ----------------------------------------------------------

class http_connection::impl {
public:
    net::io_context ioc{1};
    std::optional<beast::tcp_stream> stream;
    beast::flat_buffer buffer;
    unsigned short port = 0;

    error_code connect(std::chrono::milliseconds deadline) {
        stream.emplace(ioc);
        buffer.clear();
        error_code ec;
        stream->expires_after(deadline);
        stream->async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [&](error_code e) { ec = e; });
        ioc.restart();
        ioc.run();
        if (ec) stream.reset();
        return ec;
    }
};

http_connection::http_connection(unsigned short port, std::chrono::milliseconds deadline)
    : impl_(std::make_unique<impl>()) {
    impl_->port = port;
    impl_->connect(deadline);
}
http_connection::~http_connection() = default;
bool http_connection::open() const { return impl_->stream.has_value(); }

http_result http_connection::call(const std::string& method, const std::string& target, const std::string& body,
                                  std::chrono::milliseconds deadline) {
    http_result out;
    auto& i = *impl_;
    if (!i.stream)
        if ((out.error = i.connect(deadline))) return out;
    http::request<http::string_body> request{http::string_to_verb(method), target, 11};
    request.set(http::field::host, "127.0.0.1:" + std::to_string(i.port));
    request.keep_alive(true);
    request.body() = body;
    request.prepare_payload();
    http::response_parser<http::string_body> parser;
    parser.body_limit(1ull << 30);
    i.stream->expires_after(deadline);  // covers the write and the read
    http::async_write(*i.stream, request, [&](error_code ec, std::size_t) {
        if (ec) {
            out.error = ec;
            return;
        }
        http::async_read(*i.stream, i.buffer, parser, [&](error_code ec2, std::size_t) { out.error = ec2; });
    });
    i.ioc.restart();
    i.ioc.run();
    if (out.error) {
        i.stream.reset();
        return out;
    }
    auto reply = parser.release();
    out.status = reply.result_int();
    out.body = reply.body();
    out.keep_alive = reply.keep_alive();
    out.answered_at_ms = epoch_ms();
    if (!out.keep_alive) i.stream.reset();
    return out;
}

// ---- tcp_exchange -------------------------------------------------------------

tcp_result tcp_exchange(unsigned short port, const std::string& payload, std::size_t expect,
                        std::chrono::milliseconds deadline) {
    tcp_result out;
    net::io_context ioc{1};
    beast::tcp_stream stream(ioc);
    stream.expires_after(deadline);  // one deadline over connect, write and every read
    std::vector<char> buffer(64 * 1024);
    std::function<void()> read_more = [&] {
        stream.async_read_some(net::buffer(buffer), [&](error_code ec, std::size_t n) {
            out.received.append(buffer.data(), n);
            if (ec) {
                out.error = ec;
                return;
            }
            if (out.received.size() < expect) read_more();
        });
    };
    stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [&](error_code ec) {
        if (ec) {
            out.error = ec;
            return;
        }
        net::async_write(stream, net::buffer(payload), [&](error_code ec2, std::size_t) {
            if (ec2) {
                out.error = ec2;
                return;
            }
            if (expect == 0) return;
            read_more();
        });
    });
    ioc.run();
    return out;
}

}  // namespace rosterrig::live::proxy
