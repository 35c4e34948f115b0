// bench/rosterrig_bench.cpp: throughput of the core at 10 M events.
//
//   rosterrig-bench [--events N] [--providers P] [--dir DIR] [--seed S] [--checks-only]
//
// Stages, each timed on its own:
//   generate   for_each_event, events built in memory and discarded
//   write      generate + serialize to JSON lines + write to DIR/bench.jsonl
//   read       read that file back line by line into rows (Boost.JSON)
//   expect     the upsert expectation from the seed (a generator pass)
//   check      append + upsert checks of N rows streamed from the generator
// (--checks-only runs the last two alone: no file is written)
// then peak resident memory (getrusage). Providers default to N/6, so every
// provider recurs about six times as in the default feed.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <sys/resource.h>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/cli/row_lines.hpp>
#include "rosterrig/rosterrig.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

/// This process's user + system CPU seconds so far.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// Wall and CPU time of a stage: on a shared machine the CPU figure says what
/// the code costs, the wall figure what it took.
struct stopwatch {
    clock_type::time_point wall = clock_type::now();
    double cpu = cpu_seconds();
};

double seconds_since(const stopwatch& t0) {
    return std::chrono::duration<double>(clock_type::now() - t0.wall).count();
}

void report(const char* stage, std::uint64_t n, const stopwatch& t0, const char* unit) {
    const double wall = seconds_since(t0);
    const double cpu = cpu_seconds() - t0.cpu;
    std::printf("%-10s %10llu %-4s wall %7.3f s %6.2f M%s/s   cpu %7.3f s %6.2f M%s/s\n", stage,
                static_cast<unsigned long long>(n), unit, wall, n / wall / 1e6, unit, cpu, n / cpu / 1e6, unit);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    rosterrig::roster_spec spec;
    spec.events = 10'000'000;
    spec.providers = 0;
    std::string dir = "/tmp";
    bool checks_only = false;
    rosterrig::cli::arg_parser p{"rosterrig-bench", "Times the core's stages at scale."};
    p.option("--events", spec.events, "N", "events (default 10000000)")
        .option("--providers", spec.providers, "P", "providers (default events/6)")
        .option("--seed", spec.seed, "S", "seed (default 1)")
        .option("--dir", dir, "DIR", "where the JSON lines file goes (default /tmp)")
        .flag("--checks-only", checks_only, "time only the expect and check stages");
    try {
        if (!p.parse(argc, argv)) return 0;
    } catch (const rosterrig::cli::usage_error& e) {
        std::cerr << e.what() << "\n\n" << p.usage();
        return 2;
    }
    if (spec.providers == 0) spec.providers = std::max<std::uint64_t>(1, spec.events / 6);
    const std::string path = dir + "/rosterrig-bench.jsonl";
    std::printf("events %llu, providers %llu, partitions %u, seed %llu\n",
                static_cast<unsigned long long>(spec.events), static_cast<unsigned long long>(spec.providers),
                spec.partitions, static_cast<unsigned long long>(spec.seed));

    std::uint64_t checksum = 0;
    stopwatch t0;
    if (!checks_only) {
        // 1. generate in memory
        rosterrig::for_each_event(spec, [&](const rosterrig::roster_event& e) {
            checksum += e.npi ^ e.revision ^ e.fields.address.size();
        });
        report("generate", spec.events, t0, "ev");

        // 2. write JSON lines
        t0 = stopwatch{};
        std::uint64_t bytes = 0;
        {
            std::FILE* f = std::fopen(path.c_str(), "wb");
            if (!f) { std::perror(path.c_str()); return 2; }
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

        // 3. read rows back
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

    // 4. expectation + streamed append and upsert checks
    t0 = stopwatch{};
    const rosterrig::upsert_expectation expectation = rosterrig::expect_upsert(spec);
    const double expect_seconds = seconds_since(t0);
    report("expect", spec.events, t0, "ev");
    const stopwatch t1;
    rosterrig::append_checker append{spec.events};
    rosterrig::upsert_checker upsert{expectation};
    rosterrig::for_each_event(spec, [&](const rosterrig::roster_event& e) {
        append.observe(e.seq);
        upsert.observe(rosterrig::row_of(e));
    });
    const rosterrig::append_result a = append.finish();
    const rosterrig::upsert_result u = upsert.finish();
    const double check_seconds = seconds_since(t1);
    report("check", spec.events, t1, "rows");
    std::printf("           expect + check %.3f s; append matches: %s; upsert of the append feed: %llu shared, %llu stale\n",
                expect_seconds + check_seconds, a.matches() ? "yes" : "no",
                static_cast<unsigned long long>(u.rows_sharing_npi), static_cast<unsigned long long>(u.stale_rows));

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak RSS   %.1f MB\n", usage.ru_maxrss / 1024.0);
    std::printf("(checksum %llx)\n", static_cast<unsigned long long>(checksum));
    return 0;
}
