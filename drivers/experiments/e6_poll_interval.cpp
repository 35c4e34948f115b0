// rosterrig-e6: the consumer poll-interval trap. Per run: a fresh topic with
// the seeded feed (every record acknowledged first), a consumer group of two
// members (our C++ member on librdkafka, or the Java client with the classic
// or the consumer group protocol) that take a batch per poll, sleep a fixed
// latency per record and commit the batch; the group's committed offsets and
// lag sampled from the broker while they run; every line the members logged
// read back and counted. The members and the sampling are in
// drivers/live/consumer_group; the rest is in
// include/rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp.
#include <rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp>
#include <rosterrig/generate/generator.hpp>

#include "jobs/consumer_group.hpp"
#include "roles/feeder.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e6::definition>;

namespace {

void run_once(session& s, const e6::parameters& params, const std::string& which, std::optional<std::uint64_t> repeat,
              const std::vector<kafka_record>& records, history& h) {
    e6::consumer_run run;
    run.run = which;
    run.repeat = repeat;
    run.settings = e6::settings_of(params, which);
    run.run_ms = params.run_ms;
    std::string label = which + (repeat ? "_r" + std::to_string(*repeat) : "");
    std::replace(label.begin(), label.end(), '/', '_');
    const auto names = s.pipeline(label, {});
    created_resources created(s.stack, s.on_created);
    group_spec g{names.topic,
                 names.group,
                 static_cast<int>(params.partitions),
                 params.members,
                 params.run_ms,
                 params.sample_every_ms,
                 std::filesystem::path(h.file()).replace_extension("") / label};
    created.topic(g.topic);
    s.admin.create_topic(g.topic, g.partitions);
    created.group(g.group);
    const auto fed = feeder(s.stack.kafka(), g.topic, records, 0).finish();
    run.events = fed.acknowledged;
    progress("e6[" + e6::run_label(run) + "]: " + std::to_string(fed.acknowledged) + " records in " + g.topic +
             "; starting " + std::to_string(params.members) + " members, " + std::to_string(run.settings.batch) +
             " records per poll, " + std::to_string(run.settings.latency_ms) + " ms each, poll interval " +
             std::to_string(run.settings.max_poll_interval_ms) + " ms, " + run.settings.mode);
    run_consumer_group(s, g, run);
    progress(e6::run_text(run));
    created.cleanup();
    h.record([&](e6::samples& x) { x.runs.push_back(std::move(run)); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e6::definition>(
        argc, argv,
        "Experiment 6: the consumer poll-interval trap (work done twice, an offset that never moves) with the C++ "
        "client and the Java client's two group protocols, and the three fixes.",
        {{"--batch", "B", "records per poll (default 50, quick 20)", &e6::parameters::batch},
         {"--latency", "MS", "the degraded dependency's latency per record (default 400, quick 600)",
          &e6::parameters::degraded_latency_ms}},
        [](session& s, const e6::parameters& params, const experiment::fault_plan&, history& h) {
            const auto records = kafka_records(generate(params.feed()));
            for (std::uint64_t k = 1; k <= params.repeat_count(); ++k)
                for (const auto& which : params.runs)
                    run_once(s, params, which, params.repeats ? std::optional<std::uint64_t>(k) : std::nullopt, records,
                             h);
        });
}
