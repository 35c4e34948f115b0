// rosterrig/experiments/e1_restart_replay/report.hpp: experiment 1's report section: the recovery table, the per-configuration table, the offsets part
#ifndef ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_REPORT_HPP

#include "rosterrig/experiments/e1_restart_replay/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e1 {

// ---- report ------------------------------------------------------------------

/// A configuration's recoveries, phase by phase (kills that recorded them),
/// ending with the driver's own "running again".
inline std::vector<experiment::phase_list> recoveries_of(const configuration_run& c) {
    std::vector<experiment::phase_list> out;
    for (const auto& k : c.kills)
        if (k.recovery) {
            out.push_back(experiment::recovery_phases(k.killed_at_ms, k.restarting_at_ms,
                                                      k.killed_at_ms + k.taskmanager_back_after_ms, *k.recovery));
            out.back().emplace_back("driver_sees_running", k.job_running_after_ms >= 0
                                                               ? std::optional<std::int64_t>(k.job_running_after_ms)
                                                               : std::nullopt);
        }
    return out;
}

/// Where each configuration's recoveries spent their time, phase by phase
/// (median / max ms after the kill); empty for runs that did not record it.
inline std::string recovery_table(const samples& s) {
    std::vector<std::pair<std::string, std::vector<experiment::phase_summary>>> rows;
    for (const auto& c : s.configurations)
        if (const auto recoveries = recoveries_of(c); !recoveries.empty())
            rows.emplace_back(c.name, experiment::summarize_phases(recoveries));
    if (rows.empty()) return {};
    std::string settings;  // as the first configuration's job reported them
    if (!s.configurations.empty() && s.configurations.front().recovery_settings) {
        const auto& r = *s.configurations.front().recovery_settings;
        settings = fmt::format(
            " Recovery settings in force, as the processes reported them: {} TaskManagers registered ({} mapping the "
            "class archive), heartbeat every {} ms (lost after {} failed RPCs), REST views refreshed every {} ms, the "
            "supervisor's pause before restarting a JVM {} s.",
            r.taskmanagers_registered, r.taskmanagers_sharing_classes, r.heartbeat_interval,
            r.heartbeat_rpc_failure_threshold, r.rest_refresh_interval,
            r.supervisor_restart_pause.empty() ? std::string("1") : r.supervisor_restart_pause);
        if (const auto& rs = s.configurations.front().restart_strategy)
            settings += fmt::format(" Restart strategy {}, delay {}.", rs->type, rs->delay);
    }
    // Columns by phase name, in recovery order: a phase no kill of a
    // configuration recorded is "n/a" there, not a shift of the cells after it.
    std::vector<std::string> phases;
    const auto first_recoveries =
        recoveries_of(*find_configuration(s, rows.front().first));  // kept: the loop walks into it
    for (const auto& [phase, at] : first_recoveries.front())
        for (const auto& [name, summaries] : rows)
            if (std::any_of(summaries.begin(), summaries.end(), [&](const auto& p) { return p.phase == phase; }) &&
                std::find(phases.begin(), phases.end(), phase) == phases.end())
                phases.push_back(phase);
    std::vector<std::string> header{"Configuration"};
    for (const auto& p : phases) header.push_back(p + " (median / max ms)");
    report::markdown_table t{header};
    for (const auto& [name, summaries] : rows) {
        std::vector<std::string> cells{name};
        for (const auto& phase : phases) {
            std::string cell = "n/a";
            for (const auto& p : summaries)
                if (p.phase == phase)
                    cell = fmt::format("{} / {}{}", report::fixed(p.median_ms, 0), report::fixed(p.max_ms, 0),
                                       p.recoveries < 10
                                           ? fmt::format(" ({} {})", p.recoveries, p.recoveries == 1 ? "kill" : "kills")
                                           : std::string());
            cells.push_back(cell);
        }
        t.row(cells);
    }
    return fmt::format(
        "\nWhere a recovery's time goes, from the kill: Flink's exception history (failure seen), the job's "
        "RESTARTING time, the supervisor's new JVM and the JobManager's list of TaskManagers (both polled every "
        "100 ms until the new JVM is up, so a registration after that is not seen: n/a), and the new attempt's first "
        "DEPLOYING, restore and last RUNNING times as Flink reports them.{}\n\n{}",
        settings, t.render());
}

/// A configuration's one-sided 95% upper bound on the chance that a kill
/// breaks exactly-once, from what its table kind can show: duplicate seqs in
/// an append table, the snapshots in an upsert table (none when they were not
/// recorded or a replay leaves only an "at least" count).
inline std::optional<double> kill_bound_of(const configuration_run& c) {
    if (c.table_kind == experiment::table_kind::append) return summarize(c).upper_bound_95;
    const auto r = replays_of(c);
    if (!r || !r->report.clean()) return std::nullopt;
    return stats::clopper_pearson_upper(0, r->kills);
}

/// The README section: the per-configuration table, the offsets part, the
/// verdicts and the provenance, every figure derived from the saved samples.
inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    using report::with_thousands;
    auto n = [](std::uint64_t v) { return with_thousands(static_cast<long long>(v)); };
    std::string o = fmt::format(
        "Each configuration: one job fed {} roster events at a steady rate, the TaskManager SIGKILLed {} times at "
        "randomized moments (0 to {} ms after the first checkpoint of each recovery), checkpoint interval {} ms, {} "
        "warehouse{}.\n\n",
        n(params.events), params.kills_per_configuration, params.kill_delay_max_ms, params.checkpoint_interval_ms,
        experiment::name_of(params.warehouse), params.quick ? ", **quick run**" : "");
    report::markdown_table t{{"Configuration", "Mode in force (Flink)", "Writer input", "Kills",
                              "Kills with duplicate seqs", "Duplicates (min / median / max per kill)",
                              "Kills that replayed (snapshots)", "Records the snapshots added beyond the events sent",
                              "Checkpoints committed twice", "95% upper bound (per kill)", "Rows", "Duplicate seq rows",
                              "Rows sharing an NPI", "Stale upsert rows", "Data files", "Equality delete files",
                              "Failures in Flink's exception history"}};
    for (const auto& c : s.configurations) {
        auto sum = summarize(c);
        const bool upsert = c.table_kind == experiment::table_kind::upsert;
        const auto replays = replays_of(c);
        const auto bound = kill_bound_of(c);
        t.row({c.name, fmt::format("{}, {} ms", c.checkpoint_mode_in_force, c.checkpoint_interval_in_force_ms),
               c.writer_input, std::to_string(sum.kills),
               upsert ? std::string("n/a: collapsed") : std::to_string(sum.kills_with_duplicates),
               upsert ? std::string("n/a: collapsed")
                      : fmt::format("{} ({} / {} / {})", n(sum.total_duplicates), fixed(sum.min_per_kill, 0),
                                    fixed(sum.median_per_kill, 1), fixed(sum.max_per_kill, 0)),
               replays
                   ? (replays->report.clean() ? "0" : fmt::format("at least {}", replays->kills_replayed_at_least()))
                   : std::string("not recorded"),
               replays ? with_thousands(replays->report.excess_records()) : std::string("not recorded"),
               replays ? std::to_string(replays->report.replayed_watermarks.size()) : std::string("not recorded"),
               bound ? fixed(*bound, 4) : std::string("-"), n(c.rows), n(c.duplicate_rows), n(c.rows_sharing_npi),
               c.table_kind == experiment::table_kind::upsert ? n(c.stale_rows) : std::string("n/a"),
               std::to_string(c.data_files), std::to_string(c.equality_delete_files),
               c.exceptions_recorded ? std::to_string(*c.exceptions_recorded) : std::string("-")});
    }
    o += t.render();
    std::uint64_t kills = 0, duplicate_rows = 0, missing_runs = 0, fewest = 0, unbounded = 0;
    double largest_bound = 0;
    for (const auto& c : s.configurations) {
        const auto sum = summarize(c);
        fewest = kills == 0 ? sum.kills : std::min(fewest, sum.kills);
        kills += sum.kills, duplicate_rows += c.duplicate_rows, missing_runs += c.missing_runs.size();
        if (const auto b = kill_bound_of(c))
            largest_bound = std::max(largest_bound, *b);
        else
            ++unbounded;
    }
    o += fmt::format(
        "\nIn all: {} kills over {} configurations (at least {} each), {} duplicate seq rows, {} missing runs; the "
        "largest one-sided 95% upper bound on the chance that a kill duplicates (append, from the rows) or replays "
        "(upsert, from the snapshots) is {}{}. An upsert table collapses a replayed row into the row it repeats, so "
        "its duplicate seqs say nothing; its replays are judged from the catalog's snapshots: the records they added "
        "against the events sent, and a checkpoint committed twice.\n",
        n(kills), s.configurations.size(), n(fewest), n(duplicate_rows), n(missing_runs), fixed(largest_bound, 4),
        unbounded ? fmt::format(" over the configurations that have one ({} without: an upsert run whose snapshots "
                                "were not recorded, or a replay)",
                                unbounded)
                  : std::string());
    o += "\n" + restart_count_sentence(restart_counts_of(
                    s.configurations, [](const configuration_run& c) -> const configuration_run& { return c; }));
    o += recovery_table(s);
    o += fmt::format(
        "\nSink: {}. Rows sharing an NPI are expected in append tables (a provider is asserted about six times); in "
        "upsert tables they would be a failure.\n\n",
        s.configurations.empty() ? std::string("-") : s.configurations.front().sink);
    o += fmt::format("Committed offsets are monitoring ({} events):\n\n", n(s.offsets.events));
    report::markdown_table steps{
        {"Step", "Committed offsets, summed", "End offsets, summed", "Rows (Trino)", "Duplicate rows"}};
    for (const auto& st : s.offsets.steps)
        steps.row({st.step, with_thousands(st.committed_offsets_sum), with_thousands(st.end_offsets_sum), n(st.rows),
                   n(st.duplicate_rows)});
    o += steps.render();
    if (!s.offsets.after_restore.empty()) {
        const auto& first = s.offsets.after_restore.front();
        const auto& last = s.offsets.after_restore.back();
        o += fmt::format(
            "\nAfter the restore, the committed offsets were watched every 0.5 s: they read {} at {} s and {} at {} s, "
            "while the job completed checkpoints {} to {}.\n",
            with_thousands(first.committed_offsets_sum), fixed(first.ms_after_recovery / 1000.0, 1),
            with_thousands(last.committed_offsets_sum), fixed(last.ms_after_recovery / 1000.0, 1),
            first.newest_checkpoint_id, last.newest_checkpoint_id);
    }
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

}  // namespace rosterrig::e1

#endif
