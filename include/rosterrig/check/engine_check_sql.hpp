// rosterrig/check/engine_check_sql.hpp: the append and upsert checks as SQL
// that the reader engine (Trino) runs where the data is, returning only
// counts and anomalies, so a table of a billion rows is checked without
// streaming its rows to the rig. The streaming checks (append_check.hpp,
// upsert_check.hpp) stay the definition; these queries are held to them
// (check_agreement.hpp, and a live test on a table damaged on purpose).
//
// The queries use only standard aggregation, joins and a window function
// partitioned by a seq bucket, so the engine spreads each over its workers:
// nothing needs one global order. Missing runs come back as fragments per
// bucket, which merge_adjacent() joins across bucket edges.
#ifndef ROSTERRIG_CHECK_ENGINE_CHECK_SQL_HPP
#define ROSTERRIG_CHECK_ENGINE_CHECK_SQL_HPP

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rosterrig/check/missing_ranges.hpp"

namespace rosterrig::engine_check {

/// Seqs per bucket of the missing-run query: the window function orders
/// within a bucket only. Trino's sequence() makes at most 10,000 buckets, so
/// the width grows with N past about 10^10 events.
inline std::uint64_t bucket_width(std::uint64_t events) {
    constexpr std::uint64_t base = std::uint64_t{1} << 20;
    return std::max(base, events / 9'000 + 1);
}

inline std::string in_range(std::uint64_t events) { return "seq BETWEEN 1 AND " + std::to_string(events); }

/// One row: rows, rows with seq in 1..N, distinct seqs in 1..N. The rest of
/// the append counts follow: out of range = rows - in range, duplicate rows
/// = in range - distinct, missing = N - distinct.
inline std::string append_counts(const std::string& table, std::uint64_t events) {
    const auto r = in_range(events);
    return "SELECT count(*), count_if(" + r + "), count(DISTINCT CASE WHEN " + r + " THEN seq END) FROM " + table;
}

/// (seq, copies) for every seq in 1..N the table holds more than once, ascending.
inline std::string append_duplicates(const std::string& table, std::uint64_t events) {
    return "SELECT seq, count(*) FROM " + table + " WHERE " + in_range(events) +
           " GROUP BY seq HAVING count(*) > 1 ORDER BY seq";
}

/// Up to `cap` seqs outside 1..N (null counts as 0), ascending.
inline std::string append_out_of_range(const std::string& table, std::uint64_t events, std::uint64_t cap) {
    return "SELECT coalesce(seq, 0) FROM " + table + " WHERE seq IS NULL OR NOT (" + in_range(events) +
           ") ORDER BY 1 LIMIT " + std::to_string(cap);
}

/// (first, last) fragments of the seqs in 1..N the table lacks, per bucket of
/// bucket_width(N): the gaps between neighbours inside a bucket, a bucket's
/// head before its lowest seq and tail after its highest, and whole buckets
/// holding none. Merged with merge_adjacent(), they are the missing runs.
/// `width` is the bucket's (bucket_width(events) unless a test cuts smaller
/// buckets to put gaps across their edges).
inline std::string append_missing_fragments(const std::string& table, std::uint64_t events, std::uint64_t width) {
    if (events == 0) throw std::invalid_argument("engine check: a feed of 0 events has no seq range");
    if (width == 0 || events / width >= 10'000)
        throw std::invalid_argument("engine check: a bucket width that makes more than 10,000 buckets");
    const auto n = std::to_string(events), b = std::to_string(width);
    const std::string lo = "greatest(k * " + b + ", 1)", hi = "least(k * " + b + " + " + b + " - 1, " + n + ")";
    return "WITH s AS (SELECT DISTINCT seq FROM " + table + " WHERE " + in_range(events) +
           "), "
           "g AS (SELECT seq, lead(seq) OVER (PARTITION BY seq / " +
           b +
           " ORDER BY seq) AS next FROM s), "
           "b AS (SELECT seq / " +
           b + " AS k, min(seq) AS lo, max(seq) AS hi FROM s GROUP BY seq / " + b +
           "), "
           "ks AS (SELECT k FROM UNNEST(sequence(0, " +
           n + " / " + b +
           ")) AS u(k)), "
           "kb AS (SELECT ks.k, b.lo, b.hi FROM ks LEFT JOIN b ON ks.k = b.k) "
           "SELECT seq + 1, next - 1 FROM g WHERE next > seq + 1 "
           "UNION ALL SELECT " +
           lo + ", coalesce(lo - 1, " + hi + ") FROM kb WHERE lo IS NULL OR lo > " + lo +
           " "
           "UNION ALL SELECT hi + 1, " +
           hi + " FROM kb WHERE hi < " + hi +
           " "
           "ORDER BY 1";
}

/// Ranges sorted by first, disjoint, joined where one ends just before the
/// next begins: the bucket fragments made whole.
inline std::vector<seq_range> merge_adjacent(std::vector<seq_range> fragments) {
    std::sort(fragments.begin(), fragments.end(),
              [](const seq_range& a, const seq_range& b) { return a.first < b.first; });
    std::vector<seq_range> out;
    for (const auto& f : fragments) {
        if (f.last < f.first) throw std::invalid_argument("engine check: a missing fragment ends before it starts");
        if (!out.empty() && f.first <= out.back().last)
            throw std::invalid_argument("engine check: missing fragments overlap");
        if (!out.empty() && out.back().last + 1 == f.first)
            out.back().last = f.last;  // one run cut at a bucket edge
        else
            out.push_back(f);
    }
    return out;
}

// The upsert check joins the table to a model table the rig writes once:
// (npi BIGINT, latest_seq BIGINT, newest_seq BIGINT), one row per NPI of the
// feed: its last-arrived record's seq and its newest revision's seq. A row
// is judged by its seq (the engine check needs the seq column; a row without
// one counts as stale). The table's npi is a string: try_cast makes one the
// model cannot hold an unexpected NPI instead of a failed query.

inline std::string model_columns() { return "npi BIGINT, latest_seq BIGINT, newest_seq BIGINT"; }

inline std::string joined(const std::string& table, const std::string& model) {
    return "(SELECT try_cast(t.npi AS BIGINT) AS npi, t.seq, m.npi AS model_npi, m.latest_seq, m.newest_seq FROM " +
           table + " t LEFT JOIN " + model + " m ON try_cast(t.npi AS BIGINT) = m.npi)";
}

/// One row: rows, distinct NPIs, rows of NPIs the model lacks, stale rows
/// (model NPI, not the last-arrived seq), rows behind the newest revision.
inline std::string upsert_counts(const std::string& table, const std::string& model) {
    return "SELECT count(*), count(DISTINCT npi), count_if(model_npi IS NULL), "
           "count_if(model_npi IS NOT NULL AND (seq IS NULL OR seq <> latest_seq)), "
           "count_if(model_npi IS NOT NULL AND (seq IS NULL OR seq <> newest_seq)) FROM " +
           joined(table, model);
}

/// One row: model NPIs on rows none of which is the last-arrived record.
inline std::string upsert_without_latest(const std::string& table, const std::string& model) {
    return "SELECT count(*) FROM (SELECT npi FROM " + joined(table, model) +
           " WHERE model_npi IS NOT NULL GROUP BY npi HAVING count_if(seq = latest_seq) = 0)";
}

/// Model NPIs on no row, ascending.
inline std::string upsert_missing(const std::string& table, const std::string& model) {
    return "SELECT m.npi FROM " + model + " m LEFT JOIN (SELECT DISTINCT try_cast(npi AS BIGINT) AS npi FROM " + table +
           ") t ON m.npi = t.npi WHERE t.npi IS NULL ORDER BY 1";
}

/// (npi, rows) for every NPI on more than one row, ascending.
inline std::string upsert_shared(const std::string& table) {
    return "SELECT try_cast(npi AS BIGINT), count(*) FROM " + table + " GROUP BY 1 HAVING count(*) > 1 ORDER BY 1";
}

/// NPIs the model lacks, distinct, ascending.
inline std::string upsert_unexpected(const std::string& table, const std::string& model) {
    return "SELECT DISTINCT npi FROM " + joined(table, model) + " WHERE model_npi IS NULL ORDER BY 1";
}

/// Up to `cap` stale rows (npi, seq or 0, the model's last-arrived seq), ascending by (npi, seq).
inline std::string upsert_stale(const std::string& table, const std::string& model, std::uint64_t cap) {
    return "SELECT npi, coalesce(seq, 0), latest_seq FROM " + joined(table, model) +
           " WHERE model_npi IS NOT NULL AND (seq IS NULL OR seq <> latest_seq) ORDER BY 1, 2 LIMIT " +
           std::to_string(cap);
}

}  // namespace rosterrig::engine_check

#endif
