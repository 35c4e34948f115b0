// rosterrig/experiments/side_by_side.hpp: rows from several experiments'
// results in one table. Experiment 7's section sets Kafka Connect's rows
// beside Flink's from experiments 1 and 3; the comparison lives here, above
// the experiments, so that no experiment includes another.
#ifndef ROSTERRIG_EXPERIMENTS_SIDE_BY_SIDE_HPP
#define ROSTERRIG_EXPERIMENTS_SIDE_BY_SIDE_HPP

#include <filesystem>
#include <optional>
#include <string>

#include "rosterrig/experiment/history.hpp"
#include "rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp"
#include "rosterrig/experiments/e3_file_size/e3_file_size.hpp"
#include "rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp"

namespace rosterrig::experiments {

/// Both writers side by side: Flink's rows from experiments 1 and 3's results
/// (their grid cells at the same parallelism as this run's tasks), this
/// writer's from its own. A missing result is said, not skipped.
inline std::string connect_beside_flink(const e7::samples& s, const e7::parameters& p,
                                        const experiment::history<e1::definition>* flink_restart,
                                        const experiment::history<e3::definition>* flink_dial) {
    using report::fixed;
    auto n = [](std::uint64_t v) { return report::with_thousands(static_cast<long long>(v)); };
    std::string o =
        "\n**Side by side.** The restart question, each writer's rows as its own run recorded them "
        "(Flink: `results/e1_restart_replay.json`):\n\n";
    report::markdown_table t{{"Writer", "Configuration", "Feed", "Kills", "Kills with duplicates", "95% upper bound",
                              "Duplicate seq rows", "Missing seqs"}};
    auto row = [&](const std::string& writer, const experiment::configuration_run& r) {
        const auto sum = experiment::summarize(r);
        t.row({writer, r.name, n(r.events) + " events", std::to_string(sum.kills),
               std::to_string(sum.kills_with_duplicates), fixed(sum.upper_bound_95, 3), n(r.duplicate_rows),
               r.table_kind == experiment::table_kind::upsert
                   ? std::string("n/a (an upsert table keeps one row per NPI)")
                   : n(r.events - std::min(r.events, r.distinct_seq))});
    };
    if (flink_restart)
        for (const auto& c : flink_restart->samples.configurations)
            row("Flink " + std::string(flink_restart->envelope.component_versions.count("flink")
                                           ? flink_restart->envelope.component_versions.at("flink").substr(0, 6)
                                           : ""),
                c);
    else
        o += "(experiment 1's results are not in results/.)\n\n";
    if (s.restart) row("Kafka Connect", s.restart->run);
    o += t.render();
    o += "\nThe commit interval's dial (Flink: experiment 3's grid at writer parallelism " + std::to_string(p.tasks) +
         ", `results/e3_file_size.json`; Kafka Connect: " + std::to_string(p.tasks) + " tasks):\n\n";
    report::markdown_table d{
        {"Writer", "Interval", "Events", "Commits with data", "Mean file size", "Freshness p50 / p99"}};
    auto cell = [&](const std::string& writer, const experiment::cell_run& c) {
        const auto a = experiment::analyze(c);
        d.row({writer, report::seconds_from_ms(c.in_force.interval_ms, 0), n(c.events),
               std::to_string(a.commits_with_data), experiment::bytes_text(a.mean_file_bytes) + " B",
               "≤ " + std::to_string(a.p50_ms) + " / ≤ " + std::to_string(a.p99_ms) + " ms"});
    };
    if (flink_dial) {
        for (const auto interval : flink_dial->parameters.intervals_ms)
            if (const auto* c = e3::grid_cell(flink_dial->samples, interval, p.tasks)) cell("Flink (checkpoint)", *c);
    } else {
        o += "(experiment 3's results are not in results/.)\n\n";
    }
    for (const auto* c : e7::dial_by_interval(s)) cell("Kafka Connect (commit)", *c);
    return o + d.render();
}

/// Experiment 7's rows beside Flink's, read from the results files in the
/// same folder as experiment 7's (`results_file`); a missing one is said.
inline std::string connect_beside_flink_results(const e7::samples& s, const e7::parameters& p,
                                                const std::string& results_file) {
    const auto dir = std::filesystem::path(results_file).parent_path();
    std::optional<experiment::history<e1::definition>> restart;
    std::optional<experiment::history<e3::definition>> dial;
    if (const auto f = dir / std::filesystem::path(e1::definition::results_file).filename(); std::filesystem::exists(f))
        restart = experiment::read_history<e1::definition>(f.string());
    if (const auto f = dir / std::filesystem::path(e3::definition::results_file).filename(); std::filesystem::exists(f))
        dial = experiment::read_history<e3::definition>(f.string());
    return connect_beside_flink(s, p, restart ? &*restart : nullptr, dial ? &*dial : nullptr);
}

}  // namespace rosterrig::experiments

#endif
