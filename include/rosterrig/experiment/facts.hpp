// rosterrig/experiment/facts.hpp: the named values a rule decided on, the
// reason sentence rendered from them, and their comparison.
//
// A rule returns its verdict with the counts, bounds and ids it compared; the
// sentence a reader sees is rendered from those values, never formatted
// beside them, so it cannot state a number the verdict was not decided on.
// Recompute tests compare the facts and not the sentence: a reworded sentence
// changes no test and calls for no re-run.
#ifndef ROSTERRIG_EXPERIMENT_FACTS_HPP
#define ROSTERRIG_EXPERIMENT_FACTS_HPP

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/json.hpp>

namespace rosterrig::experiment {

/// Named values in the order the rule set them (a JSON object keeps its
/// insertion order), written to a result as they are.
using facts = boost::json::object;

namespace detail {

inline std::string fact_text(const boost::json::value& v, int decimals) {
    namespace json = boost::json;
    char buf[64];
    switch (v.kind()) {
        case json::kind::null:
            return "none";
        case json::kind::bool_:
            return v.get_bool() ? "true" : "false";
        case json::kind::int64:
            return std::to_string(v.get_int64());
        case json::kind::uint64:
            return std::to_string(v.get_uint64());
        case json::kind::double_: {
            const double d = v.get_double();
            if (decimals >= 0)
                std::snprintf(buf, sizeof buf, "%.*f", decimals, d);
            else if (std::fabs(d) >= 1e4)
                std::snprintf(buf, sizeof buf, "%.0f", d);
            else
                std::snprintf(buf, sizeof buf, "%.4g", d);  // a bound reads as 0.02951, not 0.029513
            return buf;
        }
        case json::kind::string:
            return std::string(v.get_string());
        case json::kind::array: {
            std::string out;
            for (const auto& e : v.get_array()) out += (out.empty() ? "" : ", ") + fact_text(e, decimals);
            return out;
        }
        case json::kind::object:
            return json::serialize(v);
    }
    return {};
}

/// The fact at a dotted path ("repeat 1.lost": a nested phrase's fact).
inline const boost::json::value* fact_at(const boost::json::object& f, std::string_view path) {
    const auto dot = path.find('.');
    const auto* v = f.if_contains(path.substr(0, dot));
    if (!v || dot == std::string_view::npos) return v;
    return v->is_object() ? fact_at(v->get_object(), path.substr(dot + 1)) : nullptr;
}

}  // namespace detail

/// `pattern` with each `{name}` replaced by the fact of that name: a number
/// in digits (`{name:.N}`: with N decimals), a string as it is, a list joined
/// by ", ", null as "none"; `{a.b}` is fact b of the facts named a (nested()).
/// `{{` and `}}` are literal braces. A name no fact
/// has throws std::logic_error: a sentence may only state what was decided on.
inline std::string render(const facts& f, std::string_view pattern) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if ((c == '{' || c == '}') && i + 1 < pattern.size() && pattern[i + 1] == c) {
            out.push_back(c);
            ++i;
            continue;
        }
        if (c != '{') {
            out.push_back(c);
            continue;
        }
        const auto end = pattern.find('}', i);
        if (end == std::string_view::npos)
            throw std::logic_error("reason pattern: unclosed { in " + std::string(pattern));
        std::string_view name = pattern.substr(i + 1, end - i - 1);
        int decimals = -1;
        if (const auto colon = name.find(":."); colon != std::string_view::npos) {
            decimals = std::stoi(std::string(name.substr(colon + 2)));
            name = name.substr(0, colon);
        }
        const auto* v = detail::fact_at(f, name);
        if (!v) throw std::logic_error("reason pattern names no fact {" + std::string(name) + "}");
        out += detail::fact_text(*v, decimals);
        i = end;
    }
    return out;
}

/// A reason not yet rendered: facts and the pattern that states them. Rules
/// whose sentences share a part (a run's counts, say) build it once as a
/// phrase and join it to the rest with +.
struct phrase {
    facts values;
    std::string pattern;
    std::string text() const { return render(values, pattern); }
};
/// Both phrases' facts (the right one's on a shared name) and patterns.
inline phrase operator+(phrase a, const phrase& b) {
    for (const auto& kv : b.values) a.values[kv.key()] = kv.value();
    a.pattern += b.pattern;
    return a;
}
inline phrase operator+(phrase a, std::string_view more) {
    a.pattern += more;
    return a;
}

/// `p` under one name: its facts become the fact `name` and its pattern
/// names them through it, so several runs' phrases join without their
/// names meeting. `name` must hold no '.', ':', '{' or '}'.
inline phrase nested(const std::string& name, const phrase& p) {
    phrase out{{{name, p.values}}, {}};
    const std::string_view pat = p.pattern;
    for (std::size_t i = 0; i < pat.size(); ++i) {
        out.pattern.push_back(pat[i]);
        if (pat[i] != '{' && pat[i] != '}') continue;
        if (i + 1 < pat.size() && pat[i + 1] == pat[i]) {
            out.pattern.push_back(pat[++i]);  // an escaped brace stays as it is
            continue;
        }
        if (pat[i] == '{') out.pattern += name + ".";
    }
    return out;
}

/// The same facts: the same names, each with the same value. Numbers compare
/// by value: an unsigned count read back from a file is a signed integer, and
/// a double may read back a last digit off (relative 1e-9).
inline bool same_facts(const boost::json::value& a, const boost::json::value& b) {
    namespace json = boost::json;
    if (a.is_number() && b.is_number()) {
        if (!a.is_double() && !b.is_double()) return a == b;  // int64 and uint64 compare by value
        const double x = a.to_number<double>(), y = b.to_number<double>();
        return x == y || std::fabs(x - y) <= 1e-9 * std::fmax(std::fabs(x), std::fabs(y));
    }
    if (a.kind() != b.kind()) return false;
    if (a.is_array()) {
        const auto &x = a.get_array(), &y = b.get_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!same_facts(x[i], y[i])) return false;
        return true;
    }
    if (a.is_object()) {
        const auto &x = a.get_object(), &y = b.get_object();
        if (x.size() != y.size()) return false;
        for (const auto& kv : x) {
            const auto* other = y.if_contains(kv.key());
            if (!other || !same_facts(kv.value(), *other)) return false;
        }
        return true;
    }
    return a == b;
}

}  // namespace rosterrig::experiment

#endif
