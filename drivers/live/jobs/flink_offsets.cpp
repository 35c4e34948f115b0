#include "jobs/flink_offsets.hpp"

#include <rosterrig/generate/generator.hpp>

#include "roles/faults.hpp"
#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/job_waits.hpp"
#include "roles/observe_table.hpp"
#include "adapters/poll.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

void run_offsets(session& s, const e1::parameters& params, history_writer<e1::definition>& h) {
    pipeline_scope scope(s);
    const auto spec = params.offsets_feed();
    const int parts = static_cast<int>(spec.partitions);
    auto p = s.pipeline("offsets", e1::pipeline_of(params, e1::configurations()[1]));  // exactly-once + append
    std::string job = scope.launch(p, parts);
    const auto fed = feeder(s.stack.kafka(), p.topic, kafka_records(generate(spec)), 0).finish();
    h.record([&](e1::samples& all) { all.offsets.feed_sha256 = fed.feed_sha256; });
    wait_until_drained(s.flink, s.admin, job, p.group, p.topic, parts, std::chrono::seconds(300));
    auto record = [&](const std::string& step) {
        const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
        const e1::offsets_step x{step,
                                 s.admin.committed_offsets_sum(p.group, p.topic, parts),
                                 s.admin.end_offsets_sum(p.topic, parts),
                                 seen.by_seq.rows,
                                 seen.by_seq.duplicate_rows,
                                 job,
                                 static_cast<std::int64_t>(s.flink.exceptions(job).size()),
                                 s.flink.checkpoints(job).latest_restored_id};
        progress("e1[offsets]: " + e1::step_text(x));
        h.record([&](e1::samples& all) { all.offsets.events = spec.events, all.offsets.steps.push_back(x); });
    };
    record("landed");
    s.admin.rewind_committed_offsets(p.group, p.topic, parts);  // 1. behind the running job's back
    record("rewound");
    kill_taskmanager(s, job, {1, "offsets", experiment::fault_kind::kill_taskmanager, "the rewind", 0, "restart"});
    // 2. Does the restored job's checkpointing write its position back over the rewind, and when?
    const long long end = s.admin.end_offsets_sum(p.topic, parts);
    const auto recovered_ms = now_ms();
    elapsed_until(
        recovered_ms, params.quick ? 10000 : 30000,
        [&] {
            e1::offsets_watch_sample w{now_ms() - recovered_ms, s.admin.committed_offsets_sum(p.group, p.topic, parts),
                                       s.flink.checkpoints(job).latest_completed_id};
            h.record([&](e1::samples& all) { all.offsets.after_restore.push_back(w); });
            return w.committed_offsets_sum == end;
        },
        std::chrono::milliseconds(500));
    record("restored_from_checkpoint");
    scope.writer.stop(job);  // 3. a fresh job that trusts the rewound group offsets
    s.admin.rewind_committed_offsets(p.group, p.topic, parts);
    p.config.startup = experiment::startup_mode::group_offsets;
    job = scope.writer.start(p, false);
    wait_all_running(s.flink, job, std::chrono::seconds(120));
    wait_until_drained(s.flink, s.admin, job, p.group, p.topic, parts, std::chrono::seconds(300));
    record("fresh_from_group_offsets");
}

}  // namespace rosterrig::live
