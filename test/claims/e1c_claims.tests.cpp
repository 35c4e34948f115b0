// Experiment 1c's claims, asserted against the shipped results file. Each
// test checks the claim holds on the shipped samples AND fails on a copy with
// the named mutation, so a claim cannot pass by checking nothing.
#include <catch2/catch.hpp>

#include <map>

#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp>
#include <rosterrig/generate/feed_digest.hpp>

#include "shipped_result.hpp"

using namespace rosterrig;

using C = claims_test::claims_of<e1c::definition>;

namespace {
/// Every cell ran in every round, each round once.
bool every_cell_ran(const e1c::samples& s, const e1c::parameters& p) {
    for (const auto& c : e1c::cells_of(p)) {
        std::vector<std::uint64_t> rounds;
        for (const auto* r : e1c::runs_of(s, c.name)) rounds.push_back(r->repeat);
        std::sort(rounds.begin(), rounds.end());
        for (std::uint64_t i = 0; i < p.repeats; ++i)
            if (!claims_test::eq(c.name + " rounds run", rounds.size(), p.repeats) ||
                !claims_test::eq(c.name + " round in sorted place " + std::to_string(i + 1), rounds[i], i + 1))
                return false;
    }
    return claims_test::eq("e1c runs == cells times repeats", s.runs.size(), e1c::cells_of(p).size() * p.repeats);
}
}  // namespace

// Mutation: one cell's writer recorded at one subtask.
TEST_CASE("every e1c cell ran its writer at two subtasks behind an exchange, as Flink's plan reported",
          "[claims][e1c]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e1c::samples& x, const e1c::parameters& p) {
            for (const auto& r : x.runs) {
                const auto run = e1c::run_label(r);
                if (!claims_test::eq(run + " writer parallelism", r.writer_parallelism, p.writer_parallelism) ||
                    !claims_test::ne(run + " writer input", r.writer_input, "FORWARD") ||
                    !claims_test::that(run + " writer input recorded", !r.writer_input.empty()))
                    return false;
            }
            return every_cell_ran(x, p);
        },
        [](e1c::samples& x) { x.runs.at(0).writer_parallelism = 1; });
}

// Mutation: the aligned FlinkSink cell recorded with the generous timeout in force.
TEST_CASE(
    "each e1c job ran with the alignment, interval, timeout and tolerable failures requested, as Flink reported them",
    "[claims][e1c]") {
    C::holds_and_is_mutation_checked(
        [](const e1c::samples& x, const e1c::parameters& p) {
            for (const auto& c : e1c::cells_of(p))
                for (const auto* r : e1c::runs_of(x, c.name)) {
                    const auto run = e1c::run_label(*r);
                    if (!claims_test::eq(run + " checkpointing mode in force", r->mode_in_force, "exactly_once") ||
                        !claims_test::eq(run + " unaligned checkpoints in force", r->unaligned_in_force, c.unaligned) ||
                        !claims_test::eq(run + " checkpoint interval in force (ms)", r->interval_in_force_ms,
                                         p.checkpoint_interval_ms) ||
                        !claims_test::eq(run + " checkpoint timeout in force (ms)", r->timeout_in_force_ms,
                                         e1c::timeout_of(p, c)) ||
                        !claims_test::eq(run + " tolerable failed checkpoints in force", r->tolerable_in_force,
                                         p.tolerable_failed_checkpoints))
                        return false;
                }
            return every_cell_ran(x, p);
        },
        [](e1c::samples& x) { x.runs.at(1).timeout_in_force_ms = 600'000; });
}

// Mutation: one cell's recorded digest with a changed digit.
TEST_CASE("each e1c cell's feed regenerates to the digest the results recorded", "[claims][e1c]") {
    const auto& params = C::load().params;
    std::map<std::string, std::string> digests;  // by cell: the paced cells' feeds are shorter
    for (const auto& c : e1c::cells_of(params)) digests[c.name] = feed_sha256(e1c::feed_of(params, c));
    C::holds_and_is_mutation_checked(
        [&](const e1c::samples& x, const e1c::parameters& p) {
            for (const auto& r : x.runs) {
                const auto run = e1c::run_label(r);
                if (!claims_test::eq(run + " feed digest recorded == regenerated", r.feed_sha256, digests.at(r.name)) ||
                    !claims_test::eq(run + " acknowledged == events", r.acknowledged, r.events))
                    return false;
            }
            return every_cell_ran(x, p);
        },
        [](e1c::samples& x) {
            auto& d = x.runs.at(2).feed_sha256;
            d.at(0) = d.at(0) == '0' ? '1' : '0';
        });
}

// Mutation: a snapshot's added-records raised by one.
TEST_CASE("in every e1c append cell the records the snapshots added are the rows Trino read back", "[claims][e1c]") {
    C::holds_and_is_mutation_checked(
        [](const e1c::samples& x, const e1c::parameters& p) {
            for (const auto& r : x.runs)  // an upsert table's rows are fewer by design: its NPIs
                if (!r.upsert && !claims_test::eq(e1c::run_label(r) + " records the snapshots added == rows",
                                                  e1c::records_committed(r), static_cast<std::int64_t>(r.rows)))
                    return false;
            return every_cell_ran(x, p);
        },
        [](e1c::samples& x) { x.runs.at(3).snapshots.back().added_records += 1; });
}

TEST_CASE("the e1c verdicts on record are the ones the code computes from the samples", "[claims][e1c]") {
    auto h = C::recorded_verdicts_are_recomputed(28);
    // Mutation (data): a missing seq in the unaligned SinkV2 cell refutes its no-loss prediction.
    for (auto& r : h.samples.runs)
        if (r.name == e1c::cells().at(2).name) r.missing_seq = 1, r.missing_runs = {{1, 1}};
    const auto judged = experiment::rejudge(h);
    const auto it = std::find_if(judged.begin(), judged.end(),
                                 [](const auto& o) { return o.id == "e1c.loses-nothing:" + e1c::cells().at(2).name; });
    REQUIRE(it != judged.end());
    CHECK(it->verdict == verdict_kind::refuted);
}

// Mutation: one upsert run recorded with write.upsert.enabled=false.
TEST_CASE(
    "each e1c upsert cell's table was upsert on npi as the catalog reported it, and every NPI of the feed was checked",
    "[claims][e1c]") {
    C::holds_and_is_mutation_checked(
        [&](const e1c::samples& x, const e1c::parameters& p) {
            std::size_t upsert_runs = 0;
            for (const auto& c : e1c::cells_of(p))
                for (const auto* r : e1c::runs_of(x, c.name)) {
                    const auto run = e1c::run_label(*r);
                    if (!claims_test::eq(run + " is an upsert cell == has an upsert observation",
                                         c.kind == experiment::table_kind::upsert, r->upsert.has_value()))
                        return false;
                    if (!r->upsert) continue;
                    ++upsert_runs;
                    if (!claims_test::that(run + " table reported upsert on npi",
                                           experiment::reports_upsert_on(r->upsert->table_in_force, "npi")) ||
                        !claims_test::ne(run + " NPIs expected", r->upsert->npis_expected, 0) ||
                        !claims_test::le(run + " NPIs expected <= the feed's NPIs", r->upsert->npis_expected,
                                         e1c::feed_of(p, c).providers) ||
                        !claims_test::eq(run + " unexpected rows", r->upsert->unexpected_rows, 0))
                        return false;
                }
            return claims_test::gt("e1c upsert runs", upsert_runs, 0) && every_cell_ran(x, p);
        },
        [](e1c::samples& x) {
            for (auto& r : x.runs)
                if (r.upsert) {
                    r.upsert->table_in_force.write_upsert_enabled = "false";
                    break;
                }
        });
}

// Mutation: a paced run recorded as produced in one second.
TEST_CASE("each e1c paced run was produced at its cell's rate, with its source's backpressure sampled",
          "[claims][e1c]") {
    C::holds_and_is_mutation_checked(
        [](const e1c::samples& x, const e1c::parameters& p) {
            std::size_t paced = 0;
            for (const auto& c : e1c::cells_of(p))
                for (const auto* r : e1c::runs_of(x, c.name)) {
                    const auto run = e1c::run_label(*r);
                    const double rate = e1c::rate_of(p, c);
                    const auto b = e1c::backpressure_of(*r);
                    if (!claims_test::eq(run + " feed rate recorded", r->feed_rate.value_or(-1), rate)) return false;
                    if (rate <= 0) continue;  // produced at once (some runs got no metric from Flink: see the README)
                    ++paced;
                    if (!claims_test::that(run + " backpressure sampled over its drain",
                                           b.has_value() && b->samples > 0))
                        return false;
                    // The producer took at least 90 % of events / rate: the pace held (a faster feed is not paced).
                    const auto least_ms =
                        static_cast<std::int64_t>(0.9 * 1000.0 * static_cast<double>(r->events) / rate);
                    if (!claims_test::ge(run + " produce time (ms)", r->produce_ms, least_ms)) return false;
                }
            return claims_test::gt("e1c paced runs", paced, 0) && every_cell_ran(x, p);
        },
        [](e1c::samples& x) {
            for (auto& r : x.runs)
                if (r.feed_rate.value_or(0) > 0) {
                    r.produce_ms = 1000;
                    break;
                }
        });
}

// Mutation: a kill's timed-out checkpoint replaced by the id of one that completed.
TEST_CASE(
    "each e1c kill followed a timed-out checkpoint, and the same job ran again from a completed one or, when none had completed, without state",
    "[claims][e1c]") {
    C::holds_and_is_mutation_checked(
        [](const e1c::samples& x, const e1c::parameters& p) {
            std::size_t kill_runs = 0;
            for (const auto& c : e1c::cells_of(p))
                for (const auto* r : e1c::runs_of(x, c.name)) {
                    const auto run = e1c::run_label(*r);
                    if (!claims_test::eq(run + " is a kill cell == recorded kills", c.kill_after_timeout,
                                         r->kills.has_value()))
                        return false;
                    if (!r->kills) continue;
                    ++kill_runs;
                    if (!claims_test::eq(run + " kills", r->kills->size(), p.kills_per_run.value_or(0))) return false;
                    auto status_of = [&](std::int64_t id) -> std::string {
                        for (const auto& cp : r->checkpoints)
                            if (cp.id == id) return experiment::timed_out(cp) ? "timed out" : cp.status;
                        return "not in the history";
                    };
                    for (const auto& k : *r->kills) {
                        const auto kill = run + " kill after checkpoint " + std::to_string(k.timed_out_checkpoint);
                        if (!claims_test::eq(kill + ": its status", status_of(k.timed_out_checkpoint), "timed out") ||
                            !claims_test::ge(kill + ": killed at (ms) >= expiry seen at", k.kill.killed_at_ms,
                                             k.timed_out_seen_at_ms) ||
                            !claims_test::that(kill + ": the same job ran again", k.kill.same_job_running) ||
                            !claims_test::that(kill + ": restored a completed checkpoint, or none had completed",
                                               k.kill.restored_checkpoint_id < 0
                                                   ? !e1c::completed_before(*r, k.kill.killed_at_ms)
                                                   : status_of(k.kill.restored_checkpoint_id) == "COMPLETED"))
                            return false;
                    }
                }
            return claims_test::gt("e1c kill runs", kill_runs, 0) && every_cell_ran(x, p);
        },
        [](e1c::samples& x) {
            for (auto& r : x.runs)
                if (r.kills && !r.kills->empty()) {
                    for (const auto& cp : r.checkpoints)
                        if (cp.status == "COMPLETED") r.kills->front().timed_out_checkpoint = cp.id;
                    break;
                }
        });
}

// Mutation: every timed-out checkpoint in the losing runs' histories recorded as completed.
TEST_CASE(
    "in every e1c append run produced at once that lost seqs, at least 99 % of them lie in holes inside what one commit added of their partition, and that commit spanned a timed-out checkpoint",
    "[claims][e1c]") {
    C::holds_and_is_mutation_checked(
        [](const e1c::samples& x, const e1c::parameters& p) {
            e1c::feed_partitions partitions(p);
            std::size_t judged = 0;
            for (const auto& r : x.runs) {
                if (r.upsert || r.feed_rate.value_or(0) > 0 || r.kills || r.missing_seq == 0) continue;
                const auto run = e1c::run_label(r);
                if (!claims_test::that(run + " recorded where its seqs are", r.placement.has_value())) return false;
                const auto attributed = e1c::attribution_of(r, partitions.of(r));
                // Exact or not: where commits interleave in a partition, a hole is named but not exact.
                std::uint64_t in_holes_after_timeout = 0;
                for (const auto& a : *attributed)
                    for (const auto& piece : a.pieces)
                        if (piece.kind == experiment::attribution_kind::hole && !piece.timed_out.empty())
                            in_holes_after_timeout += piece.piece.seqs;
                ++judged;
                if (!claims_test::ge(run + " lost seqs in holes of a commit spanning a timeout, times 100",
                                     in_holes_after_timeout * 100, r.missing_seq * 99))
                    return false;
            }
            return claims_test::gt("e1c append runs produced at once that lost seqs", judged, 0);
        },
        [](e1c::samples& x) {
            for (auto& r : x.runs)
                for (auto& cp : r.checkpoints)
                    if (experiment::timed_out(cp)) cp.status = "COMPLETED";
        });
}
