// Experiment 2's claims, asserted against the shipped results file; each claim
// is checked to hold on the shipped samples and to fail on a named mutation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include <rosterrig/experiment/history.hpp>

#include "shipped_result.hpp"

#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>
#include <rosterrig/generate/feed_digest.hpp>

using namespace rosterrig;

using C = claims_test::claims_of<e2::definition>;

namespace {

bool flinksink(const e2::restore_run& r) { return !r.v2_sink; }

// "append-flinksink #2": the variant and the repeat, for a claim's failed comparison.
std::string run_label(const e2::restore_run& r) { return r.variant + " #" + std::to_string(r.repeat); }

e2::restore_run* first_run(e2::samples& s, const std::string& variant) {
    for (auto& r : s.runs)
        if (r.variant == variant) return &r;
    return nullptr;
}

// The index of the first sample that shows a new snapshot.
std::size_t first_new(const e2::restore_run& r) {
    for (std::size_t i = 0; i < r.samples.size(); ++i)
        if (r.samples[i].snapshot_id != r.snapshot_before) return i;
    return r.samples.size();
}
}  // namespace

TEST_CASE("each variant ran at least three times in the full run", "[claims][e2]") {
    const auto& s = C::load();
    REQUIRE_FALSE(s.params.quick);
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            for (const std::string v : {"append-flinksink", "upsert-flinksink", "append-sinkv2"}) {
                const auto runs =
                    std::count_if(x.runs.begin(), x.runs.end(), [&](const auto& r) { return r.variant == v; });
                if (!claims_test::ge(v + " runs", runs, 3)) return false;
            }
            return true;
        },
        // Mutation: one repeat of the SinkV2 variant missing.
        [](e2::samples& x) {
            x.runs.erase(
                std::find_if(x.runs.begin(), x.runs.end(), [](const auto& r) { return r.variant == "append-sinkv2"; }));
        });
}

TEST_CASE("the savepoint really was older than the table's newest commit", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            for (const auto& r : x.runs)
                if (!claims_test::ge(run_label(r) + " savepoint's checkpoint id", r.savepoint_checkpoint_id, 1) ||
                    !claims_test::lt(run_label(r) + " savepoint's checkpoint id < the table's watermark before",
                                     r.savepoint_checkpoint_id, r.watermark_before))
                    return false;
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        // Mutation: the savepoint was taken at the watermark.
        [](e2::samples& x) { x.runs.at(0).savepoint_checkpoint_id = x.runs.at(0).watermark_before; });
}

TEST_CASE("the sampler looked at least every half second from the restore request", "[claims][e2]") {
    const auto period = C::load().params.sample_period_ms;  // what the run was asked for, not a constant here
    REQUIRE(period <= 500);
    C::holds_and_is_mutation_checked(
        [period](const e2::samples& x) {
            for (const auto& r : x.runs) {
                const auto run = run_label(r);
                if (!claims_test::gt(run + " samples", r.samples.size(), 0) ||
                    !claims_test::le(run + " first sample after the restore request (ms)", r.samples.front().t_ms,
                                     period))
                    return false;
                // Each sample is started on the period's schedule; one slow round
                // trip may delay the next by at most another period.
                std::vector<std::int64_t> gaps;
                for (std::size_t i = 1; i < r.samples.size(); ++i)
                    gaps.push_back(r.samples[i].t_ms - r.samples[i - 1].t_ms);
                std::sort(gaps.begin(), gaps.end());
                if (!claims_test::gt(run + " gaps between samples", gaps.size(), 0) ||
                    !claims_test::le(run + " median gap between samples (ms)", gaps[gaps.size() / 2],
                                     period + period / 25) ||
                    !claims_test::le(run + " longest gap between samples (ms)", gaps.back(), 2 * period))
                    return false;
            }
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        // Mutation: drop every other sample, as a 1 s sampler would have taken.
        [](e2::samples& x) {
            auto& s = x.runs.at(0).samples;
            std::vector<e2::sample> thinned;
            for (std::size_t i = 0; i < s.size(); i += 2) thinned.push_back(s[i]);
            s = thinned;
        });
}

TEST_CASE("with the default sink the table did not move while the restored job was healthy", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            int checked = 0;
            for (const auto& r : x.runs) {
                if (!flinksink(r)) continue;
                ++checked;
                const auto a = e2::analyze(r);
                // A freeze worth the name: the restored job RUNNING and checkpointing
                // for several samples while the table stayed as it was.
                // It must cover the checkpoints from the savepoint up to the
                // watermark: the table stayed still while the job completed them.
                // Each sample reads Flink's checkpoint statistics (cached by its
                // REST handler) just before the catalog, so the last stale sample
                // may show W-1 while W has completed: W-1 is the bound.
                int running_stale = 0;
                std::int64_t newest_while_stale = -1;
                for (std::size_t i = 0; i < first_new(r); ++i) {
                    if (r.samples[i].job_state == "RUNNING" &&
                        r.samples[i].newest_checkpoint_id > r.savepoint_checkpoint_id)
                        ++running_stale;
                    newest_while_stale = std::max(newest_while_stale, r.samples[i].newest_checkpoint_id);
                }
                const auto run = run_label(r);
                if (!claims_test::that(run + " table moved", a.table_moved) ||
                    !claims_test::ge(run + " samples RUNNING past the savepoint while the table was stale",
                                     running_stale, 4) ||
                    !claims_test::ge(run + " newest checkpoint while the table was stale >= watermark - 1",
                                     newest_while_stale, r.watermark_before - 1))
                    return false;
                if (!claims_test::eq(run + " FAILING states while the table was stale",
                                     a.states_while_stale.count("FAILING"), 0) ||
                    !claims_test::eq(run + " FAILED states while the table was stale",
                                     a.states_while_stale.count("FAILED"), 0))
                    return false;
            }
            return claims_test::gt("FlinkSink runs checked", checked, 0);
        },
        // Mutation: the table moves two checkpoints before the watermark (the
        // samples from the one that reached W-1 on show a new snapshot).
        [](e2::samples& x) {
            auto* r = first_run(x, "append-flinksink");
            for (auto& s : r->samples)
                if (s.newest_checkpoint_id >= r->watermark_before - 1) s.snapshot_id = r->snapshot_before + 1;
        });
}

TEST_CASE("with the default sink the freeze ended at the first checkpoint above the watermark", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            int checked = 0;
            for (const auto& r : x.runs) {
                if (!flinksink(r)) continue;
                ++checked;
                // The commit burst that ended the freeze leaves the table at W+1.
                if (!claims_test::eq(run_label(r) + " checkpoint the burst left the table at == watermark + 1",
                                     e2::analyze(r).burst_final_checkpoint, r.watermark_before + 1))
                    return false;
            }
            return claims_test::gt("FlinkSink runs checked", checked, 0);
        },
        // Mutation: the burst ends one checkpoint early, at the watermark.
        [](e2::samples& x) {
            auto* r = first_run(x, "append-flinksink");
            r->snapshots_after.front().max_committed_checkpoint_id = r->watermark_before;
        });
}

TEST_CASE("with the default sink the backlog committed in one lump", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            int checked = 0;
            for (const auto& r : x.runs) {
                if (!flinksink(r) || r.table_kind != experiment::table_kind::append) continue;
                ++checked;
                // Every row the restored job added before the batch written after
                // the freeze arrived in one snapshot.
                const auto a = e2::analyze(r);
                std::int64_t after_freeze = 0;
                if (r.third_batch)
                    after_freeze =
                        static_cast<std::int64_t>(r.third_batch->last_seq - r.third_batch->first_seq + 1 -
                                                  r.third_batch->missing_seqs + r.third_batch->duplicate_rows);
                if (!claims_test::eq(run_label(r) + " snapshots in the burst", a.burst_snapshots, 1) ||
                    !claims_test::eq(run_label(r) + " records in the burst == rows added before the third batch",
                                     a.burst_records, static_cast<std::int64_t>(r.rows) - r.rows_before - after_freeze))
                    return false;
            }
            return claims_test::gt("FlinkSink append runs checked", checked, 0);
        },
        // Mutation: the first new snapshot carried one record fewer.
        [](e2::samples& x) {
            auto* r = first_run(x, "append-flinksink");
            r->snapshots_after.front().total_records -= 1;
        });
}

TEST_CASE("the consumer lag reached zero while the table was stale", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            int checked = 0;
            for (const auto& r : x.runs) {
                if (!flinksink(r)) continue;
                ++checked;
                if (!claims_test::that(run_label(r) + " consumer lag reached zero while the table was stale",
                                       e2::analyze(r).lag_zero_while_stale))
                    return false;
            }
            return claims_test::gt("FlinkSink runs checked", checked, 0);
        },
        // Mutation: the lag never fell below one while the table was stale.
        [](e2::samples& x) {
            auto* r = first_run(x, "append-flinksink");
            for (std::size_t i = 0; i < first_new(*r); ++i)
                r->samples[i].lag = std::max<std::int64_t>(1, r->samples[i].lag);
        });
}

TEST_CASE("no failed checkpoint and no job failure marked the freeze", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            for (const auto& r : x.runs) {
                if (!flinksink(r)) continue;
                const auto a = e2::analyze(r);
                if (!claims_test::eq(run_label(r) + " failed checkpoints when the table moved == at first RUNNING",
                                     a.failed_checkpoints_at_table_move, a.failed_checkpoints_at_first_running))
                    return false;
                if (!claims_test::eq(run_label(r) + " exceptions of the restored job", r.exceptions_during, 0))
                    return false;
            }
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        // Mutation: a checkpoint failed during the freeze.
        [](e2::samples& x) {
            auto* r = first_run(x, "append-flinksink");
            r->samples[first_new(*r)].failed_checkpoints += 1;
        });
}

TEST_CASE("nothing was lost in any append variant, and the replay duplicated rows", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            for (const auto& r : x.runs) {
                if (r.table_kind != experiment::table_kind::append) continue;
                if (!claims_test::eq(run_label(r) + " missing runs of seqs", r.missing_runs.size(), 0) ||
                    !claims_test::gt(run_label(r) + " duplicate rows", r.duplicate_rows, 0))
                    return false;
                if (!claims_test::eq(run_label(r) + " rows == events + duplicate rows", r.rows,
                                     r.events_total + r.duplicate_rows))
                    return false;
            }
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        // Mutation: record one missing run.
        [](e2::samples& x) { x.runs.at(0).missing_runs.push_back({100, 120}); });
}

TEST_CASE("the upsert variant hides the replay from a reader", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            int checked = 0;
            for (const auto& r : x.runs) {
                if (r.table_kind != experiment::table_kind::upsert) continue;
                ++checked;
                const auto run = run_label(r);
                if (!claims_test::eq(run + " duplicate rows", r.duplicate_rows, 0) ||
                    !claims_test::eq(run + " stale rows", r.stale_rows, 0) ||
                    !claims_test::eq(run + " rows sharing an NPI", r.rows_sharing_npi, 0) ||
                    !claims_test::eq(run + " missing NPIs", r.missing_npis, 0))
                    return false;
            }
            return claims_test::gt("upsert runs checked", checked, 0);
        },
        // Mutation: one stale row survives the replay.
        [](e2::samples& x) { first_run(x, "upsert-flinksink")->stale_rows = 1; });
}

TEST_CASE("the e2 verdicts on record are the ones the code computes from the samples", "[claims][e2]") {
    // One per variant.
    auto h = C::recorded_verdicts_are_recomputed(3);
    // Mutation (data): a seq missing from the first append run refutes its prediction.
    h.samples.runs.at(0).missing_runs.push_back({1, 1});
    CHECK(experiment::rejudge(h).at(0).verdict == verdict_kind::refuted);
}

TEST_CASE("data written after the freeze landed once in every run", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            for (const auto& r : x.runs) {
                const auto run = run_label(r);
                if (!claims_test::that(run + " third batch recorded", r.third_batch.has_value())) return false;
                const auto& b = *r.third_batch;
                // Written after the table had moved, all of it seen once.
                if (!claims_test::gt(run + " third batch written at > the first new snapshot seen at (ms)",
                                     b.written_after_ms, e2::analyze(r).first_new_ms) ||
                    !claims_test::eq(run + " third batch's last seq == events", b.last_seq, r.events_total))
                    return false;
                if (!claims_test::eq(run + " third batch duplicate rows", b.duplicate_rows, 0)) return false;
                if (r.table_kind == experiment::table_kind::append &&
                    !claims_test::eq(run + " third batch missing seqs", b.missing_seqs, 0))
                    return false;
            }
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        // Mutation: one seq of the first run's third batch missing.
        [](e2::samples& x) { x.runs.at(0).third_batch->missing_seqs = 1; });
}

// The next three read fields that older e2 results lack (feeds,
// restart_strategy, table_settings). Without the fields
// they fail: absent is never taken as agreement.

// Mutation: one batch recorded as ending a seq early (the digest no longer
// matches its seqs).
TEST_CASE("each e2 batch regenerates to the digest the results recorded", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x, const e2::parameters& p) {
            const auto want = e2::batches(p);
            for (const auto& r : x.runs) {
                const auto run = run_label(r);
                if (!claims_test::that(run + " batch feeds recorded", r.feeds.has_value()) ||
                    !claims_test::eq(run + " batches recorded", r.feeds->size(), want.size()))
                    return false;
                for (std::size_t i = 0; i < want.size(); ++i) {
                    const auto& b = (*r.feeds)[i];
                    const auto batch = run + " batch " + std::to_string(i + 1);
                    if (!claims_test::eq(batch + " first seq", b.first_seq, want[i].first) ||
                        !claims_test::eq(batch + " last seq", b.last_seq, want[i].last))
                        return false;
                    if (!claims_test::eq(batch + " feed digest recorded == regenerated", b.feed_sha256,
                                         feed_sha256(p.feed(r.repeat), b.first_seq, b.last_seq)))
                        return false;
                }
            }
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        [](e2::samples& x) { x.runs.at(1).feeds->front().last_seq -= 1; });
}

// Mutation: one restore's job reported with 1 attempt.
TEST_CASE("every e2 job ran with Flink reporting the raised restart attempts", "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            for (const auto& r : x.runs)
                if (!claims_test::that(run_label(r) + " reports a fixed-delay restart of at least 1000 attempts",
                                       experiment::reports_fixed_delay_of_at_least(r.restart_strategy, 1000)))
                    return false;
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        [](e2::samples& x) { x.runs.back().restart_strategy->attempts = 1; });
}

// Mutation: the upsert variant's table reported without identifier fields.
TEST_CASE("e2 upsert tables reported the upsert flag with identifier field npi, append tables no upsert",
          "[claims][e2]") {
    C::holds_and_is_mutation_checked(
        [](const e2::samples& x) {
            for (const auto& r : x.runs)
                if (!claims_test::that(run_label(r) + " table reported as its kind (upsert on npi or no upsert)",
                                       experiment::reports_table_kind(r.table_settings, r.table_kind, "npi")))
                    return false;
            return claims_test::gt("e2 runs", x.runs.size(), 0);
        },
        [](e2::samples& x) { first_run(x, "upsert-flinksink")->table_settings->identifier_fields.clear(); });
}
