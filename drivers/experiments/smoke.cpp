// rosterrig-smoke: the end-to-end proof that the stack works. Creates a topic,
// produces 1,000 roster events, runs a Flink append job Kafka → Iceberg, waits
// for the table's snapshot to show them, reads them back through Trino only,
// checks them with the core library, and drops the job, table and topic.
#include <iostream>
#include <map>
#include <optional>

#include <boost/json.hpp>
#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/generate/generator.hpp>
#include <rosterrig/result/json_file.hpp>

#include "roles/connect_writer.hpp"
#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/observe_table.hpp"
#include "adapters/poll.hpp"
#include "adapters/process_fault.hpp"
#include "runner/progress.hpp"
#include "runner/run_lock.hpp"
#include "roles/session.hpp"
#include "adapters/stack_versions.hpp"
#include "adapters/table_store.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
namespace json = boost::json;

int main(int argc, char** argv) {
    std::string warehouse = "s3", out_file, stack_file, writer = "flink";
    roster_spec spec;
    spec.events = 1000;
    spec.seed = 7;
    cli::arg_parser args{"rosterrig-smoke",
                         "Runs the end-to-end smoke test against the running stack (compose/stack up)."};
    args.choice("--warehouse", warehouse, {"s3", "local"}, "where the table's files live (default s3)");
    std::string connector_config;
    args.option("--connector-config", connector_config, "KEY=VALUE,..",
                "with --writer connect: settings laid over the connector's own, sent to the worker as given");
    args.choice("--writer", writer, {"flink", "connect"},
                "the writer under test: a Flink SQL job (default) or Kafka Connect's Iceberg sink (object store only)");
    args.option("--events", spec.events, "N", "events to land (default 1000)");
    args.option("--seed", spec.seed, "S", "the feed's seed (default 7)");
    bool keep_tables = false;
    args.flag("--keep-tables", keep_tables, "leave the table in the catalog to inspect (printed at the end)");
    args.option("--out", out_file, "FILE", "write the result JSON here too");
    args.option("--stack", stack_file, "FILE",
                "the stack to test, described in a file (docs/STACK.md; default: the local stack)");
    try {
        if (!args.parse(argc, argv)) return 0;
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-smoke: " << e.what() << "\n" << args.usage();
        return 2;
    }
    if (spec.events == 0) {  // zero events would land nothing and pass
        std::cerr << "rosterrig-smoke: --events: expected at least 1, got 0\n" << args.usage();
        return 2;
    }
    spec.providers = std::max<std::uint64_t>(1, spec.events / 6);
    std::map<std::string, std::string> overrides;
    for (std::size_t at = 0; !connector_config.empty() && at <= connector_config.size();) {
        const auto end = std::min(connector_config.find(',', at), connector_config.size());
        const auto pair = connector_config.substr(at, end - at);
        const auto eq = pair.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::cerr << "rosterrig-smoke: --connector-config: expected KEY=VALUE, got \"" << pair << "\"\n"
                      << args.usage();
            return 2;
        }
        overrides[pair.substr(0, eq)] = pair.substr(eq + 1);
        at = end + 1;
    }
    if (!overrides.empty() && writer != "connect") {
        std::cerr << "rosterrig-smoke: --connector-config needs --writer connect\n" << args.usage();
        return 2;
    }
    if (writer == "connect" && warehouse != "s3") {
        std::cerr << "rosterrig-smoke: --writer connect writes to the object store only (--warehouse s3)\n"
                  << args.usage();
        return 2;
    }

    install_interrupt_handler();
    stack_config stack;
    try {
        stack = stack_config::load(stack_file);
    } catch (const stack::description_error& e) {
        std::cerr << "rosterrig-smoke: --stack: " << e.what() << "\n";
        return 2;
    }
    const run_lock holding_the_stack(stack.state_dir);
    const long long started = now_ms();
    try {
        trino_client trino(stack.trino(), stack.described.trino_user);
        progress("smoke[" + warehouse + "]: asking each component for its version");
        auto versions = reported_versions(stack);
        // Trino first: it is the reader, and a test must fail fast when it is gone.
        versions["trino"] = trino.version();

        session s(stack, "smoke");
        s.keep_tables = keep_tables;
        // One of the two writers; `created` drops what it made, however the test ends.
        std::optional<pipeline_scope> flink_scope;
        std::optional<connect_scope> connect;
        experiment::pipeline_config config;
        config.store = *experiment::parse_name<experiment::warehouse>(warehouse);
        const auto p = s.pipeline(writer == "connect" ? "connect" : warehouse, config);
        std::string job;
        if (writer == "connect") {
            connect.emplace(s);
            connect->writer.overrides = overrides;
            job = connect->launch(p, static_cast<int>(spec.partitions));
            progress("smoke: connector " + job + " running: " + connect->writer.in_force(job, p).sink);
        } else {
            flink_scope.emplace(s);
            job = flink_scope->launch(p, static_cast<int>(spec.partitions));
            progress("smoke: job " + job + " running");
        }
        created_resources& created = connect ? connect->created : flink_scope->created;
        const auto report = feeder(stack.kafka(), p.topic, kafka_records(generate(spec)), 0).finish();
        progress("smoke: produced " + std::to_string(report.acknowledged) + " of " + std::to_string(report.attempted) +
                 " acknowledged");

        long long visible = 0;
        std::string state;
        poll_until(
            stack.catalog(), std::chrono::seconds(180),
            [&] {
                auto cur = s.catalog.load(p.ns, p.table).current();
                visible = cur ? cur->summary_int("total-records", 0) : 0;
                if (visible >= static_cast<long long>(spec.events)) return true;
                if (connect) {
                    const auto st = connect->writer.rest.status(job);
                    state = st ? st->state : "absent";
                    if (!st || st->state == "FAILED")
                        throw live_error(stack.connect(), "connector " + job + " is " + state);
                } else {
                    state = s.flink.job_state(job);
                    if (state == "FAILED" || state == "CANCELED")
                        throw live_error(stack.flink(), "job " + job + " is " + state);
                }
                return false;
            },
            [&] {
                return "table " + p.table + " shows " + std::to_string(visible) + " records; the writer is " + state;
            },
            {std::chrono::milliseconds(500)});
        const long long checkpoints = connect ? static_cast<long long>(s.catalog.load(p.ns, p.table).snapshots.size())
                                              : s.flink.checkpoints(job).completed;
        progress("smoke: snapshot shows " + std::to_string(visible) + " records after " + std::to_string(checkpoints) +
                 (connect ? " table commits" : " checkpoints") + "; reading back through Trino");

        const auto check = observe_table(trino, s.table_checks, p.ns, p.table, spec).by_seq;
        progress("smoke: " + std::to_string(check.rows) + " rows, " + std::to_string(check.duplicate_rows) +
                 " duplicates, " + std::to_string(check.missing_runs.size()) + " missing runs");
        const auto location = s.catalog.load(p.ns, p.table).location;
        created.cleanup();
        // Nothing of the run may stay: no file under the dropped table's
        // location (listed from the store itself), no checkpoint or savepoint folder.
        json::array left_behind;
        if (!keep_tables)
            for (const auto& f : list_location(s, location).files)
                left_behind.push_back(json::value(location + "/" + f.relative));
        if (!connect)
            for (const auto& dir : job_folders(stack, job)) left_behind.push_back(json::value(dir));
        progress("smoke: after clean-up, " + std::to_string(left_behind.size()) +
                 " files or folders of the run remain");

        json::object versions_json;
        for (const auto& [k, v] : versions) versions_json[k] = v;
        json::array missing;
        for (const auto& r : check.missing_runs)
            missing.push_back(json::array{json::value(r.first), json::value(r.last)});
        json::value result = {
            {"experiment", "e0_smoke"},
            {"warehouse", warehouse},
            {"writer", writer},
            {"component_versions", versions_json},
            {"events", spec.events},
            {"acknowledged", report.acknowledged},
            {"job_id", job},
            {connect ? "table_commits" : "checkpoints_completed", checkpoints},
            {"rows", check.rows},
            {"distinct_seq", check.distinct_seq},
            {"duplicate_rows", check.duplicate_rows},
            {"missing_runs", missing},
            {"left_behind", left_behind},
            {"passed", check.matches() && check.rows == spec.events && left_behind.empty()},
            {"started_at_ms", started},
            {"finished_at_ms", now_ms()},
        };
        if (!out_file.empty()) result::write_json_file(out_file, result);
        std::cout << json::serialize(result) << "\n";
        return result.at("passed").as_bool() ? 0 : 1;
    } catch (const connect_rejected& e) {  // bad input: the worker's own words, and everything created is gone
        std::cerr << "rosterrig-smoke: " << stack.described.redact(e.what()) << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-smoke: FAILED: " << stack.described.redact(e.what()) << "\n";
        return 1;
    }
}
