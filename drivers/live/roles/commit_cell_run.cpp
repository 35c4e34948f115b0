#include "roles/commit_cell_run.hpp"

#include <chrono>

#include "roles/observe_table.hpp"
#include "adapters/process_fault.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

produce_report feed_watching_table(session& s, const std::string& label, const pipeline_spec& p,
                                   const std::vector<kafka_record>& records, double rate) {
    return feed_with_progress(s.stack.kafka(), p.topic, records, rate, [&](long long acknowledged, long long total) {
        return label + ": " + std::to_string(acknowledged) + " of " + std::to_string(total) +
               " records acknowledged, table at " + std::to_string(committed_records(s.catalog, p.ns, p.table)) +
               " records";
    });
}

void measure_commit_cell(session& s, writer& w, const pipeline_spec& p, const std::string& label,
                         const std::vector<kafka_record>& records, const roster_spec& spec, double rate,
                         std::int64_t freshness_bucket_ms, const snapshot_writer& writer_of,
                         experiment::cell_run& run) {
    run.feed_started_ms = now_ms();
    const auto acks = experiment::acknowledgements_of(feed_watching_table(s, label, p, records, rate).acked_at);
    run.feed_duration_ms = acks.feed_duration_ms;
    wait_table_counts(s.catalog, p.ns, p.table, static_cast<long long>(run.events),
                      std::chrono::seconds(run.interval_ms / 1000 + 180));
    w.stop(run.job_id);

    std::vector<experiment::snapshot_entry> snapshots;
    for (const auto& snap : s.catalog.load(p.ns, p.table).snapshots)
        snapshots.push_back({snap.snapshot_id, snap.timestamp_ms, snap.summary_text("operation"), writer_of(snap),
                             snap.summary_int("added-data-files", 0), snap.summary_int("added-records", 0), 0});
    experiment::record_snapshots(run, std::move(snapshots), seq_first_snapshots(s.trino, p.ns, p.table), acks.at_ms,
                                 freshness_bucket_ms);
    run.files = read_file_entries(s.trino, p.ns, p.table);
    const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
    run.rows = seen.by_seq.rows, run.duplicate_rows = seen.by_seq.duplicate_rows,
    run.missing_runs = seen.by_seq.missing_runs;
    progress(label + ": " + experiment::describe(run));
}

}  // namespace rosterrig::live
