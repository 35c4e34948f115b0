// A job's checkpoint outcomes and its source's backpressure, sampled each
// second from Flink's REST API while a run goes on. Flink keeps only its last
// few checkpoints in the history, so the outcomes are polled and merged from
// the job's start; backpressure is sampled once the feed has started (so its
// times count from the feed's start), as the largest
// backPressuredTimeMsPerSecond over the source vertex's subtasks. Given the
// source's group, it also reads the offsets the source committed (Flink
// commits them after a checkpoint completes, not promptly: see
// experiment/committed_offsets.hpp).
#ifndef ROSTERRIG_LIVE_CHECKPOINT_SAMPLER_HPP
#define ROSTERRIG_LIVE_CHECKPOINT_SAMPLER_HPP
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <rosterrig/experiment/backpressure.hpp>
#include <rosterrig/experiment/checkpoint_outcome.hpp>
#include <rosterrig/experiment/committed_offsets.hpp>

#include "adapters/flink_rest.hpp"
#include "adapters/kafka_admin.hpp"
#include "roles/periodic.hpp"

namespace rosterrig::live {

class checkpoint_sampler {
public:
    // The Kafka source's group, topic and partition count, whose committed offsets are read beside the history.
    struct source_group {
        component_address broker;
        std::string group, topic;
        int partitions = 0;
    };
    checkpoint_sampler(const component_address& flink, std::string job,
                       std::optional<source_group> offsets = std::nullopt);
    // The feed started at `at_ms` (epoch ms): backpressure is sampled from now on.
    void feed_started(long long at_ms) { feed_start_.store(at_ms); }
    // The outcomes merged so far (a copy).
    std::vector<experiment::checkpoint_outcome> checkpoints_so_far() {
        std::lock_guard lock(m_);
        return seen_.checkpoints;
    }
    // Stops the sampling (rethrows what a reading of the history threw).
    void stop() { sampler_.stop(); }
    // One more reading of the history, then everything seen: called after
    // stop() and after reading Flink's counts, the history holds every
    // checkpoint counted.
    struct seen {
        std::vector<experiment::checkpoint_outcome> checkpoints;
        std::vector<experiment::backpressure_sample> backpressure;
        std::vector<experiment::committed_offsets_sample> offsets;  ///< empty without a source group
    };
    seen last_reading();

private:
    void poll();
    flink_rest flink_;
    std::string job_, source_;
    std::optional<source_group> group_;
    std::unique_ptr<kafka_admin> admin_;  // its own client: the sampler reads on its own thread
    std::atomic<long long> feed_start_{0};
    std::mutex m_;
    seen seen_;
    periodic sampler_;
};

}  // namespace rosterrig::live

#endif
