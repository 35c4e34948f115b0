// A blocking HTTP/1.1 call built from Beast's async operations on a private
// io_context, because synchronous Beast calls cannot time out.
#ifndef ROSTERRIG_LIVE_HTTP_CLIENT_HPP
#define ROSTERRIG_LIVE_HTTP_CLIENT_HPP
#include <chrono>
#include <string>
#include <boost/json.hpp>
#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct http_response {
    unsigned status = 0;
    std::string body;
    std::string location;  // Location header, for Trino-style redirects
};

enum class http_method { get, post, patch, put, del };

// One call with a deadline covering connect, write and read. Throws live_error
// naming the component on a network failure or timeout; never on an HTTP status.
http_response http_call(const component_address& to, http_method method, const std::string& target,
                        const std::string& body = {}, const std::string& content_type = "application/json",
                        std::chrono::milliseconds deadline = std::chrono::seconds(15),
                        const std::vector<std::pair<std::string, std::string>>& headers = {});

// GET/POST returning parsed JSON; a non-2xx status throws with the body's text.
boost::json::value http_json(const component_address& to, http_method method, const std::string& target,
                             const boost::json::value* body = nullptr,
                             std::chrono::milliseconds deadline = std::chrono::seconds(15));

}  // namespace rosterrig::live

#endif
