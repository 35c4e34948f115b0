// rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp: experiment 1c, checkpoints
// that time out under backpressure, against FlinkSink and SinkV2, aligned and
// unaligned, as data.
//
// Why it can lose (apache/iceberg#15846, read in Iceberg 1.10's
// IcebergFilesCommitter): the committer files each write result under the
// checkpoint id its writer subtask tagged it with, and its snapshotState(N)
// turns what it holds for N into one manifest with put(N, ...). With unaligned
// checkpoints and several writer subtasks, the committer takes its snapshot at
// the first barrier, so a slower subtask's result for N arrives after it. If
// checkpoint N then completes, that late result is committed with N+1; if N
// times out instead, the next snapshot put(N, ...)s the late result alone, and
// the manifest of the early results is replaced, not merged: their data files
// are never committed. Aligned checkpoints deliver every result before the
// snapshot; SinkV2's aggregator emits one committable per checkpoint, so a late
// result goes into the next one.
//
// The upsert cells ask the same of an upsert table keyed by NPI, where a loss
// shows as an NPI whose last record is on no row, and a second way to break
// is open, an NPI left on two rows. The predictions' reading (the run decides):
// SinkV2's aggregator gathers every write result it receives between
// two of its barriers into one committable, so under unaligned checkpoints
// one writer subtask's results of two checkpoints can meet there and be
// committed as one row delta at one sequence number. The later checkpoint's
// equality delete then does not apply to the earlier checkpoint's row for the
// same key (an equality delete applies to lower sequence numbers only), and
// the key is on two rows: the mechanism of apache/iceberg#11008 and #15305.
//
// Each cell: one job, the writer at two
// subtasks behind an exchange, the whole feed produced at once (the writer
// backpressured until it has read it), a checkpoint timeout short enough that
// a share of checkpoints time out, and enough tolerable failures that they do
// not fail the job. No TaskManager is killed: the only fault is the timeout.
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_E1C_CHECKPOINT_TIMEOUTS_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_E1C_CHECKPOINT_TIMEOUTS_HPP

#include "rosterrig/experiments/e1c_checkpoint_timeouts/report.hpp"

namespace rosterrig::e1c {

struct definition {
    using parameters = e1c::parameters;
    using samples = e1c::samples;
    static constexpr const char* id = "e1c_checkpoint_timeouts";
    static constexpr const char* tag = "e1c";
    static constexpr const char* predictions_file = "predictions/e1c_checkpoint_timeouts.json";
    static constexpr const char* results_file = "results/e1c_checkpoint_timeouts.json";
    static constexpr experiment::hooks<parameters> hooks{.warehouse = &parameters::warehouse,
                                                         .repro_run = &parameters::repro_run,
                                                         .repro_names = &parameters::repro_names};
    static std::vector<rule> rules() { return e1c::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e1c::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e1c::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace rosterrig::e1c

#endif
