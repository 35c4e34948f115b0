// proxied_commit_trial.hpp: one fault on one table commit through the fault
// proxy in front of the catalog, as experiment 8 runs it. The k-th
// commit POST after the table settled is hit by the step's rule and, in the
// zombie cells, the committer's TaskManager is SIGKILLed while that POST (A)
// waits, so it lands beside the restored job's replay, or (early, late) before
// its read or after its first commit (docs/E8_DESIGN.md); a held reply is let
// go at its deadline or, with the kill, after the restored job's next commit;
// then the heal, the job running again and a commit after it. Header-only,
// like proxied_commits.hpp: rosterrig::live does not link the proxy.
#ifndef ROSTERRIG_LIVE_JOBS_PROXIED_COMMIT_TRIAL_HPP
#define ROSTERRIG_LIVE_JOBS_PROXIED_COMMIT_TRIAL_HPP

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include <rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp>

#include "roles/faults.hpp"
#include "roles/job_waits.hpp"
#include "adapters/poll.hpp"
#include "runner/progress.hpp"
#include "roles/proxied_commits.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

// One trial of `step` (cell `kind`) against `job`, its proxy rules armed on
// `px` for the commit path `cp`. `record` saves the trial as it stands: once
// the hit is armed, after the kill, and at the end (a void trial's end too).
inline void run_proxied_commit_trial(session& s, const std::string& job, const e8::parameters& params,
                                     const experiment::fault_step& step, e8::cell kind, proxy::fault_proxy& px,
                                     const proxied_commit_path& cp,
                                     const std::function<void(const e8::trial&)>& record) {
    using experiment::fault_kind;
    e8::trial t;
    t.index = step.index, t.kind = kind, t.k = static_cast<std::uint64_t>(step.delay_ms),
    t.status = e8::status_of(step);
    const std::string label = "e8[" + step.variant + " " + std::to_string(step.index) + "]";
    const auto from = px.log().size() + 1;
    t.exceptions_before = static_cast<std::int64_t>(s.flink.exceptions(job).size());
    t.failed_checkpoints_before = s.flink.checkpoints(job).failed;
    const auto save = [&] { record(t); };
    try {
        poll_until(
            cp.where, std::chrono::seconds(120), [&] { return cp.answered_since(from) + 1 >= t.k; },
            [&] { return "waiting for " + std::to_string(t.k - 1) + " commits through the proxy"; });
        experiment::fault_parameters hit{.duration_ms = params.hit_duration_ms(kind),
                                         .status = t.status,
                                         .method = "POST",
                                         .path = cp.pattern,
                                         .count = 1};
        const auto& z = kind == e8::cell::zombie_409 ? params.zombie_409_timing : params.zombie_refresh_timing;
        t.armed_at_ms = now_ms();
        t.hit_rule = px.add_rule(step.kind, hit);
        save();
        const auto a = cp.wait_rule(
            from, t.hit_rule, std::chrono::seconds(120), [](const auto&) { return true; }, "the hit commit POST");
        if (kind == e8::cell::held_kill_late_release) {
            // Applied upstream first: the reply is held from then on.
            const auto held = cp.wait_rule(
                from, t.hit_rule, std::chrono::seconds(60),
                [](const auto& r) { return r.upstream_replied_at_ms > 0 || !r.note.empty(); },
                "the hit commit applied and its reply held");
            progress(label + ": commit of checkpoint " + std::to_string(held.watermark) +
                     " applied, its reply held; killing the committer's TaskManager");
            t.kill = kill_taskmanager(
                s, job,
                {step.index, step.variant, fault_kind::kill_taskmanager, "the hit's reply held", 0,
                 experiment::heal_of(fault_kind::kill_taskmanager, experiment::fault_target::flink_taskmanager)});
            save();
            // The reply goes once the restored job committed a later checkpoint.
            const auto killed = t.kill->killed_at_ms;
            poll_until(
                cp.where, std::chrono::seconds(params.hold_deadline() / 1000 - 10),
                [&] { return e8::later_commit(table_requests(px, cp.path, from), killed, held.watermark) != nullptr; },
                [&] { return "the restored job's commit of a checkpoint after " + std::to_string(held.watermark); });
        } else if (kind == e8::cell::held_past_timeout || kind == e8::cell::held_no_timeout) {
            // Applied upstream, its reply held to the deadline: past the client's
            // socket timeout (the job fails and restarts) or under it (the committer waits).
            const auto held = cp.wait_rule(
                from, t.hit_rule, std::chrono::seconds(60),
                [](const auto& r) { return r.upstream_replied_at_ms > 0 || !r.note.empty(); },
                "the hit commit applied and its reply held");
            progress(label + ": commit of checkpoint " + std::to_string(held.watermark) + " applied, its reply held " +
                     std::to_string(hit.duration_ms) + " ms");
            cp.wait_rule(
                from, t.hit_rule, std::chrono::seconds(hit.duration_ms / 1000 + 60),
                [](const auto& r) { return r.released_at_ms.has_value(); }, "the held reply's release");
            if (kind == e8::cell::held_past_timeout)
                wait_restart_after(s.flink, job, t.armed_at_ms, std::chrono::seconds(120));
        } else if (e8::is_zombie(kind) || e8::outside_window(kind)) {
            // Armed before the kill: nothing else of this job commits while A waits.
            if (kind == e8::cell::zombie_409)
                t.b_rule = px.add_rule(fault_kind::http_delay,
                                       {.duration_ms = z.b_ms, .method = "POST", .path = cp.pattern, .count = 1});
            else if (kind == e8::cell::zombie_refresh)
                t.get_rule = px.add_rule(fault_kind::http_delay,
                                         {.duration_ms = z.get_ms, .method = "GET", .path = cp.pattern, .count = 0});
            progress(label + ": commit of checkpoint " + std::to_string(a.watermark) + " held " +
                     std::to_string(hit.duration_ms) + " ms before forwarding; killing the committer's TaskManager");
            t.kill = kill_taskmanager(
                s, job,
                {step.index, step.variant, fault_kind::kill_taskmanager, "A received", 0,
                 experiment::heal_of(fault_kind::kill_taskmanager, experiment::fault_target::flink_taskmanager)});
            save();
            const auto landed = cp.wait_rule(
                from, t.hit_rule, std::chrono::seconds(hit.duration_ms / 1000 + 60),
                [](const auto& r) { return r.upstream_replied_at_ms > 0 || !r.note.empty(); }, "A landing");
            // The replay: an unruled commit applied after A landed (zombie_409: after B's answer).
            // Outside the window nothing is waited for here: the heal's settle below
            // waits for the restored job's next commit.
            if (e8::is_zombie(kind)) {
                poll_until(
                    cp.where, std::chrono::seconds(180),
                    [&] {
                        if (kind == e8::cell::zombie_409) {
                            const auto b = cp.applied_by(from, t.b_rule);
                            if (!b || (b->upstream_replied_at_ms == 0 && b->note.empty())) return false;
                        }
                        return cp.answered_since(from, landed.received_at_ms) > 0;
                    },
                    [&] { return std::string("the restored job's commit after A"); });
            }
        } else {
            cp.wait_rule(
                from, t.hit_rule, std::chrono::seconds(60),
                [](const auto& r) { return r.answered_at_ms > 0 || r.dropped_at_ms > 0 || !r.note.empty(); },
                "the hit's answer");
            wait_restart_after(s.flink, job, t.armed_at_ms, std::chrono::seconds(120));
        }
        px.heal();
        t.healed_at_ms = now_ms();
        wait_all_running(s.flink, job, std::chrono::seconds(180));
        await_commit_after(cp, from, t.healed_at_ms, "the heal");
        t.settled_at_ms = now_ms();
    } catch (const interrupted&) {
        px.heal();
        throw;
    } catch (const std::exception& e) {
        // A trial that did not go as its cell needs is void, not the run's end,
        // if the job heals: healed, recorded, and the next trial starts from a settled table.
        px.heal();
        t.failure = e.what();
        t.requests = table_requests(px, cp.path, from);
        save();
        progress(label + ": void: " + t.failure);
        wait_all_running(s.flink, job, std::chrono::seconds(180));
        await_commit_after(cp, from, now_ms(), "a void trial's heal");
        return;
    }
    const auto exceptions = s.flink.exceptions(job);
    t.exceptions_after = static_cast<std::int64_t>(exceptions.size());
    t.failed_checkpoints_after = s.flink.checkpoints(job).failed;
    for (const auto& e : exceptions)
        if (e.timestamp_ms >= t.armed_at_ms) t.new_exceptions.push_back(e.first_line);
    t.requests = table_requests(px, cp.path, from);
    save();
    progress(label + ": " + e8::validity_of(t).why);
}

}  // namespace rosterrig::live

#endif
