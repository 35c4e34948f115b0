// rosterrig/experiments/e8_catalog_commit_faults/report.hpp: experiment 8's report section and its figure (snapshots per checkpoint id).
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_REPORT_HPP

#include "rosterrig/experiments/e8_catalog_commit_faults/rules.hpp"

namespace rosterrig::e8 {

// ---- report ---------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    std::string o = "One Flink job per writer (parallelism 1, exactly-once, checkpoint every " +
                    report::fixed(static_cast<double>(p.checkpoint_interval_ms) / 1000, 0) + " s, append table) fed " +
                    report::fixed(p.rate, 0) + " events/s; its catalog client goes through the fault proxy, the checks go to the "
                    "catalog and Trino directly. Each trial hits one commit POST (the k-th after the table settled, k drawn in "
                    "[2, 5]). Counts are exact: snapshots from the catalog, requests from the proxy's log, rows from a full Trino "
                    "scan" + std::string(p.quick ? "; **quick run**" : "") + ".\n\n";
    report::markdown_table t{{"Writer", "Trial", "Fault", "Checkpoint hit", "Valid (what the proxy saw)", "Snapshots with that watermark",
                              "Records committed twice", "Flink failures"}};
    for (const auto& r : s.runs)
        for (const auto& x : r.trials) {
            const auto oc = outcome_of(r, x);
            t.row({r.writer, std::to_string(x.index), stem_of(x.kind) + (x.status ? " " + std::to_string(x.status) : std::string()),
                   std::to_string(oc.checkpoint), (oc.valid.valid ? "yes: " : "no: ") + oc.valid.why,
                   std::to_string(oc.commits_of_checkpoint), std::to_string(oc.excess_records),
                   std::to_string(x.exceptions_after - x.exceptions_before)});
        }
    o += t.render() + "\n";
    o += "![Snapshots carrying each checkpoint id, per writer, from the catalog; 2 is a checkpoint committed twice]"
         "(docs/e8_commits.svg)\n\n";
    report::markdown_table end{{"Writer", "Events sent", "Rows", "Duplicate seq rows", "Missing seqs",
                                "Records added by the snapshots minus events sent", "Watermarks committed twice"}};
    for (const auto& r : s.runs) {
        const auto rr = replay_report(r);
        end.row({r.writer, report::with_thousands(static_cast<long long>(r.events)), report::with_thousands(static_cast<long long>(r.rows)),
                 report::with_thousands(static_cast<long long>(r.duplicate_rows)), report::with_thousands(static_cast<long long>(r.missing_seq)),
                 std::to_string(rr.excess_records()), std::to_string(rr.replayed_watermarks.size())});
    }
    return o + end.render() + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// Snapshots per checkpoint id, per writer, from the catalog: 1 is right, 2 a
/// checkpoint committed twice. (Records per checkpoint would not do: the
/// catch-up after a restart commits more than its neighbours too.)
inline std::string commits_svg(const samples& s) {
    report::line_plot p;
    p.title = "E8: snapshots carrying each checkpoint id (2 is a checkpoint committed twice)";
    p.x_label = "checkpoint id (flink.max-committed-checkpoint-id)";
    p.y_label = "snapshots that added data with this watermark";
    for (const auto& r : s.runs) {
        std::map<std::int64_t, std::int64_t> by_checkpoint;
        for (const auto& x : r.snapshots)
            if (x.watermark >= 0 && check::adds_data(x)) ++by_checkpoint[x.watermark];
        report::series line{r.writer, {}, report::axis::left, false};
        for (const auto& [c, n] : by_checkpoint) line.points.push_back({static_cast<double>(c), static_cast<double>(n)});
        p.add_series(std::move(line));
    }
    return p.render();
}

}  // namespace rosterrig::e8

#endif
