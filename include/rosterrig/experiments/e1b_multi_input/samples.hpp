// rosterrig/experiments/e1b_multi_input/samples.hpp: experiment 1b's sample schema (why kills ended, duplicate copies, a configuration's run, the samples)
// Also the driver's helpers that record and print a run (add_kill, table_held_text, end_text,
// start_run, find_configuration, fan_in_problem), kept here in the old order.
#ifndef ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_SAMPLES_HPP

#include "rosterrig/experiments/e1b_multi_input/parameters.hpp"

namespace rosterrig::e1b {

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
    bool saturated = false;                  // the feed produced at once (else paced)
    std::optional<bool> unaligned_in_force;  // /jobs/<id>/checkpoints/config
    std::int64_t aligned_checkpoint_timeout_ms = 0;
    experiment::writer_fan_in fan_in;                      // from the job's plan
    std::vector<experiment::checkpoint_stat> checkpoints;  // Flink's statistics, the writer's alignment
    std::string kills_ended;                               // all_kills_ran or writer_caught_up
    std::int64_t produce_ms = 0;                           // feed start to the last delivery report
    std::int64_t readback_ms = 0;                          // every row through Trino and the checks
    std::vector<duplicate_copy> duplicate_copies;          // every copy of every duplicated seq
    std::vector<std::int64_t> table_records_at_kills;      // the catalog's total-records just before each kill
};
BOOST_DESCRIBE_STRUCT(configuration_run, (),
                      (run, unaligned_requested, saturated, unaligned_in_force, aligned_checkpoint_timeout_ms, fan_in,
                       checkpoints, kills_ended, produce_ms, readback_ms, duplicate_copies, table_records_at_kills))

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
    r.run = experiment::start_kill_run(c.name, experiment::table_kind::append, c.mode, p.checkpoint_interval_ms,
                                       p.events, job, w, rate_per_second);
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
        return "each writer subtask has " + std::to_string(f.input_channels) + " input channel(s) (" + f.ship_strategy +
               ")";
    return std::nullopt;
}

/// Why a user's template cannot answer experiment 1b, from its plan, before
/// anything is created: the checks read an append table by seq, and the
/// writer must be fed through an exchange.
inline std::vector<std::string> job_problems(const parameters& p, const experiment::preflight_facts&) {
    std::vector<std::string> out;
    if (!p.job || !p.job->plan) return out;
    if (p.job->plan->kind != experiment::table_kind::append)
        out.push_back("--job " + p.job->name +
                      ": experiment 1b checks an append table by seq; the template makes an upsert table");
    if (const auto f = experiment::fan_in_of(p.job->plan->edges); f.found && f.chained)
        out.push_back(
            "--job " + p.job->name +
            ": the template's writer is chained with the source; experiment 1b needs it fed through an exchange");
    return out;
}

}  // namespace rosterrig::e1b

#endif
