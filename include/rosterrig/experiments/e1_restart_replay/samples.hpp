// rosterrig/experiments/e1_restart_replay/samples.hpp: experiment 1's sample schema (part 2's offsets steps and watch, the samples)
// Also start_run, end_text and step_text, the driver's helpers that build and print
// samples, kept here in the old order.
#ifndef ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_SAMPLES_HPP

#include "rosterrig/experiments/e1_restart_replay/parameters.hpp"

namespace rosterrig::e1 {

// Part 2: committed offsets are monitoring.
struct offsets_step {
    std::string step;
    std::int64_t committed_offsets_sum = 0;
    std::int64_t end_offsets_sum = 0;
    std::uint64_t rows = 0;
    std::uint64_t duplicate_rows = 0;
    std::string job_id;
    std::int64_t exceptions = 0;  // entries in the job's exception history
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
    std::vector<offsets_step> steps;  // landed, rewound, restored_from_checkpoint, fresh_from_group_offsets
    std::vector<offsets_watch_sample> after_restore;  // every 0.5 s for the watch window
    std::optional<std::string> feed_sha256;           // of offsets_feed() as produced (absent in older runs)
};
BOOST_DESCRIBE_STRUCT(offsets_part, (), (events, steps, after_restore, feed_sha256))

struct samples {
    std::vector<configuration_run> configurations;
    offsets_part offsets;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (configurations, offsets, predictions))

/// A configuration's run as it starts: what was asked, what Flink runs.
inline configuration_run start_run(const configuration& c, const parameters& p, const std::string& job,
                                   const experiment::writer_settings& w, double rate_per_second) {
    return experiment::start_kill_run(c.name, c.table, c.mode, p.checkpoint_interval_ms, p.events, job, w,
                                      rate_per_second);
}

/// The progress line at a configuration's end.
inline std::string end_text(const configuration_run& run) {
    return std::to_string(run.rows) + " rows, " + std::to_string(run.duplicate_rows) + " duplicate seq rows, " +
           std::to_string(run.rows_sharing_npi) + " sharing an NPI, " + std::to_string(run.equality_delete_files) +
           " equality delete files";
}

/// The progress line of a step of part 2.
inline std::string step_text(const offsets_step& x) {
    return x.step + ": committed offsets " + std::to_string(x.committed_offsets_sum) + " of " +
           std::to_string(x.end_offsets_sum) + ", rows " + std::to_string(x.rows) + ", duplicates " +
           std::to_string(x.duplicate_rows);
}

}  // namespace rosterrig::e1

#endif
