// rosterrig/experiments/e1b_multi_input/report.hpp: experiment 1b's report section
#ifndef ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_REPORT_HPP

#include "rosterrig/experiments/e1b_multi_input/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e1b {

// ---- report ------------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    using report::with_thousands;
    auto n = [](std::uint64_t v) { return with_thousands(static_cast<long long>(v)); };
    auto mb = [](double bytes) { return fixed(bytes / 1e6, 2) + " MB"; };
    std::string o = fmt::format(
        "Each configuration: an append table, one job reading {} partitions with {} source subtasks and writing at "
        "parallelism {}, fed {} roster events, the TaskManager SIGKILLed up to {} times at randomized moments ({} to "
        "{} ms after the trigger) while the table still lacked part of the feed. Paced: the feed spread over the "
        "planned kills as in experiment 1 (the rate in the table, re-paced after each kill), each kill triggered by "
        "the first checkpoint after the previous recovery. Saturated: the feed produced as fast as the broker took "
        "it, kills triggered by every task running again (not waiting for a checkpoint), for as long as the table "
        "lacked part of the feed. Checkpoint interval {} ms{}.\n\n",
        params.partitions, params.source_parallelism, params.writer_parallelism, n(params.events),
        params.kills_per_configuration, params.kill_delay_min_ms, params.kill_delay_max_ms,
        params.checkpoint_interval_ms, params.quick ? ", **quick run**" : "");
    report::markdown_table t{{"Configuration", "Feed", "In force (Flink)", "Writer input (plan)", "Kills",
                              "Kills with duplicates", "Per-kill rate (95% interval)",
                              "Duplicates per kill (min / median / max)", "Rows", "Duplicate seq rows", "Missing seqs",
                              "Kills ended"}};
    for (const auto& c : s.configurations) {
        const auto sum = experiment::summarize(c.run);
        const double rate =
            sum.kills ? static_cast<double>(sum.kills_with_duplicates) / static_cast<double>(sum.kills) : 0;
        t.row({c.run.name,
               c.saturated
                   ? fmt::format("at once ({} events/s)", n(static_cast<std::uint64_t>(produce_rate(c))))
                   : fmt::format("paced ({} events/s at first)", n(static_cast<std::uint64_t>(c.run.rate_per_second))),
               fmt::format("{}{}, {} ms", c.run.checkpoint_mode_in_force,
                           c.run.checkpoint_mode_in_force == "at_least_once" ? ""  // barriers are tracked, not aligned
                           : c.unaligned_in_force.value_or(false)            ? ", unaligned"
                                                                             : ", aligned",
                           c.run.checkpoint_interval_in_force_ms),
               fmt::format("{}, {} → {} ({} channels per writer)", c.fan_in.ship_strategy,
                           c.fan_in.upstream_parallelism, c.fan_in.writer_parallelism, c.fan_in.input_channels),
               std::to_string(sum.kills), std::to_string(sum.kills_with_duplicates),
               fmt::format("{} ({}–{})", fixed(rate, 3),
                           fixed(stats::clopper_pearson_lower(sum.kills_with_duplicates, sum.kills), 3),
                           fixed(sum.upper_bound_95, 3)),
               fmt::format("{} / {} / {}", fixed(sum.min_per_kill, 0), fixed(sum.median_per_kill, 1),
                           fixed(sum.max_per_kill, 0)),
               n(c.run.rows), n(c.run.duplicate_rows), n(c.run.events - std::min(c.run.events, c.run.distinct_seq)),
               c.kills_ended});
    }
    o += t.render();
    o += "\nThe interval is Clopper–Pearson, two one-sided 95% bounds on the probability that a kill duplicates. "
         "Duplicates are exact: every row read back through Trino; each copy is attributed to the kill whose restore "
         "replayed it, from the checkpoint that committed the copy.\n\n";
    o +=
        "The writer's barrier alignment, from Flink's checkpoint statistics (per checkpoint, the slowest writer subtask; "
        "bytes summed over the writer's subtasks). In at-least-once, what the writer processes during alignment from a "
        "channel whose barrier has already arrived is after the barrier: a restore from that checkpoint replays it.\n\n";
    report::markdown_table a{{"Configuration", "Checkpoints recorded", "Alignment (median / max ms)",
                              "Start delay (median / max ms)", "Processed during alignment (median / max)",
                              "In-flight data persisted (median / max)", "Checkpoint duration (median / max ms)"}};
    for (const auto& c : s.configurations) {
        const auto x = summarize_alignment(c);
        a.row({c.run.name,
               x.unaligned_checkpoints ? fmt::format("{} ({} unaligned)", x.checkpoints, x.unaligned_checkpoints)
                                       : std::to_string(x.checkpoints),
               fixed(x.alignment_median_ms, 0) + " / " + fixed(x.alignment_max_ms, 0),
               fixed(x.start_delay_median_ms, 0) + " / " + fixed(x.start_delay_max_ms, 0),
               mb(x.processed_median_bytes) + " / " + mb(x.processed_max_bytes),
               mb(x.persisted_median_bytes) + " / " + mb(x.persisted_max_bytes),
               fixed(x.end_to_end_median_ms, 0) + " / " + fixed(x.end_to_end_max_ms, 0)});
    }
    o += a.render();
    for (const auto& alo : s.configurations) {
        if (alo.run.checkpoint_mode_requested != "AT_LEAST_ONCE" || alo.run.duplicate_rows != 0) continue;
        const auto x = summarize_alignment(alo);
        o += fmt::format(
            "\n{} showed no duplicate. What it had to work with: {} checkpoints recorded, alignment at the writer a "
            "median {} ms (max {} ms), with {} (max {}) processed during alignment: an upper bound on what crossed a "
            "barrier.\n",
            alo.run.name, x.checkpoints, fixed(x.alignment_median_ms, 0), fixed(x.alignment_max_ms, 0),
            mb(x.processed_median_bytes), mb(x.processed_max_bytes));
    }
    report::markdown_table perf{
        {"Configuration", "Produced (events/s, with delivery reports)", "Read back and checked (rows/s)"}};
    for (const auto& c : s.configurations)
        perf.row({c.run.name,
                  fmt::format("{} ({}){}", n(static_cast<std::uint64_t>(produce_rate(c))),
                              report::seconds_from_ms(c.produce_ms), c.saturated ? "" : ", paced"),
                  fmt::format("{} ({} rows in {})", n(static_cast<std::uint64_t>(readback_rate(c))), n(c.run.rows),
                              report::seconds_from_ms(c.readback_ms))});
    o += "\nThe rig at this size: the producer while Flink read (a paced feed's figure is its pace, not the producer's "
         "speed), and the read-back through Trino, streamed through the checks page by page.\n\n" +
         perf.render();
    o += fmt::format("\nSink: {}.\n", s.configurations.empty() ? std::string("-") : s.configurations.front().run.sink);
    o += "\n" + experiment::restart_count_sentence(experiment::restart_counts_of(
                    s.configurations, [](const auto& c) -> const experiment::configuration_run& { return c.run; }));
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

}  // namespace rosterrig::e1b

#endif
