// rosterrig/experiments/e4_maintenance/report.hpp: the report section: the safety table per procedure and store, report_section()

#ifndef ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E4_MAINTENANCE_REPORT_HPP

#include "rosterrig/experiments/e4_maintenance/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e4 {

// ---- report --------------------------------------------------------------------

inline std::string store_name(const std::string& s) {
    return s == "s3" ? "object store (S3Proxy)" : "local filesystem";
}

/// One line of the verdict a reader wants first: for one procedure in one
/// store, whether every run kept the table's promise with the job running.
struct safety_line {
    std::string procedure, store;
    std::int64_t runs = 0, kept = 0, running = 0, records_lost = 0, referenced_missing = 0;
};

inline void tally(safety_line& l, const table_check& t, const job_health& h) {
    ++l.runs;
    const bool ok = table_promise_kept(t) && t.referenced_missing <= 0;
    l.kept += ok ? 1 : 0;
    l.running += h.state == "RUNNING" ? 1 : 0;
    if (t.kind != "upsert")
        l.records_lost += t.scan_ok ? static_cast<std::int64_t>(t.events - std::min(t.events, t.distinct_seq))
                                    : t.records_in_missing_files;
    l.referenced_missing += std::max<std::int64_t>(t.referenced_missing, 0);
}

/// For each procedure and store that ran: safe for a live writer only if
/// every run kept the table's promise, every referenced file was there, and
/// the job was RUNNING at the end.
inline std::vector<safety_line> safety(const samples& s) {
    std::vector<safety_line> out;
    auto line = [&](const std::string& proc, const std::string& store) -> safety_line& {
        for (auto& l : out)
            if (l.procedure == proc && l.store == store) return l;
        out.push_back({proc, store});
        return out.back();
    };
    for (const auto& r : s.expires)
        tally(line(r.variant == "plain" ? "expire_snapshots, the job's commit newest, then a kill"
                                        : "expire_snapshots after another writer's commit, then a kill",
                   r.store),
              r.table, r.health);
    for (const auto& r : s.orphans)
        tally(
            line(fmt::format("remove_orphan_files, {} row group", r.variant == "small-row-group" ? "small" : "default"),
                 r.store),
            r.table, r.health);
    for (const auto& r : s.compactions)
        tally(line(fmt::format("optimize, {} table", r.table_kind), r.store), r.table, r.health);
    return out;
}

inline std::string safety_table(const samples& s) {
    report::markdown_table t{{"Procedure against a live writer", "Store", "Safe?", "Runs that kept the table's promise",
                              "Job RUNNING at the end", "Records lost", "Referenced files missing"}};
    for (const auto& l : safety(s)) {
        const bool safe = l.kept == l.runs && l.running == l.runs;
        t.row({l.procedure, store_name(l.store), safe ? "yes" : "**no**", fmt::format("{} of {}", l.kept, l.runs),
               fmt::format("{} of {}", l.running, l.runs), report::with_thousands(l.records_lost),
               std::to_string(l.referenced_missing)});
    }
    return t.render();
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    using report::with_thousands;
    std::string o = fmt::format(
        "Every procedure ran through Trino (`ALTER TABLE … EXECUTE`) against a table a Flink job was still writing: "
        "the roster feed ({} events per run, {} partitions, writer parallelism {}, exactly-once), {} repeat(s) of each "
        "run{}. Trino's minimum retentions, as its session reports them: expire_snapshots {}, remove_orphan_files {} "
        "(set in `compose/trino/component.sh`, `iceberg.*.min-retention`), so a threshold of zero is allowed. Every "
        "table is read back in full through Trino and checked against the seed; records lost count the append "
        "tables' missing seqs, or, when the scan fails, the records the metadata gives the missing files.\n\n{}\n",
        with_thousands(static_cast<long long>(p.events)), p.partitions, p.parallelism, p.repeats,
        p.quick ? ", **quick run**" : "", s.trino.expire_snapshots_min_retention,
        s.trino.remove_orphan_files_min_retention, safety_table(s));
    if (!s.expires.empty()) {
        o +=
            "**expire_snapshots, then a TaskManager SIGKILL.** Plain: the job's own commit is the newest snapshot. "
            "After compaction: Trino's optimize committed between two of the job's checkpoints, then the expire, then the kill." +
            (p.optimize_attempts
                 ? fmt::format(" When the job committed during the optimize, so that its own snapshot was the newest "
                               "again, the optimize was called again after the job's next commit, up to {} calls.",
                               *p.optimize_attempts)
                 : std::string(" The procedure did not check that the optimize's commit was still the newest.")) +
            "\n\n";
        report::markdown_table t{
            {"Run", "Store", "Optimize calls", "Snapshots before → after", "Newest snapshot after (operation, writer)",
             "Job's watermark before the maintenance → after", "After the kill", "Job at the end", "Table"}};
        for (const auto& r : s.expires)
            t.row({r.name, store_name(r.store),
                   !r.compaction      ? std::string("none")
                   : r.optimize_calls ? std::to_string(*r.optimize_calls)
                                      : std::string("1"),
                   fmt::format("{} → {}", r.expire.snapshots_before, r.expire.snapshots_after),
                   fmt::format("{}, {}", r.expire.current_operation_after,
                               r.expire.current_writer_after == r.job_id ? "the job" : "another writer"),
                   fmt::format("{} → {}", r.compaction ? r.compaction->watermark_before : r.expire.watermark_before,
                               r.expire.after_has_job_watermark ? std::to_string(r.expire.watermark_after)
                                                                : std::string("gone")),
                   r.kill.same_job_running
                       ? fmt::format("the same job restored from checkpoint {}", r.kill.restored_checkpoint_id)
                       : fmt::format("tasks never all running again; restoring checkpoint {}",
                                     r.kill.restored_checkpoint_id),
                   health_text(r.health), table_text(r.table)});
        o += t.render() + "\n";
    }
    if (!s.orphans.empty()) {
        o += fmt::format(
            "**remove_orphan_files at retention zero, with records in flight.** The store listed just before the call and "
            "just after, through S3's own API (ListObjectsV2, ListMultipartUploads) or a directory walk, each file "
            "classified against every file the table's metadata references; on the object store also S3FileIO's "
            "staging files in the TaskManager's temporary directory, where a file not yet uploaded is. In flight: "
            "records our producer had acknowledged minus the newest snapshot's total-records. Row group: Iceberg's "
            "Parquet writer creates a file only when it flushes a row group or closes the file at the checkpoint; "
            "the small row group (`write.parquet.row-group-size-bytes` = {}, read back from the catalog) makes it "
            "flush inside the interval.\n\n",
            p.small_row_group_bytes);
        report::markdown_table t{{"Run", "Row group (catalog)", "In flight at the call",
                                  "What the store held (before the call)", "Deleted by the call", "Job at the end",
                                  "Table after the next commit"}};
        for (const auto& r : s.orphans)
            t.row({r.name,
                   r.row_group_bytes ? with_thousands(*r.row_group_bytes) + " B" : std::string("default (not set)"),
                   fmt::format("{} records, {} after the job's last commit", with_thousands(r.in_flight_records),
                               report::seconds_from_ms(r.call_after_checkpoint_ms)),
                   listing_text(r.before),
                   fmt::format("{} data files{}", r.deleted_data_files.size(), r.call.ok ? "" : " (call failed)"),
                   health_text(r.health), table_text(r.table)});
        o += t.render() + "\n";
    }
    if (!s.compactions.empty()) {
        o += fmt::format(
            "**optimize against a live writer** (object store), {} calls per run while the feed was arriving.\n\n",
            p.compactions_per_run);
        report::markdown_table t{{"Run", "Optimize calls committed", "Errors",
                                  "Data / delete files before → after (last call)", "Job at the end", "Table"}};
        for (const auto& r : s.compactions) {
            std::string errors;
            for (const auto& c : r.calls)
                if (!c.ok) errors += (errors.empty() ? "" : "; ") + c.error.substr(0, 120);
            const auto* last = r.calls.empty() ? nullptr : &r.calls.back();
            t.row({r.name, calls_text(r), errors.empty() ? std::string("none") : errors,
                   last ? fmt::format("{}/{} → {}/{}", last->data_files_before, last->delete_files_before,
                                      last->data_files_after, last->delete_files_after)
                        : std::string("-"),
                   health_text(r.health), table_text(r.table)});
        }
        o += t.render() + "\n";
    }
    return o + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

}  // namespace rosterrig::e4

#endif
