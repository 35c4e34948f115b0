// rosterrig-e8: a table commit whose reply is lost, refused, or that lands late.
//
// One job per writer (SinkV2, FlinkSink) whose catalog client goes through the
// fault proxy; each trial hits one commit POST and, in the zombie cells, kills
// the committer's TaskManager while that POST waits, so it lands beside the
// restored job's replay (docs/E8_DESIGN.md). Everything judged is in
// include/rosterrig/experiments/e8_catalog_commit_faults.hpp.
#include <rosterrig/experiments/e8_catalog_commit_faults.hpp>
#include <rosterrig/generate/generator.hpp>

#include "faults.hpp"
#include "feeder.hpp"
#include "flink_sql_writer.hpp"
#include "job_waits.hpp"
#include "kill_run.hpp"
#include "observe_table.hpp"
#include "poll.hpp"
#include "proxied_commits.hpp"
#include "runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e8::definition>;
using experiment::fault_kind;

namespace {

void run_trial(session& s, const std::string& job, const e8::parameters& params, const experiment::fault_step& step,
               e8::cell kind, proxy::fault_proxy& px, const proxied_commit_path& cp, history& h, std::size_t run_at) {
    e8::trial t;
    t.index = step.index, t.kind = kind, t.k = static_cast<std::uint64_t>(step.delay_ms), t.status = e8::status_of(step);
    const std::string label = "e8[" + step.variant + " " + std::to_string(step.index) + "]";
    const auto from = px.log().size() + 1;
    t.exceptions_before = static_cast<std::int64_t>(s.flink.exceptions(job).size());
    const auto save = [&] { h.record([&](e8::samples& x) {
        auto& trials = x.runs[run_at].trials;
        if (trials.empty() || trials.back().index != t.index) trials.push_back(t);
        else trials.back() = t;
    }); };
    try {
        poll_until(cp.where, std::chrono::seconds(120), [&] { return cp.answered_since(from) + 1 >= t.k; },
                   [&] { return "waiting for " + std::to_string(t.k - 1) + " commits through the proxy"; });
        experiment::fault_parameters hit{.duration_ms = 0, .status = t.status, .method = "POST", .path = cp.pattern, .count = 1};
        const auto& z = kind == e8::cell::zombie_409 ? params.zombie_409_timing : params.zombie_refresh_timing;
        if (e8::has_kill(kind)) hit.duration_ms = z.a_ms;
        t.armed_at_ms = now_ms();
        t.hit_rule = px.add_rule(step.kind, hit);
        save();
        const auto a = cp.wait_rule(from, t.hit_rule, std::chrono::seconds(120), [](const auto&) { return true; }, "the hit commit POST");
        if (e8::has_kill(kind)) {
            // Armed before the kill: nothing else of this job commits while A waits.
            if (kind == e8::cell::zombie_409)
                t.b_rule = px.add_rule(fault_kind::http_delay, {.duration_ms = z.b_ms, .method = "POST", .path = cp.pattern, .count = 1});
            else
                t.get_rule = px.add_rule(fault_kind::http_delay, {.duration_ms = z.get_ms, .method = "GET", .path = cp.pattern, .count = 0});
            progress(label + ": commit of checkpoint " + std::to_string(a.watermark) +
                     " held " + std::to_string(z.a_ms) + " ms before forwarding; killing the committer's TaskManager");
            t.kill = kill_taskmanager(s, job, {step.index, step.variant, fault_kind::kill_taskmanager, "A received", 0,
                                               experiment::heal_of(fault_kind::kill_taskmanager, experiment::fault_target::flink_taskmanager)});
            save();
            const auto landed = cp.wait_rule(from, t.hit_rule, std::chrono::seconds(z.a_ms / 1000 + 60),
                                             [](const auto& r) { return r.upstream_replied_at_ms > 0 || !r.note.empty(); }, "A landing");
            // The replay: an unruled commit applied after A landed (zombie_409: after B's answer).
            poll_until(cp.where, std::chrono::seconds(180), [&] {
                if (kind == e8::cell::zombie_409) {
                    const auto b = cp.applied_by(from, t.b_rule);
                    if (!b || (b->upstream_replied_at_ms == 0 && b->note.empty())) return false;
                }
                return cp.answered_since(from, landed.received_at_ms) > 0;
            }, [&] { return std::string("the restored job's commit after A"); });
        } else {
            cp.wait_rule(from, t.hit_rule, std::chrono::seconds(60),
                         [](const auto& r) { return r.answered_at_ms > 0 || r.dropped_at_ms > 0 || !r.note.empty(); }, "the hit's answer");
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
    for (const auto& e : exceptions)
        if (e.timestamp_ms >= t.armed_at_ms) t.new_exceptions.push_back(e.first_line);
    t.requests = table_requests(px, cp.path, from);
    save();
    progress(label + ": " + e8::validity_of(t).why);
}

void run_writer(session& s, const e8::parameters& params, const e8::writer_kind& w, const experiment::fault_plan& plan, history& h) {
    const std::string label = "e8[" + w.name + "]";
    proxy::proxy_options o;
    o.upstream_host = s.stack.catalog().host, o.upstream_port = s.stack.catalog().port;
    o.keep_body_of_method = "POST";
    proxy::fault_proxy px(o);  // outlives the job: its cancellation may still talk to the catalog
    px.start();
    pipeline_scope scope(s);
    const auto spec = params.feed();
    experiment::pipeline_config cfg{experiment::table_kind::append, experiment::checkpoint_mode::exactly_once, w.sink, params.warehouse,
                                    experiment::startup_mode::earliest_offset, params.checkpoint_interval_ms, 1};
    auto p = s.pipeline(w.name, cfg);
    p.catalog_address = "127.0.0.1:" + std::to_string(px.port());
    p.catalog_properties = {{"rest.client.socket-timeout-ms", std::to_string(params.socket_timeout_ms)}};
    const proxied_commit_path cp(px, p.ns, p.table);
    const std::string job = scope.launch(p, static_cast<int>(spec.partitions));
    const auto in_force = scope.writer.in_force(job, p);
    feeder feed(s.stack.kafka(), p.topic, kafka_records(generate(spec)), params.rate);
    const long long feed_start = now_ms();
    const std::size_t at = h.record([&](e8::samples& x) {
        e8::writer_run r;
        r.writer = w.name, r.job = job, r.table = p.ns + "." + p.table, r.mode_in_force = in_force.mode, r.interval_in_force_ms = in_force.interval_ms, r.sink_in_force = in_force.sink;
        r.catalog_properties = p.catalog_properties, r.proxy_address = p.catalog_address, r.events = spec.events;
        x.runs.push_back(std::move(r));
        return x.runs.size() - 1;
    });
    progress(label + ": job " + job + " (" + in_force.sink + "), catalog client through the proxy at " + p.catalog_address);
    for (const auto& step : plan.steps) {
        if (step.variant.rfind(w.name + "/", 0) != 0) continue;
        const auto kind = experiment::parse_name<e8::cell>(step.variant.substr(w.name.size() + 1));
        if (feed.sent() >= feed.total()) {
            progress(label + ": the feed ended before trial " + std::to_string(step.index) + "; stopping trials");
            break;
        }
        run_trial(s, job, params, step, *kind, px, cp, h, at);
    }
    feed.pace(0);
    const auto report = finish_and_drain(s, feed, job, p, static_cast<int>(spec.partitions), label, feed_start, std::chrono::seconds(300));
    const auto seen = observe_table(s.trino, p.ns, p.table, spec);
    const auto state = s.catalog.load(p.ns, p.table);  // directly, not through the proxy
    h.record([&](e8::samples& x) {
        auto& r = x.runs[at];
        r.feed_sha256 = report.feed_sha256;
        r.observed = true;
        r.rows = seen.by_seq.rows, r.duplicate_rows = seen.by_seq.duplicate_rows, r.missing_seq = seen.by_seq.missing_seq;
        r.missing_runs = seen.by_seq.missing_runs;
        for (const auto& sn : state.snapshots)
            r.snapshots.push_back({sn.snapshot_id, sn.summary_text("operation"), sn.summary_text("flink.job-id"), sn.flink_watermark(),
                                   sn.summary_int("added-records", 0), {}});
        const auto rr = e8::replay_report(r);
        progress(label + ": " + std::to_string(r.rows) + " rows, " + std::to_string(r.duplicate_rows) + " duplicate seq rows, " +
                 std::to_string(r.missing_seq) + " missing; snapshots added " + std::to_string(rr.excess_records()) +
                 " records more than were sent; " + std::to_string(rr.replayed_watermarks.size()) + " watermark(s) committed twice");
    });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e8::definition>(
        argc, argv, "Experiment 8: a table commit whose reply is lost, refused, or that lands late (a zombie), against SinkV2 "
                    "and FlinkSink, through a fault proxy in front of the Iceberg REST catalog.",
        {}, [](session& s, const e8::parameters& params, const experiment::fault_plan& plan, history& h) {
            for (const auto& w : params.writers) run_writer(s, params, *e8::writer_named(w), plan, h);
        });
}
