// rosterrig-engine-check-cost: what the table checks cost the rig, streamed
// (every row read back through Trino to this process, as observe_table does)
// against run by Trino itself (drivers/live/roles/engine_checks.hpp: only counts
// and anomalies come back), on the running stack, side by side in one run.
// For each size it builds a table through Trino (CTAS from generated
// sequences: seq 1..N, NPIs cycling over --providers, roster-like strings in
// the other columns), then alternates the two ways `--repeats` times:
//   append: duplicates and missing runs of seq 1..N;
//   upsert: the per-NPI check (each NPI on N/providers rows, so every row
//           but its last is stale: the check a rig observation runs on an
//           append table); the engine's model table (one row per NPI) is
//           written before each engine run and timed on a row of its own.
// It checks that both ways agree, and prints a Markdown table of medians
// (wall time, and the bytes of Trino's replies this process received). It
// creates one namespace of its own and drops it, also when it fails.
//
//   rosterrig-engine-check-cost [--rows 1200000,12000000] [--upsert-rows 1200000] [--providers 120000] [--repeats 3]
#include <chrono>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include <rosterrig/check/check_agreement.hpp>
#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/stats/quantile.hpp>

#include "roles/engine_checks.hpp"
#include "roles/observe_table.hpp"
#include "adapters/stack_config.hpp"

using namespace rosterrig;
using namespace rosterrig::live;

namespace {

struct cost {
    std::vector<double> seconds, megabytes;
};

template <class Check>
auto timed(const trino_client& trino, cost& c, Check check) {
    const auto bytes = trino.bytes_received();
    const auto t0 = std::chrono::steady_clock::now();
    auto r = check();
    c.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    c.megabytes.push_back(static_cast<double>(trino.bytes_received() - bytes) / 1e6);
    return r;
}

std::string fixed(double v, int digits) {
    std::ostringstream o;
    o.setf(std::ios::fixed), o.precision(digits), o << v;
    return o.str();
}

double median(const std::vector<double>& v) { return stats::nearest_rank_quantile(v, 0.5); }

void row(const std::string& what, std::uint64_t rows, std::size_t n, const cost& streamed, const cost& engine) {
    std::cout << "| " << what << " | " << rows << " | " << n << " | " << fixed(median(streamed.seconds), 1) << " s | "
              << fixed(median(engine.seconds), 1) << " s | "
              << fixed(median(streamed.seconds) / median(engine.seconds), 1) << " | "
              << fixed(median(streamed.megabytes), 1) << " MB | " << fixed(median(engine.megabytes), 3) << " MB |"
              << std::endl;
}

// The expectation the generated table meets: NPI 1000000000 + k's last row is
// the largest i < rows with i % providers == k, at seq i + 1.
upsert_expectation expectation_of(std::uint64_t rows, std::uint64_t providers) {
    upsert_expectation x;
    x.events = rows;
    x.by_npi.reserve(providers);
    for (std::uint64_t k = 0; k < providers && k < rows; ++k) {
        const std::uint64_t last = k + providers * ((rows - 1 - k) / providers);
        const expected_record r{last + 1, 1, 0};
        x.by_npi.try_emplace(1'000'000'000 + k, upsert_expectation_entry{r, r});
    }
    return x;
}

void build_table(const trino_client& trino, const std::string& name, std::uint64_t rows, std::uint64_t providers) {
    const auto p = std::to_string(providers);
    trino.query(
        "CREATE TABLE " + name + " AS SELECT CAST(i + 1 AS BIGINT) AS seq, CAST(1000000000 + i % " + p +
            " AS VARCHAR) AS npi, "
            "'Provider ' || CAST(i % " +
            p +
            " AS VARCHAR) AS name, '207Q00000X' AS taxonomy, "
            "CAST(i % 9999 AS VARCHAR) || ' Main Street' AS address, 'Springfield' AS city, 'IL' AS state, "
            "lpad(CAST(i % 99999 AS VARCHAR), 5, '0') AS zip, '555-010-' || lpad(CAST(i % 10000 AS VARCHAR), 4, '0') AS phone, "
            "'active' AS status FROM (SELECT a * 10000 + b AS i FROM UNNEST(sequence(0, " +
            std::to_string(rows / 10000 - 1) + ")) AS x(a) CROSS JOIN UNNEST(sequence(0, 9999)) AS y(b))",
        std::chrono::seconds(1800));
}

}  // namespace

int main(int argc, char** argv) {
    std::string sizes = "1200000,12000000";
    std::uint64_t upsert_rows = 1'200'000, providers = 120'000;
    std::size_t repeats = 3;
    cli::arg_parser args{"rosterrig-engine-check-cost",
                         "Times the table checks streamed and run by Trino, side by side."};
    args.option("--rows", sizes, "N,..",
                "table sizes for the append check, multiples of 10,000 (default 1200000,12000000)");
    args.option("--upsert-rows", upsert_rows, "N",
                "the table size for the upsert check, one of --rows (default 1200000; 0 skips)");
    args.option("--providers", providers, "P", "distinct NPIs (default 120000)");
    args.option("--repeats", repeats, "K", "runs of each way per size, alternating (default 3)");
    std::vector<std::uint64_t> rows;
    try {
        if (!args.parse(argc, argv)) return 0;
        for (std::size_t at = 0; at < sizes.size();) {
            const auto end = std::min(sizes.find(',', at), sizes.size());
            rows.push_back(std::stoull(sizes.substr(at, end - at)));
            at = end + 1;
        }
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-engine-check-cost: " << e.what() << "\n" << args.usage();
        return 2;
    }
    for (const auto n : rows)
        if (n == 0 || n % 10000 != 0) {
            std::cerr << "rosterrig-engine-check-cost: --rows: multiples of 10,000, got " << n << "\n";
            return 2;
        }
    if (repeats == 0 || providers == 0) {
        std::cerr << "rosterrig-engine-check-cost: --repeats and --providers: at least 1\n";
        return 2;
    }
    const auto stack = stack_config::load("");
    const trino_client trino(stack.trino());
    const std::string ns = "rr_check_cost_" + std::to_string(::getpid());
    std::vector<std::string> tables;
    int code = 0;
    try {
        trino.query("CREATE SCHEMA iceberg." + ns);
        std::cout
            << "| Check | Rows | Runs each | Streamed, median | In Trino, median | Streamed / Trino | Bytes received, streamed | Bytes received, in Trino |\n"
            << "|---|---|---|---|---|---|---|---|\n";
        for (const auto n : rows) {
            const std::string table = "rows_" + std::to_string(n);
            std::cerr << "engine-check-cost: building " << ns << "." << table << " (" << n << " rows)\n";
            build_table(trino, "iceberg." + ns + "." + table, n, providers);
            tables.push_back(table);
            cost streamed, engine;
            for (std::size_t k = 0; k < repeats; ++k) {
                const auto s = timed(trino, streamed, [&] {
                    append_checker c{n};
                    for_each_observed_row(trino, ns, table,
                                          [&](const observed_row& r) { c.observe(r.seq.value_or(0)); });
                    return c.finish();
                });
                const auto e = timed(trino, engine, [&] { return engine_append_check(trino, ns, table, n); });
                if (const auto d = append_disagreements(s, e); !d.empty())
                    throw std::runtime_error("append checks disagree: " + d.front());
                if (!s.matches()) throw std::runtime_error("the generated table is not seq 1..N once each");
            }
            row("append", n, repeats, streamed, engine);
            if (n != upsert_rows) continue;
            const auto x = expectation_of(n, providers);
            cost streamed_u, engine_u, model_write;
            for (std::size_t k = 0; k < repeats; ++k) {
                const auto s = timed(trino, streamed_u, [&] {
                    upsert_checker c{x};
                    for_each_observed_row(trino, ns, table, [&](const observed_row& r) { c.observe(r); });
                    return c.finish();
                });
                std::optional<upsert_model> model;
                timed(trino, model_write, [&] { return &model.emplace(trino, ns, table + "__rr_model", x); });
                const auto e = timed(trino, engine_u, [&] { return engine_upsert_check(trino, ns, table, *model); });
                if (const auto d = upsert_disagreements(s, e); !d.empty())
                    throw std::runtime_error("upsert checks disagree: " + d.front());
            }
            row("upsert (" + std::to_string(providers) + " NPIs, each on " + std::to_string(n / providers) + " rows)",
                n, repeats, streamed_u, engine_u);
            std::cout << "| upsert model written through Trino (" << providers
                      << " rows, INSERT ... SELECT FROM UNNEST of arrays) | – | " << repeats << " | – | "
                      << fixed(median(model_write.seconds), 1) << " s | – | – | – |" << std::endl;
        }
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-engine-check-cost: FAILED: " << e.what() << "\n";
        code = 1;
    }
    try {
        for (const auto& t : tables) trino.query("DROP TABLE IF EXISTS iceberg." + ns + "." + t);
        trino.query("DROP SCHEMA IF EXISTS iceberg." + ns);
        std::cerr << "engine-check-cost: dropped " << ns << " and its " << tables.size() << " tables\n";
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-engine-check-cost: clean-up: " << e.what() << "\n";
        code = 1;
    }
    return code;
}
