// rosterrig/experiments/e1c_checkpoint_timeouts.hpp: experiment 1c, checkpoints
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
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/check/commit_replay.hpp"
#include "rosterrig/experiment/checkpoint_outcome.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/experiment/store_listing.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/envelope.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"

namespace rosterrig::e1c {

using experiment::prediction_outcome;

struct parameters {
    std::uint64_t seed = 1;
    // Produced at once: the writer is backpressured for about a minute (35 s for
    // 2,400,000 in the runs at 436cf8e and 3869baf).
    std::uint64_t events = 4'800'000;
    // An upsert cell's feed: its writer is slower (an equality delete per
    // record), so fewer events keep it backpressured as long; 400,000 in a
    // probe gave 22 timeouts in 30 checkpoints.
    std::uint64_t upsert_events = 1'200'000;
    std::uint32_t partitions = 4;
    std::int64_t checkpoint_interval_ms = 1000;
    // About the median end-to-end time of the checkpoints that completed under
    // backpressure (101-111 ms by cell at 3869baf, p90 239-288 ms), so that about
    // half time out: at 400 ms two runs saw 23/12/1/1 and 1/1/0/2 failures per cell.
    std::int64_t short_timeout_ms = 100;
    std::int64_t generous_timeout_ms = 600'000;  // Flink's default: the control cell
    std::int64_t tolerable_failed_checkpoints = 100'000;  // timeouts never fail the job
    std::int64_t source_parallelism = 4;  // one subtask per partition
    std::int64_t writer_parallelism = 2;  // several writer subtasks: the committer has several inputs
    std::uint64_t timeouts_to_judge = 30;  // timed-out checkpoints a cell needs before "nothing lost" is claimed
    // How often every cell runs, one round of all cells after the other: how
    // much a cell loses varies from run to run, so a figure needs its spread.
    std::uint64_t repeats = 3;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    bool quick = false;
    std::string repro;  ///< the reproduction this run is, "" for a run of every cell

    static parameters full() { return {}; }
    /// For CI (under 3 minutes): the two unaligned short-timeout cells, 400,000
    /// events (about 15 s of backpressure), judged on 5 timeouts instead of 30.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.events = 400'000;
        p.upsert_events = 400'000;
        p.timeouts_to_judge = 5;
        p.repeats = 1;
        return p;
    }
    /// `rosterrig-e1c --repro NAME`: one cell alone, at the quick run's size,
    /// three times (the names: repro_of in the cell list).
    static std::vector<std::string> repro_names() { return {"flinksink-unaligned-timeout", "sinkv2-unaligned-upsert", "sinkv2-aligned-upsert", "sinkv2-upsert-no-timeout"}; }
    static std::optional<parameters> repro_run(const std::string& name) {
        const auto names = repro_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) return std::nullopt;
        auto p = quick_run();
        p.repro = name;
        p.repeats = 3;
        return p;
    }
    roster_spec feed(experiment::table_kind kind = experiment::table_kind::append) const {
        const auto n = kind == experiment::table_kind::upsert ? upsert_events : events;
        return roster_feed(seed, n, std::max<std::uint64_t>(1, n / 6), partitions);
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, upsert_events, partitions, checkpoint_interval_ms, short_timeout_ms, generous_timeout_ms,
                       tolerable_failed_checkpoints, source_parallelism, writer_parallelism, timeouts_to_judge, repeats,
                       warehouse, quick, repro))

/// One cell: a sink, aligned or unaligned, the short timeout or the generous
/// one, an append table or an upsert table keyed by NPI.
struct cell {
    std::string name;
    experiment::iceberg_sink sink = experiment::iceberg_sink::flink_sink;
    bool unaligned = false;
    bool short_timeout = true;
    experiment::table_kind kind = experiment::table_kind::append;
    std::string repro = "";  ///< its `--repro` name, "" when it has none
};
inline std::vector<cell> cells() {
    using experiment::iceberg_sink;
    constexpr auto upsert = experiment::table_kind::upsert, append = experiment::table_kind::append;
    return {{"FlinkSink, unaligned, short timeout", iceberg_sink::flink_sink, true, true, append, "flinksink-unaligned-timeout"},
            {"FlinkSink, aligned, short timeout", iceberg_sink::flink_sink, false, true},
            {"SinkV2, unaligned, short timeout", iceberg_sink::sink_v2, true, true},
            {"SinkV2, aligned, short timeout", iceberg_sink::sink_v2, false, true},
            {"FlinkSink, unaligned, generous timeout", iceberg_sink::flink_sink, true, false},
            {"FlinkSink, unaligned, short timeout, upsert", iceberg_sink::flink_sink, true, true, upsert},
            {"SinkV2, unaligned, short timeout, upsert", iceberg_sink::sink_v2, true, true, upsert, "sinkv2-unaligned-upsert"},
            {"SinkV2, aligned, short timeout, upsert", iceberg_sink::sink_v2, false, true, upsert, "sinkv2-aligned-upsert"},
            {"FlinkSink, aligned, short timeout, upsert", iceberg_sink::flink_sink, false, true, upsert},
            {"SinkV2, aligned, generous timeout, upsert", iceberg_sink::sink_v2, false, false, upsert, "sinkv2-upsert-no-timeout"}};
}
inline std::vector<cell> cells_of(const parameters& p) {
    const auto all = cells();
    if (!p.repro.empty()) {
        std::vector<cell> out;
        for (const auto& c : all)
            if (c.repro == p.repro) out.push_back(c);
        return out;
    }
    if (p.quick) return {all[0], all[2], all[6]};
    return all;
}
/// The cell as its topic, group and table names carry it: flinksink_unaligned_short, ...
inline std::string short_name_of(const cell& c) {
    return std::string(c.sink == experiment::iceberg_sink::sink_v2 ? "sinkv2" : "flinksink") +
           (c.unaligned ? "_unaligned" : "_aligned") + (c.short_timeout ? "_short" : "_generous") +
           (c.kind == experiment::table_kind::upsert ? "_upsert" : "");
}
inline std::int64_t timeout_of(const parameters& p, const cell& c) {
    return c.short_timeout ? p.short_timeout_ms : p.generous_timeout_ms;
}

/// The pipeline a cell runs: its table kind, exactly-once, the source at one
/// subtask per partition, the writer at its own parallelism.
inline experiment::pipeline_config pipeline_of(const parameters& p, const cell& c) {
    experiment::pipeline_config x{c.kind, experiment::checkpoint_mode::exactly_once, c.sink,
                                  p.warehouse, experiment::startup_mode::earliest_offset, p.checkpoint_interval_ms,
                                  p.source_parallelism};
    x.writer_parallelism = p.writer_parallelism;
    x.unaligned_checkpoints = c.unaligned;
    x.checkpoint_timeout_ms = timeout_of(p, c);
    x.tolerable_failed_checkpoints = p.tolerable_failed_checkpoints;
    return x;
}

/// No process is killed; the fault is the cell's checkpoint timeout, applied by Flink.
inline experiment::fault_plan fault_plan(const parameters&) { return {}; }

/// An upsert cell's table: its settings as the catalog reports them, and the
/// per-NPI check of the rows read back. A loss shows as an NPI whose last
/// record is on no row (a lower bound on the records lost: a later record of
/// an NPI hides the loss of an earlier one); a delete that did not apply, as
/// an NPI on more than one row.
struct upsert_observation {
    experiment::table_settings table_in_force;  ///< write.upsert.enabled and the identifier fields, from the catalog
    std::uint64_t npis_expected = 0;            ///< distinct NPIs in the feed
    std::uint64_t npis_missing = 0;             ///< expected NPIs on no row
    std::uint64_t npis_without_latest = 0;      ///< NPIs on rows, none of them the NPI's last record
    std::uint64_t rows_sharing_npi = 0;         ///< extra rows: an NPI on k rows adds k-1
    std::uint64_t stale_rows = 0;               ///< rows that are not their NPI's last record
    std::uint64_t unexpected_rows = 0;          ///< rows whose NPI the feed never had
};
BOOST_DESCRIBE_STRUCT(upsert_observation, (),
                      (table_in_force, npis_expected, npis_missing, npis_without_latest, rows_sharing_npi, stale_rows,
                       unexpected_rows))

/// What ran in a cell, as the components reported it, and the table at the end.
struct cell_run {
    std::string name;
    std::uint64_t repeat = 1;               ///< which round of the cells this run was, from 1
    std::string sink;                       ///< which sink implementation ran
    std::string job_id;
    std::string table;
    std::string mode_in_force;              ///< /jobs/<id>/checkpoints/config
    bool unaligned_in_force = false;
    std::int64_t interval_in_force_ms = 0;
    std::int64_t timeout_requested_ms = 0;
    std::int64_t timeout_in_force_ms = 0;
    std::int64_t tolerable_in_force = -1;
    std::string writer_input;               ///< the plan's ship strategy into the writer
    std::int64_t writer_parallelism = 0;    ///< from the plan
    std::string feed_sha256;
    std::uint64_t events = 0;
    std::uint64_t acknowledged = 0;
    std::int64_t produce_ms = 0;            ///< feed start to the last delivery report
    std::int64_t drained_ms = 0;            ///< feed start to the source's committed offsets at the end
    std::string final_job_state;
    std::int64_t restarts_reported = 0;
    experiment::checkpoint_totals totals;   ///< Flink's counters, exact
    std::vector<experiment::checkpoint_outcome> checkpoints;  ///< polled from the history: a sample of the totals
    bool observed = false;
    std::uint64_t rows = 0, distinct_seq = 0, duplicate_rows = 0;
    // Append cells only: an upsert table keeps one row per NPI by design, so
    // its seqs are missing by the million (0 and empty there; see `upsert`).
    std::uint64_t missing_seq = 0;
    std::vector<seq_range> missing_runs;
    std::vector<check::snapshot_entry> snapshots;  ///< the writer's snapshots, as the catalog lists them
    experiment::store_listing store;        ///< data files in the store the table never referenced
    std::optional<upsert_observation> upsert;  ///< upsert cells only (absent: an append table)
};
BOOST_DESCRIBE_STRUCT(cell_run, (),
                      (name, repeat, sink, job_id, table, mode_in_force, unaligned_in_force, interval_in_force_ms,
                       timeout_requested_ms, timeout_in_force_ms, tolerable_in_force, writer_input, writer_parallelism,
                       feed_sha256, events, acknowledged, produce_ms, drained_ms, final_job_state, restarts_reported,
                       totals, checkpoints, observed, rows, distinct_seq, duplicate_rows, missing_seq, missing_runs,
                       snapshots, store, upsert))

struct samples {
    std::vector<cell_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

// ---- recording --------------------------------------------------------------

/// A cell's run as its job starts: the cell, its round, and the settings Flink
/// reports in force (the timeout requested kept beside them, to tell the two apart).
inline cell_run started_run(const parameters& p, const cell& c, std::uint64_t repeat, const std::string& job,
                            const std::string& table, const experiment::writer_settings& in_force, std::uint64_t events) {
    const auto fan_in = experiment::fan_in_of(in_force.edges);
    cell_run r;
    r.name = c.name, r.repeat = repeat, r.sink = in_force.sink, r.job_id = job, r.table = table;
    r.mode_in_force = in_force.mode, r.unaligned_in_force = in_force.unaligned.value_or(false);
    r.interval_in_force_ms = in_force.interval_ms;
    r.timeout_requested_ms = timeout_of(p, c), r.timeout_in_force_ms = in_force.checkpoint_timeout_ms;
    r.tolerable_in_force = in_force.tolerable_failed_checkpoints;
    r.writer_input = fan_in.ship_strategy, r.writer_parallelism = fan_in.writer_parallelism;
    r.events = events;
    if (c.kind == experiment::table_kind::upsert) r.upsert = upsert_observation{in_force.table.value_or(experiment::table_settings{})};
    return r;
}

/// Puts the table's read-back into the run: the seq counts, then what the
/// table's kind loses by: missing seqs (append) or the per-NPI counts (upsert;
/// the catalog's settings recorded at the start are kept).
inline void record_table(cell_run& r, const experiment::table_observation& o) {
    r.observed = true;
    r.rows = o.by_seq.rows, r.distinct_seq = o.by_seq.distinct_seq;
    r.duplicate_rows = o.by_seq.duplicate_rows;
    if (r.upsert) {
        const auto& u = o.by_npi;
        // The feed's NPIs: those seen, less the ones it never had, plus the ones on no row.
        r.upsert->npis_expected = u.distinct_npis - u.unexpected_npis.size() + u.missing_npis.size();
        r.upsert->npis_missing = u.missing_npis.size(), r.upsert->npis_without_latest = u.npis_without_latest;
        r.upsert->rows_sharing_npi = u.rows_sharing_npi, r.upsert->stale_rows = u.stale_rows;
        r.upsert->unexpected_rows = u.unexpected_rows;
    } else {
        r.missing_seq = o.by_seq.missing_seq, r.missing_runs = o.by_seq.missing_runs;
    }
}

// ---- analysis ---------------------------------------------------------------

/// Every run of the cell `name`, in the order they ran (one per repeat).
inline std::vector<const cell_run*> runs_of(const samples& s, const std::string& name) {
    std::vector<const cell_run*> out;
    for (const auto& r : s.runs)
        if (r.name == name) out.push_back(&r);
    return out;
}

/// Checkpoints the polled history shows timed out.
inline std::uint64_t timeouts_recorded(const cell_run& r) {
    return static_cast<std::uint64_t>(std::count_if(r.checkpoints.begin(), r.checkpoints.end(),
                                                    [](const auto& c) { return experiment::timed_out(c); }));
}
/// The timed-out checkpoints a cell can be judged on: the expiries in Flink's
/// history. Not its failed count: a checkpoint refused at its trigger (tasks
/// not yet running, at the job's start) counts as failed and never enters the
/// history (run at 3869baf: the control's one failure).
inline std::uint64_t timeouts_of(const cell_run& r) { return timeouts_recorded(r); }
/// Checkpoint ids the history never showed, between 1 and its highest id: where
/// it has gaps, the timeouts counted are a lower bound.
inline std::uint64_t history_gaps(const cell_run& r) {
    if (r.checkpoints.empty()) return 0;
    std::int64_t top = 0;
    for (const auto& c : r.checkpoints) top = std::max(top, c.id);
    return static_cast<std::uint64_t>(top) - r.checkpoints.size();
}
/// Records the snapshots added, summed from their summaries.
inline std::int64_t records_committed(const cell_run& r) {
    std::int64_t n = 0;
    for (const auto& s : r.snapshots)
        if (check::adds_data(s)) n += s.added_records;
    return n;
}

// ---- verdict rules ----------------------------------------------------------

/// A run named as the report names it: its cell and its round.
inline std::string run_label(const cell_run& r) { return r.name + " #" + std::to_string(r.repeat); }

/// What a run lost, in its table's unit: seqs missing (append), NPIs whose
/// last record is on no row (upsert).
inline std::uint64_t lost_of(const cell_run& r) {
    return r.upsert ? r.upsert->npis_missing + r.upsert->npis_without_latest : r.missing_seq;
}
/// Rows on an NPI already on a row: an upsert table's duplicates (0 for append).
inline std::uint64_t keys_doubled_of(const cell_run& r) { return r.upsert ? r.upsert->rows_sharing_npi : 0; }

/// Why a cell's runs cannot answer, if they cannot.
inline std::optional<experiment::rule_verdict> cannot_answer(const std::vector<const cell_run*>& runs, const std::string& name) {
    if (runs.empty()) return experiment::inconclusive(name + ": the cell did not run");
    for (const auto* r : runs) {
        if (!r->observed) return experiment::inconclusive(run_label(*r) + ": the table was not read back");
        if (r->upsert && !experiment::reports_upsert_on(r->upsert->table_in_force, "npi"))
            return experiment::inconclusive(run_label(*r) + ": the catalog does not report the table as upsert on npi");
        if (r->writer_parallelism < 2)
            return experiment::inconclusive(run_label(*r) + ": the writer ran at parallelism " +
                                            std::to_string(r->writer_parallelism) + "; the question needs several writer subtasks");
    }
    return std::nullopt;
}

/// What `timeouts_of` counted, said as what it is.
inline std::string timeouts_text(const cell_run& r) {
    const auto gaps = history_gaps(r);
    return std::to_string(timeouts_of(r)) + (gaps ? " or more" : "") + " timed-out checkpoints (Flink's history" +
           (gaps ? ", missing " + std::to_string(gaps) + " ids" : ", every id") + "; " + std::to_string(r.totals.failed) +
           " failed in Flink's count)";
}

/// A run's loss said in its table's unit.
inline std::string lost_text(const cell_run& r) {
    if (!r.upsert) return std::to_string(r.missing_seq) + " seqs missing in " + std::to_string(r.missing_runs.size()) + " ranges";
    const auto& u = *r.upsert;
    return std::to_string(lost_of(r)) + " of " + std::to_string(u.npis_expected) + " NPIs without their last record (" +
           std::to_string(u.npis_missing) + " on no row, " + std::to_string(u.npis_without_latest) + " only on older rows), " +
           std::to_string(u.rows_sharing_npi) + " rows on an NPI already on a row";
}

inline std::string loss_text(const cell_run& r) {
    return lost_text(r) + " after " + timeouts_text(r) + ", " + std::to_string(r.totals.completed) + " completed; " +
           std::to_string(r.store.data_unreferenced) + " data files in the store never committed";
}

/// A cell's runs taken together: what its rules judge.
struct cell_total {
    std::size_t runs = 0, runs_that_lost = 0, runs_that_doubled = 0;
    std::uint64_t lost = 0, keys_doubled = 0, timeouts = 0;
};
inline cell_total total_of(const std::vector<const cell_run*>& runs) {
    cell_total t;
    for (const auto* r : runs) {
        ++t.runs;
        t.runs_that_lost += lost_of(*r) > 0 ? 1 : 0;
        t.runs_that_doubled += keys_doubled_of(*r) > 0 ? 1 : 0;
        t.lost += lost_of(*r);
        t.keys_doubled += keys_doubled_of(*r);
        t.timeouts += timeouts_of(*r);
    }
    return t;
}

/// The loss of a cell's runs: one run as `loss_text` says it; several with how
/// many repeats lost and the spread first, then each repeat.
inline std::string cell_loss_text(const std::vector<const cell_run*>& runs) {
    if (runs.size() == 1) return loss_text(*runs.front());
    const auto t = total_of(runs);
    std::string missing, each;
    for (const auto* r : runs) {
        missing += (missing.empty() ? "" : " / ") + std::to_string(lost_of(*r));
        each += "; #" + std::to_string(r->repeat) + ": " + loss_text(*r);
    }
    const std::string unit = runs.front()->upsert ? "NPIs without their last record " : "seqs missing ";
    return "lost in " + std::to_string(t.runs_that_lost) + " of " + std::to_string(t.runs) + " repeats (" + unit + missing +
           ") after " + std::to_string(t.timeouts) + " timed-out checkpoints in all" + each;
}

/// What a cell's rule counts over its runs: records lost (either table kind),
/// or rows on an NPI already on a row (an upsert table's doubled keys).
enum class measure { lost, keys_doubled };
/// What a rule predicts of its measure: that it shows, or that it never does.
enum class expect { some, none };

inline std::uint64_t amount_of(const cell_total& t, measure m) { return m == measure::lost ? t.lost : t.keys_doubled; }

/// Why the runs cannot answer a question about keys: a run without an upsert table.
inline std::optional<experiment::rule_verdict> not_upsert(const std::vector<const cell_run*>& runs, const std::string& why) {
    for (const auto* r : runs)
        if (!r->upsert) return experiment::inconclusive(run_label(*r) + ": " + why);
    return std::nullopt;
}

/// The reason a rule gives: the cell's loss, preceded, when keys are what it
/// judges, by how many repeats left an NPI on several rows.
inline std::string evidence_text(const std::vector<const cell_run*>& runs, measure m) {
    if (m == measure::lost) return cell_loss_text(runs);
    const auto t = total_of(runs);
    return "an NPI on several rows in " + std::to_string(t.runs_that_doubled) + " of " + std::to_string(t.runs) +
           " repeats; " + cell_loss_text(runs);
}

/// One cell's prediction about `m`, over all its runs. Any amount decides it
/// (held if `some` was expected, refuted if `none`); with none seen it takes
/// `enough` timeouts to decide the other way, the timeouts standing for the
/// backpressure under which results arrive late. A held "loses nothing" also
/// states a bound on the per-timeout loss probability; a held "no key on two
/// rows" states none.
inline experiment::rule_verdict judge_cell(const samples& s, const std::string& name, measure m, expect e,
                                           std::uint64_t enough) {
    using namespace experiment;
    const auto runs = runs_of(s, name);
    if (auto no = cannot_answer(runs, name)) return *no;
    if (m == measure::keys_doubled)
        if (auto no = not_upsert(runs, "an append table has no key to double")) return *no;
    const auto t = total_of(runs);
    const auto what = evidence_text(runs, m);
    if (amount_of(t, m) > 0) return e == expect::some ? held(what) : refuted(what);
    if (t.timeouts < enough)
        return inconclusive(what + "; at least " + std::to_string(enough) + " timeouts are needed" +
                            (e == expect::some ? " to refute" : ""));
    if (e == expect::some) return refuted(what);
    if (m == measure::keys_doubled) return held(what);
    return held(what + "; the per-timeout loss probability is at most " +
                report::fixed(stats::clopper_pearson_upper(0, t.timeouts), 3) + " (95%, one-sided, over " +
                std::to_string(t.timeouts) + " timeouts)");
}

/// "This cell loses records once checkpoints time out" (a missing seq, or an
/// NPI whose last record is on no row).
inline experiment::rule_verdict loses(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::lost, expect::some, enough);
}
/// "This cell loses nothing, however many checkpoints time out".
inline experiment::rule_verdict loses_nothing(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::lost, expect::none, enough);
}
/// "This upsert cell leaves an NPI on more than one row".
inline experiment::rule_verdict keys_doubled(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::keys_doubled, expect::some, enough);
}
/// "This upsert cell leaves no NPI on two rows".
inline experiment::rule_verdict no_key_doubled(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::keys_doubled, expect::none, enough);
}

/// "Without timeouts the cell is exact": a control, run with the generous
/// timeout. An append control is judged on its loss; an upsert control also on
/// NPIs on two rows, and needs an upsert table. Inconclusive when its
/// checkpoints timed out after all or fewer than 3 completed.
inline experiment::rule_verdict control_exact(const samples& s, const std::string& name, experiment::table_kind kind) {
    using namespace experiment;
    const bool upsert = kind == table_kind::upsert;
    const auto runs = runs_of(s, name);
    if (auto no = cannot_answer(runs, name)) return *no;
    if (upsert)
        if (auto no = not_upsert(runs, "not an upsert table")) return *no;
    const auto t = total_of(runs);
    const auto what = evidence_text(runs, upsert ? measure::keys_doubled : measure::lost);
    if (t.lost > 0 || (upsert && t.keys_doubled > 0)) return refuted(what);
    if (t.timeouts > 0) return inconclusive(what + "; the control's checkpoints timed out, so it did not hold its condition");
    for (const auto* r : runs)
        if (r->totals.completed < 3) return inconclusive(what + "; fewer than 3 checkpoints completed in " + run_label(*r));
    return held(what);
}

/// "No cell duplicates": no job restarted, so no checkpoint is replayed.
inline experiment::rule_verdict no_duplicates(const samples& s) {
    using namespace experiment;
    if (s.runs.empty()) return inconclusive("no cell ran");
    std::string dup;
    std::uint64_t rows = 0;
    for (const auto& r : s.runs) {
        if (!r.observed) return inconclusive(run_label(r) + ": the table was not read back");
        rows += r.rows;
        if (r.duplicate_rows > 0) dup += run_label(r) + ": " + std::to_string(r.duplicate_rows) + " duplicate seq rows; ";
    }
    return dup.empty() ? held("no duplicate seq row in " + std::to_string(s.runs.size()) + " cell runs (" + std::to_string(rows) + " rows)")
                       : refuted(dup);
}

/// "The short timeout makes at least `enough` checkpoints time out in each
/// short-timeout cell, and the job never fails": the fault was applied, in
/// every run of every short-timeout cell.
inline experiment::rule_verdict timeouts_applied(const samples& s, std::uint64_t enough) {
    using namespace experiment;
    std::string short_of, what;
    std::size_t judged = 0;
    for (const auto& r : s.runs) {
        if (r.timeout_requested_ms >= 60'000) continue;  // the control
        ++judged;
        what += run_label(r) + ": " + timeouts_text(r) + " of " + std::to_string(r.totals.completed + r.totals.failed) +
                " checkpoints, " + std::to_string(r.restarts_reported) + " restarts; ";
        if (timeouts_of(r) < enough || r.restarts_reported != 0) short_of += run_label(r) + "; ";
    }
    if (judged == 0) return inconclusive("no short-timeout cell ran");
    return short_of.empty() ? held(what) : refuted(what + "short of it: " + short_of);
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    const auto c = cells();
    std::vector<rule> out;
    out.push_back({"e1c.loses:" + c[0].name,
                   [n = c[0].name](const samples& s, const parameters& p) { return loses(s, n, p.timeouts_to_judge); }});
    for (const auto& x : {c[1], c[2], c[3]})
        out.push_back({"e1c.loses-nothing:" + x.name,
                       [n = x.name](const samples& s, const parameters& p) { return loses_nothing(s, n, p.timeouts_to_judge); }});
    out.push_back({"e1c.control-loses-nothing", [n = c[4].name](const samples& s, const parameters&) {
                       return control_exact(s, n, experiment::table_kind::append);
                   }});
    out.push_back({"e1c.loses:" + c[5].name,
                   [n = c[5].name](const samples& s, const parameters& p) { return loses(s, n, p.timeouts_to_judge); }});
    out.push_back({"e1c.no-key-on-two-rows:" + c[5].name,
                   [n = c[5].name](const samples& s, const parameters& p) { return no_key_doubled(s, n, p.timeouts_to_judge); }});
    out.push_back({"e1c.key-on-two-rows:" + c[6].name,
                   [n = c[6].name](const samples& s, const parameters& p) { return keys_doubled(s, n, p.timeouts_to_judge); }});
    for (const auto& x : {c[6], c[7]})
        out.push_back({"e1c.loses-nothing:" + x.name,
                       [n = x.name](const samples& s, const parameters& p) { return loses_nothing(s, n, p.timeouts_to_judge); }});
    for (const auto& x : {c[7], c[8]})
        out.push_back({"e1c.no-key-on-two-rows:" + x.name,
                       [n = x.name](const samples& s, const parameters& p) { return no_key_doubled(s, n, p.timeouts_to_judge); }});
    out.push_back({"e1c.loses-nothing:" + c[8].name,
                   [n = c[8].name](const samples& s, const parameters& p) { return loses_nothing(s, n, p.timeouts_to_judge); }});
    out.push_back({"e1c.upsert-control-exact", [n = c[9].name](const samples& s, const parameters&) {
                       return control_exact(s, n, experiment::table_kind::upsert);
                   }});
    out.push_back({"e1c.no-duplicates", [](const samples& s, const parameters&) { return no_duplicates(s); }});
    out.push_back({"e1c.timeouts-applied",
                   [](const samples& s, const parameters& p) { return timeouts_applied(s, p.timeouts_to_judge); }});
    return out;
}

// ---- report ------------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    auto n = [](std::uint64_t v) { return report::with_thousands(static_cast<long long>(v)); };
    std::string o = "Each cell: an append table or an upsert table keyed by NPI, one exactly-once job reading " +
                    std::to_string(params.partitions) +
                    " partitions with " + std::to_string(params.source_parallelism) + " source subtasks and writing with " +
                    std::to_string(params.writer_parallelism) + " writer subtasks behind an exchange, fed " + n(params.events) +
                    " roster events produced at once (the writer backpressured until it has read them), a checkpoint every " +
                    std::to_string(params.checkpoint_interval_ms) + " ms with a timeout of " +
                    std::to_string(params.short_timeout_ms) + " ms (short) or " + std::to_string(params.generous_timeout_ms) +
                    " ms (generous), and " + std::to_string(params.tolerable_failed_checkpoints) +
                    " tolerable failed checkpoints; every cell ran " + std::to_string(params.repeats) +
                    (params.repeats == 1 ? " time" : " times, one round of all cells after the other") +
                    ". No process is killed: the only fault is the timeout." +
                    (params.quick ? " **Quick run.**" : "") + "\n\n";
    auto in_force = [](const cell_run& r) {
        return r.mode_in_force + (r.unaligned_in_force ? ", unaligned" : ", aligned") + ", every " +
               std::to_string(r.interval_in_force_ms) + " ms, timeout " + std::to_string(r.timeout_in_force_ms) + " ms, tolerable " +
               std::to_string(r.tolerable_in_force);
    };
    auto counts = [&](const cell_run& r) {
        return n(static_cast<std::uint64_t>(r.totals.completed)) + " / " + n(static_cast<std::uint64_t>(r.totals.failed));
    };
    auto never_committed = [](const cell_run& r) {
        return std::to_string(r.store.data_unreferenced) + " of " + std::to_string(r.store.data_files);
    };
    report::markdown_table t{{"Cell", "Repeat", "In force (Flink)", "Writer input (plan)", "Checkpoints completed / failed (Flink's counts)",
                              "Timed out (history)", "Restarts", "Rows", "Missing seqs (contiguous ranges)", "Duplicate seq rows",
                              "Records the snapshots added", "Data files never committed"}};
    report::markdown_table u{{"Upsert cell", "Repeat", "In force (Flink)", "Table (catalog)", "Checkpoints completed / failed (Flink's counts)",
                              "Timed out (history)", "Restarts", "Rows", "NPIs in the feed",
                              "NPIs without their last record: on no row / only on older rows", "Rows on an NPI already on a row",
                              "Duplicate seq rows", "Files in the store never committed"}};
    for (const auto& r : s.runs) {
        if (r.upsert) {
            const auto& x = *r.upsert;
            std::string ids;
            for (const auto& f : x.table_in_force.identifier_fields) ids += (ids.empty() ? "" : ",") + f;
            u.row({r.name, "#" + std::to_string(r.repeat), in_force(r),
                   "write.upsert.enabled=" + x.table_in_force.write_upsert_enabled.value_or("unset") + ", key " +
                       (ids.empty() ? "none" : ids),
                   counts(r), n(timeouts_recorded(r)) + " of " + n(r.checkpoints.size()) + " recorded",
                   std::to_string(r.restarts_reported), n(r.rows), n(x.npis_expected),
                   n(x.npis_missing) + " / " + n(x.npis_without_latest), n(x.rows_sharing_npi), n(r.duplicate_rows),
                   never_committed(r)});
            continue;
        }
        t.row({r.name, "#" + std::to_string(r.repeat), in_force(r),
               r.writer_input + ", " + std::to_string(r.writer_parallelism) + " writer subtasks", counts(r),
               n(timeouts_recorded(r)) + " of " + n(r.checkpoints.size()) + " recorded",
               std::to_string(r.restarts_reported), n(r.rows),
               n(r.missing_seq) + " (" + n(r.missing_runs.size()) + ")", n(r.duplicate_rows),
               n(static_cast<std::uint64_t>(std::max<std::int64_t>(0, records_committed(r)))), never_committed(r)});
    }
    o += t.render();
    if (std::any_of(s.runs.begin(), s.runs.end(), [](const cell_run& r) { return r.upsert.has_value(); }))
        o += "\n" + u.render();
    o += "\nCounts of rows, seqs, NPIs and files are exact: every row read back through Trino, every file under the "
         "table's location listed from the store and matched against every file the table references. In an upsert "
         "table an NPI without its last record is a loss, and a lower bound on the records lost: a later record of an "
         "NPI hides the loss of an earlier one. The checkpoint "
         "counts are Flink's own counters for the job; \"timed out\" counts the failed checkpoints whose failure "
         "message says they expired, from the history Flink keeps (its last entries, polled each second: a lower bound "
         "on the total). The sink: " +
         (s.runs.empty() ? std::string("-") : s.runs.front().sink) + " in the first cell.\n";
    for (const auto& c : cells()) {
        const auto runs = runs_of(s, c.name);
        const auto total = total_of(runs);
        if (!c.short_timeout || (total.lost == 0 && total.keys_doubled == 0)) continue;
        std::string lost, doubled;
        for (const auto* r : runs) {
            lost += (lost.empty() ? "" : " / ") + n(lost_of(*r));
            doubled += (doubled.empty() ? "" : " / ") + n(keys_doubled_of(*r));
        }
        o += "\n" + c.name + ":";
        if (total.lost > 0)
            o += " lost records in " + std::to_string(total.runs_that_lost) + " of " + std::to_string(total.runs) + " repeats (" +
                 lost + (c.kind == experiment::table_kind::upsert ? " NPIs without their last record)" : " seqs missing)") +
                 (c.sink == experiment::iceberg_sink::flink_sink ? "; the upstream issue it matches: apache/iceberg#15846" : "") + ".";
        if (total.keys_doubled > 0)
            o += " left an NPI on several rows in " + std::to_string(total.runs_that_doubled) + " of " + std::to_string(total.runs) +
                 " repeats (" + doubled + " extra rows); upstream reports of NPIs on two rows after aborted checkpoints: apache/iceberg#10431 (fixed for FlinkSink by #10526) and #11008.";
        if (!c.repro.empty()) {
            const auto repro = *parameters::repro_run(c.repro);
            o += " The reproduction: `rosterrig-e1c --repro " + c.repro + "` (this cell alone, " + n(repro.events) + " events, " +
                 std::to_string(repro.repeats) + " repeats).";
        }
        o += "\n";
    }
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

struct definition {
    using parameters = e1c::parameters;
    using samples = e1c::samples;
    static constexpr const char* id = "e1c_checkpoint_timeouts";
    static constexpr const char* tag = "e1c";
    static constexpr const char* predictions_file = "predictions/e1c_checkpoint_timeouts.json";
    static constexpr const char* results_file = "results/e1c_checkpoint_timeouts.json";
    static constexpr experiment::hooks<parameters> hooks{
        .warehouse = &parameters::warehouse,
        .repro_run = &parameters::repro_run,
        .repro_names = &parameters::repro_names};
    static std::vector<rule> rules() { return e1c::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e1c::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e1c::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

} // namespace rosterrig::e1c

#endif
