// rosterrig/experiments/e1c_checkpoint_timeouts/report.hpp: experiment 1c's report section
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_REPORT_HPP

#include "rosterrig/experiments/e1c_checkpoint_timeouts/rules.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace rosterrig::e1c {

// ---- report ------------------------------------------------------------------

/// Checkpoint ids as ranges: "5-17, 19"; "none" for none.
inline std::string checkpoint_ids_text(const std::vector<std::int64_t>& ids) {
    std::string out;
    for (std::size_t k = 0; k < ids.size();) {
        std::size_t e = k;
        while (e + 1 < ids.size() && ids[e + 1] == ids[e] + 1) ++e;
        out += fmt::format("{}{}", out.empty() ? "" : ", ",
                           e == k ? fmt::format("{}", ids[k]) : fmt::format("{}-{}", ids[k], ids[e]));
        k = e + 1;
    }
    return out.empty() ? "none" : out;
}

/// At most this many lines of a run's attribution in the report (the largest groups).
inline constexpr std::size_t attribution_lines_shown = 12;

/// A run's missing seqs by the commit that should have carried them: totals by
/// kind (missing_run_attribution.hpp says which is exact), then one line per
/// S_prev/S_next pair, the largest `attribution_lines_shown` of them (by
/// seqs, then checkpoint); empty for a run with nothing missing or no placement recorded.
inline std::string attribution_text(const cell_run& r, const std::vector<std::uint32_t>& partition_of_seq) {
    using experiment::attribution_kind;
    const auto attributed = attribution_of(r, partition_of_seq);
    if (!attributed || r.missing_seq == 0) return {};
    struct group {
        const experiment::piece_attribution* first = nullptr;
        std::uint64_t seqs = 0, pieces = 0;
        std::set<std::uint64_t> runs, partitions;
    };
    std::map<std::tuple<std::int64_t, std::int64_t, int, bool, std::int64_t, std::int64_t>, group> by_pair;
    std::map<std::pair<attribution_kind, bool>, std::uint64_t> seqs_by_kind;
    for (const auto& a : *attributed)
        for (const auto& p : a.pieces) {
            auto& g = by_pair[{p.first_checkpoint, p.last_checkpoint, static_cast<int>(p.kind), p.exact,
                               p.prev_snapshot, p.next_snapshot}];
            if (!g.first) g.first = &p;
            g.seqs += p.piece.seqs, ++g.pieces, g.runs.insert(p.piece.run), g.partitions.insert(p.piece.partition);
            seqs_by_kind[{p.kind, p.exact}] += p.piece.seqs;
        }
    std::vector<const group*> groups;
    for (const auto& [key, g] : by_pair) groups.push_back(&g);
    std::stable_sort(groups.begin(), groups.end(), [](const group* a, const group* b) { return a->seqs > b->seqs; });
    auto n = [](std::uint64_t v) { return report::with_thousands(static_cast<long long>(v)); };
    const std::tuple<attribution_kind, bool, const char*> kinds[] = {
        {attribution_kind::hole, true, "in holes inside what one commit added of their partition (exact)"},
        {attribution_kind::hole, false,
         "in holes inside what one commit added of their partition, not exact (commits interleave there, or its "
         "checkpoint is unknown)"},
        {attribution_kind::between, false, "between two commits' seqs of their partition (a bound)"},
        {attribution_kind::lost_at_end, false, "after the last commit carrying their partition (a bound)"},
        {attribution_kind::lost_at_start, false, "before the first commit carrying their partition (a bound)"},
        {attribution_kind::out_of_order, false, "between commits committed out of order (a bound)"},
        {attribution_kind::no_snapshot, false, "in a partition no commit carries"}};
    std::string totals;
    for (const auto& [kind, exact, what] : kinds)
        if (const auto seqs = seqs_by_kind[{kind, exact}])
            totals += fmt::format("{}{} {}", totals.empty() ? "" : "; ", n(seqs), what);
    std::string o = fmt::format(
        "{}: its {} missing seqs ({} runs) by the commit that should have carried them, from the seqs each snapshot "
        "added per Kafka partition: {}. The failed checkpoints are from the polled history (a lower bound). {}:\n\n",
        run_label(r), n(r.missing_seq), n(r.missing_runs.size()), totals,
        groups.size() > attribution_lines_shown
            ? fmt::format("The {} largest of {} groups", attribution_lines_shown, groups.size())
            : std::string("By commit"));
    std::uint64_t rest_seqs = 0;
    for (std::size_t k = attribution_lines_shown; k < groups.size(); ++k) rest_seqs += groups[k]->seqs;
    if (groups.size() > attribution_lines_shown) groups.resize(attribution_lines_shown);
    for (const auto* gp : groups) {
        const auto& g = *gp;
        const auto& p = *g.first;
        const std::string failed = fmt::format(
            "timed out: {}{}", checkpoint_ids_text(p.timed_out),
            p.failed_other.empty() ? std::string()
                                   : fmt::format("; failed otherwise: {}", checkpoint_ids_text(p.failed_other)));
        std::string where;
        switch (p.kind) {
            case attribution_kind::hole:
                where = fmt::format(
                    "holes in what snapshot {} added: its commit, checkpoint {}, should have carried "
                    "them ({}); among the checkpoints that commit spanned, {}",
                    p.prev_snapshot, p.prev_checkpoint,
                    p.exact ? "exact" : "not exact: commits interleave there, or its checkpoint is unknown", failed);
                break;
            case attribution_kind::between:
                where = fmt::format(
                    "between snapshot {} (checkpoint {}) and snapshot {} (checkpoint {}): a commit of "
                    "checkpoint {} to {} should have carried them (a bound); between them, {}",
                    p.prev_snapshot, p.prev_checkpoint, p.next_snapshot, p.next_checkpoint, p.first_checkpoint,
                    p.last_checkpoint, failed);
                break;
            case attribution_kind::lost_at_end:
                where = fmt::format(
                    "after snapshot {} (checkpoint {}) no commit carries a later seq of their "
                    "partition: lost at the end, checkpoint {} or later (a bound); after it, {}",
                    p.prev_snapshot, p.prev_checkpoint, p.first_checkpoint, failed);
                break;
            case attribution_kind::lost_at_start:
                where = fmt::format(
                    "before snapshot {} (checkpoint {}) no commit carries an earlier seq of their "
                    "partition: checkpoint {} or earlier (a bound); before it, {}",
                    p.next_snapshot, p.next_checkpoint, p.last_checkpoint, failed);
                break;
            case attribution_kind::out_of_order:
                where = fmt::format(
                    "snapshot {} (checkpoint {}) carries later seqs of their partition but was "
                    "committed before snapshot {} (checkpoint {}), which carries earlier ones: "
                    "checkpoint {} to {} (a bound); between them, {}",
                    p.next_snapshot, p.next_checkpoint, p.prev_snapshot, p.prev_checkpoint, p.first_checkpoint,
                    p.last_checkpoint, failed);
                break;
            case attribution_kind::no_snapshot:
                where = "no snapshot carries a seq of their partition";
                break;
        }
        std::string parts;
        for (const auto part : g.partitions) parts += fmt::format("{}{}", parts.empty() ? "" : ", ", part);
        o += fmt::format("- {} seqs of partition{} {} ({} runs): {}.\n", n(g.seqs), g.partitions.size() == 1 ? "" : "s",
                         parts, n(g.runs.size()), where);
    }
    if (rest_seqs) o += fmt::format("- and {} seqs in the other groups.\n", n(rest_seqs));
    return o;
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    auto n = [](std::uint64_t v) { return report::with_thousands(static_cast<long long>(v)); };
    std::string o = fmt::format(
        "Each cell: an append table or an upsert table keyed by NPI, one exactly-once job reading {} partitions with "
        "{} source subtasks and writing with {} writer subtasks behind an exchange, fed {} roster events produced at "
        "once (the writer backpressured until it has read them){}, a checkpoint every {} ms with a timeout of {} ms "
        "(short) or {} ms (generous), and {} tolerable failed checkpoints; every cell ran {}{}{}{}\n\n",
        params.partitions, params.source_parallelism, params.writer_parallelism, n(params.events),
        params.paced_seconds ? fmt::format(" or, in the paced cells, {} s of events at a rate the writer keeps up with",
                                           *params.paced_seconds)
                             : std::string(),
        params.checkpoint_interval_ms, params.short_timeout_ms, params.generous_timeout_ms,
        params.tolerable_failed_checkpoints, params.repeats,
        params.repeats == 1 ? " time" : " times, one round of all cells after the other",
        params.kills_per_run.value_or(0) > 0
            ? fmt::format(". In the kill cells the job's TaskManager is SIGKILLed right after a checkpoint times out, "
                          "{} times in each run; elsewhere no process is killed: the only fault is the timeout.",
                          *params.kills_per_run)
            : std::string(". No process is killed: the only fault is the timeout."),
        params.quick ? " **Quick run.**" : "");
    auto in_force = [](const cell_run& r) {
        return fmt::format("{}{}, every {} ms, timeout {} ms, tolerable {}", r.mode_in_force,
                           r.unaligned_in_force ? ", unaligned" : ", aligned", r.interval_in_force_ms,
                           r.timeout_in_force_ms, r.tolerable_in_force);
    };
    auto counts = [&](const cell_run& r) {
        return fmt::format("{} / {}", n(static_cast<std::uint64_t>(r.totals.completed)),
                           n(static_cast<std::uint64_t>(r.totals.failed)));
    };
    // Old runs recorded neither the pace nor the backpressure: they were produced at once, not sampled.
    auto feed = [&](const cell_run& r) {
        const double rate = r.feed_rate.value_or(0);
        const auto b = backpressure_of(r);
        return fmt::format("{}; {}",
                           rate > 0 ? n(static_cast<std::uint64_t>(rate)) + " events/s" : std::string("at once"),
                           b ? fmt::format("{} / {} ms/s ({} samples)", fixed(b->median_ms_per_s, 0),
                                           fixed(b->max_ms_per_s, 0), b->samples)
                             : std::string("not sampled"));
    };
    // -1: Flink's metric fetcher had not reported numRestarts for the job when it was asked.
    auto restarts_cell = [](const cell_run& r) {
        return r.restarts_reported < 0 ? std::string("not reported") : std::to_string(r.restarts_reported);
    };
    auto never_committed = [](const cell_run& r) {
        return fmt::format("{} of {}", r.store.data_unreferenced, r.store.data_files);
    };
    const std::string feed_column = "Feed; source backpressured, median / max (Flink, sampled each second)";
    report::markdown_table t{{"Cell", "Repeat", "In force (Flink)", "Writer input (plan)", feed_column,
                              "Checkpoints completed / failed (Flink's counts)", "Timed out (history)",
                              "Restarts (numRestarts)", "Rows", "Missing seqs (contiguous ranges)",
                              "Duplicate seq rows", "Records the snapshots added", "Data files never committed"}};
    report::markdown_table u{
        {"Upsert cell", "Repeat", "In force (Flink)", "Table (catalog)", feed_column,
         "Checkpoints completed / failed (Flink's counts)", "Timed out (history)", "Restarts (numRestarts)", "Rows",
         "NPIs in the feed", "NPIs without their last record: on no row / only on older rows",
         "Rows on an NPI already on a row", "Duplicate seq rows", "Files in the store never committed"}};
    for (const auto& r : s.runs) {
        if (r.upsert) {
            const auto& x = *r.upsert;
            std::string ids;
            for (const auto& f : x.table_in_force.identifier_fields) ids += (ids.empty() ? "" : ",") + f;
            u.row({r.name, fmt::format("#{}", r.repeat), in_force(r),
                   fmt::format("write.upsert.enabled={}, key {}",
                               x.table_in_force.write_upsert_enabled.value_or("unset"), ids.empty() ? "none" : ids),
                   feed(r), counts(r),
                   fmt::format("{} of {} recorded", n(timeouts_recorded(r)), n(r.checkpoints.size())), restarts_cell(r),
                   n(r.rows), n(x.npis_expected), fmt::format("{} / {}", n(x.npis_missing), n(x.npis_without_latest)),
                   n(x.rows_sharing_npi), n(r.duplicate_rows), never_committed(r)});
            continue;
        }
        t.row({r.name, fmt::format("#{}", r.repeat), in_force(r),
               fmt::format("{}, {} writer subtasks", r.writer_input, r.writer_parallelism), feed(r), counts(r),
               fmt::format("{} of {} recorded", n(timeouts_recorded(r)), n(r.checkpoints.size())), restarts_cell(r),
               n(r.rows), fmt::format("{} ({})", n(r.missing_seq), n(r.missing_runs.size())), n(r.duplicate_rows),
               n(static_cast<std::uint64_t>(std::max<std::int64_t>(0, records_committed(r)))), never_committed(r)});
    }
    o += t.render();
    if (std::any_of(s.runs.begin(), s.runs.end(), [](const cell_run& r) { return r.upsert.has_value(); }))
        o += "\n" + u.render();
    o += fmt::format(
        "\nCounts of rows, seqs, NPIs and files are exact: every row read back through Trino, every file under the "
        "table's location listed from the store and matched against every file the table references. In an upsert "
        "table an NPI without its last record is a loss, and a lower bound on the records lost: a later record of an "
        "NPI hides the loss of an earlier one. The checkpoint counts are Flink's own counters for the job; \"timed "
        "out\" counts the failed checkpoints whose failure message says they expired, from the history Flink keeps "
        "(its last entries, polled each second: a lower bound on the total). A backpressure figure is Flink's "
        "backPressuredTimeMsPerSecond (0 to 1,000), the largest over the source's subtasks, in samples taken each "
        "second from the feed's start until the job had drained; Flink smooths the metric over its own window, so a "
        "sample is a reading of that window, not an instant. The sink: {} in the first cell.\n",
        s.runs.empty() ? std::string("-") : s.runs.front().sink);
    for (const auto& r : s.runs) {
        if (!r.kills) continue;
        std::string ids, after, restored, running;
        bool restored_none = false;
        for (const auto& k : *r.kills) {
            ids += fmt::format("{}{}", ids.empty() ? "" : ", ", k.timed_out_checkpoint);
            const auto gap = kill_after_expiry_ms(r, k);
            after += (after.empty() ? "" : ", ") + (gap ? fixed(static_cast<double>(*gap) / 1000.0, 1) : "?");
            // -1: Flink reported no restored checkpoint; "none" only when none had completed to restore.
            const auto id = k.kill.restored_checkpoint_id;
            const bool none = id < 0 && !completed_before(r, k.kill.killed_at_ms);
            restored_none = restored_none || none;
            restored += (restored.empty() ? "" : ", ") + (id >= 0 ? std::to_string(id)
                                                          : none  ? std::string("none")
                                                                  : std::string("not reported"));
            running += (running.empty() ? "" : ", ") + fixed(static_cast<double>(k.kill.running_after_ms) / 1000.0, 1);
        }
        o +=
            fmt::format("\n{}: {} kills{}\n", run_label(r), r.kills->size(),
                        r.kills->empty()
                            ? std::string(".")
                            : fmt::format(", each after the history showed a checkpoint timed out ({}), {} s after its "
                                          "expiry (trigger plus end to end, Flink's history); the job restored "
                                          "checkpoints {} and ran again after {} s.{}",
                                          ids, after, restored, running,
                                          restored_none ? " None: Flink reported no restored checkpoint, and no "
                                                          "checkpoint in its history had completed before the kill, "
                                                          "so the job started again without state."
                                                        : ""));
    }
    feed_partitions feeds(params);
    for (const auto& r : s.runs)
        if (const auto text = attribution_text(r, feeds.of(r)); !text.empty()) o += "\n" + text;
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
            o += fmt::format(
                " lost records in {} of {} repeats ({}{}{}.", total.runs_that_lost, total.runs, lost,
                c.kind == experiment::table_kind::upsert ? " NPIs without their last record)" : " seqs missing)",
                c.sink == experiment::iceberg_sink::flink_sink ? "; the upstream issue it matches: apache/iceberg#15846"
                                                               : "");
        if (total.keys_doubled > 0)
            o += fmt::format(
                " left an NPI on several rows in {} of {} repeats ({} extra rows); upstream reports of NPIs on two rows after aborted checkpoints: apache/iceberg#10431 (fixed for FlinkSink by #10526) and #11008.",
                total.runs_that_doubled, total.runs, doubled);
        if (!c.repro.empty()) {
            const auto repro = *parameters::repro_run(c.repro);
            o += fmt::format(" The reproduction: `rosterrig-e1c --repro {}` (this cell alone, {} events, {} repeats).",
                             c.repro, n(repro.events), repro.repeats);
        }
        o += "\n";
    }
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

}  // namespace rosterrig::e1c

#endif
