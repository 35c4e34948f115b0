// rosterrig/experiments/e2_savepoint_restore/report.hpp: experiment 2's report section and its timeline figure
#ifndef ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_REPORT_HPP

#include "rosterrig/experiments/e2_savepoint_restore/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e2 {

// ---- report ------------------------------------------------------------------

/// The README section: one row per restore, the freeze per variant, the
/// verdicts and the provenance, all derived from the saved samples.
inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    using report::with_thousands;
    auto sec = [](std::int64_t ms) { return fixed(static_cast<double>(ms) / 1000.0, 1) + " s"; };
    std::string o = fmt::format(
        "Per repeat: a first batch of {} events, a savepoint early, the job run on until the table's watermark was {} "
        "checkpoints past it, stopped; a second batch of {} events; a new job restored from the old savepoint{}. "
        "Sampled every {} ms from the restore request (Trino row counts every {} ms){}.\n\n",
        with_thousands(static_cast<long long>(params.first_batch_events)), params.watermark_lead,
        with_thousands(static_cast<long long>(params.second_batch_events)),
        params.third_batch_events ? fmt::format("; once the table had moved and settled, a third batch of {} events",
                                                with_thousands(static_cast<long long>(*params.third_batch_events)))
                                  : std::string(),
        params.sample_period_ms, params.row_count_period_ms, params.quick ? ", **quick run**" : "");
    report::markdown_table t{
        {"Variant", "Repeat", "Savepoint checkpoint", "Table watermark", "Freeze (last old sample, first new)",
         "First commit (catalog timestamp)", "Table's watermark at the first sample that saw it move",
         "First new snapshot's checkpoint id (catalog)", "Commit burst: snapshots, final checkpoint, records, span",
         "Lag 0 while stale", "Job states while stale", "Failed checkpoints during freeze", "Rows", "Duplicate rows",
         "Missing runs", "Batch written after the freeze: seqs missing, duplicated"}};
    std::map<std::string, std::vector<double>> freezes;
    for (const auto& r : s.runs) {
        auto a = analyze(r);
        std::string states;
        for (const auto& st : a.states_while_stale) states += (states.empty() ? "" : ", ") + st;
        const bool seen_running = a.failed_checkpoints_at_first_running >= 0 && a.failed_checkpoints_at_table_move >= 0;
        t.row({r.variant, std::to_string(r.repeat), std::to_string(r.savepoint_checkpoint_id),
               std::to_string(r.watermark_before), fmt::format("{}, {}", sec(a.last_old_ms), sec(a.first_new_ms)),
               a.first_commit_ms ? sec(*a.first_commit_ms) : std::string("not recorded in this run"),
               std::to_string(a.ended_by_checkpoint),
               r.snapshots_after.empty() ? std::string("none")
                                         : std::to_string(r.snapshots_after.front().max_committed_checkpoint_id),
               fmt::format("{}, {}, {}, {}", a.burst_snapshots, a.burst_final_checkpoint,
                           with_thousands(a.burst_records), sec(a.burst_span_ms)),
               a.lag_zero_while_stale ? "yes" : "no",
               states.empty() ? std::string("none seen: the table moved first") : states,
               seen_running ? std::to_string(a.failed_checkpoints_at_table_move - a.failed_checkpoints_at_first_running)
                            : std::string("n/a: the table moved before a sample saw the job running"),
               with_thousands(static_cast<long long>(r.rows)), with_thousands(static_cast<long long>(r.duplicate_rows)),
               std::to_string(r.missing_runs.size()),
               !r.third_batch ? std::string("not written in this run")
               : r.table_kind == experiment::table_kind::upsert
                   ? fmt::format("n/a (upsert keeps the latest seq per NPI), {}", r.third_batch->duplicate_rows)
                   : fmt::format("{}, {}", r.third_batch->missing_seqs, r.third_batch->duplicate_rows)});
        if (a.table_moved) freezes[r.variant].push_back(static_cast<double>(a.first_new_ms) / 1000.0);
    }
    o += t.render();
    report::markdown_table f{{"Variant", "Freeze end after the restore request, min / median / max"}};
    for (const auto& [v, xs] : freezes) {
        auto sum = stats::summarize(xs);
        f.row({v, fmt::format("{} / {} / {} s (n = {})", fixed(sum.min, 1), fixed(sum.median, 1), fixed(sum.max, 1),
                              sum.count)});
    }
    o += "\n" + f.render();
    o += "\nThe freeze is bounded by two samples half a second apart: the table changed after the first figure and "
         "no later than the second; where the run recorded the restore request's time, the first new snapshot's own "
         "commit timestamp (from the catalog, on the same machine's clock) places it to the millisecond.\n\n"
         "![records in the table and the restored job's newest checkpoint id against time since the restore, with "
         "each table's watermark](docs/e2_timeline.svg)\n\n";
    return o + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// The timeline of each variant's first repeat: records in the table (solid,
/// left axis) and the restored job's newest checkpoint id (dashed, right axis)
/// against seconds since the restore request, with the table's watermark as
/// a reference line: the freeze ends where the dashed line crosses it.
inline std::string timeline_svg(const samples& s) {
    report::line_plot p;
    p.title = "After restoring from an old savepoint: the table waits for the watermark";
    p.x_label = "seconds since the restore request";
    p.y_label = "records in the table (solid)";
    p.y2_label = "restored job's newest checkpoint id (dashed)";
    std::set<std::int64_t> watermarks;
    for (const auto& r : s.runs) {
        if (r.repeat != 1) continue;
        report::series rows{r.variant + ": records", {}, report::axis::left, false};
        report::series ids{r.variant + ": checkpoint id", {}, report::axis::right, true};
        for (const auto& x : r.samples) {
            const double t = static_cast<double>(x.t_ms) / 1000.0;
            rows.points.push_back({t, static_cast<double>(x.total_records)});
            if (x.newest_checkpoint_id >= 0) ids.points.push_back({t, static_cast<double>(x.newest_checkpoint_id)});
        }
        p.add_series(std::move(rows));
        p.add_series(std::move(ids));
        watermarks.insert(r.watermark_before);
    }
    for (auto w : watermarks)
        p.add_reference({report::orientation::horizontal, report::axis::right, static_cast<double>(w),
                         fmt::format("table watermark {}", w)});
    return p.render();
}

}  // namespace rosterrig::e2

#endif
