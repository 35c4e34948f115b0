// rosterrig/experiments/e5_transaction_timeout/report.hpp: the report section: the run table, the per-cell spread, the stuck and restart parts, and the boundary plot

#ifndef ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E5_TRANSACTION_TIMEOUT_REPORT_HPP

#include "rosterrig/experiments/e5_transaction_timeout/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e5 {

// ---- report --------------------------------------------------------------------

/// A run's cell: its name without the repeat's number.
inline std::string cell_of(const std::string& name) {
    const auto hash = name.rfind(" #");
    return hash == std::string::npos ? name : name.substr(0, hash);
}

/// One cell's repeats side by side: how many, the records a read_committed
/// reader got once (min / median / max), how often it got all or none, and
/// how often the job recorded an exception.
struct cell_spread {
    std::string cell;
    std::size_t runs = 0;
    stats::summary committed;
    std::size_t all_once = 0, none = 0, with_exceptions = 0;
};
template <class Run>
std::vector<cell_spread> spread_by_cell(const std::vector<Run>& runs,
                                        const std::function<std::string(const Run&)>& cell) {
    std::vector<cell_spread> out;
    std::map<std::string, std::vector<const Run*>> by;
    for (const auto& r : runs) {
        const auto c = cell(r);
        if (!by.count(c)) out.push_back({c, 0, {}, 0, 0, 0});
        by[c].push_back(&r);
    }
    for (auto& c : out) {
        std::vector<double> got;
        for (const auto* r : by.at(c.cell)) {
            got.push_back(static_cast<double>(r->committed.distinct_seq));
            c.all_once += exactly_once(r->committed, r->events) ? 1 : 0;
            c.none += r->committed.distinct_seq == 0 ? 1 : 0;
            c.with_exceptions += r->signals.exceptions > 0 ? 1 : 0;
        }
        c.runs = got.size();
        c.committed = stats::summarize(got);
    }
    return out;
}
inline std::string spread_table(const std::vector<cell_spread>& cells, const std::string& first_column) {
    report::markdown_table t{{first_column, "Runs", "Read committed, records once: min / median / max",
                              "Runs where read_committed got every record once", "Runs where it got none",
                              "Runs with an exception recorded"}};
    const auto n = [](double x) { return report::with_thousands(static_cast<long long>(x)); };
    for (const auto& c : cells)
        t.row({c.cell, std::to_string(c.runs),
               fmt::format("{} / {} / {}", n(c.committed.min), n(c.committed.median), n(c.committed.max)),
               std::to_string(c.all_once), std::to_string(c.none), std::to_string(c.with_exceptions)});
    return t.render();
}

/// "asked / registered ms": the timeout the job asked for and the one the broker registered.
inline std::string timeout_text(std::int64_t requested_ms, const std::optional<std::int64_t>& registered_ms) {
    return fmt::format("{} / {} ms", requested_ms,
                       registered_ms ? std::to_string(*registered_ms) : std::string("none described"));
}

/// "records once of events, duplicates, missing runs" as a read_committed reader got them.
inline std::string committed_text(const output_read& committed, std::uint64_t events) {
    return fmt::format("{} of {}, {}, {}", report::with_thousands(static_cast<long long>(committed.distinct_seq)),
                       report::with_thousands(static_cast<long long>(events)), committed.duplicate_rows,
                       committed.missing_runs.size());
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    using report::fixed;
    std::string o = fmt::format(
        "The roster feed ({} events, {} partitions) copied by a Flink SQL job to a second topic through the Kafka "
        "connector's sink at `sink.delivery-guarantee = exactly-once`, parallelism {}, fed over {} s and read back {} "
        "checkpoints later by two consumers of our own, every seq checked against the seed{}. The interval from "
        "Flink's checkpoint config; the timeout the broker registered and the states of the job's transactions from "
        "the broker (`TransactionsCommand describe`/`list`, sampled){}.\n\n",
        report::with_thousands(static_cast<long long>(p.events)), p.partitions, p.parallelism,
        fixed(static_cast<double>(p.feed_ms) / 1000, 0), p.commit_wait_checkpoints, p.quick ? ", **quick run**" : "",
        s.runs.empty() || !s.runs.front().broker_abort_sweep_ms
            ? std::string()
            : fmt::format("; the broker looks for timed-out transactions every {} s "
                          "(`transaction.abort.timed.out.transaction.cleanup.interval.ms`, as it reports it), so a "
                          "transaction is aborted between its timeout and that much later",
                          fixed(static_cast<double>(*s.runs.front().broker_abort_sweep_ms) / 1000, 0)));
    report::markdown_table t{{"Run", "Interval (Flink)", "Timeout asked / registered (broker)", "Timeout / interval",
                              "Read committed: records once, duplicates, missing runs", "Read uncommitted: records",
                              "Transaction states seen", "Job at the end", "Failed checkpoints", "Exceptions",
                              "Transaction warnings in the logs",
                              "Feed over / first abort (after the submit; the abort between two samples)"}};
    for (const auto& r : s.runs) {
        const auto w = first_abort(r.states);
        const auto secs = [](std::int64_t ms) { return report::fixed(static_cast<double>(ms) / 1000, 1); };
        const std::string feed_abort =
            fmt::format("{} / {}", r.feed_done_ms ? secs(*r.feed_done_ms) + " s" : std::string("not recorded"),
                        w ? fmt::format("{}–{} s", secs(w->after_ms), secs(w->by_ms)) : std::string("no abort seen"));
        std::string states;
        for (const auto& x : states_seen(r.states)) states += (states.empty() ? "" : ", ") + x;
        t.row({r.name, report::fixed(static_cast<double>(r.interval_ms) / 1000, 0) + " s",
               timeout_text(r.requested_timeout_ms, r.registered_timeout_ms),
               fixed(static_cast<double>(r.requested_timeout_ms) /
                         static_cast<double>(std::max<std::int64_t>(r.interval_ms, 1)),
                     2),
               committed_text(r.committed, r.events),
               report::with_thousands(static_cast<long long>(r.uncommitted.distinct_seq)),
               states.empty() ? std::string("none sampled") : states, r.signals.state,
               std::to_string(r.signals.failed_checkpoints), std::to_string(r.signals.exceptions),
               std::to_string(r.signals.log_warnings), feed_abort});
    }
    o += t.render();
    if (!s.runs.empty()) {
        o += "\n**The repeats side by side**, one row per cell (each repeat is a row above).\n\n" +
             spread_table(spread_by_cell<txn_run>(s.runs, [](const txn_run& r) { return cell_of(r.name); }), "Cell");
    }
    for (const auto& st : s.stuck) {
        o += fmt::format(
            "\n**A transaction left open ({}{}).** A job with a {} s timeout (registered: {}) was {} with {} "
            "transaction(s) open (the oldest open for {} ms); {} records were then written to the same topic by a "
            "plain producer. A read_committed reader saw none of them for {} s, and all of them {}.\n",
            st.ending, st.sink_partitioner == "default" ? "" : ", each writer subtask on one partition",
            st.requested_timeout_ms / 1000,
            st.registered_timeout_ms ? fmt::format("{} ms", *st.registered_timeout_ms) : std::string("none described"),
            st.ending == "cancel" ? "cancelled" : "cancelled right after its TaskManager was SIGKILLed",
            st.open_at_cancel.size(), st.open_for_ms_at_cancel, st.plain_records,
            fixed(static_cast<double>(hidden_for_ms(st)) / 1000, 1),
            st.all_visible_after_ms >= 0
                ? fmt::format("after {} s", fixed(static_cast<double>(st.all_visible_after_ms) / 1000, 1))
                : std::string("not within the wait"));
        if (!st.partitions.empty()) {
            report::markdown_table pt{
                {"Partition", "Written by an open transaction (broker)", "Plain records", "All visible after"}};
            for (const auto& pw : st.partitions)
                pt.row({std::to_string(pw.partition), pw.held_by_open_transaction ? "yes" : "no",
                        std::to_string(pw.plain_records),
                        pw.all_visible_after_ms >= 0
                            ? fixed(static_cast<double>(pw.all_visible_after_ms) / 1000, 1) + " s"
                            : std::string("not within the wait")});
            o += "\n" + pt.render();
        }
    }
    if (!s.restarts.empty()) {
        o += fmt::format(
            "\n**The restart term.** A savepoint pre-commits each writer subtask's transaction; it is committed only "
            "when a job restored from that savepoint runs. Right after the savepoint the TaskManager was SIGKILLed and "
            "the job cancelled; the restore was submitted at once (prompt) or {} s after the savepoint (late), while "
            "the feed went on. The age is the pending transaction's, from the broker's start time to the restored "
            "job's tasks running (a lower bound on its age at the commit).\n\n",
            fixed(static_cast<double>(p.restart_late_wait_ms) / 1000, 0));
        report::markdown_table rt{
            {"Restore", "Interval (Flink)", "Timeout asked / registered (broker)",
             "Transactions open after the kill, begun before the savepoint", "Their age when the restored job ran",
             "Read committed: records once, duplicates, missing runs", "Read uncommitted: records", "Restored job",
             "Exceptions", "Failed checkpoints", "Transaction warnings in the logs"}};
        for (const auto& r : s.restarts)
            rt.row({restart_name(r), fixed(static_cast<double>(r.interval_ms) / 1000, 0) + " s",
                    timeout_text(r.requested_timeout_ms, r.registered_timeout_ms),
                    std::to_string(r.pending_at_savepoint.size()),
                    fixed(static_cast<double>(pending_age_at_restore_ms(r)) / 1000, 1) + " s",
                    committed_text(r.committed, r.events),
                    report::with_thousands(static_cast<long long>(r.uncommitted.distinct_seq)), r.signals.state,
                    std::to_string(r.signals.exceptions), std::to_string(r.signals.failed_checkpoints),
                    std::to_string(r.signals.log_warnings)});
        o += rt.render();
        o += "\n" + spread_table(spread_by_cell<restart_run>(s.restarts, [](const restart_run& r) { return r.ending; }),
                                 "Restore");
    }
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// The fraction a read_committed reader got against timeout / interval.
inline std::string boundary_svg(const samples& s) {
    report::line_plot plot;
    plot.title = "Where the transaction timeout bites";
    plot.x_label = "transaction timeout / checkpoint interval";
    plot.y_label = "fraction of records a read_committed reader got";
    std::map<std::uint64_t, report::series> by_repeat;
    for (const auto& r : s.runs) {
        if (r.part != "boundary" || !r.ratio) continue;
        auto& ser = by_repeat[r.repeat];
        ser.label = fmt::format("repeat {}", r.repeat);
        ser.points.push_back({*r.ratio, committed_fraction(r)});
    }
    for (auto& [k, ser] : by_repeat) {
        std::sort(ser.points.begin(), ser.points.end());
        plot.add_series(std::move(ser));
    }
    plot.add_reference({report::orientation::vertical, report::axis::left, 1.0, "timeout = interval"});
    return plot.render();
}

}  // namespace rosterrig::e5

#endif
