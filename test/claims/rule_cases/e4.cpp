// test/claims/rule_cases/e4.cpp: the shipped maintenance runs with one run's expire, orphan listing, optimize call, job or table changed.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>

namespace rosterrig::claims_test {
namespace {}  // namespace

template <>
std::vector<rule_case<e4::definition>> rule_cases<e4::definition>() {
    using S = e4::samples;
    using P = e4::parameters;
    return {
        {"e4.expire-really-expires", "expire/s3/plain #1's expire left 3 of its 5 snapshots",
         [](S& s, P&) { named(s.expires, "expire/s3/plain #1", &e4::expire_run::name).expire.snapshots_after = 3; },
         verdict_kind::refuted},
        {"e4.expire-keeps-the-watermark",
         "after expire/local/plain #1's call the job's newest snapshot carries a watermark one checkpoint older than before it",
         [](S& s, P&) {
             auto& c = named(s.expires, "expire/local/plain #1", &e4::expire_run::name).expire;
             c.watermark_after = c.watermark_before - 1;
         },
         verdict_kind::refuted},
        {"e4.expire-then-kill-lands-once", "after expire/s3/plain #2's kill the table holds seq 12000 twice",
         [](S& s, P&) {
             auto& t = named(s.expires, "expire/s3/plain #2", &e4::expire_run::name).table;
             t.rows = t.events + 1;
             t.duplicate_rows = 1;
         },
         verdict_kind::refuted},
        {"e4.expire-after-compaction-loses-the-watermark",
         "expire/s3/after-compaction #2's expire kept one of the job's snapshots beside the optimize's: 2 left, the job's watermark still there",
         [](S& s, P&) {
             auto& c = named(s.expires, "expire/s3/after-compaction #2", &e4::expire_run::name).expire;
             c.snapshots_after = 2;
             c.after_has_job_watermark = true;
         },
         verdict_kind::refuted},
        {"e4.expire-after-compaction-breaks-the-restart",
         "expire/local/after-compaction #1's job came back from the kill, stayed RUNNING and landed every event once",
         [](S& s, P&) {
             auto& r = named(s.expires, "expire/local/after-compaction #1", &e4::expire_run::name);
             r.kill.same_job_running = true;
             r.health.state = "RUNNING";
             r.table.scan_ok = true;
             r.table.rows = r.table.distinct_seq = r.table.events;
             r.table.duplicate_rows = 0;
             r.table.missing_runs.clear();
         },
         verdict_kind::refuted},
        {"e4.orphans-s3-nothing-to-take",
         "just before orphans/s3/default-row-group #1's call the store listed one open multipart upload under the table",
         [](S& s, P&) {
             named(s.orphans, "orphans/s3/default-row-group #1", &e4::orphan_run::name).before.multipart_uploads = 1;
         },
         verdict_kind::refuted},
        {"e4.orphans-s3-in-flight-rows-land",
         "after orphans/s3/small-row-group #2's next checkpoint the table holds in-flight seq 12000 twice",
         [](S& s, P&) {
             auto& t = named(s.orphans, "orphans/s3/small-row-group #2", &e4::orphan_run::name).table;
             t.rows = t.events + 1;
             t.duplicate_rows = 1;
         },
         verdict_kind::refuted},
        // The shipped run already refutes the next two; these cases keep a refutation if a re-run holds them.
        {"e4.orphans-local-deletes-in-flight-files",
         "just before orphans/local/small-row-group #1's call its listing held no unreferenced data file, and the call deleted none",
         [](S& s, P&) {
             auto& r = named(s.orphans, "orphans/local/small-row-group #1", &e4::orphan_run::name);
             r.before.data_files -= r.before.data_unreferenced;
             r.before.data_unreferenced = 0;
             r.before.data_unreferenced_names.clear();
             r.deleted_data_files.clear();
         },
         verdict_kind::refuted},
        {"e4.orphans-local-commit-references-missing-files",
         "orphans/local/small-row-group #1's job noticed the deleted file: one exception in its history and one restart",
         [](S& s, P&) {
             auto& h = named(s.orphans, "orphans/local/small-row-group #1", &e4::orphan_run::name).health;
             h.exceptions = 1;
             h.restarts = 1;
             h.exception_names.push_back("java.io.FileNotFoundException");
         },
         verdict_kind::refuted},
        {"e4.orphans-default-row-group-nothing-in-any-file",
         "during orphans/s3/default-row-group #2's call the TaskManager's disk held one S3FileIO staging file",
         [](S& s, P&) {
             auto& l = named(s.orphans, "orphans/s3/default-row-group #2", &e4::orphan_run::name).before;
             l.writer_staging_files = 1;
             l.writer_staging_bytes = 8192;
         },
         verdict_kind::refuted},
        {"e4.orphans-small-row-group-s3-stages-on-the-taskmanager",
         "during orphans/s3/small-row-group #3's call the TaskManager's disk held no staging file (the records stayed in the writer's heap)",
         [](S& s, P&) {
             auto& l = named(s.orphans, "orphans/s3/small-row-group #3", &e4::orphan_run::name).before;
             l.writer_staging_files = 0;
             l.writer_staging_bytes = 0;
         },
         verdict_kind::refuted},
        {"e4.orphans-small-row-group-local-loses-the-in-flight-file",
         "orphans/local/small-row-group #2's call spared the in-flight files: nothing deleted, nothing referenced missing, every event read once",
         [](S& s, P&) {
             auto& r = named(s.orphans, "orphans/local/small-row-group #2", &e4::orphan_run::name);
             r.deleted_data_files.clear();
             r.table.scan_ok = true;
             r.table.scan_error.clear();
             r.table.rows = r.table.distinct_seq = r.table.events;
             r.table.duplicate_rows = 0;
             r.table.missing_runs.clear();
             r.table.referenced_missing = 0;
             r.table.records_in_missing_files = 0;
         },
         verdict_kind::refuted},
        {"e4.compaction-append-safe", "compaction/s3/append #1's second optimize call failed",
         [](S& s, P&) {
             auto& c = named(s.compactions, "compaction/s3/append #1", &e4::compaction_run::name).calls.at(1);
             c.ok = false;
             c.error = "Failed to commit Iceberg update to table";
         },
         verdict_kind::refuted},
        {"e4.compaction-upsert-conflicts", "every optimize call of compaction/s3/upsert #1 committed",
         [](S& s, P&) {
             for (auto& c : named(s.compactions, "compaction/s3/upsert #1", &e4::compaction_run::name).calls) {
                 c.ok = true;
                 c.error.clear();
             }
         },
         verdict_kind::refuted},
        {"e4.compaction-upsert-no-resurrection",
         "after compaction/s3/upsert #1 one NPI's row holds a superseded record",
         [](S& s, P&) {
             named(s.compactions, "compaction/s3/upsert #1", &e4::compaction_run::name).table.stale_rows = 1;
         },
         verdict_kind::refuted},
    };
}

template <>
std::set<std::string> rules_not_run<e4::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
