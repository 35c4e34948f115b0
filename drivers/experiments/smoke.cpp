// rosterrig-smoke: the end-to-end proof that the stack works. Creates a topic,
// produces 1,000 roster events, runs a Flink append job Kafka → Iceberg, waits
// for the table's snapshot to show them, reads them back through Trino only,
// checks them with the core library, and drops the job, table and topic.
#include <chrono>
#include <ranges>
#include <iostream>
#include <thread>
#include <unistd.h>

#include <boost/json.hpp>
#include <rosterrig/check/append_check.hpp>
#include <rosterrig/generate/generator.hpp>

#include <rosterrig/result/json_file.hpp>

#include "experiment_support.hpp"
#include "feed.hpp"
#include "flink_rest.hpp"
#include "iceberg_catalog.hpp"
#include "kafka_admin.hpp"
#include "pipeline.hpp"
#include "process_fault.hpp"
#include "progress.hpp"
#include "stack_versions.hpp"
#include "table_readback.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
namespace json = boost::json;

namespace {
const char* usage_text =
    "usage: rosterrig-smoke [--warehouse s3|local] [--events N] [--seed S] [--out FILE]\n"
    "  Runs the end-to-end smoke test against the running stack (compose/stack up).\n";
}  // namespace

int main(int argc, char** argv) {
    auto f = experiments::parse_flags(argc, argv, {"--warehouse", "--events", "--seed", "--out"}, {}, usage_text);
    const std::string warehouse = f.get("--warehouse", "s3"), out_file = f.get("--out", "");
    roster_spec spec;
    spec.events = static_cast<std::uint64_t>(f.number("--events", 1000));
    spec.providers = std::max<std::uint64_t>(1, spec.events / 6);
    spec.seed = static_cast<std::uint64_t>(f.number("--seed", 7));
    if (warehouse != "s3" && warehouse != "local") {
        std::cerr << "rosterrig-smoke: --warehouse must be s3 or local\n" << usage_text;
        return 2;
    }

    install_interrupt_handler();
    const auto stack = stack_config::load();
    const long long started = now_ms();
    try {
        trino_client trino(stack.trino());
        progress("smoke[" + warehouse + "]: asking each component for its version");
        auto versions = reported_versions(stack);
        // Trino first: it is the reader, and a test must fail fast when it is gone.
        versions["trino"] = trino.version();

        created_resources created(stack);
        const std::string run = std::to_string(::getpid()) + "_" + std::to_string(started % 100000000);
        pipeline_spec p;
        p.topic = "rr_smoke_" + run;
        p.group = "rr_smoke_" + run;
        p.table = "smoke_" + warehouse + "_" + run;
        p.warehouse = warehouse;
        p.checkpoint_interval_ms = 2000;

        kafka_admin admin(stack.kafka());
        admin.create_topic(p.topic, static_cast<int>(spec.partitions));
        created.topic(p.topic);

        auto events = generate(spec);
        kafka_producer producer(stack.kafka());
        auto report = producer.produce_all(p.topic, experiments::kafka_records(events));
        progress("smoke: produced " + std::to_string(report.acknowledged) + " of " + std::to_string(report.attempted) +
                 " acknowledged");
        if (report.acknowledged != static_cast<long long>(spec.events))
            throw live_error(stack.kafka(), "only " + std::to_string(report.acknowledged) + " events acknowledged: " +
                                                report.first_error);

        created.table(p.ns, p.table);
        const std::string job = submit_pipeline(stack, p, true);
        created.job(job);
        progress("smoke: job " + job + " submitted");

        flink_rest flink(stack.flink());
        iceberg_catalog catalog(stack.catalog());
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(180);
        long long visible = 0;
        for (;;) {
            throw_if_interrupted();
            auto t = catalog.load(p.ns, p.table);
            auto cur = t.current();
            visible = cur ? cur->summary_int("total-records", 0) : 0;
            if (visible >= static_cast<long long>(spec.events)) break;
            auto state = flink.job_state(job);
            if (state == "FAILED" || state == "CANCELED")
                throw live_error(stack.flink(), "job " + job + " is " + state);
            if (std::chrono::steady_clock::now() > give_up)
                throw live_error(stack.catalog(), "table " + p.table + " shows " + std::to_string(visible) +
                                                      " records after 180 s; job is " + state);
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
        auto ckpt = flink.checkpoints(job);
        progress("smoke: snapshot shows " + std::to_string(visible) + " records after " +
                 std::to_string(ckpt.completed) + " checkpoints; reading back through Trino");

        auto rows = experiments::read_rows(trino, p.ns, p.table);
        auto check = check_append(spec.events, rows | std::views::transform([](const observed_row& r) {
                                                   return r.seq.value_or(0);
                                               }));
        progress("smoke: " + std::to_string(check.rows) + " rows, " + std::to_string(check.duplicate_rows) +
                 " duplicates, " + std::to_string(check.missing_runs.size()) + " missing runs");
        created.cleanup();

        json::object versions_json;
        for (const auto& [k, v] : versions) versions_json[k] = v;
        json::array missing;
        for (const auto& r : check.missing_runs) missing.push_back(json::array{json::value(r.first), json::value(r.last)});
        json::value result = {
            {"experiment", "e0_smoke"},
            {"warehouse", warehouse},
            {"component_versions", versions_json},
            {"events", spec.events},
            {"acknowledged", report.acknowledged},
            {"job_id", job},
            {"checkpoints_completed", ckpt.completed},
            {"rows", check.rows},
            {"distinct_seq", check.distinct_seq},
            {"duplicate_rows", check.duplicate_rows},
            {"missing_runs", missing},
            {"passed", check.matches() && check.rows == spec.events},
            {"started_at_ms", started},
            {"finished_at_ms", now_ms()},
        };
        if (!out_file.empty()) result::write_json_file(out_file, result);
        std::cout << json::serialize(result) << "\n";
        return result.at("passed").as_bool() ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-smoke: FAILED: " << e.what() << "\n";
        return 1;
    }
}
