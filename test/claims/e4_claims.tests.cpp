// Experiment 4's claims, asserted against the shipped results file; each claim
// is checked to hold on the shipped samples and to fail on a named mutation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include <rosterrig/experiment/history.hpp>

#include "shipped_result.hpp"
#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>

using namespace rosterrig;

using C = claims_test::claims_of<e4::definition>;

namespace {
template <class Run>
std::vector<const Run*> of(const std::vector<Run>& runs, const std::function<bool(const Run&)>& keep) {
    std::vector<const Run*> out;
    for (const auto& r : runs)
        if (keep(r)) out.push_back(&r);
    return out;
}
template <class Run>
Run& first(std::vector<Run>& runs, const std::function<bool(const Run&)>& keep) {
    return *std::find_if(runs.begin(), runs.end(), keep);
}
const auto plain = [](const e4::expire_run& r) { return r.variant == "plain"; };
const auto after_compaction = [](const e4::expire_run& r) { return r.variant == "after-compaction"; };
bool orphan_in(const e4::orphan_run& r, const std::string& store, const std::string& variant) {
    return r.store == store && r.variant == variant;
}
}  // namespace

TEST_CASE("the full e4 run covers every procedure in both stores at least three times", "[claims][e4]") {
    REQUIRE_FALSE(C::load().params.quick);
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x, const e4::parameters& p) {
            if (!claims_test::ge("repeats", p.repeats, 3)) return false;
            for (const auto& plan : e4::runs_of(p))
                if (!claims_test::that(plan.name() + " recorded", e4::recorded(x, plan.name()))) return false;
            for (const auto& store : {"s3", "local"}) {
                const auto expires = of<e4::expire_run>(x.expires, [&](const auto& r) { return r.store == store; });
                if (!claims_test::ge(std::string(store) + " expire runs", expires.size(), 6)) return false;
                const auto orphans = of<e4::orphan_run>(x.orphans, [&](const auto& r) { return r.store == store; });
                if (!claims_test::ge(std::string(store) + " orphan runs", orphans.size(), 6)) return false;
            }
            const auto compactions = [&](const std::string& kind) {
                const auto of_kind = [&](const e4::compaction_run& r) { return r.table_kind == kind; };
                return of<e4::compaction_run>(x.compactions, of_kind).size();
            };
            return claims_test::ge("upsert compaction runs", compactions("upsert"), 3) &&
                   claims_test::ge("append compaction runs", compactions("append"), 3);
        },
        // Mutation: the last local orphan run missing.
        [](e4::samples& x) {
            x.orphans.erase(
                std::find_if(x.orphans.rbegin(), x.orphans.rend(), [](const auto& r) { return r.store == "local"; })
                    .base() -
                1);
        });
}

TEST_CASE("Trino's minimum retentions were zero as its session reported them", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            return claims_test::eq("Trino's expire_snapshots minimum retention", x.trino.expire_snapshots_min_retention,
                                   "0.00s") &&
                   claims_test::eq("Trino's remove_orphan_files minimum retention",
                                   x.trino.remove_orphan_files_min_retention, "0.00s");
        },
        // Mutation: Trino's default of seven days in force.
        [](e4::samples& x) { x.trino.remove_orphan_files_min_retention = "7.00d"; });
}

TEST_CASE("every e4 job ran at the interval it asked for, as Flink reports it", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x, const e4::parameters& p) {
            for (const auto& r : x.expires)
                if (!claims_test::eq(r.name + " checkpoint interval (ms)", r.interval_ms,
                                     e4::interval_of(p, {"expire", r.store, r.variant, r.repeat})))
                    return false;
            for (const auto& r : x.orphans)
                if (!claims_test::eq(r.name + " checkpoint interval (ms)", r.interval_ms, p.orphan_interval_ms))
                    return false;
            for (const auto& r : x.compactions)
                if (!claims_test::eq(r.name + " checkpoint interval (ms)", r.interval_ms, p.compaction_interval_ms))
                    return false;
            return claims_test::gt("expire runs", x.expires.size(), 0) &&
                   claims_test::gt("orphan runs", x.orphans.size(), 0) &&
                   claims_test::gt("compaction runs", x.compactions.size(), 0);
        },
        // Mutation: one orphan run at 60 s.
        [](e4::samples& x) { x.orphans.front().interval_ms = 60000; });
}

TEST_CASE("expire_snapshots really expired something in every run", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            for (const auto& r : x.expires)
                if (!claims_test::that(r.name + " expire_snapshots succeeded", r.expire.ok) ||
                    !claims_test::ge(r.name + " snapshots before the expiry", r.expire.snapshots_before, 4) ||
                    !claims_test::le(r.name + " snapshots after the expiry", r.expire.snapshots_after, 2))
                    return false;
            return claims_test::gt("expire runs", x.expires.size(), 0);
        },
        // Mutation: five snapshots left after one expiry.
        [](e4::samples& x) { x.expires.front().expire.snapshots_after = 5; });
}

TEST_CASE("with the job's commit newest the watermark survived the expiry in both stores", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs = of<e4::expire_run>(x.expires, plain);
            for (const auto* r : runs)
                if (!claims_test::eq(r->name + " newest snapshot's writer after the expiry == the job",
                                     r->expire.current_writer_after, r->job_id) ||
                    !claims_test::ge(r->name + " watermark after the expiry >= before", r->expire.watermark_after,
                                     r->expire.watermark_before) ||
                    !claims_test::ge(r->name + " watermark before the expiry", r->expire.watermark_before, 0))
                    return false;
            return claims_test::ge("plain expire runs", runs.size(), 6);
        },
        // Mutation: move the watermark back across the expiry (below where it was before).
        [](e4::samples& x) {
            auto& e = first<e4::expire_run>(x.expires, plain).expire;
            e.watermark_after = e.watermark_before - 1;
        });
}

TEST_CASE("with the job's commit newest the kill after the expiry lost nothing and duplicated nothing",
          "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            for (const auto* r : of<e4::expire_run>(x.expires, plain))
                if (!claims_test::that(r->name + " same job running after the kill", r->kill.same_job_running) ||
                    !claims_test::that(r->name + " table holds every event once", e4::exactly_once(r->table)) ||
                    !claims_test::eq(r->name + " job state at the end", r->health.state, "RUNNING"))
                    return false;
            return true;
        },
        // Mutation: one missing run in one table.
        [](e4::samples& x) { first<e4::expire_run>(x.expires, plain).table.missing_runs.push_back({1, 1}); });
}

// The after-compaction runs split on whether the optimize's commit was still
// the newest snapshot at the expiry: when the job committed again in between
// (the rule says inconclusive for that run), the expiry kept the job's own
// snapshot, as in the plain runs.
const auto optimize_newest = [](const e4::expire_run& r) {
    return r.variant == "after-compaction" && r.expire.current_writer_after != r.job_id;
};
const auto job_committed_again = [](const e4::expire_run& r) {
    return r.variant == "after-compaction" && r.expire.current_writer_after == r.job_id;
};
const auto watermark_gone = [](const e4::expire_run& r) {
    return r.variant == "after-compaction" && !r.expire.after_has_job_watermark;
};

// Enough runs to say "wherever": three, in both stores.
bool enough_in_both_stores(const std::vector<const e4::expire_run*>& runs) {
    const auto in = [&](const std::string& store) {
        return std::any_of(runs.begin(), runs.end(), [&](const e4::expire_run* r) { return r->store == store; });
    };
    return claims_test::ge("runs", runs.size(), 3) && claims_test::that("a run on the object store", in("s3")) &&
           claims_test::that("a run on the local filesystem", in("local"));
}

TEST_CASE(
    "after another writer's commit the expiry left no snapshot carrying the job's watermark wherever that commit was still the newest",
    "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs = of<e4::expire_run>(x.expires, optimize_newest);
            for (const auto* r : runs)
                if (!claims_test::that(r->name + " compaction recorded", r->compaction.has_value()) ||
                    !claims_test::that(r->name + " compaction succeeded", r->compaction->ok) ||
                    !claims_test::that(r->name + " no snapshot left with the job's watermark",
                                       !r->expire.after_has_job_watermark))
                    return false;
            return enough_in_both_stores(runs);
        },
        // Mutation: the job's snapshot kept by the expiry in a run where the optimize's commit was the newest.
        [](e4::samples& x) {
            first<e4::expire_run>(x.expires, optimize_newest).expire.after_has_job_watermark = true;
        });
}

// The job's state at the end is not part of the claim: a job whose every
// restore fails flaps between RESTARTING and RUNNING, so one read of it is a sample.
TEST_CASE(
    "where the expiry left the job's watermark in no snapshot the killed job never came back: each restore failed on a file the committer had deleted",
    "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs = of<e4::expire_run>(x.expires, watermark_gone);
            for (const auto* r : runs) {
                const bool not_found =
                    std::any_of(r->health.exception_names.begin(), r->health.exception_names.end(),
                                [](const std::string& e) { return e.find("NotFoundException") != std::string::npos; });
                if (!claims_test::that(r->name + " same job not running after the kill", !r->kill.same_job_running) ||
                    !claims_test::that(r->name + " a NotFoundException among the job's exceptions", not_found) ||
                    !claims_test::that(r->name + " table lost or duplicated events", !e4::exactly_once(r->table)))
                    return false;
            }
            return enough_in_both_stores(runs);
        },
        // Mutation: one such job running again after the kill.
        [](e4::samples& x) { first<e4::expire_run>(x.expires, watermark_gone).kill.same_job_running = true; });
}

TEST_CASE(
    "where the job committed again between the optimize and the expiry its watermark survived and the killed job lost nothing",
    "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs = of<e4::expire_run>(x.expires, job_committed_again);
            for (const auto* r : runs)
                if (!claims_test::that(r->name + " the job's watermark kept", r->expire.after_has_job_watermark) ||
                    !claims_test::that(r->name + " same job running after the kill", r->kill.same_job_running) ||
                    !claims_test::that(r->name + " table holds every event once", e4::exactly_once(r->table)))
                    return false;
            return claims_test::ge("after-compaction runs where the job committed again first", runs.size(), 1);
        },
        // Mutation: one missing run in that run's table.
        [](e4::samples& x) {
            first<e4::expire_run>(x.expires, job_committed_again).table.missing_runs.push_back({1, 1});
        });
}

TEST_CASE("the store listing actually saw the table's location before concluding", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            for (const auto& r : x.orphans)
                if (!claims_test::that(r.name + " table location listed before the call", r.before.location_listed) ||
                    !claims_test::ge(r.name + " data files listed before the call", r.before.data_files, 1) ||
                    !claims_test::that(r.name + " table location listed after the call", r.after.location_listed))
                    return false;
            return claims_test::gt("orphan runs", x.orphans.size(), 0);
        },
        // Mutation: a listing that saw nothing.
        [](e4::samples& x) { x.orphans.front().before = {}; });
}

TEST_CASE("on the object store remove_orphan_files had no unreferenced object and no open upload to take",
          "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs = of<e4::orphan_run>(x.orphans, [](const auto& r) { return r.store == "s3"; });
            for (const auto* r : runs)
                if (!claims_test::gt(r->name + " records in flight at the call", r->in_flight_records, 0) ||
                    !claims_test::eq(r->name + " unreferenced data objects before the call",
                                     r->before.data_unreferenced, 0) ||
                    !claims_test::eq(r->name + " open multipart uploads before the call", r->before.multipart_uploads,
                                     0) ||
                    !claims_test::eq(r->name + " data files deleted", r->deleted_data_files.size(), 0))
                    return false;
            return claims_test::ge("object-store orphan runs", runs.size(), 6);
        },
        // Mutation: record one unreferenced object.
        [](e4::samples& x) {
            first<e4::orphan_run>(x.orphans, [](const auto& r) { return r.store == "s3"; }).before.data_unreferenced =
                1;
        });
}

TEST_CASE("on the object store the in-flight records still arrived, once", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            for (const auto* r : of<e4::orphan_run>(x.orphans, [](const auto& r) { return r.store == "s3"; }))
                if (!claims_test::that(r->name + " table holds every event once", e4::exactly_once(r->table)) ||
                    !claims_test::eq(r->name + " referenced files missing from the store", r->table.referenced_missing,
                                     0))
                    return false;
            return true;
        },
        // Mutation: one missing run.
        [](e4::samples& x) {
            first<e4::orphan_run>(x.orphans, [](const auto& r) {
                return r.store == "s3";
            }).table.missing_runs.push_back({1, 1});
        });
}

TEST_CASE("with the default row group the in-flight records were in no file in either store", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs =
                of<e4::orphan_run>(x.orphans, [](const auto& r) { return r.variant == "default-row-group"; });
            for (const auto* r : runs)
                if (!claims_test::gt(r->name + " records in flight at the call", r->in_flight_records, 0) ||
                    !claims_test::eq(r->name + " unreferenced data files before the call", r->before.data_unreferenced,
                                     0) ||
                    !claims_test::le(r->name + " writer staging files before the call", r->before.writer_staging_files,
                                     0) ||
                    !claims_test::that(r->name + " table holds every event once", e4::exactly_once(r->table)))
                    return false;
            return claims_test::ge("default-row-group orphan runs", runs.size(), 6);
        },
        // Mutation: a staging file on the TaskManager's disk.
        [](e4::samples& x) {
            first<e4::orphan_run>(x.orphans, [](const auto& r) {
                return orphan_in(r, "s3", "default-row-group");
            }).before.writer_staging_files = 1;
        });
}

TEST_CASE(
    "with a small row group the object store's in-flight file was a staging file on the TaskManager's disk, not an object",
    "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs =
                of<e4::orphan_run>(x.orphans, [](const auto& r) { return orphan_in(r, "s3", "small-row-group"); });
            for (const auto* r : runs)
                if (!claims_test::ge(r->name + " writer staging files before the call", r->before.writer_staging_files,
                                     1) ||
                    !claims_test::eq(r->name + " unreferenced data objects before the call",
                                     r->before.data_unreferenced, 0) ||
                    !claims_test::that(r->name + " row group size set on the table", r->row_group_bytes.has_value()))
                    return false;
            return claims_test::ge("object-store small-row-group orphan runs", runs.size(), 3);
        },
        // Mutation: no staging file seen.
        [](e4::samples& x) {
            first<e4::orphan_run>(x.orphans, [](const auto& r) {
                return orphan_in(r, "s3", "small-row-group");
            }).before.writer_staging_files = 0;
        });
}

TEST_CASE(
    "with a small row group on a local filesystem the call deleted the in-flight files and the table lost their records while the job noticed nothing",
    "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs =
                of<e4::orphan_run>(x.orphans, [](const auto& r) { return orphan_in(r, "local", "small-row-group"); });
            for (const auto* r : runs)
                if (!claims_test::gt(r->name + " data files deleted", r->deleted_data_files.size(), 0) ||
                    !claims_test::ge(r->name + " referenced files missing from the store", r->table.referenced_missing,
                                     1) ||
                    !claims_test::ge(r->name + " records in the missing files", r->table.records_in_missing_files, 1) ||
                    !claims_test::eq(r->name + " job state at the end", r->health.state, "RUNNING") ||
                    !claims_test::eq(r->name + " job exceptions", r->health.exceptions, 0))
                    return false;
            return claims_test::ge("local small-row-group orphan runs", runs.size(), 3);
        },
        // Mutation: every referenced file found.
        [](e4::samples& x) {
            first<e4::orphan_run>(x.orphans, [](const auto& r) {
                return orphan_in(r, "local", "small-row-group");
            }).table.referenced_missing = 0;
        });
}

TEST_CASE("optimize against a live append writer committed every time and the table kept every event once",
          "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs =
                of<e4::compaction_run>(x.compactions, [](const auto& r) { return r.table_kind == "append"; });
            for (const auto* r : runs) {
                if (!claims_test::that(r->name + " table holds every event once", e4::exactly_once(r->table)) ||
                    !claims_test::eq(r->name + " job exceptions", r->health.exceptions, 0))
                    return false;
                for (const auto& c : r->calls)
                    if (!claims_test::that(r->name + " optimize call at " + std::to_string(c.at_ms) + " ms succeeded",
                                           c.ok))
                        return false;
            }
            return claims_test::ge("append compaction runs", runs.size(), 3);
        },
        // Mutation: one optimize call failed.
        [](e4::samples& x) {
            first<e4::compaction_run>(x.compactions, [](const auto& r) { return r.table_kind == "append"; })
                .calls.front()
                .ok = false;
        });
}

TEST_CASE("optimize against a live upsert writer never resurrected a superseded row", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            const auto runs =
                of<e4::compaction_run>(x.compactions, [](const auto& r) { return r.table_kind == "upsert"; });
            for (const auto* r : runs)
                if (!claims_test::that(r->name + " table holds the latest row per NPI and nothing else",
                                       e4::upsert_exact(r->table)))
                    return false;
            return claims_test::ge("upsert compaction runs", runs.size(), 3);
        },
        // Mutation: one stale row.
        [](e4::samples& x) {
            first<e4::compaction_run>(x.compactions, [](const auto& r) {
                return r.table_kind == "upsert";
            }).table.stale_rows = 1;
        });
}

TEST_CASE("the e4 verdicts on record are the ones the code computes from the samples", "[claims][e4]") {
    auto h = C::recorded_verdicts_are_recomputed(15);
    // Mutation (data): a duplicate in one plain expire run's table changes the recomputed verdict.
    first<e4::expire_run>(h.samples.expires, plain).table.duplicate_rows = 1;
    const auto broken = experiment::rejudge(h);
    const auto it = std::find_if(broken.begin(), broken.end(),
                                 [](const auto& p) { return p.id == "e4.expire-then-kill-lands-once"; });
    REQUIRE(it != broken.end());
    CHECK(it->verdict == verdict_kind::refuted);
}

TEST_CASE("the two refuted e4 predictions stay recorded as refuted", "[claims][e4]") {
    C::holds_and_is_mutation_checked(
        [](const e4::samples& x) {
            int refuted = 0;
            for (const auto& p : x.predictions)
                if ((p.id == "e4.orphans-local-deletes-in-flight-files" || p.id == "e4.compaction-upsert-conflicts") &&
                    p.verdict == verdict_kind::refuted)
                    ++refuted;
            return claims_test::eq("of the two, predictions recorded as refuted", refuted, 2);
        },
        // Mutation: flip the upsert-conflict verdict to held.
        [](e4::samples& x) {
            for (auto& p : x.predictions)
                if (p.id == "e4.compaction-upsert-conflicts") p.verdict = verdict_kind::held;
        });
}
