#include "jobs/connect_offsets.hpp"

#include <limits>

#include <rosterrig/generate/generator.hpp>

#include "roles/connect_writer.hpp"
#include "roles/feeder.hpp"
#include "roles/observe_table.hpp"
#include "adapters/poll.hpp"

namespace rosterrig::live {

void run_connect_offsets(session& s, const e7::parameters& params, history_writer<e7::definition>& h) {
    connect_scope scope(s);
    const auto spec = params.offsets_feed();
    const int parts = static_cast<int>(spec.partitions);
    const auto events = static_cast<long long>(spec.events);
    const auto p = s.pipeline("offsets", e7::pipeline_of(params.commit_interval_ms, params.tasks));
    const auto group = connect_names::of(p).consumer_group;
    const auto name = scope.launch(p, parts);
    scope.writer.in_force(name, p);
    const auto fed = feeder(s.stack.kafka(), p.topic, kafka_records(generate(spec)), 0).finish();
    h.record([&](e7::samples& x) { x.offsets.events = spec.events, x.offsets.feed_sha256 = fed.feed_sha256; });
    // After each action: the group's offsets right away, then offsets and the
    // table's records every 500 ms for the watch window (a replay is waited
    // for until it lands, at most 60 s), then every row read back.
    auto record = [&](const std::string& step, const std::string& note) {
        e7::offsets_step x;
        x.step = step, x.note = note;
        x.committed_after_action = s.admin.committed_offsets_sum(group, p.topic, parts);
        // watch_done ends the watch (its own time limits), so no deadline here.
        const auto from_ms = now_ms();
        elapsed_until(
            from_ms, std::numeric_limits<long long>::max(),
            [&] {
                const e7::offsets_watch_sample w{now_ms() - from_ms,
                                                 s.admin.committed_offsets_sum(group, p.topic, parts),
                                                 committed_records(s.catalog, p.ns, p.table)};
                x.watch.push_back(w);
                return e7::watch_done(w.ms_after_action, *x.committed_after_action, w, events, params);
            },
            std::chrono::milliseconds(500));
        const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
        const auto st = scope.writer.rest.status(name);
        x.committed_offsets_sum = s.admin.committed_offsets_sum(group, p.topic, parts);
        x.end_offsets_sum = s.admin.end_offsets_sum(p.topic, parts);
        x.rows = seen.by_seq.rows, x.distinct_seq = seen.by_seq.distinct_seq,
        x.duplicate_rows = seen.by_seq.duplicate_rows;
        x.connector_state = st ? st->state : "";
        h.record([&](e7::samples& all) { all.offsets.steps.push_back(x); });
        progress("e7[offsets]: " + e7::step_text(x, spec.events) + " (" + note +
                 "; offsets right after: " + std::to_string(*x.committed_after_action) + ")");
    };
    await_connect_landed(s, p, parts, events, std::chrono::seconds(120));
    record(e7::step_landed, "the feed produced at once and committed");
    std::string refusal;  // 1. behind the running connector's back: its tasks are the group's members
    try {
        s.admin.rewind_committed_offsets(group, p.topic, parts);
    } catch (const std::exception& e) {
        refusal = e.what();
    }
    h.record([&](e7::samples& x) {
        x.offsets.rewind_while_running_tried = true;
        if (!refusal.empty()) x.offsets.rewind_while_running_refused = refusal;
    });
    record(e7::step_rewind_running,
           refusal.empty() ? "the broker applied the rewind" : "the broker refused the rewind");
    kill_connect_worker(s, scope.writer.rest, name);  // 2.
    record(e7::step_worker_killed, "worker SIGKILLed and restarted by its supervisor");
    scope.writer.stop(name);  // 3. the same name, so the same group
    scope.writer.recreate(p);
    scope.writer.rest.wait_running(name, std::chrono::seconds(120));
    record(e7::step_recreated, "connector deleted and created again under the same name");
    scope.writer.stop(name);  // 4. the group rewound while no task is a member
    rewind_once_group_empty(s, group, p.topic, parts);
    const auto rewound = s.admin.committed_offsets_sum(group, p.topic, parts);
    scope.writer.recreate(p);
    scope.writer.rest.wait_running(name, std::chrono::seconds(120));
    record(e7::step_rewound_recreated, "connector deleted, its group rewound to 0 (read back: " +
                                           std::to_string(rewound) + "), created again under the same name");
}

}  // namespace rosterrig::live
