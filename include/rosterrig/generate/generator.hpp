// rosterrig/generate/generator.hpp: the roster feed, a pure function of a seed.
//
// The feed is a sequence of assertions about providers, numbered seq = 1..N in
// arrival order. How each one is made (all draws from one SplitMix64 stream
// seeded with seed ^ feed_salt, reduced with uniform_below):
//
//   1. the provider: uniform over `providers` (from a second stream seeded
//      with seed ^ pick_salt, read 16 events ahead), so each recurs about
//      events/providers times (6 by default) and the number of distinct NPIs
//      is about providers * (1 - e^-6);
//   2. the source, with its habits:
//        state_board           10%  full record, may flip status or fix a name, lags 1 h .. 1 day
//        payer_directory       55%  partial correction: address or phone,        lags 0 .. 30 min
//        credentialing_service 35%  re-verification, may change taxonomy/status, lags 6 h .. 3 days
//   3. the event time: arrival time (epoch + seq minutes) minus the source's
//      lag, but never earlier than 1 s after the provider's previous
//      assertion. So within one NPI, arrival order = revision order = event
//      time order (a correction lands after the row it corrects), while across
//      sources event time does not follow arrival;
//   4. late stale assertions (knob late_stale_fraction, default 0): with that
//      probability, for a provider with revision >= 2, the event re-delivers
//      the provider's previous assertion (revision r-1, its record and its
//      asserted_at) after revision r has arrived. A last-writer-wins upsert
//      then keeps the older record; see check/expected_state.hpp.
//
// Every event carries the whole provider record after the assertion. A
// provider's first record is drawn from its own stream (seed, provider index),
// so it does not depend on when the provider first appears.
//
// Memory: O(providers) small fixed-size states; events are produced one at a
// time into a reused roster_event (no allocation per event once warm).
#ifndef ROSTERRIG_GENERATE_GENERATOR_HPP
#define ROSTERRIG_GENERATE_GENERATOR_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rosterrig/generate/npi.hpp"
#include "rosterrig/generate/partition.hpp"
#include "rosterrig/generate/roster_event.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/random/splitmix64.hpp"
#include "rosterrig/random/uniform_int.hpp"

namespace rosterrig {

/// Salts: change one and every feed changes (the pinned digest test notices).
inline constexpr std::uint64_t feed_salt = 0x726f737465727269ULL;      // "rosterri"
inline constexpr std::uint64_t provider_salt = 0x70726f7669646572ULL;  // "provider"
inline constexpr std::uint64_t npi_salt = 0x6e70692d73706163ULL;       // "npi-spac"
inline constexpr std::uint64_t pick_salt = 0x7069636b2d707276ULL;      // "pick-prv"

/// Arrival clock: event seq arrives at feed_epoch_ms + seq * arrival_step_ms.
inline constexpr std::int64_t feed_epoch_ms = 1'735'689'600'000;  // 2025-01-01T00:00:00Z
inline constexpr std::int64_t arrival_step_ms = 60'000;

/// The NPI of provider `index` (0-based) for a seed: a bijection of the
/// index onto the 2e8 identifiers 100000000..299999999, plus the check digit.
/// Distinct providers always get distinct NPIs.
constexpr std::uint64_t npi_for_provider(std::uint64_t seed, std::uint64_t index) noexcept {
    constexpr std::uint64_t space = 200'000'000;
    constexpr std::uint64_t multiplier = 2'654'435'761ULL;  // odd, not a multiple of 5: coprime to 2e8
    const std::uint64_t offset = mix64(seed ^ npi_salt) % space;
    const std::uint64_t nine = 100'000'000 + ((index % space) * multiplier % space + offset) % space;
    return make_npi(nine);
}

namespace detail {

inline constexpr std::array<std::string_view, 24> first_names{
    "Maria",  "James",    "Aisha", "Wei",   "Olga",  "Rahul", "Fatima", "John",  "Sofia", "Kwame",  "Emily", "Diego",
    "Hannah", "Mohammed", "Chloe", "Thanh", "Grace", "Ivan",  "Priya",  "Lucas", "Zoe",   "Samuel", "Ines",  "Kenji"};
inline constexpr std::array<std::string_view, 24> last_names{"Garcia",
                                                             "Smith",
                                                             "O'Neil",
                                                             "Nguyen",
                                                             "Patel",
                                                             "Kowalski",
                                                             "Johnson",
                                                             "N\xc3\xba\xc3\xb1"
                                                             "ez",
                                                             "Okafor",
                                                             "Chen",
                                                             "Williams",
                                                             "Haddad",
                                                             "Brown",
                                                             "Rossi",
                                                             "Kim",
                                                             "Schmidt",
                                                             "Lopez",
                                                             "Ivanova",
                                                             "Davis",
                                                             "Tanaka",
                                                             "Moore",
                                                             "Mensah",
                                                             "Fischer",
                                                             "Silva"};
inline constexpr std::array<std::string_view, 14> taxonomies{
    "207Q00000X", "207R00000X", "208D00000X", "207RC0000X", "2084P0800X", "207V00000X", "208000000X",
    "207X00000X", "207N00000X", "363L00000X", "363A00000X", "152W00000X", "1223G0001X", "225100000X"};
inline constexpr std::array<std::string_view, 20> streets{
    "Main",           "Oak",     "Maple",  "Cedar", "Elm",      "Washington", "Lake",     "Hill",    "Park",   "Pine",
    "Medical Center", "Lincoln", "Church", "River", "Highland", "Sunset",     "Franklin", "College", "Spring", "Mill"};
inline constexpr std::array<std::string_view, 6> suffixes{"St", "Ave", "Blvd", "Rd", "Dr", "Way"};
struct city_entry {
    std::string_view city, state, zip3, area;
};
inline constexpr std::array<city_entry, 16> cities{{{"Springfield", "IL", "627", "217"},
                                                    {"Columbus", "OH", "432", "614"},
                                                    {"Austin", "TX", "787", "512"},
                                                    {"Portland", "OR", "972", "503"},
                                                    {"Albany", "NY", "122", "518"},
                                                    {"Madison", "WI", "537", "608"},
                                                    {"Raleigh", "NC", "276", "919"},
                                                    {"Boise", "ID", "837", "208"},
                                                    {"Tucson", "AZ", "857", "520"},
                                                    {"Richmond", "VA", "232", "804"},
                                                    {"Omaha", "NE", "681", "402"},
                                                    {"Savannah", "GA", "314", "912"},
                                                    {"Burlington", "VT", "054", "802"},
                                                    {"Fresno", "CA", "937", "559"},
                                                    {"Lansing", "MI", "489", "517"},
                                                    {"Santa Fe", "NM", "875", "505"}}};
inline constexpr std::array<std::string_view, 3> statuses{"active", "inactive", "suspended"};

/// A provider record as small indices; rendered to strings on emission.
struct compact_record {
    std::uint16_t first = 0, last = 0, taxonomy = 0, street = 0;
    std::uint16_t number = 0;  // street number 1..9999
    std::uint8_t suffix = 0, city = 0, zip_tail = 0, status = 0;
    std::uint32_t phone = 0;  // seven digits: exchange * 10000 + line
};

/// Where a provider's records arrived, for the upsert expectation: the seq
/// of its last event and whether that event re-delivered revision r-1
/// (`previous`), and the seq of the event that carried its newest revision
/// (`current`, emitted once, when it was made).
struct arrival_marks {
    std::uint64_t last_seq = 0;
    std::uint64_t newest_seq = 0;
    bool last_was_stale = false;
};
/// No marks: plain generation keeps the per-provider state small.
struct no_marks {};

template <class Marks>
struct basic_provider_state {
    std::uint64_t npi = 0;        // cached npi_for_provider(seed, index)
    std::uint32_t partition = 0;  // cached partition_of(npi, partitions)
    std::uint32_t revision = 0;   // 0 = not seen yet
    std::int64_t asserted_ms = 0;
    std::int64_t previous_asserted_ms = 0;
    compact_record current;
    compact_record previous;
    [[no_unique_address]] Marks marks;
};
using provider_state = basic_provider_state<no_marks>;

template <class Engine>
void draw_address(Engine& rng, compact_record& r, bool move_city) {
    r.number = static_cast<std::uint16_t>(uniform_between(rng, 1, 9999));
    r.street = static_cast<std::uint16_t>(uniform_below(rng, streets.size()));
    r.suffix = static_cast<std::uint8_t>(uniform_below(rng, suffixes.size()));
    if (move_city) {
        r.city = static_cast<std::uint8_t>(uniform_below(rng, cities.size()));
        r.zip_tail = static_cast<std::uint8_t>(uniform_below(rng, 100));
    }
}

template <class Engine>
void draw_phone(Engine& rng, compact_record& r) {
    r.phone = static_cast<std::uint32_t>(uniform_between(rng, 2'000'000, 9'999'999));
}

inline compact_record initial_record(std::uint64_t seed, std::uint64_t index) {
    splitmix64 rng{mix64(seed ^ provider_salt) ^ mix64(index + 1)};
    compact_record r;
    r.first = static_cast<std::uint16_t>(uniform_below(rng, first_names.size()));
    r.last = static_cast<std::uint16_t>(uniform_below(rng, last_names.size()));
    r.taxonomy = static_cast<std::uint16_t>(uniform_below(rng, taxonomies.size()));
    draw_address(rng, r, true);
    draw_phone(rng, r);
    r.status = uniform_below(rng, 10) == 0 ? 1 : 0;  // one in ten starts inactive
    return r;
}

inline void append_number(std::string& out, std::uint64_t v, int min_width = 1) {
    char buf[24];
    int n = 0;
    do {
        buf[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n < min_width) buf[n++] = '0';
    while (n > 0) out.push_back(buf[--n]);
}

inline void render(const compact_record& r, provider_fields& f) {
    const city_entry& c = cities[r.city];
    f.name.clear();
    f.name.append(first_names[r.first]).append(" ").append(last_names[r.last]);
    f.taxonomy.assign(taxonomies[r.taxonomy]);
    f.address.clear();
    append_number(f.address, r.number);
    f.address.append(" ").append(streets[r.street]).append(" ").append(suffixes[r.suffix]);
    f.city.assign(c.city);
    f.state.assign(c.state);
    f.zip.assign(c.zip3);
    append_number(f.zip, r.zip_tail, 2);
    f.phone.assign(c.area);
    f.phone.push_back('-');
    append_number(f.phone, r.phone / 10000, 3);
    f.phone.push_back('-');
    append_number(f.phone, r.phone % 10000, 4);
    f.status.assign(statuses[r.status]);
}

}  // namespace detail

namespace detail {

/// The feed's one loop. For seq = 1..spec.events, in arrival order, calls
/// on_event(seq, const provider_state&, const compact_record& emitted,
/// revision, asserted_ms, source) with the record as it would be rendered;
/// returns every provider's final state (indexed by provider; revision 0 =
/// never seen). With Marks = arrival_marks each state also records where
/// its records arrived (see arrival_marks). Every feed is made by this loop,
/// rendered or not, so all callers see the same draws.
template <class Marks, class OnEvent>
std::vector<basic_provider_state<Marks>> run_feed(const roster_spec& spec, OnEvent&& on_event) {
    validate(spec);
    std::vector<basic_provider_state<Marks>> providers(spec.providers);
    splitmix64 rng{spec.seed ^ feed_salt};
    // Which provider each event is about comes from its own stream, drawn
    // `lookahead` events early so that the provider's state can be prefetched
    // (with a million providers the state lookup is otherwise a cache miss).
    constexpr std::size_t lookahead = 16;
    splitmix64 pick{spec.seed ^ pick_salt};
    std::array<std::uint64_t, lookahead> upcoming{};
    for (auto& u : upcoming) u = uniform_below(pick, spec.providers);
    for (std::uint64_t seq = 1; seq <= spec.events; ++seq) {
        const std::size_t ring = static_cast<std::size_t>(seq % lookahead);
        const std::uint64_t index = upcoming[ring];
        upcoming[ring] = uniform_below(pick, spec.providers);
#if defined(__GNUC__)
        __builtin_prefetch(&providers[static_cast<std::size_t>(upcoming[ring])], 1);
#endif
        const std::uint64_t source_draw = uniform_below(rng, 100);
        const source_kind source = source_draw < 10   ? source_kind::state_board
                                   : source_draw < 65 ? source_kind::payer_directory
                                                      : source_kind::credentialing;
        const bool stale_draw = bernoulli(rng, spec.late_stale_fraction);
        const std::uint64_t habit = uniform_below(rng, 100);
        std::int64_t lag_ms = 0;
        switch (source) {
            case source_kind::state_board:
                lag_ms = static_cast<std::int64_t>(uniform_between(rng, 3'600'000, 86'400'000));
                break;
            case source_kind::payer_directory:
                lag_ms = static_cast<std::int64_t>(uniform_below(rng, 1'800'001));
                break;
            case source_kind::credentialing:
                lag_ms = static_cast<std::int64_t>(uniform_between(rng, 21'600'000, 259'200'000));
                break;
        }
        const std::int64_t arrival_ms = feed_epoch_ms + static_cast<std::int64_t>(seq) * arrival_step_ms;

        auto& p = providers[index];
        const compact_record* emitted = &p.current;
        std::uint32_t revision = 0;
        std::int64_t asserted_ms = 0;
        bool stale = false;
        if (p.revision == 0) {
            p.npi = npi_for_provider(spec.seed, index);
            p.partition = partition_of(p.npi, spec.partitions);
            p.current = initial_record(spec.seed, index);
            p.previous = p.current;
            p.revision = 1;
            p.asserted_ms = arrival_ms - lag_ms;
            revision = p.revision;
            asserted_ms = p.asserted_ms;
        } else if (stale_draw && p.revision >= 2) {
            emitted = &p.previous;  // late re-delivery of revision r-1
            revision = p.revision - 1;
            asserted_ms = p.previous_asserted_ms;
            stale = true;
        } else {
            p.previous = p.current;
            p.previous_asserted_ms = p.asserted_ms;
            compact_record& r = p.current;
            switch (source) {
                case source_kind::state_board:
                    if (habit < 25)
                        r.status = r.status == 0 ? 1 : 0;
                    else if (habit < 35)
                        r.last = static_cast<std::uint16_t>(uniform_below(rng, last_names.size()));
                    break;
                case source_kind::payer_directory:
                    if (habit < 45)
                        draw_address(rng, r, habit < 15);
                    else if (habit < 80)
                        draw_phone(rng, r);
                    break;
                case source_kind::credentialing:
                    if (habit < 30)
                        r.taxonomy = static_cast<std::uint16_t>(uniform_below(rng, taxonomies.size()));
                    else if (habit < 45)
                        r.status = r.status == 2 ? 0 : 2;
                    break;
            }
            ++p.revision;
            p.asserted_ms = std::max(p.asserted_ms + 1000, arrival_ms - lag_ms);
            revision = p.revision;
            asserted_ms = p.asserted_ms;
        }
        if constexpr (!std::is_same_v<Marks, no_marks>) {
            p.marks.last_seq = seq;
            p.marks.last_was_stale = stale;
            if (!stale) p.marks.newest_seq = seq;
        }
        on_event(seq, static_cast<const basic_provider_state<Marks>&>(p), *emitted, revision, asserted_ms, source);
    }
    return providers;
}

}  // namespace detail

/// Calls f(const roster_event&) for seq = 1..spec.events in arrival order.
/// The reference is to one reused object: copy it if you keep it.
template <class F>
void for_each_event(const roster_spec& spec, F&& f) {
    roster_event event;
    detail::run_feed<detail::no_marks>(
        spec, [&](std::uint64_t seq, const detail::provider_state& p, const detail::compact_record& emitted,
                  std::uint32_t revision, std::int64_t asserted_ms, source_kind source) {
            event.seq = seq;
            event.npi = p.npi;
            event.partition = p.partition;
            event.source = source;
            event.revision = revision;
            event.asserted_at_ms = asserted_ms;
            detail::render(emitted, event.fields);
            f(static_cast<const roster_event&>(event));
        });
}

/// The whole feed in memory (tests, small runs). Prefer for_each_event for
/// large feeds: each event holds a few hundred bytes.
inline std::vector<roster_event> generate(const roster_spec& spec) {
    std::vector<roster_event> events;
    events.reserve(static_cast<std::size_t>(spec.events));
    for_each_event(spec, [&](const roster_event& e) { events.push_back(e); });
    return events;
}

}  // namespace rosterrig

#endif
