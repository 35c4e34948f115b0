// A planned proxy fault applied on an embedded fault_proxy and healed, each
// leaving its experiment::applied_fault record: what a driver calls between
// its trigger and its checks.
//
//   auto handle = apply_on_proxy(proxy, step);   // arms the rule, applied_at_ms
//   ... the workload runs ...
//   heal_on_proxy(proxy, handle);                // rule removed, its holds released,
//                                                // what the proxy did noted, healed_at_ms
#ifndef ROSTERRIG_LIVE_PROXY_PROXY_FAULTS_HPP
#define ROSTERRIG_LIVE_PROXY_PROXY_FAULTS_HPP

#include <cstdint>
#include <string>

#include <rosterrig/experiment/applied_fault.hpp>

#include "fault_proxy.hpp"

namespace rosterrig::live::proxy {

struct proxy_fault_handle {
    std::uint64_t rule = 0;  ///< the proxy's rule id
    experiment::applied_fault record;
};

/// What the proxy did to one request (connection), in words, for a note.
inline std::string words_for(const proxy_event& e) {
    std::string out = e.method.empty() ? "connection " + std::to_string(e.connection) : e.method + " " + e.target;
    out += ": " + e.action;
    if (e.upstream_status) out += ", upstream answered " + std::to_string(e.upstream_status);
    if (e.hold)
        out += ", held until released by " + (e.released_by.empty() ? std::string("nobody yet") : e.released_by);
    if (e.dropped_at_ms)
        out += ", the client's connection dropped unanswered";
    else if (e.answered_status)
        out += ", the client got " + std::to_string(e.answered_status);
    if (!e.note.empty()) out += " (" + e.note + ")";
    return out;
}

/// Arms planned.fault (a proxy kind) and starts its record. Throws
/// std::invalid_argument as fault_proxy::add_rule does.
inline proxy_fault_handle apply_on_proxy(fault_proxy& proxy, const experiment::scheduled_fault& planned) {
    proxy_fault_handle h;
    h.record.planned = planned;
    h.rule = proxy.add_rule(planned.fault);
    h.record.applied_at_ms = epoch_ms();
    const auto& p = planned.fault.parameters;
    h.record.done = "proxy rule " + std::to_string(h.rule) + ": " + experiment::name_of(planned.fault.kind);
    if (!p.method.empty() || p.path != ".*")
        h.record.done += " on " + (p.method.empty() ? "any" : p.method) + " " + p.path;
    h.record.done += p.count ? ", for " + std::to_string(p.count) + " matching" : ", until healed";
    return h;
}

/// The heal: removes the rule, sends what it holds, notes under the target's
/// name what the proxy did to each request it matched, and sets healed_at_ms.
inline void heal_on_proxy(fault_proxy& proxy, proxy_fault_handle& h) {
    proxy.remove_rule(h.rule);
    for (const auto& held : proxy.holds())
        if (held.rule == h.rule) proxy.release(held.id);
    h.record.healed_at_ms = epoch_ms();
    const auto component = experiment::name_of(h.record.planned.fault.target);
    for (const auto& e : proxy.log())
        if (e.rule == h.rule) h.record.note(component, words_for(e));
}

}  // namespace rosterrig::live::proxy

#endif
