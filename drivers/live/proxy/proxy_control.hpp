// The fault proxy's control interface: JSON over HTTP on 127.0.0.1, for a
// driver in another process or a user on their own cluster.
//
//   GET    /health               {"mode", "port", "upstream"}
//   GET    /rules                {"rules": [proxy_rule...]}
//   POST   /rules                {"kind": "http_lose_reply", "method": "POST", "path": "/v1/.*", "count": 1,
//                                 "status": 503, "duration_ms": 30000, "bytes_per_second": 0}
//                                 -> 201 {"id": 1}; 400 {"error"} for a rule the proxy cannot apply
//   DELETE /rules/<id>           204, or 404
//   DELETE /rules                {"removed": n}   (held replies stay held)
//   GET    /holds                {"holds": [held_reply...]}
//   POST   /holds/<id>/release   {"released": 1}, or 404
//   POST   /release              {"released": n}  (every held reply)
//   POST   /heal                 {"removed": n, "released": m}: no rule left, nothing held
//   GET    /log                  {"events": [proxy_event...]}
//
// Only "kind" is required in a rule; the others default as
// experiment::fault_parameters does, and an unknown member is an error.
#ifndef ROSTERRIG_LIVE_PROXY_PROXY_CONTROL_HPP
#define ROSTERRIG_LIVE_PROXY_PROXY_CONTROL_HPP

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <boost/json.hpp>

#include "fault_proxy.hpp"

namespace rosterrig::live::proxy {

/// A rule as the control API takes it. Throws std::invalid_argument naming the member.
std::pair<experiment::fault_kind, experiment::fault_parameters> rule_from_json(const boost::json::value& v);

struct control_answer {
    unsigned status = 200;
    std::string body;  ///< JSON; empty for 204
};

/// One control call, without a socket: what the server answers.
control_answer answer_control(fault_proxy& proxy, std::string_view method, std::string_view target,
                              std::string_view body);

/// Serves answer_control on 127.0.0.1:<port> with its own io_context thread.
class control_server {
public:
    explicit control_server(fault_proxy& proxy, unsigned short port = 0);
    ~control_server();  ///< stop()
    control_server(const control_server&) = delete;
    control_server& operator=(const control_server&) = delete;
    void start();
    void stop();
    unsigned short port() const;

    class impl;

private:
    std::shared_ptr<impl> impl_;
};

}  // namespace rosterrig::live::proxy

#endif
