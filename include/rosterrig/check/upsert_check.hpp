// rosterrig/check/upsert_check.hpp: an upsert-on-npi table against the
// expectation. Streaming; memory ∝ distinct NPIs (expected and observed).
//
// Per row: an NPI the feed never had is unexpected; otherwise the row is
// compared with the NPI's last-arrived record (by seq when the row has one,
// else by fields_digest) and counted stale when it differs; each NPI seen k
// times adds k-1 to rows_sharing_npi. At the end, expected NPIs never seen
// are missing. Separately, rows whose record is not the NPI's newest revision
// are counted as behind_newest_revision: the event-time hazard, which a
// perfect last-writer-wins sink shows too when late stale assertions exist.
//
// Every count is exact. The list of stale rows is capped (stale_cap rows,
// default upsert_result::default_stale_cap): the upsert check of a whole
// append feed finds a stale row for every superseded record (millions), and
// the list is for reading, not for counting. stale_rows stays exact;
// stale_capped says whether the list was cut.
//
// Speed: observe() validates the row at once but judges it `lookahead` rows
// later, after prefetching its NPI's slot (a FIFO, so rows are judged in
// arrival order); finish() judges the rows still in flight. The per-NPI
// state is a compact copy of the expectation laid out in the same slots:
// 32 bytes per slot (the last-arrived record's seq and digest, a row count),
// each in one cache line; the newest revision is kept aside, only for the
// NPIs where it differs from the last-arrived record.
#ifndef ROSTERRIG_CHECK_UPSERT_CHECK_HPP
#define ROSTERRIG_CHECK_UPSERT_CHECK_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rosterrig/check/expected_state.hpp"
#include "rosterrig/check/observed_row.hpp"

namespace rosterrig {

struct npi_copies {
    std::uint64_t npi = 0;
    std::uint64_t copies = 0;  ///< rows carrying this NPI, >= 2
    friend bool operator==(const npi_copies&, const npi_copies&) = default;
};

struct stale_row {
    std::uint64_t npi = 0;
    std::uint64_t observed_seq = 0;  ///< 0 when the row carried no seq
    std::uint64_t expected_seq = 0;  ///< the NPI's last-arrived seq
    friend bool operator==(const stale_row&, const stale_row&) = default;
};

struct upsert_result {
    std::uint64_t rows = 0;
    std::uint64_t distinct_npis = 0;          ///< distinct NPIs observed, expected or not
    std::uint64_t rows_sharing_npi = 0;       ///< extra rows: an NPI on k rows adds k-1
    std::vector<npi_copies> shared_npis;      ///< NPIs on more than one row, ascending
    std::vector<std::uint64_t> missing_npis;  ///< expected, never observed, ascending
    std::uint64_t stale_rows = 0;             ///< rows of expected NPIs that are not the last-arrived record
    std::uint64_t npis_without_latest = 0;    ///< expected NPIs on rows, none of them the last-arrived record
    std::vector<stale_row>
        stale;  ///< the first stale_cap of those rows in arrival order, then sorted ascending by (npi, observed_seq)
    std::size_t stale_cap = 0;  ///< the cap on `stale` in force for this check
    bool stale_capped = false;  ///< true when stale holds fewer rows than stale_rows (the list was cut at stale_cap)
    static constexpr std::size_t default_stale_cap = 100'000;
    std::uint64_t unexpected_rows = 0;           ///< rows whose NPI the feed never had
    std::vector<std::uint64_t> unexpected_npis;  ///< those NPIs, distinct, ascending
    std::uint64_t behind_newest_revision = 0;    ///< rows not carrying their NPI's newest revision (event-time hazard)

    /// One row per expected NPI, each the last-arrived record, nothing else.
    bool matches() const noexcept {
        return rows_sharing_npi == 0 && missing_npis.empty() && stale_rows == 0 && unexpected_rows == 0;
    }
};

class upsert_checker {
public:
    /// Keeps the first stale_cap stale rows (see upsert_result::stale).
    explicit upsert_checker(const upsert_expectation& expectation,
                            std::size_t stale_cap = upsert_result::default_stale_cap)
        : slots_(detail::flat_map<slot>::same_keys(expectation.by_npi,
                                                   [](const upsert_expectation_entry& e) {
                                                       return slot{e.latest_by_arrival.seq, e.latest_by_arrival.digest,
                                                                   differs(e) ? newest_differs : 0};
                                                   })),
          stale_cap_(stale_cap) {
        for (const auto& [npi, e] : expectation.by_npi)
            if (differs(e))
                newest_.try_emplace(npi, newest_record{e.newest_by_revision.seq, e.newest_by_revision.digest});
    }

    /// Throws std::invalid_argument when the row has neither seq nor digest.
    void observe(const observed_row& row) {
        if (!row.seq && !row.fields_digest)
            throw std::invalid_argument("upsert check: a row needs seq or provider fields");
        pending& p = ring_[in_flight_end_ % lookahead];
        if (in_flight_end_ - in_flight_begin_ == lookahead) {
            judge(p);
            ++in_flight_begin_;
        }
        p = pending{row.npi, row.seq ? *row.seq : *row.fields_digest, row.seq.has_value()};
        slots_.prefetch(row.npi);
        ++in_flight_end_;
    }

    /// Judges the rows still in flight, then summarizes. The checker stays
    /// usable: observe() may go on and finish() be called again.
    upsert_result finish() const {
        drain();
        upsert_result r;
        r.rows = rows_;
        r.rows_sharing_npi = rows_sharing_npi_;
        r.stale_rows = stale_rows_;
        r.stale = stale_;
        r.stale_cap = stale_cap_;
        r.stale_capped = stale_rows_ > stale_.size();
        auto by_npi_seq = [](const stale_row& a, const stale_row& b) {
            return a.npi != b.npi ? a.npi < b.npi : a.observed_seq < b.observed_seq;
        };
        if (!std::is_sorted(r.stale.begin(), r.stale.end(), by_npi_seq))
            std::sort(r.stale.begin(), r.stale.end(), by_npi_seq);
        r.unexpected_rows = unexpected_rows_;
        r.behind_newest_revision = behind_newest_;
        for (const auto& [npi, s] : slots_) {
            const std::uint64_t seen = s.seen & seen_mask;
            if (seen == 0)
                r.missing_npis.push_back(npi);
            else
                ++r.distinct_npis;
            if (seen > 0 && !(s.seen & latest_seen)) ++r.npis_without_latest;
            if (seen > 1) r.shared_npis.push_back({npi, seen});
        }
        for (const auto& [npi, n] : unexpected_) {
            ++r.distinct_npis;
            r.unexpected_npis.push_back(npi);
            if (n > 1) r.shared_npis.push_back({npi, n});
        }
        std::sort(r.missing_npis.begin(), r.missing_npis.end());
        std::sort(r.unexpected_npis.begin(), r.unexpected_npis.end());
        std::sort(r.shared_npis.begin(), r.shared_npis.end(),
                  [](const npi_copies& a, const npi_copies& b) { return a.npi < b.npi; });
        return r;
    }

private:
    /// What a row is judged by: its seq when it has one, else its fields'
    /// digest. With the key, 32 bytes (one cache line holds two slots).
    struct slot {
        std::uint64_t latest_seq, latest_digest;  ///< the last-arrived record
        std::uint64_t seen;                       ///< rows seen (low 62 bits) | latest_seen | newest_differs
    };
    /// The newest revision, kept in newest_ only for the NPIs whose newest
    /// revision is not their last-arrived record (late stale assertions);
    /// for every other NPI it is the slot's latest record.
    struct newest_record {
        std::uint64_t seq, digest;
    };
    static constexpr std::uint64_t newest_differs = std::uint64_t{1} << 63;
    static constexpr std::uint64_t latest_seen = std::uint64_t{1} << 62;  // a row was the last-arrived record
    static constexpr std::uint64_t seen_mask = latest_seen - 1;           // 2^62 rows: out of reach
    static bool differs(const upsert_expectation_entry& e) noexcept {
        return e.latest_by_arrival.seq != e.newest_by_revision.seq;
    }
    struct pending {
        std::uint64_t npi = 0;
        std::uint64_t id = 0;  ///< seq, or fields digest when by_seq is false
        bool by_seq = false;
    };
    static constexpr std::size_t lookahead = 16;

    void judge(const pending& row) const {
        ++rows_;
        slot* found = slots_.find(row.npi);
        if (!found) {
            ++unexpected_rows_;
            if (++unexpected_[row.npi] > 1) ++rows_sharing_npi_;
            return;
        }
        slot& s = *found;
        if ((++s.seen & seen_mask) > 1) ++rows_sharing_npi_;
        const bool latest = row.id == (row.by_seq ? s.latest_seq : s.latest_digest);
        if (latest) s.seen |= latest_seen;
        if (!latest) {
            ++stale_rows_;
            if (stale_.size() < stale_cap_) stale_.push_back({row.npi, row.by_seq ? row.id : 0, s.latest_seq});
        }
        if (s.seen & newest_differs) {
            const newest_record& n = *newest_.find(row.npi);
            if (row.id != (row.by_seq ? n.seq : n.digest)) ++behind_newest_;
        } else if (!latest) {
            ++behind_newest_;
        }
    }

    void drain() const {
        for (; in_flight_begin_ < in_flight_end_; ++in_flight_begin_) judge(ring_[in_flight_begin_ % lookahead]);
    }

    // Logically const: finish() judges the rows in flight (drain), which
    // changes when the work is done, not what the checker reports.
    mutable detail::flat_map<slot> slots_;
    detail::flat_map<newest_record> newest_;
    mutable detail::flat_map<std::uint64_t> unexpected_;
    mutable std::uint64_t rows_ = 0;
    mutable std::uint64_t rows_sharing_npi_ = 0;
    mutable std::uint64_t stale_rows_ = 0;
    mutable std::uint64_t unexpected_rows_ = 0;
    mutable std::uint64_t behind_newest_ = 0;
    mutable std::vector<stale_row> stale_;
    std::size_t stale_cap_;
    mutable std::array<pending, lookahead> ring_{};
    mutable std::uint64_t in_flight_begin_ = 0, in_flight_end_ = 0;
};

/// Checks a whole range of observed_row.
template <class Range>
upsert_result check_upsert(const upsert_expectation& expectation, const Range& rows,
                           std::size_t stale_cap = upsert_result::default_stale_cap) {
    upsert_checker c{expectation, stale_cap};
    for (const observed_row& r : rows) c.observe(r);
    return c.finish();
}

}  // namespace rosterrig

#endif
