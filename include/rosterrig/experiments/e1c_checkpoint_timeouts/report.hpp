// rosterrig/experiments/e1c_checkpoint_timeouts/report.hpp: experiment 1c's report section
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_REPORT_HPP

#include "rosterrig/experiments/e1c_checkpoint_timeouts/rules.hpp"

namespace rosterrig::e1c {

// ---- report ------------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    auto n = [](std::uint64_t v) { return report::with_thousands(static_cast<long long>(v)); };
    std::string o =
        "Each cell: an append table or an upsert table keyed by NPI, one exactly-once job reading " +
        std::to_string(params.partitions) + " partitions with " + std::to_string(params.source_parallelism) +
        " source subtasks and writing with " + std::to_string(params.writer_parallelism) +
        " writer subtasks behind an exchange, fed " + n(params.events) +
        " roster events produced at once (the writer backpressured until it has read them)" +
        (params.paced_seconds ? " or, in the paced cells, " + std::to_string(*params.paced_seconds) +
                                    " s of events at a rate the writer keeps up with"
                              : std::string()) +
        ", a checkpoint every " + std::to_string(params.checkpoint_interval_ms) + " ms with a timeout of " +
        std::to_string(params.short_timeout_ms) + " ms (short) or " + std::to_string(params.generous_timeout_ms) +
        " ms (generous), and " + std::to_string(params.tolerable_failed_checkpoints) +
        " tolerable failed checkpoints; every cell ran " + std::to_string(params.repeats) +
        (params.repeats == 1 ? " time" : " times, one round of all cells after the other") +
        (params.kills_per_run.value_or(0) > 0
             ? ". In the kill cells the job's TaskManager is SIGKILLed right after a checkpoint times out, " +
                   std::to_string(*params.kills_per_run) +
                   " times in each run; elsewhere no process is killed: the only fault is the timeout."
             : std::string(". No process is killed: the only fault is the timeout.")) +
        (params.quick ? " **Quick run.**" : "") + "\n\n";
    auto in_force = [](const cell_run& r) {
        return r.mode_in_force + (r.unaligned_in_force ? ", unaligned" : ", aligned") + ", every " +
               std::to_string(r.interval_in_force_ms) + " ms, timeout " + std::to_string(r.timeout_in_force_ms) +
               " ms, tolerable " + std::to_string(r.tolerable_in_force);
    };
    auto counts = [&](const cell_run& r) {
        return n(static_cast<std::uint64_t>(r.totals.completed)) + " / " +
               n(static_cast<std::uint64_t>(r.totals.failed));
    };
    // Old runs recorded neither the pace nor the backpressure: they were produced at once, not sampled.
    auto feed = [&](const cell_run& r) {
        const double rate = r.feed_rate.value_or(0);
        const auto b = backpressure_of(r);
        return (rate > 0 ? n(static_cast<std::uint64_t>(rate)) + " events/s" : std::string("at once")) + "; " +
               (b ? fixed(b->median_ms_per_s, 0) + " / " + fixed(b->max_ms_per_s, 0) + " ms/s (" +
                        std::to_string(b->samples) + " samples)"
                  : std::string("not sampled"));
    };
    auto never_committed = [](const cell_run& r) {
        return std::to_string(r.store.data_unreferenced) + " of " + std::to_string(r.store.data_files);
    };
    const std::string feed_column = "Feed; source backpressured, median / max (Flink, sampled each second)";
    report::markdown_table t{{"Cell", "Repeat", "In force (Flink)", "Writer input (plan)", feed_column,
                              "Checkpoints completed / failed (Flink's counts)", "Timed out (history)", "Restarts",
                              "Rows", "Missing seqs (contiguous ranges)", "Duplicate seq rows",
                              "Records the snapshots added", "Data files never committed"}};
    report::markdown_table u{
        {"Upsert cell", "Repeat", "In force (Flink)", "Table (catalog)", feed_column,
         "Checkpoints completed / failed (Flink's counts)", "Timed out (history)", "Restarts", "Rows",
         "NPIs in the feed", "NPIs without their last record: on no row / only on older rows",
         "Rows on an NPI already on a row", "Duplicate seq rows", "Files in the store never committed"}};
    for (const auto& r : s.runs) {
        if (r.upsert) {
            const auto& x = *r.upsert;
            std::string ids;
            for (const auto& f : x.table_in_force.identifier_fields) ids += (ids.empty() ? "" : ",") + f;
            u.row({r.name, "#" + std::to_string(r.repeat), in_force(r),
                   "write.upsert.enabled=" + x.table_in_force.write_upsert_enabled.value_or("unset") + ", key " +
                       (ids.empty() ? "none" : ids),
                   feed(r), counts(r), n(timeouts_recorded(r)) + " of " + n(r.checkpoints.size()) + " recorded",
                   std::to_string(r.restarts_reported), n(r.rows), n(x.npis_expected),
                   n(x.npis_missing) + " / " + n(x.npis_without_latest), n(x.rows_sharing_npi), n(r.duplicate_rows),
                   never_committed(r)});
            continue;
        }
        t.row({r.name, "#" + std::to_string(r.repeat), in_force(r),
               r.writer_input + ", " + std::to_string(r.writer_parallelism) + " writer subtasks", feed(r), counts(r),
               n(timeouts_recorded(r)) + " of " + n(r.checkpoints.size()) + " recorded",
               std::to_string(r.restarts_reported), n(r.rows), n(r.missing_seq) + " (" + n(r.missing_runs.size()) + ")",
               n(r.duplicate_rows), n(static_cast<std::uint64_t>(std::max<std::int64_t>(0, records_committed(r)))),
               never_committed(r)});
    }
    o += t.render();
    if (std::any_of(s.runs.begin(), s.runs.end(), [](const cell_run& r) { return r.upsert.has_value(); }))
        o += "\n" + u.render();
    o += "\nCounts of rows, seqs, NPIs and files are exact: every row read back through Trino, every file under the "
         "table's location listed from the store and matched against every file the table references. In an upsert "
         "table an NPI without its last record is a loss, and a lower bound on the records lost: a later record of an "
         "NPI hides the loss of an earlier one. The checkpoint "
         "counts are Flink's own counters for the job; \"timed out\" counts the failed checkpoints whose failure "
         "message says they expired, from the history Flink keeps (its last entries, polled each second: a lower bound "
         "on the total). A backpressure figure is Flink's backPressuredTimeMsPerSecond (0 to 1,000), the largest over "
         "the source's subtasks, in samples taken each second from the feed's start until the job had drained; Flink "
         "smooths the metric over its own window, so a sample is a reading of that window, not an instant. The sink: " +
         (s.runs.empty() ? std::string("-") : s.runs.front().sink) + " in the first cell.\n";
    for (const auto& r : s.runs) {
        if (!r.kills) continue;
        std::string ids, after, restored, running;
        for (const auto& k : *r.kills) {
            ids += (ids.empty() ? "" : ", ") + std::to_string(k.timed_out_checkpoint);
            const auto gap = kill_after_expiry_ms(r, k);
            after += (after.empty() ? "" : ", ") + (gap ? fixed(static_cast<double>(*gap) / 1000.0, 1) : "?");
            restored += (restored.empty() ? "" : ", ") + std::to_string(k.kill.restored_checkpoint_id);
            running += (running.empty() ? "" : ", ") + fixed(static_cast<double>(k.kill.running_after_ms) / 1000.0, 1);
        }
        o +=
            "\n" + run_label(r) + ": " + std::to_string(r.kills->size()) + " kills" +
            (r.kills->empty()
                 ? std::string(".")
                 : ", each after the history showed a checkpoint timed out (" + ids + "), " + after +
                       " s after its expiry (trigger plus end to end, Flink's history); the job restored checkpoints " +
                       restored + " and ran again after " + running + " s.") +
            "\n";
    }
    for (const auto& r : s.runs)
        if (r.loss_by_checkpoint && r.missing_seq) o += "\n" + run_label(r) + ": " + attribution_text(r) + ".\n";
    for (const auto& c : cells()) {
        const auto runs = runs_of(s, c.name);
        const auto total = total_of(runs);
        if (!c.short_timeout || (total.lost == 0 && total.keys_doubled == 0)) continue;
        std::string lost, doubled;
        for (const auto* r : runs) {
            lost += (lost.empty() ? "" : " / ") + n(lost_of(*r));
            doubled += (doubled.empty() ? "" : " / ") + n(keys_doubled_of(*r));
        }
        o += "\n" + c.name + ":";
        if (total.lost > 0)
            o += " lost records in " + std::to_string(total.runs_that_lost) + " of " + std::to_string(total.runs) +
                 " repeats (" + lost +
                 (c.kind == experiment::table_kind::upsert ? " NPIs without their last record)" : " seqs missing)") +
                 (c.sink == experiment::iceberg_sink::flink_sink
                      ? "; the upstream issue it matches: apache/iceberg#15846"
                      : "") +
                 ".";
        if (total.keys_doubled > 0)
            o +=
                " left an NPI on several rows in " + std::to_string(total.runs_that_doubled) + " of " +
                std::to_string(total.runs) + " repeats (" + doubled +
                " extra rows); upstream reports of NPIs on two rows after aborted checkpoints: apache/iceberg#10431 (fixed for FlinkSink by #10526) and #11008.";
        if (!c.repro.empty()) {
            const auto repro = *parameters::repro_run(c.repro);
            o += " The reproduction: `rosterrig-e1c --repro " + c.repro + "` (this cell alone, " + n(repro.events) +
                 " events, " + std::to_string(repro.repeats) + " repeats).";
        }
        o += "\n";
    }
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

}  // namespace rosterrig::e1c

#endif
