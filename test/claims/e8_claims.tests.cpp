// Experiment 8's claims (a table commit whose reply is lost, refused, or lands
// late), asserted against the shipped results file. Each holds on the shipped
// samples AND fails on a copy with the named mutation, so a claim cannot pass by
// checking nothing.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp>

#include "shipped_result.hpp"

using namespace rosterrig;

using C = claims_test::claims_of<e8::definition>;

namespace {

// The claims below are of the append table with the catalog's retries on
// (each writer's first run); the other tables have claims of their own.
bool on_append_table(const e8::writer_run& r) { return e8::variant_of(r) == e8::table_variant::append; }

std::vector<e8::trial_outcome> valid_outcomes(const e8::samples& x, const std::string& writer, e8::cell c) {
    std::vector<e8::trial_outcome> out;
    for (const auto& r : x.runs)
        if (r.writer == writer && on_append_table(r))
            for (const auto& t : r.trials)
                if (t.kind == c)
                    if (auto o = e8::outcome_of(r, t); o.valid.valid) out.push_back(o);
    return out;
}

e8::writer_run& run_named(e8::samples& x, const std::string& writer) {
    for (auto& r : x.runs)
        if (r.writer == writer && on_append_table(r)) return r;
    throw std::logic_error("no run of " + writer);
}

// The first valid trial of a cell in a writer's run.
const e8::trial& first_valid(e8::writer_run& r, e8::cell c) {
    for (const auto& t : r.trials)
        if (t.kind == c && e8::validity_of(t).valid) return t;
    throw std::logic_error("no valid trial");
}

const std::vector<std::string> writers{"sinkv2", "flinksink"};

// Every valid trial of a run committed its checkpoint `times` times, and there
// were at least `at_least` valid trials.
bool every_valid_trial_committed(const e8::writer_run& r, std::uint64_t times, std::size_t at_least) {
    const auto run = e8::run_name(r);
    std::size_t valid = 0;
    for (const auto& t : r.trials) {
        const auto o = e8::outcome_of(r, t);
        if (!o.valid.valid) continue;
        ++valid;
        if (!claims_test::eq(run + " trial " + std::to_string(t.index) + " commits of the hit checkpoint",
                             o.commits_of_checkpoint, times))
            return false;
    }
    return claims_test::ge(run + " valid trials", valid, at_least);
}

}  // namespace

// Mutation: drop the second snapshot of one doubled SinkV2 zombie-409 checkpoint.
TEST_CASE("in every valid e8 zombie trial both Flink sinks committed the hit checkpoint twice", "[claims][e8]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e8::samples& x) {
            for (const auto& w : writers)
                for (const auto c : {e8::cell::zombie_409, e8::cell::zombie_refresh}) {
                    const auto got = valid_outcomes(x, w, c);
                    const auto cell = w + " " + e8::stem_of(c);
                    if (!claims_test::ge(cell + " valid trials", got.size(), 3)) return false;
                    for (const auto& o : got)
                        if (!claims_test::eq(cell + " commits of the hit checkpoint", o.commits_of_checkpoint, 2) ||
                            !claims_test::gt(cell + " excess records", o.excess_records, 0))
                            return false;
                }
            return true;
        },
        [](e8::samples& x) {
            auto& r = run_named(x, "sinkv2");
            const auto c = e8::hit_checkpoint(first_valid(r, e8::cell::zombie_409));
            for (auto it = r.snapshots.rbegin(); it != r.snapshots.rend(); ++it)
                if (it->watermark == c) {
                    r.snapshots.erase(std::next(it).base());
                    break;
                }
        });
}

// Mutation: a second snapshot carrying the watermark of one FlinkSink lost-reply trial.
TEST_CASE("no e8 lost reply, 5xx answer or 504 after forwarding committed its checkpoint twice", "[claims][e8]") {
    C::holds_and_is_mutation_checked(
        [](const e8::samples& x) {
            for (const auto& w : writers)
                for (const auto c : {e8::cell::lose_reply, e8::cell::status_unforwarded, e8::cell::forward_then_504}) {
                    const auto got = valid_outcomes(x, w, c);
                    const auto cell = w + " " + e8::stem_of(c);
                    if (!claims_test::ge(cell + " valid trials", got.size(), 5)) return false;
                    for (const auto& o : got)
                        if (!claims_test::eq(cell + " commits of the hit checkpoint", o.commits_of_checkpoint, 1))
                            return false;
                }
            return true;
        },
        [](e8::samples& x) {
            auto& r = run_named(x, "flinksink");
            const auto c = e8::hit_checkpoint(first_valid(r, e8::cell::lose_reply));
            r.snapshots.push_back({999, "append", "job", c, 100, {}});
        });
}

// Mutation: one more duplicate seq row in the SinkV2 table than its doubled snapshots added.
TEST_CASE(
    "the e8 duplicate seq rows Trino reads are exactly the records the doubled snapshots added, and no seq is missing",
    "[claims][e8]") {
    C::holds_and_is_mutation_checked(
        [](const e8::samples& x) {
            std::size_t append_runs = 0;
            for (const auto& r : x.runs) {
                if (!on_append_table(r)) continue;
                ++append_runs;
                std::int64_t doubled = 0;
                for (const auto& t : r.trials) doubled += e8::outcome_of(r, t).excess_records;
                const auto rr = e8::replay_report(r);
                const auto& w = r.writer;
                if (!claims_test::that(w + " table read back", r.observed) ||
                    !claims_test::eq(w + " missing seqs", r.missing_seq, 0) ||
                    !claims_test::gt(w + " duplicate rows", r.duplicate_rows, 0))
                    return false;
                if (!claims_test::eq(w + " duplicate rows == records the doubled snapshots added", r.duplicate_rows,
                                     rr.excess_records()) ||
                    !claims_test::eq(w + " records doubled snapshots added == the trials' excess", rr.excess_records(),
                                     doubled))
                    return false;
            }
            return claims_test::eq("append-table runs", append_runs, 2);
        },
        [](e8::samples& x) { run_named(x, "sinkv2").duplicate_rows += 1; });
}

// Mutation: one SinkV2 lost-reply trial with two failures in Flink's exception history.
TEST_CASE("every e8 commit fault without a kill failed the Flink job exactly once, and the job committed again",
          "[claims][e8]") {
    C::holds_and_is_mutation_checked(
        [](const e8::samples& x) {
            std::size_t seen = 0;
            for (const auto& r : x.runs)
                for (const auto& t : r.trials) {
                    if (e8::has_kill(t.kind) || !e8::validity_of(t).valid) continue;
                    ++seen;
                    const auto trial = e8::run_name(r) + " trial " + std::to_string(t.index);
                    if (!claims_test::eq(trial + " job failures", t.exceptions_after - t.exceptions_before, 1) ||
                        !claims_test::gt(trial + " settled after the heal (ms)", t.settled_at_ms, t.healed_at_ms))
                        return false;
                }
            return claims_test::ge("faults without a kill", seen, 30);
        },
        [](e8::samples& x) {
            for (auto& t : run_named(x, "sinkv2").trials)
                if (t.kind == e8::cell::lose_reply) {
                    t.exceptions_after += 1;
                    break;
                }
        });
}

TEST_CASE("the e8 verdicts on record are the ones the code computes from the samples", "[claims][e8]") {
    auto h = C::recorded_verdicts_are_recomputed(31);
    // Mutation (data): a lost-reply checkpoint committed twice refutes its prediction.
    auto& r = run_named(h.samples, "sinkv2");
    const auto c = e8::hit_checkpoint(first_valid(r, e8::cell::lose_reply));
    r.snapshots.push_back({999, "append", "job", c, 100, {}});
    bool refuted = false;
    for (const auto& p : experiment::rejudge(h))
        if (p.id == "e8.lose-reply:sinkv2") refuted = p.verdict == verdict_kind::refuted;
    CHECK(refuted);
}

// Mutation: one upsert table read back with an NPI on two rows.
TEST_CASE(
    "on the e8 upsert tables every valid zombie trial committed its checkpoint twice, and the table still held one latest row per NPI",
    "[claims][e8]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e8::samples& x) {
            std::size_t upsert_runs = 0;
            for (const auto& r : x.runs) {
                if (e8::variant_of(r) != e8::table_variant::upsert) continue;
                ++upsert_runs;
                const auto run = e8::run_name(r);
                if (!every_valid_trial_committed(r, 2, 10) || !claims_test::that(run + " read back", r.observed) ||
                    !claims_test::eq(run + " NPIs on more than one row", r.rows_sharing_npi.value_or(1), 0) ||
                    !claims_test::eq(run + " NPIs missing", r.missing_npis.value_or(1), 0) ||
                    !claims_test::eq(run + " rows not the latest", r.stale_rows.value_or(1), 0))
                    return false;
            }
            return claims_test::eq("upsert-table runs", upsert_runs, 2);
        },
        [](e8::samples& x) {
            for (auto& r : x.runs)
                if (e8::variant_of(r) == e8::table_variant::upsert) {
                    r.rows_sharing_npi = 1;
                    break;
                }
        });
}

// Mutation: a second snapshot carrying the watermark of one no-retries trial's checkpoint.
TEST_CASE(
    "with the catalog's commit retry off no valid e8 zombie-409 trial committed its checkpoint twice, on append or upsert tables",
    "[claims][e8]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e8::samples& x) {
            std::size_t runs = 0;
            for (const auto& r : x.runs) {
                if (!e8::retries_off(e8::variant_of(r))) continue;
                ++runs;
                const auto run = e8::run_name(r);
                if (!every_valid_trial_committed(r, 1, 5) || !claims_test::that(run + " read back", r.observed) ||
                    !claims_test::eq(run + " duplicate seq rows", r.duplicate_rows, 0) ||
                    !claims_test::eq(run + " NPIs on more than one row", r.rows_sharing_npi.value_or(0), 0))
                    return false;
            }
            return claims_test::eq("runs with the retry off", runs, 4);
        },
        [](e8::samples& x) {
            for (auto& r : x.runs)
                if (e8::retries_off(e8::variant_of(r)))
                    for (const auto& t : r.trials)
                        if (e8::validity_of(t).valid) {
                            r.snapshots.push_back({999, "append", "job", e8::hit_checkpoint(t), 100, {}});
                            return;
                        }
        });
}
