#include "jobs/restart_term.hpp"

#include <chrono>
#include <thread>
#include <utility>

#include "roles/feeder.hpp"
#include "roles/job_waits.hpp"
#include "jobs/kafka_txn_job.hpp"
#include "adapters/process_fault.hpp"
#include "runner/progress.hpp"

using std::chrono::milliseconds, std::chrono::seconds;

namespace rosterrig::live {

void run_restart(session& s, const e5::parameters& params, const std::string& ending, std::uint64_t repeat,
                 const std::vector<kafka_record>& records, history_writer<e5::definition>& h) {
    const std::string label = e5::restart_label(ending, repeat);
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, "restart_" + ending + std::to_string(repeat),
                    {params.restart_timeout_ms, params.restart_interval_ms, params.parallelism});
    auto r = e5::planned_restart(params, ending, repeat);
    const auto logs = mark_flink_logs(s.stack);
    const auto t0 = std::chrono::steady_clock::now();
    r.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    wait_all_running(s.flink, r.job_id, seconds(120));
    r.interval_ms = require_checkpoint_interval(s.flink, r.job_id, params.restart_interval_ms);
    const auto before = s.flink.checkpoints(r.job_id).latest_completed_id;
    feeder feed(s.stack.kafka(), scope.spec.in_topic, records, params.feed_rate());
    // A checkpoint during the feed, then a few seconds of records for the savepoint's transaction.
    const auto killed = savepoint_mid_feed(s, r.job_id, before, params.restart_interval_ms);
    const auto savepoint_at = killed.savepoint_at_ms;
    r.savepoint_path = killed.savepoint.path, r.savepoint_id = killed.savepoint.id;
    e5::note_pending_at_savepoint(r, describe_ongoing(s, scope.spec.transactional_id_prefix), killed.triggered_at_ms,
                                  savepoint_at);
    progress(label + ": " + e5::savepoint_text(r));
    if (ending == "late")
        std::this_thread::sleep_until(
            std::chrono::system_clock::time_point(milliseconds(savepoint_at + params.restart_late_wait_ms)));
    r.restored_job_id = scope.relaunch_from(killed.savepoint.path);
    wait_all_running(s.flink, r.restored_job_id, seconds(180));
    r.savepoint_to_restored_running_ms = now_ms() - savepoint_at;
    progress(label + ": " + e5::restored_text(r));
    feed.finish();
    let_it_commit(s, r.restored_job_id, params.commit_wait_checkpoints, params.restart_interval_ms, label);
    read_outcome(s, r, states, scope.spec.out_topic, parts, r.restored_job_id, scope.spec.transactional_id_prefix,
                 params.events, logs);
    progress(label + ": " + e5::restart_text(r));
    h.record([&](e5::samples& x) { x.restarts.push_back(std::move(r)); });
}

}  // namespace rosterrig::live
