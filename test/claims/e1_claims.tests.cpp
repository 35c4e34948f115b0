// Experiment 1's claims, asserted against the shipped results file. Each claim
// is a function of the samples; each test checks it holds on the shipped data
// AND that it fails on a copy with the named mutation, so a claim cannot pass by
// checking nothing.
#include <catch2/catch.hpp>

#include <functional>

#include <rosterrig/experiment/history.hpp>

#include "shipped_result.hpp"

#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>
#include <rosterrig/generate/feed_digest.hpp>

using namespace rosterrig;

using C = claims_test::claims_of<e1::definition>;

namespace {

bool every_configuration_ran(const e1::samples& s) {
    return claims_test::eq("e1 configurations that ran", s.configurations.size(), 4);
}
}  // namespace

TEST_CASE("the full run made at least a hundred kills in each of the four configurations", "[claims][e1]") {
    const auto& s = C::load();
    REQUIRE_FALSE(s.params.quick);
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            if (!every_configuration_ran(x)) return false;
            for (const auto& c : x.configurations)
                if (!claims_test::ge(c.name + " kills", c.kills.size(), 100)) return false;
            return true;
        },
        // Mutation: one configuration recorded a kill short.
        [](e1::samples& x) { x.configurations.at(0).kills.pop_back(); });
}

TEST_CASE("every kill landed while data was still arriving", "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters& p) {
            for (const auto& c : x.configurations)
                for (const auto& k : c.kills) {
                    const auto kill = c.name + " kill " + std::to_string(k.index);
                    if (!claims_test::gt(kill + " events sent before it", k.sent_before_kill, 0) ||
                        !claims_test::lt(kill + " events sent before it < the feed's events", k.sent_before_kill,
                                         p.events))
                        return false;
                }
            return every_configuration_ran(x);
        },
        // Mutation: record a kill after the feed was fully sent.
        [](e1::samples& x) { x.configurations.at(1).kills.back().sent_before_kill = 12000; });
}

TEST_CASE("every kill was seen by Flink as a failure and the same job restarted from a checkpoint", "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            for (const auto& c : x.configurations) {
                std::int64_t exceptions = 0;
                for (const auto& k : c.kills) {
                    const auto kill = c.name + " kill " + std::to_string(k.index);
                    // RESTARTING after this kill
                    if (!claims_test::ge(kill + " RESTARTING at >= killed at (ms)", k.restarting_at_ms, k.killed_at_ms))
                        return false;
                    // restored from a checkpoint
                    if (!claims_test::ge(kill + " restored checkpoint id", k.restored_checkpoint_id, 1)) return false;
                    // an internal restart
                    if (!claims_test::eq(kill + " job id after == the configuration's", k.job_id_after, c.job_id))
                        return false;
                    // the history grew
                    if (!claims_test::gt(kill + " exception history entries after it > before", k.exceptions_after,
                                         exceptions))
                        return false;
                    // a new TaskManager JVM
                    if (!claims_test::ne(kill + " replacement pid != killed pid", k.replacement_pid, k.killed_pid))
                        return false;
                    exceptions = k.exceptions_after;
                }
            }
            return every_configuration_ran(x);
        },
        // Mutation: one kill's restart is recorded before the kill itself.
        [](e1::samples& x) {
            x.configurations.at(2).kills.at(3).restarting_at_ms = x.configurations.at(2).kills.at(3).killed_at_ms - 1;
        });
}

TEST_CASE("the checkpointing mode and interval in force are what was requested", "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters& p) {
            for (const auto& c : x.configurations) {
                const std::string want =
                    c.checkpoint_mode_requested == "AT_LEAST_ONCE" ? "at_least_once" : "exactly_once";
                if (!claims_test::eq(c.name + " checkpointing mode in force", c.checkpoint_mode_in_force, want))
                    return false;
                if (!claims_test::eq(c.name + " checkpoint interval in force (ms)", c.checkpoint_interval_in_force_ms,
                                     p.checkpoint_interval_ms))
                    return false;
            }
            return every_configuration_ran(x);
        },
        // Mutation: the job ran exactly-once although at-least-once was asked for.
        [](e1::samples& x) { x.configurations.at(0).checkpoint_mode_in_force = "exactly_once"; });
}

TEST_CASE("every upsert table holds the expected latest row for each NPI and nothing else", "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            int upserts = 0;
            for (const auto& c : x.configurations) {
                if (c.table_kind != experiment::table_kind::upsert) continue;
                ++upserts;
                if (!claims_test::eq(c.name + " stale rows", c.stale_rows, 0) ||
                    !claims_test::eq(c.name + " rows sharing an NPI", c.rows_sharing_npi, 0) ||
                    !claims_test::eq(c.name + " missing NPIs", c.missing_npis, 0) ||
                    !claims_test::eq(c.name + " unexpected rows", c.unexpected_rows, 0))
                    return false;
                if (!claims_test::eq(c.name + " rows == distinct NPIs", c.rows, c.distinct_npis)) return false;
            }
            return claims_test::eq("upsert configurations", upserts, 2);
        },
        // Mutation: one upsert table kept an older revision of one NPI.
        [](e1::samples& x) { x.configurations.at(3).stale_rows = 1; });
}

TEST_CASE("append tables hold every event exactly once after all the kills", "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters& p) {
            for (const auto& c : x.configurations)
                if (c.table_kind == experiment::table_kind::append &&
                    (!claims_test::eq(c.name + " rows == events", c.rows, p.events) ||
                     !claims_test::eq(c.name + " distinct seqs == events", c.distinct_seq, p.events) ||
                     !claims_test::eq(c.name + " duplicate rows", c.duplicate_rows, 0) ||
                     !claims_test::eq(c.name + " missing runs of seqs", c.missing_runs.size(), 0)))
                    return false;
            return every_configuration_ran(x);
        },
        // Mutation: one append table is missing a run of rows.
        [](e1::samples& x) { x.configurations.at(0).missing_runs.push_back({5, 9}); });
}

TEST_CASE("every e1 table's snapshots added exactly the events sent and committed no checkpoint twice",
          "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters& p) {
            for (const auto& c : x.configurations) {
                const auto r = experiment::replays_of(c);
                if (!claims_test::that(c.name + " snapshot log recorded", r.has_value()) ||
                    !claims_test::eq(c.name + " records the snapshots added == events", r->report.records_added,
                                     static_cast<std::int64_t>(p.events)) ||
                    !claims_test::eq(c.name + " checkpoints committed twice", r->report.replayed_watermarks.size(),
                                     0) ||
                    !claims_test::ge(c.name + " snapshots with data", r->report.snapshots_with_data, 2))
                    return false;
            }
            return every_configuration_ran(x);
        },
        // Mutation: one snapshot of the at-least-once upsert job added one record more (a replay its rows collapse).
        [](e1::samples& x) { x.configurations.at(2).snapshot_log->at(3).added_records += 1; });
}

TEST_CASE("the committed offsets really were rewound to the start of the log", "[claims][e1][offsets]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            auto* landed = e1::find_step(x.offsets, "landed");
            auto* rewound = e1::find_step(x.offsets, "rewound");
            return claims_test::that("a landed step recorded", landed != nullptr) &&
                   claims_test::that("a rewound step recorded", rewound != nullptr) &&
                   claims_test::eq("committed offsets when landed == the offsets part's events",
                                   landed->committed_offsets_sum, static_cast<std::int64_t>(x.offsets.events)) &&
                   claims_test::eq("committed offsets after the rewind", rewound->committed_offsets_sum, 0);
        },
        // Mutation: the rewind did not take.
        [](e1::samples& x) { x.offsets.steps.at(1).committed_offsets_sum = 17; });
}

TEST_CASE("recovery from the checkpoint ignored the rewound offsets: nothing was replayed", "[claims][e1][offsets]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            auto* restored = e1::find_step(x.offsets, "restored_from_checkpoint");
            return claims_test::that("a restored-from-checkpoint step recorded", restored != nullptr) &&
                   claims_test::ge("restored checkpoint id", restored->restored_checkpoint_id, 1) &&
                   claims_test::eq("duplicate rows after the restore", restored->duplicate_rows, 0) &&
                   claims_test::eq("rows after the restore == the offsets part's events", restored->rows,
                                   x.offsets.events);
        },
        // Mutation: record a single duplicate after the restore.
        [](e1::samples& x) { x.offsets.steps.at(2).duplicate_rows = 1; });
}

TEST_CASE("a fresh job that trusted the rewound offsets replayed the whole log", "[claims][e1][offsets]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            auto* fresh = e1::find_step(x.offsets, "fresh_from_group_offsets");
            return claims_test::that("a fresh-from-group-offsets step recorded", fresh != nullptr) &&
                   claims_test::eq("the fresh job's duplicate rows == the offsets part's events", fresh->duplicate_rows,
                                   x.offsets.events) &&
                   claims_test::eq("the fresh job's rows == twice the offsets part's events", fresh->rows,
                                   2 * x.offsets.events);
        },
        // Mutation: the fresh job replayed one record fewer.
        [](e1::samples& x) { x.offsets.steps.at(3).duplicate_rows -= 1; });
}

TEST_CASE("the verdicts on record are the ones the code computes from the samples", "[claims][e1]") {
    // At least one prediction per configuration and the offsets part.
    auto h = C::recorded_verdicts_are_recomputed(7);
    // Mutation (data): one kill's duplicate recorded on the shipped samples
    // changes the recomputed verdict, so the comparison above can fail.
    h.samples.configurations.at(1).duplicate_rows = 1;
    CHECK(experiment::rejudge(h).at(1).verdict == verdict_kind::refuted);
}

TEST_CASE("append tables write no delete files and upsert tables pay for idempotence in equality deletes",
          "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            // Upsert tables also write position deletes, for a key updated twice
            // within one checkpoint; append tables write no delete file at all.
            for (const auto& c : x.configurations) {
                if (!claims_test::gt(c.name + " data files", c.data_files, 0)) return false;
                const bool append = c.table_kind == experiment::table_kind::append;
                if (append && (!claims_test::eq(c.name + " equality delete files", c.equality_delete_files, 0) ||
                               !claims_test::eq(c.name + " position delete files", c.position_delete_files, 0)))
                    return false;
                if (!append && !claims_test::gt(c.name + " equality delete files", c.equality_delete_files, 0))
                    return false;
            }
            return every_configuration_ran(x);
        },
        // Mutation: an append table recorded three equality delete files.
        [](e1::samples& x) { x.configurations.at(0).equality_delete_files = 3; });
}

TEST_CASE("every configuration's job was still running after its last kill when its table was read back",
          "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            for (const auto& c : x.configurations)
                if (!claims_test::eq(c.name + " final job state", c.final_job_state, "RUNNING") ||
                    !claims_test::eq(c.name + " acknowledged == events", c.acknowledged, c.events))
                    return false;
            return every_configuration_ran(x);
        },
        // Mutation: a job that had FAILED by the end.
        [](e1::samples& x) { x.configurations.at(2).final_job_state = "FAILED"; });
}

TEST_CASE("the restored job's checkpoints wrote its position back over the rewound offsets", "[claims][e1][offsets]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            const auto& w = x.offsets.after_restore;
            auto* restored = e1::find_step(x.offsets, "restored_from_checkpoint");
            if (!claims_test::ge("offsets samples after the restore", w.size(), 2) ||
                !claims_test::that("a restored-from-checkpoint step recorded", restored != nullptr))
                return false;
            // Watched every half second from the recovery; zero at first, the end
            // of the log at the last sample, written back by a later checkpoint.
            for (std::size_t i = 1; i < w.size(); ++i) {
                const auto sample = "offsets sample " + std::to_string(i) + " after the restore";
                if (!claims_test::gt(sample + " ms after recovery > the previous one's", w[i].ms_after_recovery,
                                     w[i - 1].ms_after_recovery) ||
                    !claims_test::le(sample + " ms since the previous sample",
                                     w[i].ms_after_recovery - w[i - 1].ms_after_recovery, 1500))
                    return false;
            }
            return claims_test::eq("committed offsets at the first sample after the restore",
                                   w.front().committed_offsets_sum, 0) &&
                   claims_test::eq("committed offsets at the last sample == the restored job's end offsets",
                                   w.back().committed_offsets_sum, restored->end_offsets_sum) &&
                   claims_test::gt("newest checkpoint id at the last sample > at the first",
                                   w.back().newest_checkpoint_id, w.front().newest_checkpoint_id);
        },
        // Mutation: the offsets never came back.
        [](e1::samples& x) { x.offsets.after_restore.back().committed_offsets_sum = 0; });
}

TEST_CASE("the checkpointing mode changed nothing: each table kind ended the same under both modes", "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x, const e1::parameters&) {
            for (const auto kind : {experiment::table_kind::append, experiment::table_kind::upsert}) {
                std::vector<const e1::configuration_run*> runs;
                for (const auto& c : x.configurations)
                    if (c.table_kind == kind) runs.push_back(&c);
                const std::string kind_name = kind == experiment::table_kind::append ? "append" : "upsert";
                if (!claims_test::eq(kind_name + " configurations", runs.size(), 2)) return false;
                const auto &a = *runs.at(0), &b = *runs.at(1);
                const auto pair = a.name + " vs " + b.name;
                // both modes really ran
                if (!claims_test::ne(pair + " checkpointing mode in force", a.checkpoint_mode_in_force,
                                     b.checkpoint_mode_in_force))
                    return false;
                if (!claims_test::eq(pair + " rows", a.rows, b.rows) ||
                    !claims_test::eq(pair + " duplicate rows", a.duplicate_rows, b.duplicate_rows) ||
                    !claims_test::that(pair + " missing runs of seqs equal", a.missing_runs == b.missing_runs) ||
                    !claims_test::eq(pair + " stale rows", a.stale_rows, b.stale_rows) ||
                    !claims_test::eq(pair + " total duplicates", e1::summarize(a).total_duplicates,
                                     e1::summarize(b).total_duplicates))
                    return false;
            }
            return true;
        },
        // Mutation: at-least-once + append kept one duplicate row.
        [](e1::samples& x) { x.configurations.at(0).duplicate_rows += 1, x.configurations.at(0).rows += 1; });
}

// The next four read fields that older e1 results lack (feed_sha256,
// restart_strategy, table_settings, recovery_settings). Without the fields they fail: absent is never taken as
// agreement.

// Mutation: one configuration's recorded digest with a changed digit.
TEST_CASE("each e1 run's feed regenerates to the digest the results recorded", "[claims][e1]") {
    const auto& s = C::load();
    // Regenerated once from the recorded parameters, then compared per run.
    const auto feed = feed_sha256(s.params.feed()), offsets = feed_sha256(s.params.offsets_feed());
    C::holds_and_is_mutation_checked(
        [&](const e1::samples& x) {
            for (const auto& c : x.configurations)
                if (!claims_test::eq(c.name + " feed digest recorded == regenerated", c.feed_sha256, feed))
                    return false;
            return claims_test::eq("offsets part's feed digest recorded == regenerated", x.offsets.feed_sha256,
                                   offsets) &&
                   every_configuration_ran(x);
        },
        [](e1::samples& x) {
            auto& d = *x.configurations.at(2).feed_sha256;
            d.at(0) = d.at(0) == '0' ? '1' : '0';
        });
}

// Mutation: one configuration's job reported with 1 attempt.
TEST_CASE("every e1 job ran with Flink reporting the raised restart attempts", "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x) {
            for (const auto& c : x.configurations)
                if (!claims_test::that(c.name + " reports a fixed-delay restart of at least 1000 attempts",
                                       experiment::reports_fixed_delay_of_at_least(c.restart_strategy, 1000)))
                    return false;
            return every_configuration_ran(x);
        },
        [](e1::samples& x) { x.configurations.at(1).restart_strategy->attempts = 1; });
}

// Mutation: an append configuration's table reported with write.upsert.enabled=true.
TEST_CASE("e1 upsert tables reported the upsert flag with identifier field npi, append tables no upsert",
          "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x) {
            for (const auto& c : x.configurations)
                if (!claims_test::that(c.name + " table reported as its kind (upsert on npi or no upsert)",
                                       experiment::reports_table_kind(c.table_settings, c.table_kind, "npi")))
                    return false;
            return every_configuration_ran(x);
        },
        [](e1::samples& x) { x.configurations.at(0).table_settings->write_upsert_enabled = "true"; });
}

// Mutation: one configuration recorded with a single TaskManager registered
// (the baseline profile's, where a kill waits for the killed JVM).
TEST_CASE("every e1 job ran with the recovery settings the processes reported: spare TaskManagers, 500 ms heartbeats",
          "[claims][e1]") {
    C::holds_and_is_mutation_checked(
        [](const e1::samples& x) {
            for (const auto& c : x.configurations) {
                if (!claims_test::that(c.name + " recovery settings recorded", c.recovery_settings.has_value()))
                    return false;
                const auto& r = *c.recovery_settings;
                if (!claims_test::ge(c.name + " TaskManagers registered", r.taskmanagers_registered, 2) ||
                    !claims_test::eq(c.name + " heartbeat interval", r.heartbeat_interval, "500") ||
                    !claims_test::eq(c.name + " REST refresh interval", r.rest_refresh_interval, "500"))
                    return false;
            }
            return every_configuration_ran(x);
        },
        [](e1::samples& x) { x.configurations.at(3).recovery_settings->taskmanagers_registered = 1; });
}
