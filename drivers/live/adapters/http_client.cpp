#include "adapters/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/version.hpp>

namespace beast = boost::beast;  // from <boost/beast.hpp>
namespace http = beast::http;    // from <boost/beast/http.hpp>
namespace net = boost::asio;     // from <boost/asio.hpp>
using tcp = net::ip::tcp;        // from <boost/asio/ip/tcp.hpp>

namespace rosterrig::live {

namespace {
http::verb to_verb(http_method m) {
    switch (m) {
        case http_method::get:
            return http::verb::get;
        case http_method::post:
            return http::verb::post;
        case http_method::patch:
            return http::verb::patch;
        case http_method::put:
            return http::verb::put;
        case http_method::del:
            return http::verb::delete_;
    }
    return http::verb::get;
}
const char* method_name(http_method m) {
    switch (m) {
        case http_method::get:
            return "GET";
        case http_method::post:
            return "POST";
        case http_method::patch:
            return "PATCH";
        case http_method::put:
            return "PUT";
        case http_method::del:
            return "DELETE";
    }
    return "?";
}
}  // namespace

http_response http_call(const component_address& to, http_method method, const std::string& target,
                        const std::string& body, const std::string& content_type, std::chrono::milliseconds deadline,
                        const std::vector<std::pair<std::string, std::string>>& headers) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    beast::error_code failure;
    const std::string what = std::string(method_name(method)) + " " + target;

    http::request<http::string_body> req{to_verb(method), target, 11};
    req.set(http::field::host, to.host + ":" + std::to_string(to.port));
    req.set(http::field::user_agent, "rosterrig");
    for (const auto& [k, v] : to.client) req.set(k, v);  // what the component needs of every client (a bearer token)
    for (const auto& [k, v] : headers) req.set(k, v);
    if (!body.empty() || method == http_method::post || method == http_method::patch) {
        req.set(http::field::content_type, content_type);
        req.body() = body;
        req.prepare_payload();
    }

    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(256 * 1024 * 1024);
    // A host name (a stack description may say "localhost") is resolved; each
    // address is tried in turn (localhost's ::1, then 127.0.0.1).
    tcp::resolver resolver(ioc);
    // The deadline covers the whole exchange: the timer is not reset between steps.
    stream.expires_after(deadline);
    resolver.async_resolve(
        to.host, std::to_string(to.port), [&](beast::error_code ec, tcp::resolver::results_type found) {
            if (ec) {
                failure = ec;
                return;
            }
            stream.async_connect(found, [&](beast::error_code ec1, const tcp::endpoint&) {
                if (ec1) {
                    failure = ec1;
                    return;
                }
                http::async_write(stream, req, [&](beast::error_code ec2, std::size_t) {
                    if (ec2) {
                        failure = ec2;
                        return;
                    }
                    http::async_read(stream, buffer, parser, [&](beast::error_code ec3, std::size_t) {
                        if (ec3) failure = ec3;
                    });
                });
            });
        });
    ioc.run();
    if (failure) {
        if (failure == beast::error::timeout)
            throw live_error(to, what + " timed out after " + std::to_string(deadline.count()) + " ms");
        throw live_error(to, what + " failed: " + failure.message());
    }
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);

    auto res = parser.release();
    http_response out;
    out.status = res.result_int();
    out.body = std::move(res.body());
    if (auto it = res.find(http::field::location); it != res.end()) out.location = std::string(it->value());
    return out;
}

boost::json::value http_json(const component_address& to, http_method method, const std::string& target,
                             const boost::json::value* body, std::chrono::milliseconds deadline) {
    std::string payload = body ? boost::json::serialize(*body) : std::string{};
    auto res = http_call(to, method, target, payload, "application/json", deadline);
    if (res.status < 200 || res.status >= 300) {
        throw live_error(to, std::string(method_name(method)) + " " + target + " returned HTTP " +
                                 std::to_string(res.status) + ": " + res.body.substr(0, 2000));
    }
    if (res.body.empty()) return nullptr;
    boost::system::error_code ec;
    auto v = boost::json::parse(res.body, ec);
    if (ec)
        throw live_error(
            to, std::string(method_name(method)) + " " + target + " returned non-JSON: " + res.body.substr(0, 300));
    return v;
}

}  // namespace rosterrig::live
