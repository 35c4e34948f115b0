// The control API: routing in answer_control (testable without a socket),
// served by a small coroutine HTTP server.
#include "proxy_control.hpp"
#include "listen_loopback.hpp"

#include <charconv>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace rosterrig::live::proxy {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
using tcp = net::ip::tcp;
using boost::system::error_code;

std::pair<experiment::fault_kind, experiment::fault_parameters> rule_from_json(const json::value& v) {
    const auto* o = v.if_object();
    if (!o) throw std::invalid_argument("a rule is a JSON object");
    experiment::fault_parameters p;
    std::optional<experiment::fault_kind> kind;
    const auto integer = [](const json::value& x, const std::string& key) -> std::int64_t {
        if (!x.is_int64() && !x.is_uint64()) throw std::invalid_argument(key + ": expected an integer");
        const auto n = x.is_int64() ? x.as_int64() : static_cast<std::int64_t>(x.as_uint64());
        if (n < 0) throw std::invalid_argument(key + ": expected an integer of 0 or more");
        return n;
    };
    const auto text = [](const json::value& x, const std::string& key) -> std::string {
        if (!x.is_string()) throw std::invalid_argument(key + ": expected a string");
        return std::string(x.as_string());
    };
    for (const auto& kv : *o) {
        const std::string key(kv.key());
        const auto& x = kv.value();
        if (key == "kind") {
            kind = experiment::parse_name<experiment::fault_kind>(text(x, key));
            if (!kind) throw std::invalid_argument("kind: no such fault kind \"" + text(x, key) + "\"");
        } else if (key == "method")
            p.method = text(x, key);
        else if (key == "path")
            p.path = text(x, key);
        else if (key == "count")
            p.count = static_cast<std::uint64_t>(integer(x, key));
        else if (key == "status")
            p.status = static_cast<unsigned>(integer(x, key));
        else if (key == "duration_ms")
            p.duration_ms = integer(x, key);
        else if (key == "bytes_per_second")
            p.bytes_per_second = static_cast<std::uint64_t>(integer(x, key));
        else
            throw std::invalid_argument(key + ": unknown member");
    }
    if (!kind) throw std::invalid_argument("kind: missing");
    return {*kind, p};
}

namespace {

control_answer json_answer(unsigned status, const json::value& v) { return {status, json::serialize(v)}; }
control_answer error_answer(unsigned status, const std::string& what) {
    return json_answer(status, json::object{{"error", what}});
}

// "/rules/12" with prefix "/rules/" -> 12
std::optional<std::uint64_t> number_after(std::string_view path, std::string_view prefix,
                                          std::string_view suffix = {}) {
    if (path.size() <= prefix.size() + suffix.size() || path.substr(0, prefix.size()) != prefix) return std::nullopt;
    if (!suffix.empty() && path.substr(path.size() - suffix.size()) != suffix) return std::nullopt;
    const auto digits = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
    return n;
}

}  // namespace

control_answer answer_control(fault_proxy& proxy, std::string_view method, std::string_view target,
                              std::string_view body) {
    const auto q = target.find('?');
    const auto path = target.substr(0, q);
    if (method == "GET" && path == "/health")
        return json_answer(
            200, {{"mode", experiment::name_of(proxy.options().mode)},
                  {"port", proxy.port()},
                  {"upstream", proxy.options().upstream_host + ":" + std::to_string(proxy.options().upstream_port)}});
    if (method == "GET" && path == "/rules") return json_answer(200, {{"rules", json::value_from(proxy.rules())}});
    if (method == "POST" && path == "/rules") {
        try {
            const auto [kind, parameters] = rule_from_json(json::parse(body));
            return json_answer(201, {{"id", proxy.add_rule(kind, parameters)}});
        } catch (const std::exception& e) {
            return error_answer(400, e.what());
        }
    }
    if (method == "DELETE" && path == "/rules") return json_answer(200, {{"removed", proxy.clear_rules()}});
    if (method == "DELETE")
        if (const auto id = number_after(path, "/rules/"))
            return proxy.remove_rule(*id) ? control_answer{204, {}} : error_answer(404, "no such rule");
    if (method == "GET" && path == "/holds") return json_answer(200, {{"holds", json::value_from(proxy.holds())}});
    if (method == "POST")
        if (const auto id = number_after(path, "/holds/", "/release"))
            return proxy.release(*id) ? json_answer(200, {{"released", 1}}) : error_answer(404, "no such held reply");
    if (method == "POST" && path == "/release") return json_answer(200, {{"released", proxy.release_all()}});
    if (method == "POST" && path == "/heal") {
        const auto [removed, released] = proxy.heal();
        return json_answer(200, {{"removed", removed}, {"released", released}});
    }
    if (method == "GET" && path == "/log") return json_answer(200, {{"events", json::value_from(proxy.log())}});
    return error_answer(404, "no such control call: " + std::string(method) + " " + std::string(path));
}

class control_server::impl {
public:
    impl(fault_proxy& p, unsigned short port) : proxy(p), wanted_port(port) {}
    fault_proxy& proxy;
    unsigned short wanted_port = 0, bound_port = 0;
    net::io_context ioc{1};
    tcp::acceptor acceptor{ioc};
    std::thread thread;
    std::mutex mu;
    bool started = false, stopped = false;

    net::awaitable<void> accept_loop() {
        for (;;) {
            error_code ec;
            tcp::socket s = co_await acceptor.async_accept(net::redirect_error(net::use_awaitable, ec));
            if (ec) {
                if (!acceptor.is_open()) co_return;
                continue;
            }
            net::co_spawn(ioc, session(std::move(s)), net::detached);
        }
    }

    net::awaitable<void> session(tcp::socket s) {
        beast::tcp_stream stream(std::move(s));
        beast::flat_buffer buffer;
        error_code ec;
        for (;;) {
            http::request<http::string_body> request;
            stream.expires_after(std::chrono::seconds(60));
            co_await http::async_read(stream, buffer, request, net::redirect_error(net::use_awaitable, ec));
            if (ec) break;
            const auto a = answer_control(proxy, request.method_string(), request.target(), request.body());
            http::response<http::string_body> reply{static_cast<http::status>(a.status), request.version()};
            reply.set(http::field::server, "rosterrig-proxy");
            if (!a.body.empty()) reply.set(http::field::content_type, "application/json");
            reply.keep_alive(request.keep_alive());
            reply.body() = a.body;
            reply.prepare_payload();
            stream.expires_after(std::chrono::seconds(60));
            co_await http::async_write(stream, reply, net::redirect_error(net::use_awaitable, ec));
            if (ec || !request.keep_alive()) break;
        }
        error_code ignored;
        stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }
};

control_server::control_server(fault_proxy& proxy, unsigned short port) : impl_(std::make_shared<impl>(proxy, port)) {}
control_server::~control_server() { stop(); }

void control_server::start() {
    {
        std::lock_guard lock(impl_->mu);
        if (impl_->started) throw std::logic_error("control_server: started twice");
        impl_->started = true;
    }
    auto& i = *impl_;
    i.bound_port = listen_on_loopback(i.acceptor, i.wanted_port);
    net::co_spawn(i.ioc, i.accept_loop(), net::detached);
    i.thread = std::thread([&i] { i.ioc.run(); });
}

void control_server::stop() {
    {
        std::lock_guard lock(impl_->mu);
        if (!impl_->started || impl_->stopped) return;
        impl_->stopped = true;
    }
    impl_->ioc.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
    error_code ignored;
    impl_->acceptor.close(ignored);
}

unsigned short control_server::port() const { return impl_->bound_port; }

}  // namespace rosterrig::live::proxy
