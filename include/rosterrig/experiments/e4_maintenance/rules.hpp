// rosterrig/experiments/e4_maintenance/rules.hpp: the verdict rules and the texts their verdicts quote, rules()

#ifndef ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_RULES_HPP

#include "rosterrig/experiments/e4_maintenance/samples.hpp"

namespace rosterrig::e4 {

// ---- rules ---------------------------------------------------------------------

using experiment::held;
using experiment::inconclusive;
using experiment::refuted;
using experiment::rule_verdict;

template <class Run, class Keep>
std::vector<Run> where(const std::vector<Run>& runs, Keep keep) {
    std::vector<Run> out;
    for (const auto& r : runs)
        if (keep(r)) out.push_back(r);
    return out;
}

inline std::vector<expire_run> expires_of(const samples& s, const std::string& variant) {
    return where(s.expires, [&](const expire_run& r) { return r.variant == variant; });
}

using experiment::phrase;

/// A table's read-back as facts and their sentence (table_text: the report's words).
inline phrase table_phrase(const table_check& t) {
    if (!t.scan_ok)
        return phrase{{{"scan_ok", false},
                       {"scan_error", t.scan_error.substr(0, 160)},
                       {"referenced_missing", t.referenced_missing},
                       {"records_in_missing_files", t.records_in_missing_files}},
                      t.referenced_missing > 0 ? "full scan failed ({scan_error}), {referenced_missing} referenced "
                                                 "files missing holding {records_in_missing_files} records"
                                               : "full scan failed ({scan_error})"};
    phrase p{{{"rows", t.rows}, {"events", t.events}, {"referenced_missing", t.referenced_missing}},
             "{rows} rows of {events} events"};
    if (t.kind == "upsert")
        p = p + phrase{{{"stale_rows", t.stale_rows},
                        {"rows_sharing_npi", t.rows_sharing_npi},
                        {"missing_npis", t.missing_npis}},
                       ", {stale_rows} stale, {rows_sharing_npi} sharing an NPI, {missing_npis} NPIs missing"};
    else
        p = p + phrase{{{"duplicate_rows", t.duplicate_rows}, {"missing_runs", t.missing_runs.size()}},
                       ", {duplicate_rows} duplicates, {missing_runs} missing runs"};
    if (t.referenced_missing > 0) p = p + ", {referenced_missing} referenced files missing";
    return p;
}
inline std::string table_text(const table_check& t) { return table_phrase(t).text(); }

inline phrase health_phrase(const job_health& h) {
    return {{{"job_state", h.state},
             {"restarts", h.restarts},
             {"exceptions", h.exceptions},
             {"failed_checkpoints", h.failed_checkpoints}},
            // -1: Flink's metric fetcher had not reported numRestarts for the job (flink_rest::restarts).
            h.restarts < 0
                ? "job {job_state}, restarts not reported, {exceptions} exceptions, {failed_checkpoints} failed "
                  "checkpoints"
                : "job {job_state}, {restarts} restarts, {exceptions} exceptions, {failed_checkpoints} failed "
                  "checkpoints"};
}
inline std::string health_text(const job_health& h) { return health_phrase(h).text(); }

inline auto run_name = [](const auto& r) { return r.name; };

inline rule_verdict expire_really_expires(const samples& s) {
    return experiment::for_each_of(
        s.expires, run_name,
        [](const expire_run& r) {
            const phrase why{{{"snapshots_before", r.expire.snapshots_before},
                              {"snapshots_after", r.expire.snapshots_after},
                              {"call_ok", r.expire.ok},
                              {"call_error", r.expire.error}},
                             r.expire.ok ? "{snapshots_before} snapshots before, {snapshots_after} after"
                                         : "{snapshots_before} snapshots before, {snapshots_after} after, the call "
                                           "failed: {call_error}"};
            if (r.expire.snapshots_before < 4) return inconclusive(why + " (fewer than four before: nothing to show)");
            return experiment::held_if(r.expire.ok && r.expire.snapshots_after <= 2, why);
        },
        "no expire run");
}

inline rule_verdict expire_keeps_the_watermark(const samples& s) {
    return experiment::for_each_of(
        expires_of(s, "plain"), run_name,
        [](const expire_run& r) {
            const phrase why{
                {{"watermark_before", r.expire.watermark_before},
                 {"watermark_after", r.expire.watermark_after},
                 {"writer_before", r.expire.current_writer_before},
                 {"writer_after", r.expire.current_writer_after},
                 {"job_id", r.job_id}},
                r.expire.current_writer_after.empty()
                    ? "watermark {watermark_before} -> {watermark_after}, newest snapshot's writer not the job"
                    : "watermark {watermark_before} -> {watermark_after}, newest snapshot's writer {writer_after}"};
            if (r.expire.current_writer_before != r.job_id)
                return inconclusive(why + " (the job's commit was not the newest before the call)");
            return experiment::held_if(
                r.expire.current_writer_after == r.job_id && r.expire.watermark_after >= r.expire.watermark_before,
                why);
        },
        "no plain expire run");
}

inline rule_verdict expire_then_kill_lands_once(const samples& s) {
    return experiment::for_each_of(
        expires_of(s, "plain"), run_name,
        [](const expire_run& r) {
            const auto why = phrase{{{"same_job_running", r.kill.same_job_running},
                                     {"restored_checkpoint", r.kill.restored_checkpoint_id}},
                                    r.kill.same_job_running ? "the same job restored from checkpoint "
                                                              "{restored_checkpoint}; "
                                                            : "the job did not restore from checkpoint "
                                                              "{restored_checkpoint}; "} +
                             table_phrase(r.table);
            return experiment::held_if(r.kill.same_job_running && exactly_once(r.table), why);
        },
        "no plain expire run");
}

inline bool compaction_committed(const expire_run& r) { return r.compaction && r.compaction->ok; }

inline rule_verdict expire_after_compaction_loses_the_watermark(const samples& s) {
    return experiment::for_each_of(
        expires_of(s, "after-compaction"), run_name,
        [](const expire_run& r) {
            if (!compaction_committed(r))
                return r.compaction ? inconclusive({{"compaction_error", r.compaction->error}},
                                                   "the optimize did not commit: {compaction_error}")
                                    : inconclusive({}, "the optimize did not commit");
            const phrase why{{{"operation_after", r.expire.current_operation_after},
                              {"writer_after", r.expire.current_writer_after},
                              {"job_id", r.job_id},
                              {"snapshots_after", r.expire.snapshots_after},
                              {"watermark_kept", r.expire.after_has_job_watermark}},
                             std::string("newest snapshot after the expire: {operation_after} by ") +
                                 (r.expire.current_writer_after.empty() ? "another writer" : "{writer_after}") +
                                 ", {snapshots_after} snapshots left, job's watermark " +
                                 (r.expire.after_has_job_watermark ? "still there" : "gone")};
            if (r.expire.current_writer_after == r.job_id)
                return inconclusive(why + " (the job committed again before the expire)");
            return experiment::held_if(!r.expire.after_has_job_watermark, why);
        },
        "no after-compaction expire run");
}

/// A restart is clean when the same job came back from the kill (the kill
/// loop saw it RUNNING again), was still RUNNING when the table was read, and
/// the table holds every event exactly once. The exception count is no part
/// of it: a healthy restart logs one NoResourceAvailableException for each
/// attempt made before the replacement TaskManager registers (every plain
/// expire run of the shipped e4 result had 3 or 4, all of that kind, and
/// restored cleanly), so any fixed allowance would judge the timing of the
/// supervisor, not the restore.
inline bool restart_was_clean(const expire_run& r) {
    return r.kill.same_job_running && r.health.state == "RUNNING" && exactly_once(r.table);
}

inline rule_verdict expire_after_compaction_breaks_the_restart(const samples& s) {
    return experiment::for_each_of(
        expires_of(s, "after-compaction"), run_name,
        [](const expire_run& r) {
            const auto why = phrase{{{"same_job_running", r.kill.same_job_running}},
                                    r.kill.same_job_running ? "the same job came back after the kill, "
                                                            : "the job never came back after the kill, "} +
                             health_phrase(r.health) +
                             phrase{{{"exceptions_after_kill", r.health.exceptions - r.exceptions_before_kill}},
                                    " ({exceptions_after_kill} exceptions after the kill); "} +
                             table_phrase(r.table) +
                             phrase{{{"compaction_committed", compaction_committed(r)},
                                     {"watermark_kept", r.expire.after_has_job_watermark},
                                     {"restart_clean", restart_was_clean(r)}},
                                    ""};
            if (!compaction_committed(r) || r.expire.after_has_job_watermark)
                return inconclusive(phrase{{}, "the watermark was not gone before the kill; "} + why);
            return experiment::held_if(!restart_was_clean(r), why);
        },
        "no after-compaction expire run");
}

inline std::string expire_text(const procedure_call& c) {
    return "expire " + (c.ok ? std::string("ok") : c.error) + ", snapshots " + std::to_string(c.snapshots_before) +
           " -> " + std::to_string(c.snapshots_after) + ", job's watermark " +
           (c.after_has_job_watermark ? "kept" : "gone");
}

inline phrase listing_phrase(const store_listing& l) {
    std::string pattern = "{data_files} data files listed ({data_unreferenced} unreferenced), ";
    if (l.multipart_uploads >= 0) pattern += "{multipart_uploads} open multipart uploads, ";
    if (l.writer_staging_files >= 0)
        pattern += "{writer_staging_files} writer staging files on the TaskManager's disk, ";
    pattern += "{other_files} other files";
    return {{{"location_listed", l.location_listed},
             {"data_files", l.data_files},
             {"data_unreferenced", l.data_unreferenced},
             {"multipart_uploads", l.multipart_uploads},
             {"writer_staging_files", l.writer_staging_files},
             {"other_files", l.other_files}},
            pattern};
}
inline std::string listing_text(const store_listing& l) { return listing_phrase(l).text(); }

inline phrase orphan_phrase(const orphan_run& r) {
    return phrase{
               {{"in_flight_records", r.in_flight_records}, {"call_after_checkpoint_ms", r.call_after_checkpoint_ms}},
               "{in_flight_records} records in flight at the call ({call_after_checkpoint_ms} ms after a "
               "checkpoint); before: "} +
           listing_phrase(r.before) +
           phrase{{{"deleted_data_files", r.deleted_data_files.size()}}, "; deleted {deleted_data_files} data files"};
}
inline std::string orphan_text(const orphan_run& r) { return orphan_phrase(r).text(); }

inline rule_verdict orphans_s3_nothing_to_take(const samples& s) {
    return experiment::for_each_of(
        where(s.orphans, [](const orphan_run& r) { return r.store == "s3" && r.in_flight_records > 0; }), run_name,
        [](const orphan_run& r) {
            const auto why = orphan_phrase(r);
            if (!r.before.location_listed) return inconclusive(why + " (the store listed nothing)");
            return experiment::held_if(
                r.before.data_unreferenced == 0 && r.before.multipart_uploads == 0 && r.deleted_data_files.empty(),
                why);
        },
        "no s3 orphan run had records in flight");
}

inline rule_verdict orphans_s3_in_flight_rows_land(const samples& s) {
    return experiment::for_each_of(
        where(s.orphans, [](const orphan_run& r) { return r.store == "s3"; }), run_name,
        [](const orphan_run& r) {
            return experiment::held_if(exactly_once(r.table) && r.table.referenced_missing == 0, table_phrase(r.table));
        },
        "no s3 orphan run");
}

inline rule_verdict orphans_local_deletes_in_flight_files(const samples& s) {
    return experiment::for_each_of(
        where(s.orphans, [](const orphan_run& r) { return r.store == "local" && r.in_flight_records > 0; }), run_name,
        [](const orphan_run& r) {
            const auto why = orphan_phrase(r);
            if (!r.before.location_listed) return inconclusive(why + " (the store listed nothing)");
            return experiment::held_if(r.before.data_unreferenced >= 1 && !r.deleted_data_files.empty(), why);
        },
        "no local orphan run had records in flight");
}

inline rule_verdict orphans_local_commit_references_missing_files(const samples& s) {
    return experiment::for_each_of(
        where(s.orphans, [](const orphan_run& r) { return r.store == "local" && !r.deleted_data_files.empty(); }),
        run_name,
        [](const orphan_run& r) {
            const auto why = table_phrase(r.table) + "; " + health_phrase(r.health);
            const bool damaged = r.table.referenced_missing >= 1 && (!r.table.scan_ok || r.table.rows < r.table.events);
            const bool silent = r.health.state == "RUNNING" && r.health.exceptions == 0;
            return experiment::held_if(damaged && silent, why);
        },
        "no local orphan run's call deleted an in-flight data file");
}

inline auto orphans_where(const samples& s, const std::string& store, const std::string& variant) {
    return where(s.orphans, [&](const orphan_run& r) {
        return (store.empty() || r.store == store) && r.variant == variant && r.in_flight_records > 0;
    });
}

inline rule_verdict orphans_default_row_group_nothing_in_any_file(const samples& s) {
    return experiment::for_each_of(
        orphans_where(s, "", "default-row-group"), run_name,
        [](const orphan_run& r) {
            const auto why = orphan_phrase(r) + "; " + table_phrase(r.table);
            if (!r.before.location_listed) return inconclusive(why + " (the store listed nothing)");
            const bool nothing =
                r.before.data_unreferenced == 0 && r.before.writer_staging_files <= 0 && r.deleted_data_files.empty();
            return experiment::held_if(nothing && exactly_once(r.table), why);
        },
        "no default-row-group orphan run had records in flight");
}

inline rule_verdict orphans_small_row_group_s3_stages_on_the_taskmanager(const samples& s) {
    return experiment::for_each_of(
        orphans_where(s, "s3", "small-row-group"), run_name,
        [](const orphan_run& r) {
            const auto why = orphan_phrase(r) + "; " + table_phrase(r.table);
            if (!r.before.location_listed) return inconclusive(why + " (the store listed nothing)");
            const bool staged = r.before.writer_staging_files >= 1 && r.before.data_unreferenced == 0 &&
                                r.before.multipart_uploads == 0 && r.deleted_data_files.empty();
            return experiment::held_if(staged && exactly_once(r.table), why);
        },
        "no s3 small-row-group orphan run had records in flight");
}

inline rule_verdict orphans_small_row_group_local_loses_the_in_flight_file(const samples& s) {
    return experiment::for_each_of(
        orphans_where(s, "local", "small-row-group"), run_name,
        [](const orphan_run& r) {
            const auto why = orphan_phrase(r) + "; " + table_phrase(r.table) + "; " + health_phrase(r.health);
            if (!r.before.location_listed) return inconclusive(why + " (the store listed nothing)");
            const bool lost = r.before.data_unreferenced >= 1 && !r.deleted_data_files.empty() &&
                              r.table.referenced_missing >= 1 && (!r.table.scan_ok || r.table.rows < r.table.events);
            const bool silent = r.health.state == "RUNNING" && r.health.exceptions == 0;
            return experiment::held_if(lost && silent, why);
        },
        "no local small-row-group orphan run had records in flight");
}

inline phrase calls_phrase(const compaction_run& r) {
    std::int64_t ok = 0;
    for (const auto& c : r.calls) ok += c.ok ? 1 : 0;
    return {{{"calls_committed", ok}, {"calls", r.calls.size()}},
            "{calls_committed} of {calls} optimize calls committed"};
}
inline std::string calls_text(const compaction_run& r) { return calls_phrase(r).text(); }

inline rule_verdict compaction_append_safe(const samples& s) {
    return experiment::for_each_of(
        where(s.compactions, [](const compaction_run& r) { return r.table_kind == "append"; }), run_name,
        [](const compaction_run& r) {
            bool all_ok = !r.calls.empty();
            for (const auto& c : r.calls) all_ok = all_ok && c.ok;
            const auto why = calls_phrase(r) + "; " + health_phrase(r.health) + "; " + table_phrase(r.table);
            return experiment::held_if(all_ok && r.health.state == "RUNNING" && r.health.exceptions == 0 &&
                                           r.health.failed_checkpoints == 0 && exactly_once(r.table),
                                       why);
        },
        "no append compaction run");
}

inline rule_verdict compaction_upsert_conflicts(const samples& s) {
    return experiment::for_each_of(
        where(s.compactions, [](const compaction_run& r) { return r.table_kind == "upsert"; }), run_name,
        [](const compaction_run& r) {
            bool any_failed = false;
            std::string first_error;
            for (const auto& c : r.calls)
                if (!c.ok) {
                    any_failed = true;
                    if (first_error.empty()) first_error = c.error.substr(0, 200);
                }
            const auto why = calls_phrase(r) + (first_error.empty() ? phrase{{}, ""}
                                                                    : phrase{{{"first_error", first_error}},
                                                                             "; first error: {first_error}"});
            return experiment::held_if(any_failed, why);
        },
        "no upsert compaction run");
}

inline rule_verdict compaction_upsert_no_resurrection(const samples& s) {
    return experiment::for_each_of(
        where(s.compactions, [](const compaction_run& r) { return r.table_kind == "upsert"; }), run_name,
        [](const compaction_run& r) {
            const auto why = calls_phrase(r) + "; " + health_phrase(r.health) + "; " + table_phrase(r.table);
            return experiment::held_if(upsert_exact(r.table) && r.health.state == "RUNNING" && r.health.exceptions == 0,
                                       why);
        },
        "no upsert compaction run");
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    auto r = [](const char* id, rule_verdict (*f)(const samples&)) {
        return rule{id, [f](const samples& s, const parameters&) { return f(s); }};
    };
    return {r("e4.expire-really-expires", expire_really_expires),
            r("e4.expire-keeps-the-watermark", expire_keeps_the_watermark),
            r("e4.expire-then-kill-lands-once", expire_then_kill_lands_once),
            r("e4.expire-after-compaction-loses-the-watermark", expire_after_compaction_loses_the_watermark),
            r("e4.expire-after-compaction-breaks-the-restart", expire_after_compaction_breaks_the_restart),
            r("e4.orphans-s3-nothing-to-take", orphans_s3_nothing_to_take),
            r("e4.orphans-s3-in-flight-rows-land", orphans_s3_in_flight_rows_land),
            r("e4.orphans-local-deletes-in-flight-files", orphans_local_deletes_in_flight_files),
            r("e4.orphans-local-commit-references-missing-files", orphans_local_commit_references_missing_files),
            r("e4.orphans-default-row-group-nothing-in-any-file", orphans_default_row_group_nothing_in_any_file),
            r("e4.orphans-small-row-group-s3-stages-on-the-taskmanager",
              orphans_small_row_group_s3_stages_on_the_taskmanager),
            r("e4.orphans-small-row-group-local-loses-the-in-flight-file",
              orphans_small_row_group_local_loses_the_in_flight_file),
            r("e4.compaction-append-safe", compaction_append_safe),
            r("e4.compaction-upsert-conflicts", compaction_upsert_conflicts),
            r("e4.compaction-upsert-no-resurrection", compaction_upsert_no_resurrection)};
}

}  // namespace rosterrig::e4

#endif
