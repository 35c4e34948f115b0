#include "roles/checkpoint_sampler.hpp"

#include <chrono>

#include "adapters/process_fault.hpp"

namespace rosterrig::live {

checkpoint_sampler::checkpoint_sampler(const component_address& flink, std::string job,
                                       std::optional<source_group> offsets)
    : flink_(flink),
      job_(std::move(job)),
      source_(flink_.source_vertex(job_)),
      group_(std::move(offsets)),
      admin_(group_ ? std::make_unique<kafka_admin>(group_->broker) : nullptr),
      sampler_(std::chrono::milliseconds(1000), periodic::clock::now(), [this](long long) { poll(); }) {}

void checkpoint_sampler::poll() {
    const auto now = flink_.checkpoint_outcomes(job_);
    const auto start = feed_start_.load();
    std::optional<double> bp;
    try {  // a reading the metric cache cannot give is a sample fewer (the count is reported), not a failed run
        if (start && !source_.empty()) bp = flink_.max_subtask_metric(job_, source_, "backPressuredTimeMsPerSecond");
    } catch (const live_error&) {
    }
    std::optional<experiment::committed_offsets_sample> offsets;
    if (admin_) try {  // a failed reading is a reading fewer (the gap shows in at_ms), it ends no run
            const auto read = admin_->committed_offsets(group_->group, group_->topic, group_->partitions);
            offsets.emplace();
            for (const auto& [p, o] : read) {
                if (p >= static_cast<int>(offsets->next_offset.size())) offsets->next_offset.resize(p + 1, -1);
                offsets->next_offset[p] = o;
            }
            offsets->at_ms = now_ms();  // after the answer: a commit seen here landed by this time
        } catch (const live_error&) {
        }
    std::lock_guard lock(m_);
    experiment::merge_outcomes(seen_.checkpoints, now);
    if (bp) seen_.backpressure.push_back({now_ms() - start, *bp});
    if (offsets) seen_.offsets.push_back(std::move(*offsets));
}

checkpoint_sampler::seen checkpoint_sampler::last_reading() {
    poll();
    std::lock_guard lock(m_);
    return seen_;
}

}  // namespace rosterrig::live
