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
#ifndef ROSTERRIG_CHECK_UPSERT_CHECK_HPP
#define ROSTERRIG_CHECK_UPSERT_CHECK_HPP

#include <algorithm>
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
    std::uint64_t distinct_npis = 0;            ///< distinct NPIs observed, expected or not
    std::uint64_t rows_sharing_npi = 0;         ///< extra rows: an NPI on k rows adds k-1
    std::vector<npi_copies> shared_npis;        ///< NPIs on more than one row, ascending
    std::vector<std::uint64_t> missing_npis;    ///< expected, never observed, ascending
    std::uint64_t stale_rows = 0;               ///< rows of expected NPIs that are not the last-arrived record
    std::vector<stale_row> stale;               ///< those rows, ascending by (npi, observed_seq)
    std::uint64_t unexpected_rows = 0;          ///< rows whose NPI the feed never had
    std::vector<std::uint64_t> unexpected_npis; ///< those NPIs, distinct, ascending
    std::uint64_t behind_newest_revision = 0;   ///< rows not carrying their NPI's newest revision (event-time hazard)

    /// One row per expected NPI, each the last-arrived record, nothing else.
    bool matches() const noexcept {
        return rows_sharing_npi == 0 && missing_npis.empty() && stale_rows == 0 && unexpected_rows == 0;
    }
};

class upsert_checker {
public:
    explicit upsert_checker(const upsert_expectation& expectation) {
        slots_.reserve(expectation.by_npi.size());
        for (const auto& [npi, e] : expectation.by_npi) slots_.try_emplace(npi, slot{e, 0});
    }

    /// Throws std::invalid_argument when the row has neither seq nor digest.
    void observe(const observed_row& row) {
        if (!row.seq && !row.fields_digest)
            throw std::invalid_argument("upsert check: a row needs seq or provider fields");
        ++rows_;
        slot* found = slots_.find(row.npi);
        if (!found) {
            ++unexpected_rows_;
            if (++unexpected_[row.npi] > 1) ++rows_sharing_npi_;
            return;
        }
        slot& s = *found;
        if (++s.seen > 1) ++rows_sharing_npi_;
        auto same = [&row](const expected_record& r) {
            return row.seq ? *row.seq == r.seq : *row.fields_digest == r.digest;
        };
        if (!same(s.expected.latest_by_arrival)) {
            ++stale_rows_;
            stale_.push_back({row.npi, row.seq.value_or(0), s.expected.latest_by_arrival.seq});
        }
        if (!same(s.expected.newest_by_revision)) ++behind_newest_;
    }

    upsert_result finish() const {
        upsert_result r;
        r.rows = rows_;
        r.rows_sharing_npi = rows_sharing_npi_;
        r.stale_rows = stale_rows_;
        r.stale = stale_;
        std::sort(r.stale.begin(), r.stale.end(), [](const stale_row& a, const stale_row& b) {
            return a.npi != b.npi ? a.npi < b.npi : a.observed_seq < b.observed_seq;
        });
        r.unexpected_rows = unexpected_rows_;
        r.behind_newest_revision = behind_newest_;
        for (const auto& [npi, s] : slots_) {
            if (s.seen == 0) r.missing_npis.push_back(npi);
            else ++r.distinct_npis;
            if (s.seen > 1) r.shared_npis.push_back({npi, s.seen});
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
    struct slot {
        upsert_expectation_entry expected;
        std::uint64_t seen = 0;
    };
    detail::flat_map<slot> slots_;
    detail::flat_map<std::uint64_t> unexpected_;
    std::uint64_t rows_ = 0;
    std::uint64_t rows_sharing_npi_ = 0;
    std::uint64_t stale_rows_ = 0;
    std::uint64_t unexpected_rows_ = 0;
    std::uint64_t behind_newest_ = 0;
    std::vector<stale_row> stale_;
};

/// Checks a whole range of observed_row.
template <class Range>
upsert_result check_upsert(const upsert_expectation& expectation, const Range& rows) {
    upsert_checker c{expectation};
    for (const observed_row& r : rows) c.observe(r);
    return c.finish();
}

} // namespace rosterrig

#endif
