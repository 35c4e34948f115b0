// Experiment 1 (what a restart replays): the typed shape of its results, and the
// pure analysis that turns raw per-kill records into the per-configuration table
// and the verdicts. Pure, so the offline claim tests and `--analyze` run the very
// code the driver ran.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe.hpp>
#include <rosterrig/check/kill_attribution.hpp>
#include <rosterrig/prediction/verdict.hpp>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/prediction_file.hpp>
#include <rosterrig/stats/binomial_bounds.hpp>
#include <rosterrig/stats/summary.hpp>

#include "prediction_outcome.hpp"

namespace rosterrig::e1 {

struct parameters {
    std::uint64_t seed = 1;
    std::uint64_t events = 12000;
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::uint64_t kills_per_configuration = 30;
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t kill_delay_min_ms = 0;   // after the first checkpoint following a recovery
    std::int64_t kill_delay_max_ms = 0;
    std::uint64_t offsets_events = 6000;  // part 2's feed
    std::string warehouse = "s3";
    std::int64_t parallelism = 2;
    bool quick = false;
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, providers, partitions, kills_per_configuration, checkpoint_interval_ms,
                       kill_delay_min_ms, kill_delay_max_ms, offsets_events, warehouse, parallelism, quick))

// One SIGKILL of the TaskManager and what surrounded it.
struct kill_sample {
    std::uint64_t index = 0;
    std::int64_t killed_at_ms = 0;               // wall clock
    std::int64_t feed_elapsed_ms = 0;            // since the producer started
    std::uint64_t sent_before_kill = 0;          // seq 1..this had been handed to Kafka
    std::uint64_t acknowledged_before_kill = 0;  // delivery reports received
    std::int64_t checkpoints_completed_before = 0;
    std::int64_t last_checkpoint_id_before = -1;
    std::int64_t ms_since_last_checkpoint = 0;   // checkpoint phase, in ms
    bool checkpoint_in_progress = false;
    std::int64_t killed_pid = 0;
    std::int64_t replacement_pid = 0;
    std::int64_t taskmanager_back_after_ms = 0;  // a new JVM in the pid file
    std::int64_t job_running_after_ms = 0;       // every task RUNNING again
    std::int64_t restarts_before = 0;            // Flink's numRestarts
    std::int64_t restarts_after = 0;
    std::int64_t restored_checkpoint_id = -1;    // what Flink says it restored
    std::int64_t restarting_at_ms = 0;           // when Flink put the job in RESTARTING for this kill
    std::int64_t exceptions_after = 0;           // entries in Flink's exception history after recovery
    std::string job_id_after;                    // same job id: an internal restart
    std::uint64_t duplicates = 0;                // attributed (kill_attribution.hpp)
};
BOOST_DESCRIBE_STRUCT(kill_sample, (),
                      (index, killed_at_ms, feed_elapsed_ms, sent_before_kill, acknowledged_before_kill,
                       checkpoints_completed_before, last_checkpoint_id_before, ms_since_last_checkpoint,
                       checkpoint_in_progress, killed_pid, replacement_pid, taskmanager_back_after_ms,
                       job_running_after_ms, restarts_before, restarts_after, restored_checkpoint_id, restarting_at_ms,
                       exceptions_after, job_id_after,
                       duplicates))

struct edge_record {
    std::string from;
    std::string to;
    std::string ship_strategy;  // FORWARD, HASH, REBALANCE ... as Flink's plan says
};
BOOST_DESCRIBE_STRUCT(edge_record, (), (from, to, ship_strategy))

struct duplicate_seq {
    std::uint64_t seq = 0;
    std::uint64_t copies = 0;
};
BOOST_DESCRIBE_STRUCT(duplicate_seq, (), (seq, copies))

struct configuration_run {
    std::string name;                 // "at-least-once + append"
    std::string table_kind;           // append | upsert
    std::string checkpoint_mode_requested;
    std::string checkpoint_mode_in_force;  // from /jobs/<id>/checkpoints/config
    std::int64_t checkpoint_interval_requested_ms = 0;
    std::int64_t checkpoint_interval_in_force_ms = 0;
    std::string sink;                 // which Iceberg sink ran
    std::string writer_input;         // how the writer is fed: the plan's ship strategy into it
    std::vector<edge_record> edges;
    std::string job_id;
    std::string final_job_state;
    std::int64_t restarts_reported = 0;      // numRestarts at the end
    std::int64_t exceptions_recorded = 0;    // entries in Flink's exception history
    std::uint64_t events = 0;
    std::uint64_t acknowledged = 0;
    double rate_per_second = 0;
    std::int64_t feed_duration_ms = 0;
    std::uint64_t rows = 0;
    std::uint64_t distinct_seq = 0;
    std::uint64_t duplicate_rows = 0;
    std::vector<std::vector<std::uint64_t>> missing_runs;  // [[a,b], ...]
    std::uint64_t distinct_npis = 0;
    std::uint64_t rows_sharing_npi = 0;
    std::uint64_t missing_npis = 0;   // upsert only; 0 for append
    std::uint64_t stale_rows = 0;     // upsert only
    std::uint64_t unexpected_rows = 0;
    std::int64_t data_files = 0;
    std::int64_t equality_delete_files = 0;
    std::int64_t position_delete_files = 0;
    std::int64_t snapshots = 0;
    std::vector<duplicate_seq> duplicate_seqs;
    std::uint64_t unattributed_duplicates = 0;
    std::vector<kill_sample> kills;
};
BOOST_DESCRIBE_STRUCT(configuration_run, (),
                      (name, table_kind, checkpoint_mode_requested, checkpoint_mode_in_force,
                       checkpoint_interval_requested_ms, checkpoint_interval_in_force_ms, sink, writer_input, edges,
                       job_id, final_job_state, restarts_reported, exceptions_recorded, events, acknowledged,
                       rate_per_second, feed_duration_ms, rows, distinct_seq, duplicate_rows, missing_runs,
                       distinct_npis, rows_sharing_npi, missing_npis, stale_rows, unexpected_rows, data_files,
                       equality_delete_files, position_delete_files, snapshots, duplicate_seqs,
                       unattributed_duplicates, kills))

// Part 2: committed offsets are monitoring.
struct offsets_step {
    std::string step;
    std::int64_t committed_offsets_sum = 0;
    std::int64_t end_offsets_sum = 0;
    std::uint64_t rows = 0;
    std::uint64_t duplicate_rows = 0;
    std::string job_id;
    std::int64_t exceptions = 0;              // entries in the job's exception history
    std::int64_t restored_checkpoint_id = -1;
};
BOOST_DESCRIBE_STRUCT(offsets_step, (),
                      (step, committed_offsets_sum, end_offsets_sum, rows, duplicate_rows, job_id, exceptions,
                       restored_checkpoint_id))

// The committed offsets, summed, watched after the restore: does the restored
// job's checkpointing write its position back over the rewind, and when?
struct offsets_watch_sample {
    std::int64_t ms_after_recovery = 0;
    std::int64_t committed_offsets_sum = 0;
    std::int64_t newest_checkpoint_id = -1;
};
BOOST_DESCRIBE_STRUCT(offsets_watch_sample, (), (ms_after_recovery, committed_offsets_sum, newest_checkpoint_id))

struct offsets_part {
    std::uint64_t events = 0;
    std::vector<offsets_step> steps;  // landed, rewound, restored, fresh_from_group_offsets
    std::vector<offsets_watch_sample> after_restore;  // every 0.5 s for the watch window
};
BOOST_DESCRIBE_STRUCT(offsets_part, (), (events, steps, after_restore))

using experiments::prediction_outcome;

struct samples {
    std::vector<configuration_run> configurations;
    offsets_part offsets;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (configurations, offsets, predictions))

// The per-configuration table row, derived from the raw kills.
struct configuration_summary {
    std::string name;
    std::uint64_t kills = 0;
    std::uint64_t kills_with_duplicates = 0;
    std::uint64_t total_duplicates = 0;
    double min_per_kill = 0, median_per_kill = 0, max_per_kill = 0;
    double upper_bound_95 = 1.0;  // one-sided Clopper–Pearson on P(a kill duplicates)
};

inline configuration_summary summarize(const configuration_run& run) {
    configuration_summary s;
    s.name = run.name;
    s.kills = run.kills.size();
    std::vector<double> per_kill;
    for (const auto& k : run.kills) {
        per_kill.push_back(static_cast<double>(k.duplicates));
        s.total_duplicates += k.duplicates;
        if (k.duplicates > 0) ++s.kills_with_duplicates;
    }
    if (!per_kill.empty()) {
        auto sum = stats::summarize(per_kill);
        s.min_per_kill = sum.min;
        s.median_per_kill = sum.median;
        s.max_per_kill = sum.max;
        s.upper_bound_95 = stats::clopper_pearson_upper(s.kills_with_duplicates, s.kills);
    }
    return s;
}

// Recomputes each kill's attributed duplicates from the run's duplicate seqs.
inline void attribute(configuration_run& run) {
    std::vector<std::uint64_t> sent;
    for (const auto& k : run.kills) sent.push_back(k.sent_before_kill);
    std::vector<seq_copies> dups;
    for (const auto& d : run.duplicate_seqs) dups.push_back({d.seq, d.copies});
    auto a = attribute_duplicates(sent, dups);
    for (std::size_t i = 0; i < run.kills.size(); ++i) run.kills[i].duplicates = a.duplicates_per_kill[i];
    run.unattributed_duplicates = a.unattributed;
}

// The bound the issue sets: at most 0.10 per configuration.
inline constexpr double bound_target = 0.10;

inline const configuration_run* find_configuration(const samples& s, const std::string& name) {
    for (const auto& c : s.configurations)
        if (c.name == name) return &c;
    return nullptr;
}

inline const offsets_step* find_step(const offsets_part& p, const std::string& step) {
    for (const auto& s : p.steps)
        if (s.step == step) return &s;
    return nullptr;
}

// Verdict for "no kill duplicates; bound <= 0.10" on one configuration.
inline prediction_outcome judge_no_duplicates(const result::prediction& p, const configuration_run* run) {
    prediction_outcome o{p.id, p.text, p.measure, verdict_kind::inconclusive, {}};
    if (!run) {
        o.reason = "the configuration did not run";
        return o;
    }
    auto s = summarize(*run);
    const auto total_extra = s.total_duplicates + run->unattributed_duplicates;
    if (total_extra > 0 || run->duplicate_rows > 0) {
        o.verdict = verdict_kind::refuted;
        o.reason = std::to_string(s.kills_with_duplicates) + " of " + std::to_string(s.kills) +
                   " kills produced duplicates (" + std::to_string(run->duplicate_rows) + " duplicate rows)";
    } else if (s.upper_bound_95 <= bound_target) {
        o.verdict = verdict_kind::held;
        o.reason = "0 of " + std::to_string(s.kills) + " kills duplicated; 95% upper bound " +
                   std::to_string(s.upper_bound_95);
    } else {
        o.reason = "0 of " + std::to_string(s.kills) + " kills duplicated, but the 95% upper bound " +
                   std::to_string(s.upper_bound_95) + " is above " + std::to_string(bound_target) +
                   ": too few kills to say";
    }
    return o;
}

inline samples judge(samples s, const std::vector<result::prediction>& predictions) {
    s.predictions.clear();
    for (const auto& p : predictions) {
        prediction_outcome o{p.id, p.text, p.measure, verdict_kind::inconclusive, {}};
        if (p.id.rfind("e1.no-duplicates:", 0) == 0) {
            o = judge_no_duplicates(p, find_configuration(s, p.id.substr(17)));
        } else if (p.id == "e1.upsert-holds-latest") {
            bool any = false, bad = false;
            std::string why;
            for (const auto& c : s.configurations) {
                if (c.table_kind != "upsert") continue;
                any = true;
                if (c.stale_rows || c.rows_sharing_npi || c.missing_npis || c.unexpected_rows) {
                    bad = true;
                    why += c.name + ": " + std::to_string(c.stale_rows) + " stale, " +
                           std::to_string(c.rows_sharing_npi) + " sharing, " + std::to_string(c.missing_npis) +
                           " missing; ";
                }
            }
            o.verdict = !any ? verdict_kind::inconclusive : bad ? verdict_kind::refuted : verdict_kind::held;
            o.reason = !any ? "no upsert configuration ran" : bad ? why : "every NPI row is the expected latest";
        } else if (p.id == "e1.recovery-ignores-offsets") {
            auto* rewound = find_step(s.offsets, "rewound");
            auto* restored = find_step(s.offsets, "restored_from_checkpoint");
            if (!rewound || !restored) {
                o.reason = "part 2 did not run";
            } else if (rewound->committed_offsets_sum != 0) {
                o.reason = "the rewind did not take: committed offsets summed to " +
                           std::to_string(rewound->committed_offsets_sum);
            } else {
                bool ok = restored->duplicate_rows == 0 && restored->committed_offsets_sum == restored->end_offsets_sum;
                o.verdict = ok ? verdict_kind::held : verdict_kind::refuted;
                o.reason = std::to_string(restored->duplicate_rows) + " duplicates after the restore; offsets " +
                           std::to_string(restored->committed_offsets_sum) + " of " +
                           std::to_string(restored->end_offsets_sum);
            }
        } else if (p.id == "e1.fresh-job-replays-log") {
            auto* fresh = find_step(s.offsets, "fresh_from_group_offsets");
            if (!fresh) {
                o.reason = "part 2 did not run";
            } else {
                bool ok = fresh->duplicate_rows == s.offsets.events;
                o.verdict = ok ? verdict_kind::held : verdict_kind::refuted;
                o.reason = std::to_string(fresh->duplicate_rows) + " duplicates for " +
                           std::to_string(s.offsets.events) + " events";
            }
        } else {
            o.reason = "no rule in the code judges this prediction";
        }
        s.predictions.push_back(o);
    }
    return s;
}

inline verdict_kind overall(const samples& s) { return experiments::overall(s.predictions); }

}  // namespace rosterrig::e1
