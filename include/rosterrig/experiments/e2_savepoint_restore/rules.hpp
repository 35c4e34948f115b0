// rosterrig/experiments/e2_savepoint_restore/rules.hpp: experiment 2's analysis (the freeze) and the verdict rules, rules()
// Also record_table, describe and settle_watch, the driver's helpers while sampling, kept here
// in the old order: describe(restore_run) needs analyze().
#ifndef ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E2_SAVEPOINT_RESTORE_RULES_HPP

#include "rosterrig/experiments/e2_savepoint_restore/samples.hpp"

namespace rosterrig::e2 {

// What the samples say about one restore.
struct freeze_analysis {
    bool table_moved = false;
    std::int64_t last_old_ms = -1;   // last sample still showing the table as it was
    std::int64_t first_new_ms = -1;  // first sample showing a new snapshot
    // max-committed-checkpoint-id of the table's current snapshot at that sample:
    // the sampler's view (every 0.5 s), which may be past the first new snapshot
    std::int64_t ended_by_checkpoint = -1;
    std::int64_t lump_records = 0;  // total-records added by that one snapshot
    bool lag_zero_while_stale = false;
    std::set<std::string> states_while_stale;  // job states seen before the table moved (job existing)
    std::int64_t failed_checkpoints_at_first_running = -1;
    std::int64_t failed_checkpoints_at_table_move = -1;
    std::int64_t first_running_ms = -1;
    // The commit burst that ended the freeze: from the first new snapshot up to
    // the first one stamped above the old watermark (a committer writing one
    // RowDelta per pending checkpoint commits them one after another, each
    // stamped with its own checkpoint id, all from one checkpoint's completion).
    std::int64_t burst_snapshots = 0;
    std::int64_t burst_final_checkpoint = -1;  // the watermark once the burst is done
    std::int64_t burst_records = 0;            // total-records the burst added
    std::int64_t burst_span_ms = 0;            // first to last commit of the burst
    // The freeze's end from the first new snapshot's own commit timestamp (the
    // catalog records it to the millisecond, on this machine's clock), when
    // the restore request's time was recorded; the samples bound it to 0.5 s.
    std::optional<std::int64_t> first_commit_ms;
};

inline freeze_analysis analyze(const restore_run& r) {
    freeze_analysis a;
    // The third batch's own commits come after the freeze; they are not part of it.
    const std::int64_t third_batch_from = r.third_batch && r.restore_requested_at_ms
                                              ? *r.restore_requested_at_ms + r.third_batch->written_after_ms
                                              : std::numeric_limits<std::int64_t>::max();
    for (const auto& snap : r.snapshots_after) {
        if (snap.timestamp_ms >= third_batch_from) break;
        ++a.burst_snapshots;
        a.burst_final_checkpoint = snap.max_committed_checkpoint_id;
        a.burst_records = snap.total_records - r.total_records_before;
        a.burst_span_ms = snap.timestamp_ms - r.snapshots_after.front().timestamp_ms;
        if (snap.max_committed_checkpoint_id > r.watermark_before) break;
    }
    if (!r.snapshots_after.empty() && r.restore_requested_at_ms)
        a.first_commit_ms = r.snapshots_after.front().timestamp_ms - *r.restore_requested_at_ms;
    for (const auto& s : r.samples) {
        const bool old = s.snapshot_id == r.snapshot_before;
        if (old) {
            a.last_old_ms = s.t_ms;
            if (!s.job_state.empty()) a.states_while_stale.insert(s.job_state);
            if (s.job_state == "RUNNING" && a.first_running_ms < 0) {
                a.first_running_ms = s.t_ms;
                a.failed_checkpoints_at_first_running = s.failed_checkpoints;
            }
            if (s.lag == 0 && s.job_state == "RUNNING") a.lag_zero_while_stale = true;
            continue;
        }
        a.table_moved = true;
        a.first_new_ms = s.t_ms;
        a.ended_by_checkpoint = s.max_committed_checkpoint_id;
        a.lump_records = s.total_records - r.total_records_before;
        a.failed_checkpoints_at_table_move = s.failed_checkpoints;
        break;
    }
    return a;
}

inline const restore_run* first_of(const samples& s, const std::string& variant) {
    for (const auto& r : s.runs)
        if (r.variant == variant) return &r;
    return nullptr;
}

/// Puts the read-back of the table after the restore into the run.
inline void record_table(restore_run& r, const experiment::table_observation& o) {
    r.rows = o.by_seq.rows;
    r.duplicate_rows = o.by_seq.duplicate_rows;
    if (r.table_kind == experiment::table_kind::append) r.missing_runs = o.by_seq.missing_runs;
    if (r.table_kind == experiment::table_kind::upsert) {
        r.rows_sharing_npi = o.by_npi.rows_sharing_npi;
        r.missing_npis = o.by_npi.missing_npis.size();
        r.stale_rows = o.by_npi.stale_rows;
    }
}

/// One line on what a restore did, for the progress log.
inline std::string describe(const restore_run& r) {
    auto a = analyze(r);
    return "froze from restore to between " + std::to_string(a.last_old_ms) + " and " + std::to_string(a.first_new_ms) +
           " ms; ended by checkpoint " + std::to_string(a.ended_by_checkpoint) + " (watermark " +
           std::to_string(r.watermark_before) + "); burst of " + std::to_string(a.burst_snapshots) +
           " snapshots up to checkpoint " + std::to_string(a.burst_final_checkpoint) + " adding " +
           std::to_string(a.burst_records) + " records; first snapshot " + std::to_string(a.lump_records) +
           " records; " + std::to_string(r.rows) + " rows, " + std::to_string(r.duplicate_rows) + " duplicates";
}

/// One sample in words, for the progress log while sampling.
inline std::string describe(const sample& x) {
    return "at t=" + std::to_string(x.t_ms) +
           " ms: " + (x.job_state.empty() ? std::string("not started") : x.job_state) + ", checkpoint " +
           std::to_string(x.newest_checkpoint_id) + ", lag " + std::to_string(x.lag) + ", table watermark " +
           std::to_string(x.max_committed_checkpoint_id) + ", records " + std::to_string(x.total_records);
}

/// Sampling may stop once the table has moved, the lag is zero and three
/// more checkpoints have completed (a quick run: two): the burst is over and
/// nothing is left.
struct settle_watch {
    std::int64_t snapshot_before = -1;
    std::int64_t moved_at_checkpoint = -1;
    std::int64_t checkpoints_after_move = 3;
    bool settled(const sample& last) {
        if (moved_at_checkpoint < 0 && last.snapshot_id != snapshot_before && last.snapshot_id != -1)
            moved_at_checkpoint = last.newest_checkpoint_id;
        return moved_at_checkpoint >= 0 && last.lag == 0 &&
               last.newest_checkpoint_id >= moved_at_checkpoint + checkpoints_after_move;
    }
};
inline settle_watch settle_watch_of(const parameters& p, std::int64_t snapshot_before) {
    return {snapshot_before, -1, p.quick ? 2 : 3};
}

// ---- verdict rules: a prediction holds only if it holds for every repeat ----

using experiment::rule_verdict;

inline std::vector<restore_run> runs_of(const samples& s, const std::string& variant) {
    std::vector<restore_run> out;
    for (const auto& r : s.runs)
        if (r.variant == variant) out.push_back(r);
    return out;
}

/// `decide` returns a repeat's verdict with its facts (held_if).
template <class Decide>
rule_verdict every_repeat(const samples& s, const std::string& variant, Decide decide) {
    return experiment::for_each_of(
        runs_of(s, variant), [](const restore_run& r) { return "repeat " + std::to_string(r.repeat); },
        [&](const restore_run& r) { return decide(r, analyze(r)); }, "the variant did not run");
}

inline rule_verdict flinksink_append_freezes_then_lumps(const samples& s) {
    return every_repeat(s, "append-flinksink", [](const restore_run& r, const freeze_analysis& a) {
        const bool ok = a.table_moved && a.ended_by_checkpoint == r.watermark_before + 1 && a.lag_zero_while_stale &&
                        a.failed_checkpoints_at_table_move == a.failed_checkpoints_at_first_running &&
                        r.duplicate_rows > 0 && r.missing_runs.empty();
        return experiment::held_if(
            ok,
            {{"table_moved", a.table_moved},
             {"ended_by_checkpoint", a.ended_by_checkpoint},
             {"watermark_before", r.watermark_before},
             {"lag_zero_while_stale", a.lag_zero_while_stale ? "yes" : "no"},
             {"failed_checkpoints_at_table_move", a.failed_checkpoints_at_table_move},
             {"failed_checkpoints_at_first_running", a.failed_checkpoints_at_first_running},
             {"duplicate_rows", r.duplicate_rows},
             {"missing_runs", r.missing_runs.size()}},
            "ended by checkpoint {ended_by_checkpoint} vs watermark {watermark_before}, lag 0 while stale: "
            "{lag_zero_while_stale}, {duplicate_rows} duplicates, {missing_runs} missing runs");
    });
}

inline rule_verdict flinksink_upsert_freezes_replay_invisible(const samples& s) {
    return every_repeat(s, "upsert-flinksink", [](const restore_run& r, const freeze_analysis& a) {
        const bool ok = a.table_moved && a.ended_by_checkpoint == r.watermark_before + 1 && r.duplicate_rows == 0 &&
                        r.stale_rows == 0 && r.rows_sharing_npi == 0 && r.missing_npis == 0;
        return experiment::held_if(ok,
                                   {{"table_moved", a.table_moved},
                                    {"ended_by_checkpoint", a.ended_by_checkpoint},
                                    {"watermark_before", r.watermark_before},
                                    {"duplicate_rows", r.duplicate_rows},
                                    {"stale_rows", r.stale_rows},
                                    {"rows_sharing_npi", r.rows_sharing_npi},
                                    {"missing_npis", r.missing_npis}},
                                   "ended by checkpoint {ended_by_checkpoint} vs watermark {watermark_before}, "
                                   "{duplicate_rows} duplicates, {stale_rows} stale, {rows_sharing_npi} sharing, "
                                   "{missing_npis} missing NPIs");
    });
}

inline rule_verdict sinkv2_append_no_freeze_duplicates(const samples& s) {
    return every_repeat(s, "append-sinkv2", [](const restore_run& r, const freeze_analysis& a) {
        const bool ok = a.table_moved && a.ended_by_checkpoint <= r.watermark_before && r.duplicate_rows > 0 &&
                        r.missing_runs.empty();
        return experiment::held_if(ok,
                                   {{"table_moved", a.table_moved},
                                    {"ended_by_checkpoint", a.ended_by_checkpoint},
                                    {"watermark_before", r.watermark_before},
                                    {"duplicate_rows", r.duplicate_rows},
                                    {"missing_runs", r.missing_runs.size()}},
                                   "table moved at checkpoint {ended_by_checkpoint} vs watermark {watermark_before}, "
                                   "{duplicate_rows} duplicates, {missing_runs} missing runs");
    });
}

/// Data written after the freeze lands once: in append tables every seq of
/// the third batch exactly once; in upsert tables the final check already
/// covers its NPIs (one row each, the latest).
inline rule_verdict post_freeze_batch_lands_once(const samples& s) {
    std::vector<restore_run> with_batch;
    for (const auto& r : s.runs)
        if (r.third_batch) with_batch.push_back(r);
    return experiment::for_each_of(
        with_batch, [](const restore_run& r) { return r.variant + " #" + std::to_string(r.repeat); },
        [](const restore_run& r) {
            const auto& b = *r.third_batch;
            experiment::facts f{{"first_seq", b.first_seq},
                                {"last_seq", b.last_seq},
                                {"written_after_ms", b.written_after_ms},
                                {"missing_seqs", b.missing_seqs},
                                {"duplicate_rows", b.duplicate_rows}};
            std::string why =
                "seqs {first_seq}..{last_seq} written {written_after_ms} ms after the restore: {missing_seqs} "
                "missing, {duplicate_rows} duplicated";
            // An upsert table keeps only each NPI's latest seq, so a missing seq
            // is no loss there: its NPIs are judged instead.
            bool ok = b.duplicate_rows == 0;
            if (r.table_kind == experiment::table_kind::upsert) {
                ok = ok && r.missing_npis == 0 && r.stale_rows == 0 && r.rows_sharing_npi == 0;
                f["missing_npis"] = r.missing_npis;
                f["stale_rows"] = r.stale_rows;
                f["rows_sharing_npi"] = r.rows_sharing_npi;
                why += ", {missing_npis} missing NPIs, {stale_rows} stale";
            } else {
                ok = ok && b.missing_seqs == 0;
            }
            return experiment::held_if(ok, std::move(f), why);
        },
        "no run wrote a batch after the freeze");
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    return {{"e2.post-freeze-batch-lands-once",
             [](const samples& s, const parameters&) { return post_freeze_batch_lands_once(s); }},
            {"e2.flinksink-append-freezes-then-lumps",
             [](const samples& s, const parameters&) { return flinksink_append_freezes_then_lumps(s); }},
            {"e2.flinksink-upsert-freezes-replay-invisible",
             [](const samples& s, const parameters&) { return flinksink_upsert_freezes_replay_invisible(s); }},
            {"e2.sinkv2-append-no-freeze-duplicates",
             [](const samples& s, const parameters&) { return sinkv2_append_no_freeze_duplicates(s); }}};
}

}  // namespace rosterrig::e2

#endif
