// rosterrig-e8: a table commit whose reply is lost, refused, or that lands late.
// One job per writer (SinkV2, FlinkSink) and table, its catalog client through the
// fault proxy (with a 10 s socket timeout on the short-timeout tables); each trial
// hits one commit POST and, in the zombie cells and held-kill-late-release, kills
// the committer's TaskManager while that POST waits or its reply is held
// (docs/E8_DESIGN.md); each run ends with the store listed against the metadata.
// Trials: drivers/live/jobs/proxied_commit_trial.hpp; everything judged is in
// include/rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp.
#include <rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/kill_run.hpp"
#include "roles/observe_table.hpp"
#include "adapters/table_store.hpp"
#include "jobs/proxied_commit_trial.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e8::definition>;

namespace {

void run_writer(session& s, const e8::parameters& params, const e8::writer_kind& w, e8::table_variant table,
                const experiment::fault_plan& plan, history& h) {
    const std::string name = e8::run_name(w.name, table);
    const std::string label = "e8[" + name + "]";
    proxy::proxy_options o;
    o.upstream_host = s.stack.catalog().host, o.upstream_port = s.stack.catalog().port;
    o.keep_body_of_method = "POST";
    proxy::fault_proxy px(o);  // outlives the job: its cancellation may still talk to the catalog
    px.start();
    pipeline_scope scope(s);
    const auto spec = params.feed();
    auto p = s.pipeline(name, e8::pipeline_of(params, w.sink, table));
    p.job = params.job;  // a user's template runs in place of the rig's
    if (e8::retries_off(table)) p.table_properties["commit.retry.num-retries"] = "0";
    p.catalog_address = "127.0.0.1:" + std::to_string(px.port());
    p.catalog_properties = {{"rest.client.socket-timeout-ms", std::to_string(params.socket_timeout_of(table))}};
    const proxied_commit_path cp(px, p.ns, p.table);
    const std::string job = scope.launch(p, static_cast<int>(spec.partitions));
    const auto in_force = scope.writer.in_force(job, p);
    feeder feed(s.stack.kafka(), p.topic, kafka_records(generate(spec)), params.rate);
    const long long feed_start = now_ms();
    const std::size_t at = h.record([&](e8::samples& x) {
        e8::writer_run r;
        r.writer = w.name;
        if (table != e8::table_variant::append) r.on_table = table;
        r.job = job, r.table = p.ns + "." + p.table, r.mode_in_force = in_force.mode,
        r.interval_in_force_ms = in_force.interval_ms, r.sink_in_force = in_force.sink;
        r.catalog_properties = p.catalog_properties, r.proxy_address = p.catalog_address, r.events = spec.events;
        r.table_properties = s.catalog.load(p.ns, p.table).properties;  // directly, not through the proxy
        x.runs.push_back(std::move(r));
        return x.runs.size() - 1;
    });
    progress(label + ": job " + job + " (" + in_force.sink + "), catalog client through the proxy at " +
             p.catalog_address);
    for (const auto& step : plan.steps) {
        if (step.variant.rfind(name + "/", 0) != 0) continue;
        const auto kind = experiment::parse_name<e8::cell>(step.variant.substr(name.size() + 1));
        if (feed.sent() >= feed.total()) {
            progress(label + ": the feed ended before trial " + std::to_string(step.index) + "; stopping trials");
            break;
        }
        run_proxied_commit_trial(s, job, params, step, *kind, px, cp, [&](const e8::trial& t) {
            h.record([&](e8::samples& x) { e8::keep_trial(x.runs[at], t); });
        });
    }
    feed.pace(0);
    const auto report = finish_and_drain(s, feed, job, p, static_cast<int>(spec.partitions), label, feed_start,
                                         std::chrono::seconds(300));
    const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec);
    const auto state = s.catalog.load(p.ns, p.table);  // directly, not through the proxy
    const auto store = check_table_store(s, p.ns, p.table, state.location);
    h.record([&](e8::samples& x) {
        auto& r = x.runs[at];
        r.store = store;
        r.feed_sha256 = report.feed_sha256;
        r.observed = true;
        if (e8::kind_of(table) == experiment::table_kind::upsert) {
            r.rows = seen.by_npi.rows, r.rows_sharing_npi = seen.by_npi.rows_sharing_npi;
            r.missing_npis = seen.by_npi.missing_npis.size(), r.stale_rows = seen.by_npi.stale_rows;
        } else {
            r.rows = seen.by_seq.rows, r.duplicate_rows = seen.by_seq.duplicate_rows,
            r.missing_seq = seen.by_seq.missing_seq;
            r.missing_runs = seen.by_seq.missing_runs;
        }
        for (const auto& sn : state.snapshots) r.snapshots.push_back(replay_entry_of(sn));
        const auto rr = e8::replay_report(r);
        progress(label + ": " + std::to_string(r.rows) + " rows, " + e8::table_text(r) + "; snapshots added " +
                 std::to_string(rr.excess_records()) + " records more than were sent; " +
                 std::to_string(rr.replayed_watermarks.size()) + " watermark(s) committed twice");
    });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e8::definition>(
        argc, argv,
        "Experiment 8: a table commit whose reply is lost, refused, or that lands late (a zombie), against SinkV2 "
        "and FlinkSink, through a fault proxy in front of the Iceberg REST catalog.",
        {}, [](session& s, const e8::parameters& params, const experiment::fault_plan& plan, history& h) {
            // A resumed run (--resume) keeps the writer runs it read to the end and redoes the one it stopped in.
            h.record([](e8::samples& x) { return e8::drop_unobserved(x); });
            for (const auto& w : params.writer_names())
                for (const auto& t : params.tables()) {
                    if (h.read([&](const e8::samples& x) { return e8::recorded(x, e8::run_name(w, t.table)); })) {
                        progress("e8[" + e8::run_name(w, t.table) + "]: recorded before the resume; kept");
                        continue;
                    }
                    run_writer(
                        s, params,
                        params.job ? e8::writer_kind{w, experiment::iceberg_sink::flink_sink} : *e8::writer_named(w),
                        t.table, plan, h);
                }
        });
}
