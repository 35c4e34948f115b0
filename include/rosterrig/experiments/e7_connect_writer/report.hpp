// rosterrig/experiments/e7_connect_writer/report.hpp: experiment 7's report section (the restart, offsets and commit-interval tables).
#ifndef ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E7_CONNECT_WRITER_REPORT_HPP

#include "rosterrig/experiments/e7_connect_writer/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e7 {

// ---- report ------------------------------------------------------------------

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p,
                                  const std::string& beside = {}) {
    using report::fixed;
    using report::with_thousands;
    auto n = [](std::uint64_t v) { return with_thousands(static_cast<long long>(v)); };
    std::string o = fmt::format(
        "The writer: Apache Iceberg's Kafka Connect sink (`IcebergSinkConnector`) on a distributed Kafka Connect "
        "worker (compose/connect/), landing the same roster feed in the same append table shape as the Flink "
        "jobs. It has no checkpointing mode to choose: every commit goes through its control topic in Kafka "
        "transactions that carry the source offsets of the connector's consumer group.{}\n\n",
        p.quick ? " **Quick run.**" : "");
    o += fmt::format(
        "**Restart replay** (experiment 1's question): {} events into {} partitions, paced over the kills; the worker "
        "JVM SIGKILLed up to {} times, {} to {} ms after the first table commit that followed the previous recovery; "
        "its supervisor restarts it.\n\n",
        n(p.events), p.partitions, p.kills, p.kill_delay_min_ms, p.kill_delay_max_ms);
    report::markdown_table t{{"Writer", "In force (worker)", "Kills", "Kills with duplicates", "95% upper bound",
                              "Rows", "Duplicate seq rows", "Missing seqs",
                              "New JVM / REST / tasks running / first commit (median ms)"}};
    if (s.restart) {
        const auto& r = *s.restart;
        const auto sum = experiment::summarize(r.run);
        const auto rec = summarize_recovery(r);
        t.row({r.run.name,
               fmt::format("commit every {} ms, {} of {} tasks, Kafka Connect {}", r.in_force.commit_interval_ms,
                           r.in_force.tasks_running, r.in_force.tasks_max, r.in_force.worker_version),
               std::to_string(sum.kills), std::to_string(sum.kills_with_duplicates), fixed(sum.upper_bound_95, 3),
               n(r.run.rows), n(r.run.duplicate_rows), n(r.run.events - std::min(r.run.events, r.run.distinct_seq)),
               fmt::format("{} / {} / {} / {}", fixed(rec.jvm_ms, 0), fixed(rec.rest_ms, 0), fixed(rec.running_ms, 0),
                           fixed(rec.first_commit_ms, 0))});
    }
    o += t.render();
    o +=
        "\nDuplicates are exact: every row read back through Trino and checked against the seed. The heal: a new JVM "
        "in the supervisor's pid file, the worker answering `GET /`, every task RUNNING in the worker's status, and the "
        "first table commit after the kill.\n\n";
    o += fmt::format(
        "**Offsets** (experiment 1's second part): {} events landed, then, in order, each step's group offsets "
        "(`connect-<connector>`, summed) and table.\n\n",
        n(s.offsets.events));
    report::markdown_table ot{{"Step", "What happened", "Group offsets right after", "Watched",
                               "Group offsets at the read-back", "End offsets", "Rows", "Duplicate rows", "Connector"}};
    for (const auto& x : s.offsets.steps)
        ot.row({x.step, x.note.empty() ? "-" : x.note,
                x.committed_after_action ? n(static_cast<std::uint64_t>(*x.committed_after_action)) : "-",
                x.watch.empty() ? "-" : report::seconds_from_ms(x.watch.back().ms_after_action),
                n(static_cast<std::uint64_t>(x.committed_offsets_sum)),
                n(static_cast<std::uint64_t>(x.end_offsets_sum)), n(x.rows), n(x.duplicate_rows),
                x.connector_state.empty() ? "-" : x.connector_state});
    o += ot.render();
    o += fmt::format(
        "\n**The commit interval** (experiment 3's dial): {} events paced over {} into a fresh table per interval, {} "
        "tasks; freshness is from each record's acknowledgement to the commit of the snapshot that made it visible "
        "(at most the bucket's upper edge).\n\n",
        n(p.dial_events), report::seconds_from_ms(p.dial_feed_ms), p.tasks);
    report::markdown_table dt{{"Commit interval (worker)", "Commits with data", "Files per commit (median)",
                               "Data files", "Mean file size", "Freshness p50 / p99", "Rows", "Duplicates"}};
    for (const auto* c : dial_by_interval(s)) {
        const auto a = experiment::analyze(*c);
        std::vector<double> fpc(a.files_per_commit.begin(), a.files_per_commit.end());
        dt.row({fmt::format("{} ms", c->in_force.interval_ms), std::to_string(a.commits_with_data),
                fpc.empty() ? "-" : fixed(stats::summarize(fpc).median, 1), std::to_string(a.data_files),
                experiment::bytes_text(a.mean_file_bytes) + " B", fmt::format("≤ {} / ≤ {} ms", a.p50_ms, a.p99_ms),
                n(c->rows), n(c->duplicate_rows)});
    }
    o += dt.render();
    o += beside;
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

}  // namespace rosterrig::e7

#endif
