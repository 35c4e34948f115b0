// rosterrig-e6-member: one member of experiment 6's consumer group, on
// librdkafka's C++ client (drivers/live/group_member). It takes batches of
// --batch records, "processes" each with a dependency of --latency-ms (a
// sleep: the result is deterministic) and commits the batch: in the poll loop
// (plain), or on a worker thread while the loop keeps polling with the
// partitions paused (pause, the third fix). Every record and every event the
// application sees goes to --log as JSON lines, the format
// compose/kafka/PollTrapMember.java writes too.
#include <librdkafka/rdkafkacpp.h>

#include <atomic>
#include <future>
#include <iostream>
#include <thread>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/experiment/consumer_log.hpp>

#include "jobs/group_member.hpp"
#include "adapters/process_fault.hpp"

using namespace rosterrig;
using namespace rosterrig::live;

namespace {

// Processes the batch record by record unless told to stop (its partitions
// are being taken away): what it did not process stays uncommitted.
experiment::batch_progress process(const std::vector<message_ptr>& batch, long long latency_ms, event_log& log,
                                   const std::atomic<bool>& stop) {
    experiment::batch_progress done;
    for (const auto& m : batch) {
        if (stop.load()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(latency_ms));
        const auto seq = experiment::seq_in_value({static_cast<const char*>(m->payload()), m->len()});
        log.write("record", {{"partition", m->partition()}, {"offset", m->offset()}, {"seq", seq}});
        done.done(m->partition(), m->offset());
    }
    return done;
}

}  // namespace

int main(int argc, char** argv) {
    member_config c;
    std::string protocol = "classic", mode = "plain", log_file;
    long long latency_ms = -1, run_ms = 0;
    cli::arg_parser args{"rosterrig-e6-member", "One member of experiment 6's consumer group (librdkafka)."};
    args.option("--bootstrap", c.bootstrap, "HOST:PORT", "the broker", cli::required);
    args.option("--topic", c.topic, "T", "the topic", cli::required);
    args.option("--group", c.group, "G", "the consumer group", cli::required);
    args.option("--member", c.member, "NAME", "this member's name (client.id and every log line)", cli::required);
    args.option("--batch", c.batch, "B", "records per poll (max.poll.records)", cli::required);
    args.option("--latency-ms", latency_ms, "L", "the dependency's latency per record", cli::required);
    args.option("--max-poll-interval-ms", c.max_poll_interval_ms, "P", "max.poll.interval.ms", cli::required);
    args.choice("--protocol", protocol, {"classic"}, "the group protocol (librdkafka 2.0 has only classic)");
    args.choice("--mode", mode, {"plain", "pause"},
                "plain: process in the poll loop; pause: pause, keep polling, process on a worker");
    args.option("--run-ms", run_ms, "D", "how long to run", cli::required);
    args.option("--log", log_file, "FILE", "the event log (JSON lines, appended)", cli::required);
    try {
        if (!args.parse(argc, argv)) return 0;
        if (c.batch <= 0) throw cli::usage_error("--batch: expected at least 1, got " + std::to_string(c.batch));
        if (latency_ms < 0)
            throw cli::usage_error("--latency-ms: expected 0 or more, got " + std::to_string(latency_ms));
        if (c.max_poll_interval_ms <= 0 || run_ms <= 0)
            throw cli::usage_error("--max-poll-interval-ms and --run-ms: expected at least 1");
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-e6-member: " << e.what() << "\n" << args.usage();
        return 2;
    }
    try {
        event_log log(log_file, c.member);
        log.write("start", {{"client", "cpp"},
                            {"protocol", protocol},
                            {"mode", mode},
                            {"batch", c.batch},
                            {"latency_ms", latency_ms},
                            {"max_poll_interval_ms", c.max_poll_interval_ms},
                            {"client_version", "librdkafka " + RdKafka::version_str()}});
        live::group_member member(c, log);
        const long long stop_at = now_ms() + run_ms;
        std::atomic<bool> stop_batch{false};
        std::future<experiment::batch_progress> worker;  // pause mode: the batch in progress
        auto finish_in_flight = [&] {
            if (!worker.valid()) return;
            member.commit(worker.get().next_offsets);
            stop_batch = false;
        };
        if (mode == "pause")
            // The batch in progress stops after its current record and what it
            // processed is committed while the partitions are still ours;
            // waiting for the whole batch here would exceed the interval.
            member.before_revoke = [&] {
                stop_batch = worker.valid();
                finish_in_flight();
            };
        // A batch in progress at the end is finished, polling on in pause mode.
        while (now_ms() < stop_at || worker.valid()) {
            if (worker.valid()) {
                member.poll_while_paused();
                if (!worker.valid() || worker.wait_for(std::chrono::seconds(0)) != std::future_status::ready) continue;
                finish_in_flight();
                member.resume_all();
                continue;
            }
            if (now_ms() >= stop_at) break;
            auto batch = std::make_shared<std::vector<message_ptr>>(member.poll_batch());
            if (batch->empty()) continue;
            const long long started = now_ms();
            auto run_batch = [&, batch, started] {
                auto done = process(*batch, latency_ms, log, stop_batch);
                log.write("batch", {{"records", done.processed}, {"took_ms", now_ms() - started}});
                return done;
            };
            if (mode == "pause") {
                member.pause_all();
                worker = std::async(std::launch::async, run_batch);
            } else {
                member.commit(run_batch().next_offsets);
            }
        }
        finish_in_flight();
        member.close();
        log.write("end");
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-e6-member: " << e.what() << "\n";
        return 1;
    }
}
