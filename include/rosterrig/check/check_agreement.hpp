// rosterrig/check/check_agreement.hpp: where two checks of the same table
// disagree — the streaming check (rows read back one by one) and the same
// check run as SQL by the engine (engine_check_sql.hpp). Every count and
// every anomaly list is compared; a list one side cut at its cap is
// compared only where both hold it whole. An empty answer means they agree.
#ifndef ROSTERRIG_CHECK_CHECK_AGREEMENT_HPP
#define ROSTERRIG_CHECK_CHECK_AGREEMENT_HPP

#include <algorithm>
#include <string>
#include <vector>

#include "rosterrig/check/append_check.hpp"
#include "rosterrig/check/upsert_check.hpp"

namespace rosterrig {

namespace detail {
template <class T>
void compare_field(std::vector<std::string>& out, const char* what, const T& streamed, const T& engine) {
    if (streamed == engine) return;
    if constexpr (requires { std::to_string(streamed); })
        out.push_back(std::string(what) + ": streamed " + std::to_string(streamed) + ", engine " +
                      std::to_string(engine));
    else if constexpr (requires { streamed.size(); }) {
        std::size_t k = 0;
        while (k < streamed.size() && k < engine.size() && streamed[k] == engine[k]) ++k;
        out.push_back(std::string(what) + ": the lists differ from entry " + std::to_string(k + 1) + " on (streamed " +
                      std::to_string(streamed.size()) + " entries, engine " + std::to_string(engine.size()) + ")");
    }
}

template <class T, class Less>
std::vector<T> sorted(std::vector<T> v, Less less) {
    std::sort(v.begin(), v.end(), less);
    return v;
}
}  // namespace detail

/// How the two append checks of one table differ; empty when they agree.
inline std::vector<std::string> append_disagreements(const append_result& streamed, const append_result& engine) {
    std::vector<std::string> out;
    detail::compare_field(out, "rows", streamed.rows, engine.rows);
    detail::compare_field(out, "distinct seqs", streamed.distinct_seq, engine.distinct_seq);
    detail::compare_field(out, "duplicate rows", streamed.duplicate_rows, engine.duplicate_rows);
    detail::compare_field(out, "duplicated seqs", streamed.duplicates, engine.duplicates);
    detail::compare_field(out, "missing seqs", streamed.missing_seq, engine.missing_seq);
    detail::compare_field(out, "missing runs", streamed.missing_runs, engine.missing_runs);
    detail::compare_field(out, "rows out of range", streamed.out_of_range_rows, engine.out_of_range_rows);
    // The streamed list holds the first cap in arrival order, the engine's the lowest cap: the same set only when whole.
    const auto whole = [](const append_result& r) { return r.out_of_range_seq.size() == r.out_of_range_rows; };
    if (whole(streamed) && whole(engine)) {
        const auto less = [](std::uint64_t a, std::uint64_t b) { return a < b; };
        detail::compare_field(out, "seqs out of range", detail::sorted(streamed.out_of_range_seq, less),
                              detail::sorted(engine.out_of_range_seq, less));
    }
    return out;
}

/// How the two upsert checks of one table differ; empty when they agree.
inline std::vector<std::string> upsert_disagreements(const upsert_result& streamed, const upsert_result& engine) {
    std::vector<std::string> out;
    detail::compare_field(out, "rows", streamed.rows, engine.rows);
    detail::compare_field(out, "distinct NPIs", streamed.distinct_npis, engine.distinct_npis);
    detail::compare_field(out, "rows sharing an NPI", streamed.rows_sharing_npi, engine.rows_sharing_npi);
    detail::compare_field(out, "shared NPIs", streamed.shared_npis, engine.shared_npis);
    detail::compare_field(out, "missing NPIs", streamed.missing_npis, engine.missing_npis);
    detail::compare_field(out, "stale rows", streamed.stale_rows, engine.stale_rows);
    detail::compare_field(out, "NPIs without their latest record", streamed.npis_without_latest,
                          engine.npis_without_latest);
    detail::compare_field(out, "unexpected rows", streamed.unexpected_rows, engine.unexpected_rows);
    detail::compare_field(out, "unexpected NPIs", streamed.unexpected_npis, engine.unexpected_npis);
    detail::compare_field(out, "rows behind the newest revision", streamed.behind_newest_revision,
                          engine.behind_newest_revision);
    if (!streamed.stale_capped && !engine.stale_capped) {
        const auto less = [](const stale_row& a, const stale_row& b) {
            return a.npi != b.npi ? a.npi < b.npi : a.observed_seq < b.observed_seq;
        };
        detail::compare_field(out, "stale row list", detail::sorted(streamed.stale, less),
                              detail::sorted(engine.stale, less));
    }
    return out;
}

}  // namespace rosterrig

#endif
