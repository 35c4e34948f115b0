// bench/producer_compare.cpp: the rig's producer against kcat, side by side,
// on the same JSON lines to the same broker (the local stack's Kafka).
//
//   rosterrig-producer-compare [--events N] [--repeat R] [--dir DIR] [--stack FILE]
//
// For each repeat, alternating which goes first: the rig's producer (librdkafka,
// idempotent, acks=all, linger.ms=5, every record to the partition the
// generator chose, keyed by NPI) sends the feed to a fresh topic and waits for
// every delivery report; then kcat -P sends the same lines, keyed by NPI
// (kcat's partitioner places them), with the same producer settings, to
// another fresh topic. Each is timed from start to the last acknowledgement
// (kcat exits once its queue is flushed) and checked by the topic's end
// offsets. Prints events/s per run, the medians and their ratio (rig / kcat).
// Creates topics named rr_bench_producer_<pid>_*, and deletes only those.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/generate/generator.hpp>
#include <rosterrig/stats/summary.hpp>

#include "adapters/child_process.hpp"
#include "roles/feeder.hpp"
#include "adapters/kafka_admin.hpp"
#include "adapters/kafka_producer.hpp"
#include "adapters/stack_config.hpp"

using namespace rosterrig;
using namespace rosterrig::live;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The topic's records, from its end offsets; throws unless it is `events`.
void require_landed(kafka_admin& admin, const std::string& topic, int partitions, long long events,
                    const std::string& who) {
    const long long landed = admin.end_offsets_sum(topic, partitions);
    if (landed != events)
        throw std::runtime_error(who + " left " + std::to_string(landed) + " records in " + topic + ", not " +
                                 std::to_string(events));
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t events = 1'200'000, repeat = 3;
    std::string dir = "/tmp", stack_file;
    cli::arg_parser p{"rosterrig-producer-compare",
                      "The rig's Kafka producer against kcat on the same feed, side by side."};
    p.option("--events", events, "N", "events in the feed (default 1200000)")
        .option("--repeat", repeat, "R", "runs of each (default 3); medians are reported")
        .option("--dir", dir, "DIR", "where kcat's input file goes (default /tmp)")
        .option("--stack", stack_file, "FILE", "the stack description (default: the local stack)");
    try {
        if (!p.parse(argc, argv)) return 0;
        if (events == 0 || repeat == 0) throw cli::usage_error("--events and --repeat must be at least 1");
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-producer-compare: " << e.what() << "\n" << p.usage();
        return 2;
    }
    try {
        const auto stack = stack_config::load(stack_file);
        const auto spec = roster_feed(1, events, std::max<std::uint64_t>(1, events / 6), 4);
        const int parts = static_cast<int>(spec.partitions);
        const auto records = kafka_records(generate(spec));
        // kcat reads "key<TAB>value" lines: the same NPI keys and JSON values.
        const std::string lines = dir + "/rosterrig-producer-compare-" + std::to_string(::getpid()) + ".tsv";
        {
            std::ofstream out(lines, std::ios::binary);
            for (const auto& r : records) out << r.key << '\t' << r.value << '\n';
            if (!out) throw std::runtime_error("cannot write " + lines);
        }
        kafka_admin admin(stack.kafka());
        std::vector<std::string> created;
        std::vector<double> ours, theirs;
        const auto cleanup = [&] {
            for (const auto& t : created) admin.delete_topic(t);
            std::remove(lines.c_str());
        };
        try {
            for (std::uint64_t i = 0; i < repeat; ++i) {
                auto run_ours = [&] {
                    const std::string topic =
                        "rr_bench_producer_" + std::to_string(::getpid()) + "_rig_" + std::to_string(i);
                    created.push_back(topic);
                    admin.create_topic(topic, parts);
                    kafka_producer producer(stack.kafka());
                    const auto t0 = std::chrono::steady_clock::now();
                    const auto report = producer.produce_all(topic, records);
                    const double s = seconds_since(t0);
                    if (report.acknowledged != static_cast<long long>(events))
                        throw std::runtime_error("the rig's producer acknowledged " +
                                                 std::to_string(report.acknowledged));
                    require_landed(admin, topic, parts, static_cast<long long>(events), "the rig's producer");
                    ours.push_back(static_cast<double>(events) / s);
                    std::printf("run %llu  rig   %8.0f events/s (%.2f s)\n", static_cast<unsigned long long>(i + 1),
                                ours.back(), s);
                };
                auto run_kcat = [&] {
                    const std::string topic =
                        "rr_bench_producer_" + std::to_string(::getpid()) + "_kcat_" + std::to_string(i);
                    created.push_back(topic);
                    admin.create_topic(topic, parts);
                    const auto t0 = std::chrono::steady_clock::now();
                    child_process kcat({"kcat", "-P", "-b", stack.kafka().where(), "-t", topic, "-K", "\t", "-l", "-X",
                                        "enable.idempotence=true", "-X", "acks=all", "-X", "linger.ms=5", lines},
                                       dir + "/rosterrig-producer-compare-kcat.log");
                    const auto code = kcat.wait(std::chrono::minutes(5));
                    const double s = seconds_since(t0);
                    if (!code)
                        throw std::runtime_error("kcat did not finish within 5 minutes (log: " + dir +
                                                 "/rosterrig-producer-compare-kcat.log)");
                    if (*code != 0)
                        throw std::runtime_error("kcat exited " + std::to_string(*code) + " (log: " + dir +
                                                 "/rosterrig-producer-compare-kcat.log)");
                    require_landed(admin, topic, parts, static_cast<long long>(events), "kcat");
                    theirs.push_back(static_cast<double>(events) / s);
                    std::printf("run %llu  kcat  %8.0f events/s (%.2f s)\n", static_cast<unsigned long long>(i + 1),
                                theirs.back(), s);
                };
                // Alternate the order, so neither always meets a broker warmed by the other.
                if (i % 2 == 0)
                    run_ours(), run_kcat();
                else
                    run_kcat(), run_ours();
                std::fflush(stdout);
            }
        } catch (...) {
            cleanup();
            throw;
        }
        cleanup();
        const double a = stats::summarize(ours).median, b = stats::summarize(theirs).median;
        std::printf("median: rig %.0f events/s, kcat %.0f events/s, ratio rig/kcat %.2f (target >= 1.0: %s)\n", a, b,
                    a / b, a / b >= 1.0 ? "met" : "missed");
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-producer-compare: " << e.what() << "\n";
        return 1;
    }
}
