#include "jobs/stuck_transaction.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <utility>

#include "roles/feeder.hpp"
#include "roles/job_waits.hpp"
#include "jobs/kafka_txn_job.hpp"
#include "adapters/process_fault.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

void run_stuck_transaction(session& s, const e5::parameters& params, const std::string& ending,
                           const std::string& partitioner, const std::vector<kafka_record>& records,
                           const std::vector<kafka_record>& plain, const std::function<void(e5::stuck_run&&)>& record) {
    using std::chrono::seconds;
    const std::string label = e5::stuck_label(ending, partitioner);
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, "stuck_" + ending + "_" + partitioner,
                    {params.stuck_timeout_ms, params.stuck_interval_ms, params.parallelism});
    scope.spec.sink_partitioner = partitioner;
    auto st = e5::planned_stuck(params, ending, partitioner, plain.size());
    const auto t0 = std::chrono::steady_clock::now();
    st.job_id = scope.launch(parts);
    transaction_sampler states(s, scope.spec.transactional_id_prefix, t0);
    wait_all_running(s.flink, st.job_id, seconds(120));
    st.interval_ms = s.flink.checkpoint_config(st.job_id).interval_ms;
    st.open_at_cancel = feed_into_open_transaction(s, st.job_id, scope.spec.in_topic, records,
                                                   scope.spec.transactional_id_prefix, seconds(180));
    const auto open = describe_open(s, st.open_at_cancel);
    st.registered_timeout_ms = open.registered_timeout_ms;
    const long long cancelled_at =
        ending == "kill-then-cancel" ? kill_taskmanager_then_cancel(s, st.job_id) : cancel(s, st.job_id);
    st.open_for_ms_at_cancel = open.oldest_start_ms > 0 ? cancelled_at - open.oldest_start_ms : -1;
    progress(label + ": " + e5::cancelled_text(st));
    std::map<std::uint64_t, int> partition_of;
    for (const auto& r : plain) partition_of[static_cast<std::uint64_t>(r.seq)] = r.partition;
    st.partitions = e5::partitions_before_wait(parts, open.partitions_of(scope.spec.out_topic), partition_of);
    feeder(s.stack.kafka(), scope.spec.out_topic, plain, 0).finish();
    st.plain_acked_after_cancel_ms = now_ms() - cancelled_at;
    watch_plain_records(s, st, scope.spec.out_topic, parts, partition_of, seconds(params.stuck_timeout_ms / 1000 + 90));
    st.states = states.stop();
    progress(label + ": " + e5::hidden_text(st));
    record(std::move(st));
}

}  // namespace rosterrig::live
