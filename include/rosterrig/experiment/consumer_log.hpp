// rosterrig/experiment/consumer_log.hpp: what a consumer group's members did,
// from the event logs they write (one JSON object per line, the same format
// from the C++ member and the Java one), and the exact accounting over them:
// records processed and processed more than once, commits that failed, what
// the application was told, and how often the group moved partitions.
//
// A line: {"t":ms,"member":"m1","kind":K, ...} with K one of
//   start    client, protocol, mode, batch, latency_ms, max_poll_interval_ms, client_version
//   record   partition, offset, seq          (one per record processed)
//   batch    records, took_ms
//   commit   ok, offsets {partition: next offset}, error (when not ok)
//   assigned / revoked / lost   partitions
//   error    where, error                    (anything the application was handed)
//   end
#ifndef ROSTERRIG_EXPERIMENT_CONSUMER_LOG_HPP
#define ROSTERRIG_EXPERIMENT_CONSUMER_LOG_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe.hpp>
#include <boost/json.hpp>

namespace rosterrig::experiment {

/// One line of a member's log, as it was written (fields a kind does not use stay empty).
struct consumer_event {
    std::int64_t t_ms = 0;
    std::string member;
    std::string kind;
    std::int64_t partition = -1;                  // record
    std::int64_t offset = -1;                     // record
    std::int64_t seq = -1;                        // record
    std::int64_t records = 0;                     // batch
    std::int64_t took_ms = 0;                     // batch
    bool ok = false;                              // commit
    std::map<std::string, std::int64_t> offsets;  // commit: partition -> next offset
    std::vector<std::int64_t> partitions;         // assigned, revoked, lost
    std::string where;                            // error
    std::string error;                            // error; commit when not ok
    std::string detail;                           // start: "client protocol mode", and the client's version
};
BOOST_DESCRIBE_STRUCT(consumer_event, (),
                      (t_ms, member, kind, partition, offset, seq, records, took_ms, ok, offsets, partitions, where,
                       error, detail))

namespace detail {
inline std::int64_t int_field(const boost::json::object& o, const char* key, std::int64_t fallback = -1) {
    const auto* v = o.if_contains(key);
    if (!v) return fallback;
    if (v->is_int64()) return v->as_int64();
    if (v->is_uint64()) return static_cast<std::int64_t>(v->as_uint64());
    throw std::invalid_argument(std::string("\"") + key + "\" is not a whole number");
}
inline std::string text_field(const boost::json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    if (!v) return {};
    if (!v->is_string()) throw std::invalid_argument(std::string("\"") + key + "\" is not a string");
    return std::string(v->as_string());
}
}  // namespace detail

/// Parses one log line; throws std::invalid_argument naming what is wrong.
inline consumer_event parse_consumer_event(const std::string& line) {
    boost::system::error_code ec;
    auto v = boost::json::parse(line, ec);
    if (ec || !v.is_object()) throw std::invalid_argument("not a JSON object: " + line.substr(0, 120));
    const auto& o = v.as_object();
    consumer_event e;
    e.t_ms = detail::int_field(o, "t", 0);
    e.member = detail::text_field(o, "member");
    e.kind = detail::text_field(o, "kind");
    if (e.kind.empty() || e.member.empty())
        throw std::invalid_argument("a line without member or kind: " + line.substr(0, 120));
    e.partition = detail::int_field(o, "partition");
    e.offset = detail::int_field(o, "offset");
    e.seq = detail::int_field(o, "seq");
    e.records = detail::int_field(o, "records", 0);
    e.took_ms = detail::int_field(o, "took_ms", 0);
    if (const auto* ok = o.if_contains("ok"); ok && ok->is_bool()) e.ok = ok->as_bool();
    if (const auto* offs = o.if_contains("offsets"); offs && offs->is_object())
        for (const auto& kv : offs->as_object())
            e.offsets[std::string(kv.key())] = kv.value().is_int64() ? kv.value().as_int64() : -1;
    if (const auto* ps = o.if_contains("partitions"); ps && ps->is_array())
        for (const auto& p : ps->as_array()) e.partitions.push_back(p.is_int64() ? p.as_int64() : -1);
    e.where = detail::text_field(o, "where");
    e.error = detail::text_field(o, "error");
    if (e.kind == "start") {
        for (const char* key : {"client", "protocol", "mode", "client_version"}) {
            if (!e.detail.empty()) e.detail.push_back(' ');
            e.detail.append(detail::text_field(o, key));
        }
    }
    return e;
}

/// Parses a whole log; a bad line throws naming its number.
inline std::vector<consumer_event> parse_consumer_log(std::istream& in, const std::string& name) {
    std::vector<consumer_event> out;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        try {
            out.push_back(parse_consumer_event(line));
        } catch (const std::exception& e) {
            throw std::invalid_argument(name + ":" + std::to_string(n) + ": " + e.what());
        }
    }
    return out;
}

/// The seq of a roster record from its value (`{"seq":N,...}`, the feed's
/// JSON line); -1 when the value does not start with one.
inline std::int64_t seq_in_value(std::string_view v) {
    constexpr std::string_view key = "{\"seq\":";
    if (v.substr(0, key.size()) != key || v.size() == key.size() || v[key.size()] < '0' || v[key.size()] > '9')
        return -1;
    std::int64_t seq = 0;
    for (std::size_t i = key.size(); i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) seq = seq * 10 + (v[i] - '0');
    return seq;
}

/// What a member processed of its batch: the offsets a commit may claim
/// (partition -> last processed + 1), and how many records.
struct batch_progress {
    std::map<std::int64_t, std::int64_t> next_offsets;
    std::int64_t processed = 0;
    void done(std::int64_t partition, std::int64_t offset) {
        next_offsets[partition] = offset + 1;
        ++processed;
    }
};

/// The exact accounting over one run's events (every member's).
struct consumer_accounting {
    std::int64_t processed = 0;                 ///< record lines
    std::int64_t distinct_records = 0;          ///< distinct (partition, offset) processed
    std::int64_t processed_more_than_once = 0;  ///< distinct records processed twice or more
    std::int64_t most_times_processed = 0;      ///< the most any one record was processed
    std::int64_t distinct_seqs = 0;             ///< distinct seqs among the records processed
    std::int64_t commits_ok = 0;
    std::int64_t commits_failed = 0;
    std::int64_t poll_errors = 0;  ///< errors handed to the application outside commits
    std::int64_t assignments = 0;  ///< assigned events, every member
    std::int64_t revocations = 0;  ///< revoked or lost events
    std::int64_t lost = 0;         ///< of those, lost (the member was already out of the group)
    std::int64_t batches = 0;
    std::int64_t longest_batch_ms = 0;
    std::map<std::string, std::int64_t>
        errors_seen;  ///< every error text the application was handed (commits and polls) -> times
};
BOOST_DESCRIBE_STRUCT(consumer_accounting, (),
                      (processed, distinct_records, processed_more_than_once, most_times_processed, distinct_seqs,
                       commits_ok, commits_failed, poll_errors, assignments, revocations, lost, batches,
                       longest_batch_ms, errors_seen))

/// An error text without what changes between occurrences (digits), so the
/// same error counts as one: "exceeded by 402ms" and "by 2ms" are one kind.
inline std::string error_kind(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            if (out.empty() || out.back() != '#') out += '#';
        } else {
            out += c;
        }
    }
    return out.size() > 200 ? out.substr(0, 200) : out;
}

inline consumer_accounting account(const std::vector<consumer_event>& events) {
    consumer_accounting a;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> times;
    std::set<std::int64_t> seqs;
    for (const auto& e : events) {
        if (e.kind == "record") {
            ++a.processed;
            ++times[{e.partition, e.offset}];
            if (e.seq > 0) seqs.insert(e.seq);
        } else if (e.kind == "commit") {
            if (e.ok) {
                ++a.commits_ok;
            } else {
                ++a.commits_failed;
                ++a.errors_seen["commit: " + error_kind(e.error)];
            }
        } else if (e.kind == "error") {
            ++a.poll_errors;
            ++a.errors_seen[e.where + ": " + error_kind(e.error)];
        } else if (e.kind == "assigned") {
            ++a.assignments;
        } else if (e.kind == "revoked" || e.kind == "lost") {
            ++a.revocations;
            if (e.kind == "lost") ++a.lost;
        } else if (e.kind == "batch") {
            ++a.batches;
            a.longest_batch_ms = std::max(a.longest_batch_ms, e.took_ms);
        }
    }
    a.distinct_records = static_cast<std::int64_t>(times.size());
    for (const auto& [record, n] : times) {
        if (n > 1) ++a.processed_more_than_once;
        a.most_times_processed = std::max(a.most_times_processed, n);
    }
    a.distinct_seqs = static_cast<std::int64_t>(seqs.size());
    return a;
}

}  // namespace rosterrig::experiment

#endif
