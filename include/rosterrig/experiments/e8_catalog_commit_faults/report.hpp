// rosterrig/experiments/e8_catalog_commit_faults/report.hpp: experiment 8's report section and its figure (snapshots per checkpoint id).
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_REPORT_HPP

#include "rosterrig/experiments/e8_catalog_commit_faults/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e8 {

// ---- report ---------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    std::string more;
    if (p.more_tables)
        for (const auto& t : *p.more_tables) {
            std::string name = experiment::name_of(t.table);
            std::replace(name.begin(), name.end(), '_', '-');
            more +=
                fmt::format("; then {}{}", name,
                            retries_off(t.table) ? std::string(" (commit.retry.num-retries = 0)")
                            : short_client_timeout(t.table)
                                ? fmt::format(" (the catalog client's socket timeout {} ms)", p.short_socket_timeout())
                                : std::string());
        }
    std::string o = fmt::format(
        "One Flink job per writer and table (parallelism 1, exactly-once, checkpoint every {} s; an append table{}) "
        "fed {} events/s; its catalog client goes through the fault proxy, the checks go to the catalog and Trino "
        "directly. Each trial hits one commit POST (the k-th after the table settled, k drawn in [2, 5]). Counts are "
        "exact: snapshots from the catalog, requests from the proxy's log, rows from a full Trino scan{}.\n\n",
        report::fixed(static_cast<double>(p.checkpoint_interval_ms) / 1000, 0), more, report::fixed(p.rate, 0),
        p.quick ? "; **quick run**" : "");
    // The store's columns only for results whose runs listed it.
    const bool any_store =
        std::any_of(s.runs.begin(), s.runs.end(), [](const writer_run& r) { return r.store.has_value(); });
    std::vector<std::string> trial_columns{"Writer (and table, when not append)",
                                           "Trial",
                                           "Fault",
                                           "Checkpoint hit",
                                           "Valid (what the proxy saw)",
                                           "Snapshots with that watermark",
                                           "Records committed twice",
                                           "Flink failures"};
    if (any_store)
        trial_columns.push_back(
            "Files it left that nothing references: Flink manifests of its checkpoint / commit manifests / manifest "
            "lists / data files");
    report::markdown_table t{trial_columns};
    for (const auto& r : s.runs)
        for (const auto& x : r.trials) {
            const auto oc = outcome_of(r, x);
            std::vector<std::string> row{run_name(r),
                                         std::to_string(x.index),
                                         x.status ? fmt::format("{} {}", stem_of(x.kind), x.status) : stem_of(x.kind),
                                         std::to_string(oc.checkpoint),
                                         fmt::format("{}{}", oc.valid.valid ? "yes: " : "no: ", oc.valid.why),
                                         std::to_string(oc.commits_of_checkpoint),
                                         std::to_string(oc.excess_records),
                                         std::to_string(x.exceptions_after - x.exceptions_before)};
            if (any_store) {
                const auto st = strays_of(r, x);
                row.push_back(st.listed ? fmt::format("{} / {} / {} / {}", st.flink_manifests.size(),
                                                      st.commit_manifests.size(), st.manifest_lists.size(),
                                                      st.data_files.size())
                                        : "not listed");
            }
            t.row(row);
        }
    o += t.render() + "\n";
    o += "![Snapshots carrying each checkpoint id, per writer, from the catalog; 2 is a checkpoint committed twice]"
         "(docs/e8_commits.svg)\n\n";
    const bool any_upsert = std::any_of(s.runs.begin(), s.runs.end(), [](const writer_run& r) {
        return kind_of(variant_of(r)) == experiment::table_kind::upsert;
    });
    std::vector<std::string> columns{"Writer (and table, when not append)", "Events sent", "Rows", "Duplicate seq rows",
                                     "Missing seqs"};
    if (any_upsert) columns.push_back("Upsert: NPIs with more than one row / missing / stale rows");
    columns.insert(columns.end(), {"Records added by the snapshots minus events sent", "Watermarks committed twice"});
    if (any_store)
        columns.push_back(
            "Store at the end: files the metadata references / of them missing / files nothing references (no "
            "trial's, metadata JSON aside)");
    report::markdown_table end{columns};
    for (const auto& r : s.runs) {
        const auto rr = replay_report(r);
        const bool upsert = kind_of(variant_of(r)) == experiment::table_kind::upsert;
        std::vector<std::string> row{
            run_name(r), report::with_thousands(static_cast<long long>(r.events)),
            report::with_thousands(static_cast<long long>(r.rows)),
            upsert ? "n/a (one row per NPI)" : report::with_thousands(static_cast<long long>(r.duplicate_rows)),
            upsert ? "n/a (one row per NPI)" : report::with_thousands(static_cast<long long>(r.missing_seq))};
        if (any_upsert)
            row.push_back(upsert ? fmt::format("{} / {} / {}", r.rows_sharing_npi.value_or(0),
                                               r.missing_npis.value_or(0), r.stale_rows.value_or(0))
                                 : "n/a (append)");
        row.insert(row.end(), {std::to_string(rr.excess_records()), std::to_string(rr.replayed_watermarks.size())});
        if (any_store)
            row.push_back(r.store ? fmt::format("{} / {} / {} ({})", r.store->referenced,
                                                r.store->referenced_missing.size(), r.store->unreferenced.size(),
                                                strays_of_no_trial(r).size())
                                  : "not listed");
        end.row(row);
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
        report::series line{run_name(r), {}, report::axis::left, false};
        for (const auto& [c, n] : by_checkpoint)
            line.points.push_back({static_cast<double>(c), static_cast<double>(n)});
        p.add_series(std::move(line));
    }
    return p.render();
}

}  // namespace rosterrig::e8

#endif
