// rosterrig/experiment/freshness.hpp: how long a record waited to be seen.
// A record's freshness is the time from the producer's acknowledgement to the
// commit of the snapshot that first made it visible. A run keeps the
// distribution as a histogram of fixed-width buckets (60,000 records do not
// fit a results file one by one) plus the exact extremes, so every quantile
// is known to one bucket's width and says so.
#ifndef ROSTERRIG_EXPERIMENT_FRESHNESS_HPP
#define ROSTERRIG_EXPERIMENT_FRESHNESS_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

namespace rosterrig::experiment {

/// Records whose freshness lies in [from_ms, from_ms + width).
struct freshness_bucket {
    std::int64_t from_ms = 0;
    std::int64_t records = 0;
};
BOOST_DESCRIBE_STRUCT(freshness_bucket, (), (from_ms, records))

struct freshness_histogram {
    std::int64_t bucket_ms = 100;
    std::vector<freshness_bucket> buckets;  ///< ascending, empty buckets left out
    std::int64_t records = 0;
    std::int64_t min_ms = 0;  ///< exact
    std::int64_t max_ms = 0;  ///< exact
};
BOOST_DESCRIBE_STRUCT(freshness_histogram, (), (bucket_ms, buckets, records, min_ms, max_ms))

/// The histogram of `freshness_ms`, one value per record.
inline freshness_histogram histogram_of(const std::vector<std::int64_t>& freshness_ms, std::int64_t bucket_ms = 100) {
    if (bucket_ms <= 0) throw std::invalid_argument("freshness histogram: the bucket width must be positive");
    freshness_histogram h;
    h.bucket_ms = bucket_ms;
    if (freshness_ms.empty()) return h;
    std::map<std::int64_t, std::int64_t> counts;
    for (auto f : freshness_ms) {
        // floor division, so a negative value (a clock step) lands below zero, not in bucket 0
        const std::int64_t b = f >= 0 ? f / bucket_ms : -((-f + bucket_ms - 1) / bucket_ms);
        ++counts[b * bucket_ms];
    }
    for (const auto& [from, n] : counts) h.buckets.push_back({from, n});
    h.records = static_cast<std::int64_t>(freshness_ms.size());
    const auto [lo, hi] = std::minmax_element(freshness_ms.begin(), freshness_ms.end());
    h.min_ms = *lo;
    h.max_ms = *hi;
    return h;
}

/// The q-quantile (0 < q <= 1) as the upper edge of the bucket that holds it,
/// clamped to the exact maximum: the true value is at most this, and at
/// least this minus the bucket width. -1 for an empty histogram.
inline std::int64_t quantile_at_most(const freshness_histogram& h, double q) {
    if (h.records == 0 || h.buckets.empty()) return -1;
    const auto rank = static_cast<std::int64_t>(std::ceil(q * static_cast<double>(h.records)));
    std::int64_t seen = 0;
    for (const auto& b : h.buckets) {
        seen += b.records;
        if (seen >= std::max<std::int64_t>(rank, 1)) return std::min(b.from_ms + h.bucket_ms, h.max_ms);
    }
    return h.max_ms;
}

/// The freshness of every row a reader sees: the commit time of the snapshot
/// that first made it visible minus the producer's acknowledgement of its seq.
/// `rows` holds (seq, snapshot id), `commit_ms` each snapshot's timestamp and
/// `ack_ms` each seq's acknowledgement (both epoch ms). A row whose snapshot or
/// acknowledgement is unknown is counted in `unmapped` and left out.
inline freshness_histogram freshness_of(const std::vector<std::pair<long long, long long>>& rows,
                                        const std::map<long long, long long>& commit_ms,
                                        const std::map<long long, long long>& ack_ms, std::int64_t bucket_ms,
                                        std::int64_t& unmapped) {
    std::vector<std::int64_t> values;
    values.reserve(rows.size());
    unmapped = 0;
    for (const auto& [seq, snapshot] : rows) {
        const auto c = commit_ms.find(snapshot);
        const auto a = ack_ms.find(seq);
        if (c == commit_ms.end() || a == ack_ms.end()) {
            ++unmapped;
            continue;
        }
        values.push_back(c->second - a->second);
    }
    return histogram_of(values, bucket_ms);
}

}  // namespace rosterrig::experiment

#endif
