// rosterrig/experiments/e3_file_size/report.hpp: the report section: the part A and B tables, the findings, report_section() and the dial plot

#ifndef ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_REPORT_HPP
#define ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_REPORT_HPP

#include "rosterrig/experiments/e3_file_size/rules.hpp"

#include <fmt/format.h>

namespace rosterrig::e3 {

// ---- report --------------------------------------------------------------------

inline std::string part_a_table(const samples& s) {
    using report::fixed;
    report::markdown_table t{{"Cell", "Interval (Flink)", "Writers (job plan)", "Target (catalog)",
                              "Feed (first to last ack)", "Commits with data (empty)", "Data files",
                              "Files per commit min / median / max", "Data-file bytes min / median / max",
                              "Mean data-file bytes", "Records per file min / median / max",
                              "Freshness p50 / p99 / max", "Rows, duplicates, missing runs"}};
    for (const auto& c : s.cells) {
        const auto a = analyze(c);
        std::vector<double> fpc(a.files_per_commit.begin(), a.files_per_commit.end());
        const auto f = fpc.empty() ? stats::summary{} : stats::summarize(fpc);
        auto sec = [](std::int64_t ms) { return fixed(static_cast<double>(ms) / 1000.0, 1); };
        t.row({c.cell, seconds_text(c.in_force.interval_ms), std::to_string(c.in_force.writer_parallelism),
               c.in_force.target_file_size_bytes
                   ? bytes_text(static_cast<double>(*c.in_force.target_file_size_bytes)) + " B"
                   : std::string("not set (Iceberg's default)"),
               sec(c.feed_duration_ms) + " s", fmt::format("{} ({})", a.commits_with_data, a.empty_commits),
               std::to_string(a.data_files),
               fmt::format("{} / {} / {}", fixed(f.min, 0), fixed(f.median, 1), fixed(f.max, 0)),
               fmt::format("{} / {} / {}", bytes_text(a.file_bytes.min), bytes_text(a.file_bytes.median),
                           bytes_text(a.file_bytes.max)),
               bytes_text(a.mean_file_bytes),
               fmt::format("{} / {} / {}", bytes_text(a.file_records.min), bytes_text(a.file_records.median),
                           bytes_text(a.file_records.max)),
               fmt::format("≤ {} / ≤ {} / {} s", sec(a.p50_ms), sec(a.p99_ms), sec(c.freshness.max_ms)),
               fmt::format("{}, {}, {}", report::with_thousands(static_cast<long long>(c.rows)), c.duplicate_rows,
                           c.missing_runs.size())});
    }
    return t.render();
}

inline std::string part_b_table(const reader_cost& rc) {
    using report::fixed;
    report::markdown_table t{{"Phase", "Table", "Data files", "Equality-delete files", "Position-delete files",
                              "Data / delete bytes", "Content (rows; sharing, missing, stale)",
                              "count(*) median (min–max) ms", "vs append", "Point lookup median (min–max) ms",
                              "vs append"}};
    auto timing = [&](const reader_table& tb, const std::string& q) {
        std::vector<double> xs;
        for (const auto& x : rc.timings)
            if (x.phase == tb.phase && x.table == tb.name && x.query == q && x.round > 0) xs.push_back(x.ms);
        if (xs.empty()) return std::make_pair(std::string("not timed"), std::string("n/a"));
        const auto m = stats::summarize(xs);
        const double base = median_ms(rc, tb.phase, append_name, q);
        return std::make_pair(fmt::format("{} ({}–{})", fixed(m.median, 1), fixed(m.min, 1), fixed(m.max, 1)),
                              base > 0 ? "×" + fixed(m.median / base, 2) : std::string("n/a"));
    };
    for (const auto& tb : rc.tables) {
        const auto c = timing(tb, "count"), l = timing(tb, "lookup");
        t.row({tb.phase == "before" ? "as written" : "after optimize", tb.name, std::to_string(tb.data_files),
               std::to_string(tb.equality_delete_files), std::to_string(tb.position_delete_files),
               fmt::format("{} / {}", bytes_text(static_cast<double>(tb.data_bytes)),
                           bytes_text(static_cast<double>(tb.delete_bytes))),
               fmt::format("{}{}; {}, {}, {}",
                           tb.exact ? "exact: " : "WRONG: ", report::with_thousands(static_cast<long long>(tb.rows)),
                           tb.rows_sharing_npi, tb.missing_npis, tb.stale_rows),
               c.first, c.second, l.first, l.second});
    }
    return t.render();
}

/// The reader part's runs side by side: per phase, table and query, each
/// run's median and its ratio to the append table measured in the same run and phase.
inline std::string part_b_repeats_table(const samples& s) {
    using report::fixed;
    const auto runs = reader_runs(s);
    report::markdown_table t{{"Phase", "Table", "Query", "Median ms, run by run", "vs append, run by run"}};
    for (const auto& tb : runs.front()->tables)
        for (const auto* q : queries) {
            std::string medians, ratios;
            for (const auto* rc : runs) {
                const double m = median_ms(*rc, tb.phase, tb.name, q), base = median_ms(*rc, tb.phase, append_name, q);
                medians += (medians.empty() ? "" : " / ") + (m < 0 ? std::string("not timed") : fixed(m, 1));
                ratios += (ratios.empty() ? "" : " / ") +
                          (m < 0 || base <= 0 ? std::string("n/a") : "×" + fixed(m / base, 2));
            }
            t.row({tb.phase == "before" ? "as written" : "after optimize", tb.name,
                   q == std::string("count") ? "count(*)" : "point lookup", medians, ratios});
        }
    return t.render();
}

/// The findings in words, every figure computed from the samples.
inline std::string findings(const samples& s, const parameters& p) {
    using report::fixed;
    std::string o;
    const auto shortest = *std::min_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const auto longest = *std::max_element(p.intervals_ms.begin(), p.intervals_ms.end());
    const auto* a = grid_cell(s, shortest, p.baseline_parallelism);
    const auto* b = grid_cell(s, longest, p.baseline_parallelism);
    if (a && b && shortest != longest) {
        const auto aa = analyze(*a), bb = analyze(*b);
        o += fmt::format(
            "From {} to {} at {} writers the mean data file grew ×{} ({} → {} B) and the median record's wait grew "
            "from at most {} s to at most {} s",
            seconds_text(shortest), seconds_text(longest), p.baseline_parallelism,
            fixed(bb.mean_file_bytes / aa.mean_file_bytes, 1), bytes_text(aa.mean_file_bytes),
            bytes_text(bb.mean_file_bytes), fixed(static_cast<double>(aa.p50_ms) / 1000, 1),
            fixed(static_cast<double>(bb.p50_ms) / 1000, 1));
        const auto longest_runs = grid_runs(s, longest, p.baseline_parallelism);
        if (longest_runs.size() > 1 && aa.mean_file_bytes > 0) {
            std::vector<double> ratios;
            std::vector<std::int64_t> commits;
            for (const auto* c : longest_runs) {
                const auto x = analyze(*c);
                ratios.push_back(x.mean_file_bytes / aa.mean_file_bytes);
                commits.push_back(x.commits_with_data);
            }
            const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
            const auto [clo, chi] = std::minmax_element(commits.begin(), commits.end());
            o += fmt::format("; over all {} runs at {} the mean file grew ×{} to ×{}, with {}{} commits with data",
                             longest_runs.size(), seconds_text(longest), fixed(*lo, 1), fixed(*hi, 1), *clo,
                             *clo == *chi ? std::string() : fmt::format(" to {}", *chi));
        }
        o += ". ";
    }
    if (const auto spread = baseline_spread(s, p)) {
        o += fmt::format("The baseline cell's {} runs spread {} B in mean file size ({} % of their median)",
                         baseline_runs(s, p).size(), bytes_text(spread->max - spread->min),
                         fixed(100 * (spread->max - spread->min) / spread->median, 2));
        for (const auto& c : s.cells)
            if (c.role == cell_role::large_target) {
                const double m = analyze(c).mean_file_bytes;
                o += fmt::format("; the 1 GB target moved it {} % from that median, and its largest file was {} B",
                                 fixed(100 * (m - spread->median) / spread->median, 2),
                                 bytes_text(analyze(c).file_bytes.max));
            }
        o += ". ";
    }
    for (const auto& c : s.cells)
        if (c.role == cell_role::control) {
            const auto a = analyze(c);
            std::vector<double> xs(a.files_per_commit.begin(), a.files_per_commit.end());
            if (xs.empty()) continue;
            o += fmt::format(
                "With a {} B target the control's writers rolled files inside a checkpoint: a median of {} data files "
                "per commit from {} writers: the property does reach the writer. ",
                bytes_text(static_cast<double>(c.target_bytes.value_or(0))), fixed(stats::summarize(xs).median, 1),
                c.in_force.writer_parallelism);
        }
    return o.empty() ? o : o + "\n\n";
}

inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
    std::string o = fmt::format(
        "**Part A, the dial.** One seeded feed of {} events ({} providers, {} partitions), paced to {} s in every "
        "cell, into an append table (exactly-once, Iceberg's FlinkSink){}. Interval and mode from Flink's checkpoint "
        "config, writers from the job plan's writer vertex, the target from the table's properties in the catalog. "
        "Files, records and bytes from Iceberg's `$entries` metadata table; commits from the catalog's snapshots "
        "stamped with the job's id. A record's freshness runs from the producer's acknowledgement to the commit "
        "timestamp of the snapshot that added the data file Trino reads it from (row → `$path` → `$entries`' adding "
        "snapshot); quantiles are upper edges of {} ms buckets, the maximum is exact.\n\n{}\n![mean data-file bytes "
        "and freshness p50 against the checkpoint interval, one line per writer parallelism](docs/e3_dial.svg)\n\n",
        report::with_thousands(static_cast<long long>(p.events)),
        report::with_thousands(static_cast<long long>(p.providers)), p.partitions,
        report::fixed(static_cast<double>(p.feed_ms) / 1000, 0), p.quick ? ", **quick run**" : "",
        p.freshness_bucket_ms, part_a_table(s));
    if (s.reader) {
        const auto& rc = *s.reader;
        o += fmt::format(
            "**Part B, what a reader pays.** The feed's latest row per NPI ({} rows) as an upsert table written at {} "
            "and at {} (two jobs on one topic), and as an append table written once (`CREATE TABLE AS` from the "
            "first, after its content checked exact); then both upsert tables after Trino's `ALTER TABLE … EXECUTE "
            "optimize`. Every table is checked against the model before it is timed. Each round runs `count(*)` and a "
            "lookup of NPI {} on every table in turn, through one Trino client, one untimed warm-up round then {} "
            "timed; times are wall time at the client, medians with the range, ratios to the append table measured in "
            "the same phase{}.\n\n{}",
            report::with_thousands(rc.expected_rows), seconds_text(p.reader_short_interval_ms),
            seconds_text(p.reader_long_interval_ms), rc.lookup_npi, p.query_rounds,
            s.reader_repeats
                ? fmt::format("; the whole part ran {} times, the first shown in full", reader_runs(s).size())
                : std::string(),
            part_b_table(rc));
        for (const auto* run : reader_runs(s))
            for (const auto& e : run->optimize_errors) o += fmt::format("\nOptimize failed: {}\n", e);
        if (s.reader_repeats) o += "\nEvery run of the reader part:\n\n" + part_b_repeats_table(s);
        o += "\n";
    }
    return o + findings(s, p) + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// Mean data-file bytes (solid, left) and freshness p50 (dashed, right)
/// against the interval, one pair of lines per writer parallelism.
inline std::string dial_svg(const samples& s, const parameters& p) {
    report::line_plot plot;
    plot.title = "File size and freshness are one dial";
    plot.x_label = "checkpoint interval (s)";
    plot.y_label = "mean data-file bytes (solid)";
    plot.y2_label = "freshness p50, s (dashed)";
    for (auto w : p.parallelisms) {
        report::series bytes{fmt::format("{} writers: bytes", w), {}, report::axis::left, false};
        report::series fresh{fmt::format("{} writers: p50", w), {}, report::axis::right, true};
        for (auto i : p.intervals_ms) {
            const auto* c = grid_cell(s, i, w);
            if (!c) continue;
            const auto a = analyze(*c);
            const double x = static_cast<double>(i) / 1000.0;
            bytes.points.push_back({x, a.mean_file_bytes});
            fresh.points.push_back({x, static_cast<double>(a.p50_ms) / 1000.0});
        }
        plot.add_series(std::move(bytes));
        plot.add_series(std::move(fresh));
    }
    return plot.render();
}

}  // namespace rosterrig::e3

#endif
