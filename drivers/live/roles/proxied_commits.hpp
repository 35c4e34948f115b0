// proxied_commits.hpp: one table's commits as the fault proxy in front of
// the catalog sees them: its requests read from the proxy's log (commit POSTs
// with what their bodies add, loads and refreshes), the commits answered, the
// request a rule applied to, and waits on them.
#ifndef ROSTERRIG_LIVE_PROXIED_COMMITS_HPP
#define ROSTERRIG_LIVE_PROXIED_COMMITS_HPP

#include <chrono>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <rosterrig/experiment/catalog_request.hpp>

#include "adapters/poll.hpp"
#include "proxy/fault_proxy.hpp"

namespace rosterrig::live {

// What the proxy saw on the table's path, from log entry `from` on: commits
// (POST; the anchored path leaves out create, metrics and other tables) with
// what their bodies add, and loads and refreshes (GET).
inline std::vector<experiment::table_request> table_requests(const proxy::fault_proxy& px, const std::regex& path,
                                                             std::uint64_t from) {
    std::vector<experiment::table_request> out;
    for (const auto& e : px.log_since(from)) {
        if (e.target.empty()) continue;
        if (!std::regex_match(e.target.substr(0, e.target.find('?')), path)) continue;
        experiment::table_request r;
        r.event = e.id, r.method = e.method, r.rule = e.rule, r.action = e.action;
        r.received_at_ms = e.received_at_ms, r.forwarded_at_ms = e.forwarded_at_ms,
        r.upstream_replied_at_ms = e.upstream_replied_at_ms;
        r.answered_at_ms = e.answered_at_ms, r.dropped_at_ms = e.dropped_at_ms;
        r.upstream_status = e.upstream_status, r.answered_status = e.answered_status;
        if (e.method == "POST") {
            const auto body = experiment::commit_body_of(e.request_body);
            r.snapshot_id = body.snapshot_id, r.watermark = body.watermark;
        }
        r.note = e.note;
        if (e.hold != 0 && e.released_at_ms > 0) r.released_at_ms = e.released_at_ms, r.released_by = e.released_by;
        out.push_back(std::move(r));
    }
    return out;
}

// The commit path of one table, as the proxy's rules and the driver's reads
// match it whole: create (`.../tables`), metrics reports and other tables are not it.
struct proxied_commit_path {
    proxied_commit_path(const proxy::fault_proxy& proxy, const std::string& ns, const std::string& table)
        : px(proxy),
          pattern("^/v1/(?:[^/]+/)?namespaces/" + ns + "/tables/" + table + "$"),
          path(pattern),
          committer_path("^/v1/(?:[^/]+/)?namespaces/" + ns + "/tables/" + table + "(?:/metrics)?$") {
        where.name = "fault proxy (in front of the catalog)", where.host = "127.0.0.1", where.port = px.port();
    }
    const proxy::fault_proxy& px;
    std::string pattern;
    std::regex path;
    // Every request the committer makes for the table: its path, and the
    // metrics report it sends synchronously after each commit (a pause that
    // lands just after a commit POST holds the committer on that report).
    std::regex committer_path;
    component_address where;  // the proxy, for the wait's error
    // The commit POSTs answered 200 since `from`, received after `after_ms`.
    std::size_t answered_since(std::uint64_t from, std::int64_t after_ms = 0) const {
        std::size_t n = 0;
        for (const auto& r : table_requests(px, path, from))
            if (r.method == "POST" && r.rule == 0 && r.answered_status == 200 && r.received_at_ms > after_ms) ++n;
        return n;
    }
    std::optional<experiment::table_request> applied_by(std::uint64_t from, std::uint64_t rule) const {
        for (const auto& r : table_requests(px, path, from))
            if (r.rule == rule) return r;
        return std::nullopt;
    }
    template <class Ready>
    experiment::table_request wait_rule(std::uint64_t from, std::uint64_t rule, std::chrono::seconds deadline,
                                        Ready ready, const std::string& what) const {
        return poll_until(
            where, deadline,
            [&]() -> std::optional<experiment::table_request> {
                auto r = applied_by(from, rule);
                if (r && ready(*r)) return r;
                return std::nullopt;
            },
            [&] { return what; });
    }
};

// Waits until an unruled commit through the proxy, received after `since_ms`, was answered 200.
inline void await_commit_after(const proxied_commit_path& cp, std::uint64_t from, std::int64_t since_ms,
                               const std::string& what) {
    poll_until(
        cp.where, std::chrono::seconds(120), [&] { return cp.answered_since(from, since_ms) > 0; },
        [&] { return "a commit through the proxy after " + what; });
}

}  // namespace rosterrig::live

#endif
