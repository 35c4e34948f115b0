#include "roles/checkpoint_sampler.hpp"

#include <chrono>

#include "adapters/process_fault.hpp"

namespace rosterrig::live {

checkpoint_sampler::checkpoint_sampler(const component_address& flink, std::string job)
    : flink_(flink),
      job_(std::move(job)),
      source_(flink_.source_vertex(job_)),
      sampler_(std::chrono::milliseconds(1000), periodic::clock::now(), [this](long long) { poll(); }) {}

void checkpoint_sampler::poll() {
    const auto now = flink_.checkpoint_outcomes(job_);
    const auto start = feed_start_.load();
    std::optional<double> bp;
    try {  // a reading the metric cache cannot give is a sample fewer (the count is reported), not a failed run
        if (start && !source_.empty()) bp = flink_.max_subtask_metric(job_, source_, "backPressuredTimeMsPerSecond");
    } catch (const live_error&) {
    }
    std::lock_guard lock(m_);
    experiment::merge_outcomes(seen_.checkpoints, now);
    if (bp) seen_.backpressure.push_back({now_ms() - start, *bp});
}

checkpoint_sampler::seen checkpoint_sampler::last_reading() {
    poll();
    std::lock_guard lock(m_);
    return seen_;
}

}  // namespace rosterrig::live
