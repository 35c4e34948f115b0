#include "jobs/restore_watch.hpp"

#include <memory>

#include <rosterrig/experiment/snapshot_chain.hpp>

#include "adapters/kafka_admin.hpp"
#include "roles/observe_table.hpp"
#include "adapters/poll.hpp"
#include "adapters/trino_client.hpp"

namespace rosterrig::live {

restore_watch::restore_watch(session& s, const pipeline_spec& p, int partitions, const e2::parameters& params,
                             periodic::clock::time_point t0, std::function<void(const e2::sample&)> on_sample,
                             std::function<void(const e2::row_count_sample&)> on_rows) {
    sampler_ = std::make_unique<periodic>(std::chrono::milliseconds(params.sample_period_ms), t0,
                                          [this, &s, p, partitions, on_sample = std::move(on_sample),
                                           lag_admin = std::make_shared<kafka_admin>(s.stack.kafka())](long long t) {
                                              e2::sample x;
                                              x.t_ms = t;
                                              if (have_job_.load()) {
                                                  x.job_state = s.flink.job_state(job_);
                                                  const auto c = s.flink.checkpoints(job_);
                                                  x.newest_checkpoint_id = c.latest_completed_id,
                                                  x.failed_checkpoints = c.failed;
                                              }
                                              x.lag = lag_admin->lag(p.group, p.topic, partitions);
                                              const auto table = s.catalog.load(p.ns, p.table);
                                              x.snapshot_id = table.current_snapshot_id;
                                              if (auto cur = table.current())
                                                  x.max_committed_checkpoint_id = cur->flink_watermark(),
                                                  x.snapshot_job_id = cur->summary_text("flink.job-id"),
                                                  x.total_records = cur->summary_int("total-records", 0);
                                              on_sample(x);
                                          });
    counter_ = std::make_unique<periodic>(
        std::chrono::milliseconds(params.row_count_period_ms), t0,
        [p, on_rows = std::move(on_rows), reader = std::make_shared<trino_client>(s.stack.trino())](long long t) {
            on_rows({t, visible_rows(*reader, p.ns, p.table)});
        });
}

void restore_watch::watch_job(const std::string& job) {
    job_ = job;
    have_job_.store(true);
}

void wait_watermark_at_least(session& s, const pipeline_spec& p, int partitions, long long checkpoint_id,
                             std::chrono::seconds deadline) {
    poll_until(
        s.stack.catalog(), deadline,
        [&] {
            auto cur = s.catalog.load(p.ns, p.table).current();
            return cur && cur->flink_watermark() >= checkpoint_id && s.admin.lag(p.group, p.topic, partitions) == 0;
        },
        [&] { return "table " + p.table + "'s watermark has not reached checkpoint " + std::to_string(checkpoint_id); },
        {std::chrono::milliseconds(500)});
}

void record_table_before(session& s, const pipeline_spec& p, e2::restore_run& run) {
    const auto before = s.catalog.load(p.ns, p.table);
    run.watermark_before = before.current() ? before.current()->flink_watermark() : -1;
    run.snapshot_before = before.current_snapshot_id;
    run.total_records_before = before.current() ? before.current()->summary_int("total-records", 0) : 0;
    run.rows_before = visible_rows(s.trino, p.ns, p.table);
}

std::vector<e2::snapshot_record> snapshots_after(const iceberg_table_state& table, long long before) {
    std::vector<e2::snapshot_record> out;
    for (const auto& snap : experiment::snapshots_since(
             table.snapshots, table.current_snapshot_id, before,
             [](const iceberg_snapshot& x) { return x.snapshot_id; },
             [](const iceberg_snapshot& x) { return x.parent_id; }))
        out.push_back({snap.snapshot_id, snap.timestamp_ms, snap.flink_watermark(), snap.summary_text("flink.job-id"),
                       snap.summary_text("operation"), snap.summary_int("added-records", 0),
                       snap.summary_int("total-records", 0)});
    return out;
}

}  // namespace rosterrig::live
