#include "roles/kill_run.hpp"

#include "roles/faults.hpp"
#include "roles/job_waits.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

void run_kill_loop(session& s, const std::string& job, const std::string& label, feeder& feed, long long feed_start_ms,
                   const std::vector<experiment::fault_step>& steps,
                   const std::optional<experiment::feed_pacing>& pacing, const kill_loop_hooks& hooks) {
    long long last_restored = -1;
    for (const auto& step : steps) {
        hooks.trigger(step, last_restored);
        if (hooks.stop(step)) break;
        const auto before = checkpoint_state(s, job);
        const auto sent = static_cast<std::uint64_t>(feed.sent()),
                   acked = static_cast<std::uint64_t>(feed.acknowledged());
        const auto k =
            e1::kill_sample_of(step, before, kill_taskmanager(s, job, step), sent, acked, feed_start_ms, job);
        last_restored = k.restored_checkpoint_id;
        hooks.record(k);
        progress(label + ": " + e1::describe(k, steps.size()) + hooks.more(k));
        if (pacing)
            feed.pace(
                pacing->rate_after(static_cast<std::uint64_t>(feed.total()), static_cast<std::uint64_t>(feed.sent()),
                                   static_cast<double>(now_ms() - feed_start_ms) / 1000.0, step.index, steps.size()));
    }
}

produce_report finish_and_drain(session& s, feeder& feed, const std::string& job, const pipeline_spec& p,
                                int partitions, const std::string& label, long long feed_start_ms,
                                std::chrono::seconds drain) {
    auto report = feed.finish();
    const long long produced_ms = report.acked_at.empty() ? 0 : report.acked_at.back().second - feed_start_ms;
    progress(label + ": feed done (" + std::to_string(report.acknowledged) + " acknowledged in " +
             std::to_string(produced_ms) + " ms); draining");
    wait_until_drained(s.flink, s.admin, job, p.group, p.topic, partitions, drain);
    return report;
}

run_end_reading read_run_end(session& s, const std::string& job, const pipeline_spec& p) {
    run_end_reading end;
    end.read_at_ms = now_ms();
    end.final_job_state = s.flink.job_state(job), end.restarts_reported = s.flink.restarts(job);
    end.exceptions_recorded = static_cast<std::int64_t>(s.flink.exceptions(job).size());
    for (const auto& sn : s.catalog.load(p.ns, p.table).snapshots) end.snapshot_log.push_back(replay_entry_of(sn));
    return end;
}

void record_run_end(e1::configuration_run& run, const produce_report& report, long long feed_start_ms,
                    const run_end_reading& end, const experiment::table_observation& seen) {
    run.acknowledged = static_cast<std::uint64_t>(report.acknowledged);
    run.feed_duration_ms = end.read_at_ms - feed_start_ms;
    run.feed_sha256 = report.feed_sha256;
    run.final_job_state = end.final_job_state, run.restarts_reported = end.restarts_reported;
    run.exceptions_recorded = end.exceptions_recorded;
    e1::record_table(run, seen);
    run.snapshot_log = end.snapshot_log;
}

}  // namespace rosterrig::live
