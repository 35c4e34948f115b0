#include <catch2/catch.hpp>

#include <map>

#include "rosterrig/check/expected_state.hpp"

using namespace rosterrig;

TEST_CASE("the upsert expectation keeps each NPI's last-arrived record", "[expected_state]") {
    const roster_spec spec{.seed = 4, .providers = 300, .events = 2500, .partitions = 4, .late_stale_fraction = 0.1};
    const auto events = generate(spec);
    std::map<std::uint64_t, const roster_event*> last, newest;
    for (const auto& e : events) {
        last[e.npi] = &e;
        auto& n = newest[e.npi];
        if (!n || e.revision > n->revision) n = &e;
    }
    const upsert_expectation x = expect_upsert(spec);
    REQUIRE(x.by_npi.size() == last.size());
    for (const auto& [npi, e] : last) {
        const auto& entry = x.by_npi.at(npi);
        CHECK(entry.latest_by_arrival.seq == e->seq);
        CHECK(entry.latest_by_arrival.digest == fields_digest(e->fields));
        CHECK(entry.newest_by_revision.seq == newest.at(npi)->seq);
    }
}

TEST_CASE("without late stale assertions the last-arrived record is the newest revision", "[expected_state]") {
    const upsert_expectation x = expect_upsert(roster_spec{});
    CHECK(x.by_npi.size() == 1997);
    CHECK(x.stale_by_event_time_npis().empty());
}

TEST_CASE("with late stale assertions some NPIs end on an older revision", "[expected_state]") {
    // Mutation check: making fold_upsert update newest_by_revision on every
    // event (dropping the revision comparison) empties this list and fails
    // (tried once).
    roster_spec spec;
    spec.late_stale_fraction = 0.05;
    const upsert_expectation x = expect_upsert(spec);
    const auto hazard = x.stale_by_event_time_npis();
    CHECK(hazard.size() > 20);
    for (auto npi : hazard) {
        const auto& e = x.by_npi.at(npi);
        CHECK(e.latest_by_arrival.revision < e.newest_by_revision.revision);
        CHECK(e.latest_by_arrival.seq > e.newest_by_revision.seq);
    }
}

TEST_CASE("the expected upsert table has one row per NPI, in seq order", "[expected_state]") {
    const roster_spec spec{.seed = 8, .providers = 100, .events = 700};
    const auto rows = expected_latest_by_arrival(spec);
    const auto x = expect_upsert(spec);
    REQUIRE(rows.size() == x.by_npi.size());
    for (std::size_t i = 1; i < rows.size(); ++i) CHECK(rows[i - 1].seq < rows[i].seq);
    for (const auto& r : rows) CHECK(x.by_npi.at(r.npi).latest_by_arrival.seq == r.seq);
    CHECK(newest_by_revision(spec) == rows);  // no late stale assertions: the same rows
    CHECK(expected_append_rows(spec).size() == 700);
}

TEST_CASE("an upsert table's missing runs are stretches of expected seqs whose NPI has no row",
          "[expected_state][missing]") {
    roster_spec spec;
    spec.seed = 3, spec.events = 300, spec.providers = 50;
    const auto latest = expected_latest_by_arrival(spec);  // one row per NPI, in seq order
    REQUIRE(latest.size() == 50);
    const auto runs = missing_latest_runs(expect_upsert(spec), {latest.back().npi, latest[1].npi, latest[2].npi});
    REQUIRE(runs.size() == 2);
    // Mutation: index marks from 0 in the range mapping and the runs shift by one row.
    CHECK(runs[0] == seq_range{latest[1].seq, latest[2].seq});
    CHECK(runs[1] == seq_range{latest.back().seq, latest.back().seq});
    CHECK(missing_latest_runs(expect_upsert(spec), {}).empty());
}

TEST_CASE("the one-pass expectation equals folding every event of the feed", "[expected_state]") {
    // expect_upsert reads each NPI's entry off the generator's final
    // per-provider state instead of folding (and digesting) every event.
    // Mutation check: in expect_upsert, ignoring marks.last_was_stale (taking
    // the newest revision as the last-arrived record) fails this on the feeds
    // with late stale assertions (tried once); so does using marks.last_seq
    // as the newest revision's seq.
    for (const double late : {0.0, 0.05, 0.3}) {
        for (const std::uint64_t seed : {1u, 6u}) {
            const roster_spec spec{
                .seed = seed, .providers = 400, .events = 3000, .partitions = 4, .late_stale_fraction = late};
            INFO("seed " << seed << ", late_stale_fraction " << late);
            const upsert_expectation one = expect_upsert(spec);
            const upsert_expectation folded = expect_upsert_by_folding(spec);
            CHECK(one.events == folded.events);
            REQUIRE(one.by_npi.size() == folded.by_npi.size());
            std::size_t differ = 0;
            for (const auto& [npi, f] : folded.by_npi) {
                const upsert_expectation_entry* o = one.by_npi.find(npi);
                REQUIRE(o != nullptr);
                if (!(o->latest_by_arrival == f.latest_by_arrival && o->newest_by_revision == f.newest_by_revision))
                    ++differ;
            }
            CHECK(differ == 0);
            if (late > 0) CHECK_FALSE(folded.stale_by_event_time_npis().empty());  // the stale branch is exercised
        }
    }
}
