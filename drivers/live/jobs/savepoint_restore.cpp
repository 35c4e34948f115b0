#include "jobs/savepoint_restore.hpp"

#include <chrono>
#include <optional>
#include <vector>

#include <rosterrig/generate/generator.hpp>

#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/job_waits.hpp"
#include "roles/observe_table.hpp"
#include "adapters/poll.hpp"
#include "jobs/restore_watch.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

void run_once(session& s, const e2::parameters& params, const e2::variant& v, std::uint64_t repeat,
              history_writer<e2::definition>& h) {
    const std::string label = "e2[" + v.name + " #" + std::to_string(repeat) + "]";
    pipeline_scope scope(s);
    auto& writer = scope.writer;
    const auto spec = params.feed(repeat);
    const int parts = static_cast<int>(spec.partitions);
    const auto records = kafka_records(generate(spec));
    const auto batches = e2::batches(params);
    const auto batch = [&](std::size_t i) {
        return std::vector<kafka_record>(records.begin() + static_cast<long>(batches[i].first - 1),
                                         records.begin() + static_cast<long>(batches[i].last));
    };
    // Each batch's digest as produced, with its seqs: it regenerates from feed(repeat).
    const auto fed = [&](std::size_t i, const produce_report& r) {
        return e2::batch_feed{batches[i].first, batches[i].last, r.feed_sha256};
    };
    const auto p = s.pipeline(v.name + "_" + std::to_string(repeat), e2::pipeline_of(params, v));
    const std::string old_job = scope.launch(p, parts);
    auto run = e2::start_run(params, v, repeat, old_job, writer.in_force(old_job, p));
    run.feeds.emplace();
    // The first batch arrives at a steady rate, so checkpoints keep committing;
    // the savepoint is taken after the second checkpoint with data.
    feeder first(s.stack.kafka(), p.topic, batch(0), e2::first_batch_rate(params));
    wait_checkpoint_above(s.flink, run.old_job_id, 1, std::chrono::seconds(120));
    const auto savepoint = writer.savepoint(run.old_job_id);
    run.savepoint_path = savepoint.path;
    if (!savepoint.retried_after.empty()) run.savepoint_retried_after = savepoint.retried_after;
    progress(label + ": savepoint " + std::to_string(savepoint.id) + " at " + run.savepoint_path);
    run.feeds->push_back(fed(0, first.finish()));
    wait_watermark_at_least(s, p, parts, savepoint.id + params.watermark_lead, std::chrono::seconds(300));
    wait_until_drained(s.flink, s.admin, run.old_job_id, p.group, p.topic, parts, std::chrono::seconds(120),
                       e2::drain_checkpoints(params));
    writer.stop(run.old_job_id);
    record_table_before(s, p, run);
    progress(label + ": stopped with table watermark " + std::to_string(run.watermark_before) + ", " +
             std::to_string(run.rows_before) + " rows; writing the second batch");
    run.feeds->push_back(fed(1, feeder(s.stack.kafka(), p.topic, batch(1), 0).finish()));
    const std::size_t at = h.record([&](e2::samples& x) {
        x.runs.push_back(run);
        return x.runs.size() - 1;
    });

    // The restore, and the clock starts with the request.
    const auto t0 = std::chrono::steady_clock::now();
    run.restore_requested_at_ms = now_ms();
    restore_watch watch(
        s, p, parts, params, t0,
        [&](const e2::sample& x) { h.stage([&](e2::samples& all) { all.runs[at].samples.push_back(x); }); },
        [&](const e2::row_count_sample& c) {
            h.stage([&](e2::samples& all) { all.runs[at].row_counts.push_back(c); });
        });
    const std::string job = writer.start(p.restored_from(run.savepoint_path), false);
    watch.watch_job(job);
    progress(label + ": restored as job " + job + "; sampling");
    auto settle = e2::settle_watch_of(params, run.snapshot_before);
    e2::sample last;
    try {
        poll_until(
            s.flink.where(), std::chrono::seconds(240),
            [&] {
                if (watch.failed()) return true;  // stop() below rethrows
                h.flush();                        // the samples so far, saved every quarter second
                h.read([&](const e2::samples& all) {
                    if (!all.runs[at].samples.empty()) last = all.runs[at].samples.back();
                });
                return settle.settled(last);
            },
            [&] { return "job " + job + " " + e2::describe(last); },
            {std::chrono::milliseconds(250), std::chrono::seconds(5)});
    } catch (const live_error& e) {
        progress(label + ": " + e.what() + "; judging what was sampled");
    }
    watch.stop();
    // A third batch once the table has settled: data after the freeze must land once.
    const auto third_at =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    std::optional<e2::batch_feed> third_fed;
    if (batches.size() > 2) third_fed = fed(2, feeder(s.stack.kafka(), p.topic, batch(2), 0).finish());

    wait_until_drained(s.flink, s.admin, job, p.group, p.topic, parts, std::chrono::seconds(120),
                       e2::drain_checkpoints(params));
    const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
    const auto table = s.catalog.load(p.ns, p.table);
    h.record([&](e2::samples& all) {
        auto& r = all.runs[at];
        r.new_job_id = job, r.restore_requested_at_ms = run.restore_requested_at_ms;
        r.savepoint_checkpoint_id = s.flink.checkpoints(job).latest_restored_id;
        r.restarts_during = s.flink.restarts(job),
        r.exceptions_during = static_cast<std::int64_t>(s.flink.exceptions(job).size());
        e2::record_table(r, seen);
        if (third_fed) r.feeds->push_back(*third_fed);
        if (params.third_batch_events)
            r.third_batch =
                e2::landing_of(seen, params.first_batch_events + params.second_batch_events + 1, spec.events, third_at);
        r.snapshots_after = snapshots_after(table, run.snapshot_before);
        progress(label + ": " + e2::describe(r));
    });
}

}  // namespace rosterrig::live
