// rosterrig/experiments/e1b_multi_input.hpp: experiment 1b, experiment 1's
// question at 100× the feed with a writer that has several input channels, as
// data. Experiment 1's append writers were chained with the source (one input
// channel: no barrier alignment for at-least-once to skip), so the mode could
// not matter there. Here the source runs one subtask per partition and the
// writer at another parallelism, so every writer subtask is fed through an
// exchange by every source subtask; at-least-once then processes records that
// arrived after a barrier before the last barrier, and a restore from that
// checkpoint replays them. Reuses experiment 1's kill samples, table
// read-back, attribution and bounds.
#ifndef ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_HPP
#define ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/checkpoint_stats.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/feed_pacing.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"

namespace rosterrig::e1b {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 1;
    std::uint64_t events = 1'200'000;  // 100× experiment 1's feed
    std::uint32_t partitions = 4;
    std::uint64_t kills_per_configuration = 30;  // planned; a saturated configuration stops when the table has the feed
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t kill_delay_min_ms = 0;
    std::int64_t kill_delay_max_ms = 4000;
    std::int64_t source_parallelism = 4;  // one subtask per partition (the job's parallelism)
    std::int64_t writer_parallelism = 1;  // another parallelism: the writer is fed through an exchange
    experiment::warehouse warehouse = experiment::warehouse::s3;
    bool quick = false;

    /// The full run: 1.2 M events per configuration, 30 kills planned for each.
    static parameters full() { return {}; }
    /// For CI (under 3 minutes): three of the configurations (configurations_of),
    /// 60,000 events, two kills each.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 60'000;
        p.kills_per_configuration = 2;
        return p;
    }
    /// Providers are a sixth of the events: about six assertions each, as in experiment 1.
    roster_spec feed() const { return roster_feed(seed, events, std::max<std::uint64_t>(1, events / 6), partitions); }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, partitions, kills_per_configuration, checkpoint_interval_ms, kill_delay_min_ms,
                       kill_delay_max_ms, source_parallelism, writer_parallelism, warehouse, quick))

/// The configurations, every one an append table, in the order they run.
///
/// Paced: the feed is spread over the planned kills as in experiment 1, so
/// that 30 kills find data arriving (this stack writes about 80,000 events/s
/// into the table, so 1.2 M produced at once are in the table within a few
/// kill cycles); after each recovery the job catches up its backlog at full
/// speed. Kills come 0-4 s after the first checkpoint that follows a recovery.
///
/// Saturated: the whole feed produced as fast as the broker takes it, the
/// writer backpressured until it has read it; kills come 0-4 s after every
/// task runs again (not waiting for a checkpoint, which would let the job
/// read the feed within a handful of kills), for as long as the table lacks
/// part of the feed. Fewer kills, so no bound: these say whether a
/// duplicate appears under sustained backpressure.
struct configuration {
    std::string name;
    experiment::checkpoint_mode mode;
    bool unaligned = false;
    bool saturated = false;
};
inline std::vector<configuration> configurations() {
    using experiment::checkpoint_mode;
    return {{"at-least-once", checkpoint_mode::at_least_once, false, false},
            {"exactly-once, aligned", checkpoint_mode::exactly_once, false, false},
            {"exactly-once, unaligned", checkpoint_mode::exactly_once, true, false},
            {"at-least-once, saturated", checkpoint_mode::at_least_once, false, true},
            {"exactly-once, aligned, saturated", checkpoint_mode::exactly_once, false, true}};
}

/// A quick run (CI, under 3 minutes) covers each code path once: paced and
/// saturated, aligned and unaligned.
inline std::vector<configuration> configurations_of(const parameters& p) {
    const auto all = configurations();
    if (p.quick) return {all[0], all[2], all[4]};
    return all;
}

inline experiment::fault_plan fault_plan(const parameters& p) {
    std::vector<std::string> names;
    for (const auto& c : configurations_of(p)) names.push_back(c.name);
    return experiment::plan_kills(p.seed ^ 0x65316232u, names, p.kills_per_configuration, p.kill_delay_min_ms,
                                  p.kill_delay_max_ms,
                                  "paced: the first checkpoint completed after the previous recovery; saturated: every "
                                  "task running again after the previous recovery");
}

/// How a paced feed is spread: a quick run keeps 5 s of feed after the last kill, a full run 20 s.
inline experiment::feed_pacing pacing_of(const parameters& p) {
    experiment::feed_pacing f;
    f.guessed_cycle_s = 8.0;  // experiment 1's full run: a median 6.8 s from kill to kill
    if (p.quick) f.tail_s = 5.0;
    return f;
}

/// The pipeline a configuration runs: an append table, the source at one
/// subtask per partition, the writer at its own parallelism.
inline experiment::pipeline_config pipeline_of(const parameters& p, const configuration& c) {
    experiment::pipeline_config x{experiment::table_kind::append, c.mode, experiment::iceberg_sink::flink_sink,
                                  p.warehouse, experiment::startup_mode::earliest_offset, p.checkpoint_interval_ms,
                                  p.source_parallelism};
    x.writer_parallelism = p.writer_parallelism;
    x.unaligned_checkpoints = c.unaligned;
    return x;
}

/// The configuration's short name in its topic, table and job names.
inline std::string short_name_of(const configuration& c) {
    return std::string(c.mode == experiment::checkpoint_mode::at_least_once ? "alo" : c.unaligned ? "eo_unaligned" : "eo_aligned") +
           (c.saturated ? "_saturated" : "");
}

/// Why the kills of a configuration ended.
inline constexpr const char* all_kills_ran = "all planned kills ran";
inline constexpr const char* writer_caught_up = "the table had committed the whole feed";

/// One copy of a seq the table holds more than once, and the checkpoint that
/// committed it (the flink.max-committed-checkpoint-id of the snapshot that
/// added its data file; -1 when unknown).
struct duplicate_copy {
    std::uint64_t seq = 0;
    std::int64_t checkpoint_id = -1;
};
BOOST_DESCRIBE_STRUCT(duplicate_copy, (), (seq, checkpoint_id))

struct configuration_run {
    experiment::configuration_run run;  // experiment 1's record: settings, kills, table read-back, attribution
    bool unaligned_requested = false;
    bool saturated = false;                     // the feed produced at once (else paced)
    std::optional<bool> unaligned_in_force;     // /jobs/<id>/checkpoints/config
    std::int64_t aligned_checkpoint_timeout_ms = 0;
    experiment::writer_fan_in fan_in;           // from the job's plan
    std::vector<experiment::checkpoint_stat> checkpoints;  // Flink's statistics, the writer's alignment
    std::string kills_ended;                    // all_kills_ran or writer_caught_up
    std::int64_t produce_ms = 0;                // feed start to the last delivery report
    std::int64_t readback_ms = 0;               // every row through Trino and the checks
    std::vector<duplicate_copy> duplicate_copies;  // every copy of every duplicated seq
    std::vector<std::int64_t> table_records_at_kills;  // the catalog's total-records just before each kill
};
BOOST_DESCRIBE_STRUCT(configuration_run, (),
                      (run, unaligned_requested, saturated, unaligned_in_force, aligned_checkpoint_timeout_ms, fan_in,
                       checkpoints, kills_ended, produce_ms, readback_ms, duplicate_copies,
                       table_records_at_kills))

struct samples {
    std::vector<configuration_run> configurations;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (configurations, predictions))

/// A kill as recorded, with the table's records just before it.
inline void add_kill(configuration_run& c, const experiment::kill_sample& k, std::int64_t table_records) {
    c.run.kills.push_back(k);
    c.table_records_at_kills.push_back(table_records);
}

/// What a kill's progress line adds: how much of the feed the table held just before it.
inline std::string table_held_text(long long committed, long long total) {
    return "; the table held " + std::to_string(committed) + " of " + std::to_string(total) + " records";
}

/// The progress line at a configuration's end.
inline std::string end_text(const configuration_run& c) {
    return std::to_string(c.run.rows) + " rows read in " + std::to_string(c.readback_ms) + " ms, " +
           std::to_string(c.run.duplicate_rows) + " duplicate seq rows, " + std::to_string(c.run.missing_runs.size()) +
           " missing runs, " + std::to_string(c.checkpoints.size()) + " checkpoints recorded";
}

inline configuration_run start_run(const configuration& c, const parameters& p, const std::string& job,
                                   const experiment::writer_settings& w, double rate_per_second) {
    configuration_run r;
    r.run = experiment::start_kill_run(c.name, experiment::table_kind::append, c.mode, p.checkpoint_interval_ms, p.events, job, w,
                                       rate_per_second);
    r.unaligned_requested = c.unaligned;
    r.saturated = c.saturated;
    r.unaligned_in_force = w.unaligned;
    r.aligned_checkpoint_timeout_ms = w.aligned_checkpoint_timeout_ms;
    r.fan_in = experiment::fan_in_of(w.edges);
    return r;
}

inline const configuration_run* find_configuration(const samples& s, const std::string& name) {
    for (const auto& c : s.configurations)
        if (c.run.name == name) return &c;
    return nullptr;
}

/// Why a configuration's plan does not give the writer several input
/// channels, or nothing when it does. A run whose writer is chained cannot
/// answer the question, so the driver stops it and the rules say inconclusive.
inline std::optional<std::string> fan_in_problem(const experiment::writer_fan_in& f) {
    if (!f.found) return "the plan has no writer vertex";
    if (f.chained) return "the writer is chained with the source (one input channel)";
    if (f.input_channels < 2)
        return "each writer subtask has " + std::to_string(f.input_channels) + " input channel(s) (" + f.ship_strategy + ")";
    return std::nullopt;
}

// ---- analysis ---------------------------------------------------------------

/// Each kill's duplicates, from the checkpoints that committed the copies.
/// Experiment 1 attributes by how far the feed had been sent, which works
/// while the feed is paced; here the whole feed is in Kafka after a few
/// seconds, so the position sent says nothing. A replayed copy is instead
/// committed by a checkpoint after the restore that replayed it: a seq's
/// first copy (lowest checkpoint) is the original, and each later copy goes
/// to the last kill whose restored checkpoint is below the copy's. A copy no
/// kill precedes, or whose checkpoint is unknown, is unattributed.
inline void attribute_by_checkpoint(configuration_run& c) {
    auto copies = c.duplicate_copies;
    std::sort(copies.begin(), copies.end(), [](const auto& a, const auto& b) {
        return a.seq != b.seq ? a.seq < b.seq : a.checkpoint_id < b.checkpoint_id;
    });
    for (auto& k : c.run.kills) k.duplicates = 0;
    c.run.unattributed_duplicates = 0;
    for (std::size_t i = 0; i < copies.size(); ++i) {
        if (i == 0 || copies[i].seq != copies[i - 1].seq) continue;  // the original
        const auto cp = copies[i].checkpoint_id;
        experiment::kill_sample* by = nullptr;
        for (auto& k : c.run.kills)
            if (cp >= 0 && k.restored_checkpoint_id >= 0 && k.restored_checkpoint_id < cp &&
                (!by || k.restored_checkpoint_id >= by->restored_checkpoint_id))
                by = &k;
        if (by) ++by->duplicates;
        else ++c.run.unattributed_duplicates;
    }
}

/// A sample's median, or 0 when there is none.
inline double median_of(std::vector<double> v) { return v.empty() ? 0.0 : stats::summarize(std::move(v)).median; }
inline double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

/// The writer's barrier alignment over the checkpoints the run recorded.
struct alignment_summary {
    std::size_t checkpoints = 0;
    double alignment_median_ms = 0, alignment_max_ms = 0;
    double start_delay_median_ms = 0, start_delay_max_ms = 0;
    double processed_median_bytes = 0, processed_max_bytes = 0;
    double persisted_median_bytes = 0, persisted_max_bytes = 0;
    double end_to_end_median_ms = 0, end_to_end_max_ms = 0;
    std::size_t unaligned_checkpoints = 0;
};

inline alignment_summary summarize_alignment(const configuration_run& c) {
    alignment_summary a;
    std::vector<double> align, delay, processed, persisted, e2e;
    for (const auto& k : c.checkpoints) {
        if (k.writer_subtasks == 0) continue;  // the writer's figures were not served for it
        ++a.checkpoints;
        align.push_back(static_cast<double>(k.writer_alignment_max_ms));
        delay.push_back(static_cast<double>(k.writer_start_delay_max_ms));
        processed.push_back(static_cast<double>(k.writer_processed_bytes));
        persisted.push_back(static_cast<double>(k.writer_persisted_bytes));
        e2e.push_back(static_cast<double>(k.end_to_end_ms));
        if (k.writer_unaligned) ++a.unaligned_checkpoints;
    }
    a.alignment_median_ms = median_of(align), a.alignment_max_ms = max_of(align);
    a.start_delay_median_ms = median_of(delay), a.start_delay_max_ms = max_of(delay);
    a.processed_median_bytes = median_of(processed), a.processed_max_bytes = max_of(processed);
    a.persisted_median_bytes = median_of(persisted), a.persisted_max_bytes = max_of(persisted);
    a.end_to_end_median_ms = median_of(e2e), a.end_to_end_max_ms = max_of(e2e);
    return a;
}

/// Events per second from the feed's start to its last delivery report.
inline double produce_rate(const configuration_run& c) {
    return c.produce_ms > 0 ? static_cast<double>(c.run.acknowledged) * 1000.0 / static_cast<double>(c.produce_ms) : 0.0;
}
/// Rows per second read back through Trino and checked.
inline double readback_rate(const configuration_run& c) {
    return c.readback_ms > 0 ? static_cast<double>(c.run.rows) * 1000.0 / static_cast<double>(c.readback_ms) : 0.0;
}

// ---- verdict rules ----------------------------------------------------------

/// The fewest kills that can refute "at-least-once duplicates after some
/// kills": if a kill duplicated with probability 0.1 or more, 30 clean kills
/// would happen less than 5% of the time.
inline constexpr std::uint64_t kills_to_refute = 30;

/// A configuration's run can answer only if its writer had several inputs.
inline std::optional<experiment::rule_verdict> cannot_answer(const configuration_run* c) {
    if (!c) return experiment::inconclusive("the configuration did not run");
    if (auto why = fan_in_problem(c->fan_in)) return experiment::inconclusive(*why);
    return std::nullopt;
}

/// The fewest kills that can refute "a saturated at-least-once writer
/// duplicates": it gets as many kills as the backlog lasts.
inline constexpr std::uint64_t saturated_kills_to_refute = 5;

/// "At-least-once with a multi-input writer duplicates after some kills":
/// held by any duplicating kill, refuted by `enough` clean kills.
inline experiment::rule_verdict at_least_once_duplicates(const samples& s, const std::string& name, std::uint64_t enough) {
    using namespace experiment;
    const auto* c = find_configuration(s, name);
    if (auto no = cannot_answer(c)) return *no;
    const auto sum = experiment::summarize(c->run);
    const std::string what = std::to_string(sum.kills_with_duplicates) + " of " + std::to_string(sum.kills) +
                             " kills duplicated (" + std::to_string(c->run.duplicate_rows) + " duplicate rows)";
    if (sum.kills_with_duplicates > 0) return held(what);
    if (sum.kills >= enough) return refuted(what);
    return inconclusive(what + "; at least " + std::to_string(enough) + " clean kills are needed to refute");
}

/// "Exactly-once never duplicates here; the 95% bound is at most 0.10."
inline experiment::rule_verdict exactly_once_clean(const samples& s, const std::string& name) {
    const auto* c = find_configuration(s, name);
    if (auto no = cannot_answer(c)) return *no;
    return experiment::no_duplicates(&c->run);
}

/// "Saturated exactly-once leaves no duplicate row": exact, no bound (the
/// configuration gets as many kills as the backlog lasts).
inline experiment::rule_verdict saturated_exactly_once_clean(const samples& s, const std::string& name) {
    using namespace experiment;
    const auto* c = find_configuration(s, name);
    if (auto no = cannot_answer(c)) return *no;
    const auto sum = experiment::summarize(c->run);
    const std::string what = std::to_string(c->run.duplicate_rows) + " duplicate rows after " + std::to_string(sum.kills) + " kills";
    if (c->run.duplicate_rows > 0) return refuted(what);
    if (sum.kills < saturated_kills_to_refute)
        return inconclusive(what + "; fewer than " + std::to_string(saturated_kills_to_refute) + " kills");
    return held(what);
}

/// "No configuration loses a record": every seq 1..N is in every table.
inline experiment::rule_verdict nothing_missing(const samples& s) {
    using namespace experiment;
    if (s.configurations.empty()) return inconclusive("no configuration ran");
    std::string why;
    for (const auto& c : s.configurations) {
        if (c.run.rows == 0) return inconclusive(c.run.name + ": the table was not read back");
        if (!c.run.missing_runs.empty() || c.run.distinct_seq != c.run.events)
            why += c.run.name + ": " + std::to_string(c.run.events - c.run.distinct_seq) + " seqs missing in " +
                   std::to_string(c.run.missing_runs.size()) + " runs; ";
    }
    return why.empty() ? held("every configuration's table holds every seq 1.." +
                              std::to_string(s.configurations.front().run.events))
                       : refuted(why);
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    const auto c = configurations();
    std::vector<rule> out;
    out.push_back({"e1b.at-least-once-duplicates", [n = c[0].name](const samples& s, const parameters&) {
                       return at_least_once_duplicates(s, n, kills_to_refute);
                   }});
    for (const auto& x : {c[1], c[2]})
        out.push_back({"e1b.no-duplicates:" + x.name, [n = x.name](const samples& s, const parameters&) {
                           return exactly_once_clean(s, n);
                       }});
    out.push_back({"e1b.saturated-at-least-once-duplicates", [n = c[3].name](const samples& s, const parameters&) {
                       return at_least_once_duplicates(s, n, saturated_kills_to_refute);
                   }});
    out.push_back({"e1b.saturated-exactly-once-clean", [n = c[4].name](const samples& s, const parameters&) {
                       return saturated_exactly_once_clean(s, n);
                   }});
    out.push_back({"e1b.nothing-missing", [](const samples& s, const parameters&) { return nothing_missing(s); }});
    return out;
}

// ---- report ------------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    using report::with_thousands;
    auto n = [](std::uint64_t v) { return with_thousands(static_cast<long long>(v)); };
    auto mb = [](double bytes) { return fixed(bytes / 1e6, 2) + " MB"; };
    std::string o = "Each configuration: an append table, one job reading " + std::to_string(params.partitions) +
                    " partitions with " + std::to_string(params.source_parallelism) +
                    " source subtasks and writing at parallelism " + std::to_string(params.writer_parallelism) + ", fed " +
                    n(params.events) + " roster events, the TaskManager SIGKILLed up to " +
                    std::to_string(params.kills_per_configuration) + " times at randomized moments (" +
                    std::to_string(params.kill_delay_min_ms) + " to " + std::to_string(params.kill_delay_max_ms) +
                    " ms after the trigger) while the table still lacked part of the feed. Paced: the feed spread over "
                    "the planned kills as in experiment 1 (the rate in the table, re-paced after each kill), each "
                    "kill triggered by the first checkpoint after the previous recovery. Saturated: the feed produced "
                    "as fast as the broker took it, kills triggered by every task running again (not waiting for a "
                    "checkpoint), for as long as the table lacked part of the feed. Checkpoint interval " +
                    std::to_string(params.checkpoint_interval_ms) + " ms" +
                    (params.quick ? ", **quick run**" : "") + ".\n\n";
    report::markdown_table t{{"Configuration", "Feed", "In force (Flink)", "Writer input (plan)", "Kills", "Kills with duplicates",
                              "Per-kill rate (95% interval)", "Duplicates per kill (min / median / max)", "Rows",
                              "Duplicate seq rows", "Missing seqs", "Kills ended"}};
    for (const auto& c : s.configurations) {
        const auto sum = experiment::summarize(c.run);
        const double rate = sum.kills ? static_cast<double>(sum.kills_with_duplicates) / static_cast<double>(sum.kills) : 0;
        t.row({c.run.name,
               c.saturated ? "at once (" + n(static_cast<std::uint64_t>(produce_rate(c))) + " events/s)"
                           : "paced (" + n(static_cast<std::uint64_t>(c.run.rate_per_second)) + " events/s at first)",
               c.run.checkpoint_mode_in_force +
                   (c.run.checkpoint_mode_in_force == "at_least_once" ? std::string()  // barriers are tracked, not aligned
                                                                       : c.unaligned_in_force.value_or(false) ? ", unaligned" : ", aligned") +
                   ", " +
                   std::to_string(c.run.checkpoint_interval_in_force_ms) + " ms",
               c.fan_in.ship_strategy + ", " + std::to_string(c.fan_in.upstream_parallelism) + " → " +
                   std::to_string(c.fan_in.writer_parallelism) + " (" + std::to_string(c.fan_in.input_channels) +
                   " channels per writer)",
               std::to_string(sum.kills), std::to_string(sum.kills_with_duplicates),
               fixed(rate, 3) + " (" + fixed(stats::clopper_pearson_lower(sum.kills_with_duplicates, sum.kills), 3) + "–" +
                   fixed(sum.upper_bound_95, 3) + ")",
               fixed(sum.min_per_kill, 0) + " / " + fixed(sum.median_per_kill, 1) + " / " + fixed(sum.max_per_kill, 0),
               n(c.run.rows), n(c.run.duplicate_rows), n(c.run.events - std::min(c.run.events, c.run.distinct_seq)),
               c.kills_ended});
    }
    o += t.render();
    o += "\nThe interval is Clopper–Pearson, two one-sided 95% bounds on the probability that a kill duplicates. "
         "Duplicates are exact: every row read back through Trino; each copy is attributed to the kill whose restore "
         "replayed it, from the checkpoint that committed the copy.\n\n";
    o += "The writer's barrier alignment, from Flink's checkpoint statistics (per checkpoint, the slowest writer subtask; "
         "bytes summed over the writer's subtasks). In at-least-once, what the writer processes during alignment from a "
         "channel whose barrier has already arrived is after the barrier: a restore from that checkpoint replays it.\n\n";
    report::markdown_table a{{"Configuration", "Checkpoints recorded", "Alignment (median / max ms)",
                              "Start delay (median / max ms)", "Processed during alignment (median / max)",
                              "In-flight data persisted (median / max)", "Checkpoint duration (median / max ms)"}};
    for (const auto& c : s.configurations) {
        const auto x = summarize_alignment(c);
        a.row({c.run.name, std::to_string(x.checkpoints) + (x.unaligned_checkpoints ? " (" + std::to_string(x.unaligned_checkpoints) + " unaligned)" : ""),
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
        o += "\n" + alo.run.name + " showed no duplicate. What it had to work with: " + std::to_string(x.checkpoints) +
             " checkpoints recorded, alignment at the writer a median " + fixed(x.alignment_median_ms, 0) + " ms (max " +
             fixed(x.alignment_max_ms, 0) + " ms), with " + mb(x.processed_median_bytes) + " (max " +
             mb(x.processed_max_bytes) + ") processed during alignment: an upper bound on what crossed a barrier.\n";
    }
    report::markdown_table perf{{"Configuration", "Produced (events/s, with delivery reports)", "Read back and checked (rows/s)"}};
    for (const auto& c : s.configurations)
        perf.row({c.run.name, n(static_cast<std::uint64_t>(produce_rate(c))) + " (" + report::seconds_from_ms(c.produce_ms) + ")" +
                                  (c.saturated ? "" : ", paced"),
                  n(static_cast<std::uint64_t>(readback_rate(c))) + " (" + n(c.run.rows) + " rows in " +
                      report::seconds_from_ms(c.readback_ms) + ")"});
    o += "\nThe rig at this size: the producer while Flink read (a paced feed's figure is its pace, not the producer's "
         "speed), and the read-back through Trino, streamed through the checks page by page.\n\n" + perf.render();
    o += "\nSink: " + (s.configurations.empty() ? std::string("-") : s.configurations.front().run.sink) + ".\n";
    o += "\n" + experiment::restart_count_sentence(experiment::restart_counts_of(s.configurations, [](const auto& c) -> const experiment::configuration_run& { return c.run; }));
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

struct definition {
    using parameters = e1b::parameters;
    using samples = e1b::samples;
    static constexpr const char* id = "e1b_multi_input";
    static constexpr const char* tag = "e1b";
    static constexpr const char* predictions_file = "predictions/e1b_multi_input.json";
    static constexpr const char* results_file = "results/e1b_multi_input.json";
    static constexpr experiment::hooks<parameters> hooks{
        .command = "rosterrig-e1 --multi-input",
        .warehouse = &parameters::warehouse};
    static std::vector<rule> rules() { return e1b::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e1b::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e1b::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

} // namespace rosterrig::e1b

#endif
