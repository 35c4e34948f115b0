// rosterrig/check/expected_state.hpp: what a correct table holds, computed
// from the seed alone, never from a run.
//
// append:  every seq 1..N exactly once (the feed itself, expected_append_rows).
// upsert on npi: one row per NPI that appears, carrying the record a keyed,
//   last-writer-wins sink keeps: the LAST record of that NPI in arrival order
//   within its partition. All records of an NPI share a partition, so that is
//   simply the NPI's highest seq (expected_latest_by_arrival).
//
// Relation to event time: without late stale assertions, an NPI's records
// arrive in revision order, so last-arrived = newest revision = newest
// asserted_at. With late_stale_fraction > 0, an older assertion can arrive
// last, and a correct last-writer-wins sink keeps it: the table matches the
// expectation and is still stale by event time. Both answers are exposed
// (latest_by_arrival, newest_by_revision) so that the check can count that
// hazard separately from pipeline faults. See docs/EXPECTED_STATE.md.
#ifndef ROSTERRIG_CHECK_EXPECTED_STATE_HPP
#define ROSTERRIG_CHECK_EXPECTED_STATE_HPP

#include <algorithm>
#include <cstdint>
#include <vector>

#include "rosterrig/check/missing_ranges.hpp"

#include "rosterrig/detail/flat_map.hpp"
#include "rosterrig/generate/generator.hpp"

namespace rosterrig {

/// One record identified compactly: its seq, revision and fields_digest.
struct expected_record {
    std::uint64_t seq = 0;
    std::uint32_t revision = 0;
    std::uint64_t digest = 0;
    friend bool operator==(const expected_record&, const expected_record&) = default;
};

struct upsert_expectation_entry {
    expected_record latest_by_arrival;   ///< what a last-writer-wins sink keeps
    expected_record newest_by_revision;  ///< what is newest by event time
};

/// The upsert expectation for every NPI in the feed. Memory ∝ distinct NPIs.
struct upsert_expectation {
    std::uint64_t events = 0;
    /// NPI -> entry; iterate with `for (const auto& [npi, entry] : by_npi)`.
    detail::flat_map<upsert_expectation_entry> by_npi;

    /// NPIs whose last-arrived record is not their newest revision: where a
    /// correct last-writer-wins table is stale by event time.
    std::vector<std::uint64_t> stale_by_event_time_npis() const {
        std::vector<std::uint64_t> out;
        for (const auto& [npi, e] : by_npi)
            if (e.latest_by_arrival.seq != e.newest_by_revision.seq) out.push_back(npi);
        std::sort(out.begin(), out.end());
        return out;
    }
};

namespace detail {
/// Folds one record of `npi` into an expectation (records must come in seq order).
inline void fold_record(upsert_expectation& x, std::uint64_t npi, const expected_record& r) {
    auto [entry, inserted] = x.by_npi.try_emplace(npi, upsert_expectation_entry{r, r});
    if (!inserted) {
        entry->latest_by_arrival = r;
        if (r.revision > entry->newest_by_revision.revision) entry->newest_by_revision = r;
    }
    x.events = std::max(x.events, r.seq);
}
}  // namespace detail

/// Folds one event into an expectation (events must come in seq order).
inline void fold_upsert(upsert_expectation& x, const roster_event& e) {
    detail::fold_record(x, e.npi, expected_record{e.seq, e.revision, fields_digest(e.fields)});
}

/// The upsert expectation of a feed, from one generator pass that renders
/// nothing per event. The generator's own per-provider state records where
/// each provider's records arrived (detail::arrival_marks: its last seq,
/// whether that event re-delivered revision r-1, the seq of its newest
/// revision); providers map one to one onto NPIs, so after the pass each
/// NPI's entry is read off its provider's final state, and only those
/// records (one or two per NPI, not one per event) are rendered and
/// digested. The result equals folding every event in seq order with
/// fold_upsert (test/unit/expected_state.tests.cpp holds the two side by side).
inline upsert_expectation expect_upsert(const roster_spec& spec) {
    const auto providers = detail::run_feed<detail::arrival_marks>(
        spec,
        [](std::uint64_t, const auto&, const detail::compact_record&, std::uint32_t, std::int64_t, source_kind) {});
    std::size_t seen = 0;
    for (const auto& p : providers) seen += p.revision != 0;
    upsert_expectation x;
    x.by_npi.reserve(seen);
    provider_fields fields;
    auto digest_of = [&fields](const detail::compact_record& r) {
        detail::render(r, fields);
        return fields_digest(fields);
    };
    // Inserted in provider order: each NPI's slot is prefetched `lookahead`
    // providers before it is written.
    constexpr std::size_t lookahead = 16;
    for (std::size_t i = 0; i < providers.size(); ++i) {
        if (i + lookahead < providers.size() && providers[i + lookahead].revision != 0)
            x.by_npi.prefetch(providers[i + lookahead].npi);
        const auto& p = providers[i];
        if (p.revision == 0) continue;
        const expected_record newest{p.marks.newest_seq, p.revision, digest_of(p.current)};
        const expected_record latest =
            p.marks.last_was_stale ? expected_record{p.marks.last_seq, p.revision - 1, digest_of(p.previous)} : newest;
        x.by_npi.try_emplace(p.npi, upsert_expectation_entry{latest, newest});
    }
    x.events = spec.events;
    return x;
}

/// The same expectation folded event by event from the rendered feed (every
/// event digested): the definition expect_upsert is held to, kept for tests.
inline upsert_expectation expect_upsert_by_folding(const roster_spec& spec) {
    upsert_expectation x;
    x.by_npi.reserve(static_cast<std::size_t>(std::min(spec.providers, spec.events)));
    for_each_event(spec, [&](const roster_event& e) { fold_upsert(x, e); });
    x.events = spec.events;
    return x;
}

/// The expected append table: the feed itself, seq order.
inline std::vector<roster_event> expected_append_rows(const roster_spec& spec) { return generate(spec); }

namespace detail {
template <class Pick>
std::vector<roster_event> rows_picked(const roster_spec& spec, Pick pick) {
    const upsert_expectation x = expect_upsert(spec);
    std::vector<std::uint8_t> wanted(static_cast<std::size_t>(spec.events) + 1, 0);
    for (const auto& [npi, e] : x.by_npi) wanted[pick(e).seq] = 1;
    std::vector<roster_event> out;
    out.reserve(x.by_npi.size());
    for_each_event(spec, [&](const roster_event& e) {
        if (wanted[e.seq]) out.push_back(e);
    });
    return out;
}
}  // namespace detail

/// The expected upsert table: one full row per NPI, the last-arrived record,
/// in seq order. Holds whole rows: meant for feeds that fit in memory.
inline std::vector<roster_event> expected_latest_by_arrival(const roster_spec& spec) {
    return detail::rows_picked(spec, [](const upsert_expectation_entry& e) { return e.latest_by_arrival; });
}

/// One full row per NPI, the newest revision (the event-time answer), seq order.
inline std::vector<roster_event> newest_by_revision(const roster_spec& spec) {
    return detail::rows_picked(spec, [](const upsert_expectation_entry& e) { return e.newest_by_revision; });
}

/// An upsert table's missing runs: runs of consecutive expected seqs (each
/// NPI's last-arrived seq, ascending) whose NPI has no row, so a reader sees
/// which stretch of the feed's final state is absent.
inline std::vector<seq_range> missing_latest_runs(const upsert_expectation& x,
                                                  const std::vector<std::uint64_t>& missing_npis) {
    std::vector<std::uint64_t> missing(missing_npis.begin(), missing_npis.end());
    std::sort(missing.begin(), missing.end());
    std::vector<std::pair<std::uint64_t, bool>> marks;  // (expected seq, present)
    for (const auto& [npi, e] : x.by_npi)
        marks.emplace_back(e.latest_by_arrival.seq, !std::binary_search(missing.begin(), missing.end(), npi));
    std::sort(marks.begin(), marks.end());
    std::vector<seq_range> runs;
    for (const auto& r : missing_ranges(marks.size(), [&](std::uint64_t i) { return marks[i - 1].second; }))
        runs.push_back({marks[r.first - 1].first, marks[r.last - 1].first});
    return runs;
}

}  // namespace rosterrig

#endif
