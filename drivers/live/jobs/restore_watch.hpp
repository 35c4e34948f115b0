// Experiment 2's live steps around a restore. The watch, from the restore request on: what an
// on-call rotation could see (the job's state, its checkpoints, the group's
// lag) and what the table is (its current snapshot and summary, from the
// catalog), every sample period; and the rows Trino sees, every row-count
// period. Each on its own thread and its own clients; every sample goes to
// its callback as it is taken.
#ifndef ROSTERRIG_LIVE_JOBS_RESTORE_WATCH_HPP
#define ROSTERRIG_LIVE_JOBS_RESTORE_WATCH_HPP
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>

#include "adapters/iceberg_catalog.hpp"
#include "roles/periodic.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

class restore_watch {
public:
    restore_watch(session& s, const pipeline_spec& p, int partitions, const e2::parameters& params,
                  periodic::clock::time_point t0, std::function<void(const e2::sample&)> on_sample,
                  std::function<void(const e2::row_count_sample&)> on_rows);
    // From now on the samples include this job's state and checkpoints.
    void watch_job(const std::string& job);
    bool failed() const { return sampler_->failed() || counter_->failed(); }
    // Stops both; rethrows what a sample threw.
    void stop() {
        sampler_->stop();
        counter_->stop();
    }

private:
    std::atomic<bool> have_job_{false};
    std::string job_;  // written once, before have_job_
    std::unique_ptr<periodic> sampler_, counter_;
};

// Waits until the table's current snapshot was committed by checkpoint
// `checkpoint_id` or a later one and the job's group has read the whole topic.
void wait_watermark_at_least(session& s, const pipeline_spec& p, int partitions, long long checkpoint_id,
                             std::chrono::seconds deadline);

// The table as the old job left it: its watermark, snapshot, total records (catalog) and the rows Trino sees.
void record_table_before(session& s, const pipeline_spec& p, e2::restore_run& run);

// Every snapshot committed after `before` up to the current one, oldest first, as experiment 2 records it.
std::vector<e2::snapshot_record> snapshots_after(const iceberg_table_state& table, long long before);

}  // namespace rosterrig::live

#endif
