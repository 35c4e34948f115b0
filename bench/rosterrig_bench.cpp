// bench/rosterrig_bench.cpp: throughput of the core at 10 M events.
//
//   rosterrig-bench [--events N] [--providers P] [--dir DIR] [--seed S]
//                   [--checks-only] [--repeat R]
//
// Stages, each timed on its own (wall and CPU):
//   write      generate + serialize to JSON lines + write to DIR/bench.jsonl
//   read       read that file back line by line into rows (Boost.JSON)
//              (write and read run once, and not with --checks-only)
//   rows       NOT COUNTED in the ratio: the N observed rows the checks read
//              (row_of: seq, npi, fields digest) made from one generator pass
//              and kept in memory. In real use these rows come from Trino;
//              reading them is the `read` stage's business, not the check's.
// then R times (--repeat, default 1) the trio
//   generate   reference: for_each_event, events built in memory and discarded
//   expect     the upsert expectation from the seed (expect_upsert)
//   check      append + upsert checks of the N in-memory rows (no generator
//              pass inside this stage)
// each run printing ratio = (expect CPU + check CPU) / generate CPU of the
// same run against the 2.0 budget; then the medians over the R runs and the
// process's peak resident memory (getrusage; it includes the rows kept in
// memory) against 1.5 GB. Providers default to N/6, so every provider recurs
// about six times as in the default feed.
//
// Uses only the public API (for_each_event, expect_upsert, append_checker,
// upsert_checker, row_of), so the same program measures older headers too.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/cli/row_lines.hpp>
#include "rosterrig/rosterrig.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

constexpr double ratio_budget = 2.0;      // (expect + check) CPU / generate CPU
constexpr double rss_budget_mb = 1536.0;  // 1.5 GB

/// This process's user + system CPU seconds so far.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

/// Wall and CPU time of a stage: on a shared machine the CPU figure says what
/// the code costs, the wall figure what it took.
struct stopwatch {
    clock_type::time_point wall = clock_type::now();
    double cpu = cpu_seconds();
};

struct lap {
    double wall = 0, cpu = 0;
};

lap report(const char* stage, std::uint64_t n, const stopwatch& t0, const char* unit) {
    const lap l{std::chrono::duration<double>(clock_type::now() - t0.wall).count(), cpu_seconds() - t0.cpu};
    std::printf("%-10s %10llu %-4s wall %7.3f s %6.2f M%s/s   cpu %7.3f s %6.2f M%s/s\n", stage,
                static_cast<unsigned long long>(n), unit, l.wall, n / l.wall / 1e6, unit, l.cpu, n / l.cpu / 1e6, unit);
    std::fflush(stdout);
    return l;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const char* verdict(bool ok) { return ok ? "PASS" : "MISS"; }

}  // namespace

int main(int argc, char** argv) {
    rosterrig::roster_spec spec;
    spec.events = 10'000'000;
    spec.providers = 0;
    std::string dir = "/tmp";
    bool checks_only = false;
    unsigned repeat = 1;
    rosterrig::cli::arg_parser p{"rosterrig-bench", "Times the core's stages at scale."};
    p.option("--events", spec.events, "N", "events (default 10000000)")
        .option("--providers", spec.providers, "P", "providers (default events/6)")
        .option("--seed", spec.seed, "S", "seed (default 1)")
        .option("--dir", dir, "DIR", "where the JSON lines file goes (default /tmp)")
        .option("--repeat", repeat, "R", "runs of the generate/expect/check trio (default 1); medians are printed")
        .flag("--checks-only", checks_only, "skip the write and read stages (no file is written)");
    try {
        if (!p.parse(argc, argv)) return 0;
        if (repeat == 0) throw rosterrig::cli::usage_error("--repeat must be at least 1");
    } catch (const rosterrig::cli::usage_error& e) {
        std::cerr << e.what() << "\n\n" << p.usage();
        return 2;
    }
    if (spec.providers == 0) spec.providers = std::max<std::uint64_t>(1, spec.events / 6);
    const std::string path = dir + "/rosterrig-bench.jsonl";
    std::printf("events %llu, providers %llu, partitions %u, seed %llu, repeat %u\n",
                static_cast<unsigned long long>(spec.events), static_cast<unsigned long long>(spec.providers),
                spec.partitions, static_cast<unsigned long long>(spec.seed), repeat);

    std::uint64_t checksum = 0;
    if (!checks_only) {
        // write JSON lines
        stopwatch t0;
        std::uint64_t bytes = 0;
        {
            std::FILE* f = std::fopen(path.c_str(), "wb");
            if (!f) {
                std::perror(path.c_str());
                return 2;
            }
            std::string buffer;
            buffer.reserve(1 << 21);
            rosterrig::for_each_event(spec, [&](const rosterrig::roster_event& e) {
                rosterrig::append_json_line(buffer, e);
                if (buffer.size() >= (1u << 20)) {
                    bytes += std::fwrite(buffer.data(), 1, buffer.size(), f);
                    buffer.clear();
                }
            });
            bytes += std::fwrite(buffer.data(), 1, buffer.size(), f);
            std::fclose(f);
        }
        report("write", spec.events, t0, "ev");
        std::printf("           %.2f GB of JSON lines, %.0f bytes per line\n", bytes / 1e9,
                    static_cast<double>(bytes) / spec.events);

        // read rows back
        t0 = stopwatch{};
        std::uint64_t rows = 0;
        {
            std::ifstream in(path, std::ios::binary);
            std::string line;
            rosterrig::cli::row_reader reader;
            rosterrig::cli::read_row row;
            while (std::getline(in, line)) {
                reader.parse(line, row);
                checksum += row.observed().fields_digest.value_or(0);
                ++rows;
            }
        }
        report("read", rows, t0, "rows");
        std::remove(path.c_str());
    }

    // The rows the checks read, in memory before any check is timed (in real
    // use: the table's rows from Trino). Not counted in the ratio.
    stopwatch t0;
    std::vector<rosterrig::observed_row> rows;
    rows.reserve(static_cast<std::size_t>(spec.events));
    rosterrig::for_each_event(spec, [&](const rosterrig::roster_event& e) { rows.push_back(rosterrig::row_of(e)); });
    report("rows", rows.size(), t0, "rows");
    std::printf("           (not counted: %llu observed rows kept in memory, %.0f MB, as the check's input)\n",
                static_cast<unsigned long long>(rows.size()), rows.size() * sizeof(rosterrig::observed_row) / 1e6);

    std::vector<double> gen_cpu, exp_cpu, chk_cpu, ratios, gen_wall, exp_wall, chk_wall;
    for (unsigned run = 1; run <= repeat; ++run) {
        std::printf("-- run %u of %u\n", run, repeat);
        // generate: the reference pass, events built in memory and discarded
        t0 = stopwatch{};
        rosterrig::for_each_event(
            spec, [&](const rosterrig::roster_event& e) { checksum += e.npi ^ e.revision ^ e.fields.address.size(); });
        const lap g = report("generate", spec.events, t0, "ev");

        // expect: the upsert expectation from the seed
        t0 = stopwatch{};
        const rosterrig::upsert_expectation expectation = rosterrig::expect_upsert(spec);
        const lap x = report("expect", spec.events, t0, "ev");

        // check: append + upsert checks of the in-memory rows
        t0 = stopwatch{};
        rosterrig::append_checker append{spec.events};
        rosterrig::upsert_checker upsert{expectation};
        for (const rosterrig::observed_row& r : rows) {
            append.observe(r.seq.value_or(0));
            upsert.observe(r);
        }
        const rosterrig::append_result a = append.finish();
        const rosterrig::upsert_result u = upsert.finish();
        const lap c = report("check", rows.size(), t0, "rows");

        const double ratio = (x.cpu + c.cpu) / g.cpu;
        std::printf(
            "           expected NPIs %zu; append matches: %s (%llu distinct seq); upsert of the append feed: "
            "%llu distinct NPIs, %llu shared, %llu stale, %llu behind newest, %llu missing, %llu unexpected\n",
            expectation.by_npi.size(), a.matches() ? "yes" : "no", static_cast<unsigned long long>(a.distinct_seq),
            static_cast<unsigned long long>(u.distinct_npis), static_cast<unsigned long long>(u.rows_sharing_npi),
            static_cast<unsigned long long>(u.stale_rows), static_cast<unsigned long long>(u.behind_newest_revision),
            static_cast<unsigned long long>(u.missing_npis.size()), static_cast<unsigned long long>(u.unexpected_rows));
        std::printf(
            "           run %u: generate %.3f s, expect %.3f s, check %.3f s CPU; "
            "(expect + check) / generate = %.2f  %s (<= %.1f)\n",
            run, g.cpu, x.cpu, c.cpu, ratio, verdict(ratio <= ratio_budget), ratio_budget);
        std::fflush(stdout);
        gen_cpu.push_back(g.cpu), exp_cpu.push_back(x.cpu), chk_cpu.push_back(c.cpu), ratios.push_back(ratio);
        gen_wall.push_back(g.wall), exp_wall.push_back(x.wall), chk_wall.push_back(c.wall);
    }

    const double rss = peak_rss_mb();
    std::printf("== medians of %u run%s (CPU s, wall s in brackets)\n", repeat, repeat == 1 ? "" : "s");
    std::printf("generate   %7.3f  [%7.3f]\n", median(gen_cpu), median(gen_wall));
    std::printf("expect     %7.3f  [%7.3f]\n", median(exp_cpu), median(exp_wall));
    std::printf("check      %7.3f  [%7.3f]\n", median(chk_cpu), median(chk_wall));
    const double r = median(ratios);
    std::printf("ratio      %7.2f  (expect + check) / generate CPU, median of the runs' ratios: %s (<= %.1f)\n", r,
                verdict(r <= ratio_budget), ratio_budget);
    std::printf("peak RSS   %7.1f MB: %s (<= %.0f MB; includes the %.0f MB of rows)\n", rss,
                verdict(rss <= rss_budget_mb), rss_budget_mb, rows.size() * sizeof(rosterrig::observed_row) / 1e6);
    std::printf("(checksum %llx)\n", static_cast<unsigned long long>(checksum));
    return 0;
}
