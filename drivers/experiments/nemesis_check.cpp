// rosterrig-nemesis-check: the nemesis's two process-and-reply faults under a
// running job, end to end. An exactly-once append job whose catalog client
// goes through the fault proxy; the catalog process is paused (SIGSTOP) for
// --pause-ms across at least one commit and resumed; then one commit's reply
// is lost through the proxy. The job must recover, the table must hold every
// event of the seed once, and nothing may stay paused or proxied, also when
// the check is stopped with Ctrl-C during the pause. Local stack only: it
// signals the catalog by the pid file the stack wrote. With --jobmanager (off
// by default until a live run verifies it), last, the JobManager is killed and
// started again (compose/stack up flink) and must answer with its
// TaskManagers registered; the job it ran is lost with it, which the check
// records and does not judge.
#include <iostream>
#include <optional>
#include <thread>

#include <boost/json.hpp>
#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/generate/generator.hpp>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/json_file.hpp>

#include "roles/feeder.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/job_waits.hpp"
#include "roles/kill_run.hpp"
#include "roles/observe_table.hpp"
#include "roles/process_faults.hpp"
#include "adapters/process_fault.hpp"
#include "adapters/process_pause.hpp"
#include "runner/progress.hpp"
#include "roles/proxied_commits.hpp"
#include "runner/run_lock.hpp"
#include "roles/session.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
namespace json = boost::json;
using std::chrono::seconds;

namespace {

// Sleeps `ms`, waking every 100 ms so that Ctrl-C ends the wait at once.
void interruptible_sleep(long long ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until) {
        throw_if_interrupted();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

// Removes every proxy rule and releases every held reply when it goes out of
// scope: declared after the pipeline's scope, it runs before its clean-up.
struct heal_proxy_on_exit {
    proxy::fault_proxy& px;
    ~heal_proxy_on_exit() {
        try {
            px.heal();
        } catch (...) {
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    roster_spec spec;
    spec.events = 3000, spec.seed = 32;
    long long pause_ms = 5000;
    const double rate = 150;  // events per second: the feed outlasts both faults
    std::string out_file;
    bool jobmanager = false;
    cli::arg_parser args{
        "rosterrig-nemesis-check",
        "Pauses the catalog across a commit of a running job, then loses one commit's reply through the fault "
        "proxy, and checks that the job recovers, the table holds every event once and nothing is left paused "
        "or proxied (the local stack only)."};
    args.option(
        "--pause-ms", pause_ms, "MS",
        "how long the catalog stays paused at least (default 5000; at least the 2 s checkpoint interval), then until a commit request waits on it, at most 30 s more");
    args.option("--events", spec.events, "N", "events fed over the check (default 3000)");
    args.option("--out", out_file, "FILE", "write the result JSON here too");
    args.flag("--jobmanager", jobmanager,
              "last, kill the JobManager and start it again (compose/stack up flink); it must answer REST "
              "/overview with its TaskManagers registered (off by default: not yet verified on a live stack)");
    try {
        if (!args.parse(argc, argv)) return 0;
        if (pause_ms < 2000)
            throw cli::usage_error("--pause-ms: a pause shorter than the 2 s checkpoint interval may span no commit");
        if (spec.events < 1000)
            throw cli::usage_error("--events: at least 1000, so that the feed outlasts both faults");
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-nemesis-check: " << e.what() << "\n" << args.usage();
        return 2;
    }
    spec.providers = std::max<std::uint64_t>(1, spec.events / 6);
    install_interrupt_handler();
    const auto stack = stack_config::load("");
    const run_lock holding_the_stack(stack.state_dir);
    const long long started = now_ms();
    try {
        session s(stack, "nemesis");
        proxy::proxy_options o;
        o.upstream_host = stack.catalog().host, o.upstream_port = stack.catalog().port;
        o.keep_body_of_method = "POST";
        proxy::fault_proxy px(o);  // outlives the job: its cancellation may still talk to the catalog
        px.start();
        pipeline_scope scope(s);
        const heal_paused_on_exit resume_first;   // destroyed before the scope: clean-up never meets a paused catalog
        const heal_proxy_on_exit heal_first{px};  // nor a proxy rule
        experiment::pipeline_config cfg{experiment::table_kind::append,
                                        experiment::checkpoint_mode::exactly_once,
                                        experiment::iceberg_sink::sink_v2,
                                        experiment::warehouse::s3,
                                        experiment::startup_mode::earliest_offset,
                                        2000,
                                        1};
        auto p = s.pipeline("check", cfg);
        p.catalog_address = "127.0.0.1:" + std::to_string(px.port());
        const proxied_commit_path cp(px, p.ns, p.table);
        const auto job = scope.launch(p, static_cast<int>(spec.partitions));
        feeder feed(stack.kafka(), p.topic, kafka_records(generate(spec)), rate);
        const long long feed_start = now_ms();
        progress("nemesis: job " + job + " (" + scope.writer.in_force(job, p).sink + "), table " + p.ns + "." +
                 p.table + ", topic " + p.topic + ", catalog through the proxy at " + p.catalog_address);
        poll_until(
            cp.where, seconds(120), [&] { return cp.answered_since(1) >= 2; },
            [] { return std::string("two commits through the proxy"); });

        // 1. The catalog paused across a commit, then resumed.
        auto paused = pause_process(stack.catalog(), stack.pid_file("catalog"));
        // SIGSTOP is delivered asynchronously: the kernel's state letter shows it within moments.
        char state_while_paused = process_state(paused.pid);
        for (int i = 0; i < 50 && state_while_paused != 'T'; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            state_while_paused = process_state(paused.pid);
        }
        progress("nemesis: catalog paused (pid " + std::to_string(paused.pid) + ", state " + state_while_paused +
                 ") for " + std::to_string(pause_ms) + " ms, then until a commit request waits on it");
        interruptible_sleep(pause_ms);
        // Then until a request of the committer's waits on the stopped catalog,
        // at most 30 s more: under load a 2 s checkpoint can take longer than
        // the pause, and a pause no commit met tests nothing.
        const auto waiting = [&] {
            for (const auto& r : table_requests(px, cp.committer_path, 1))
                if (r.answered_at_ms == 0 && r.dropped_at_ms == 0) return true;
            return false;
        };
        for (int i = 0; i < 300 && !waiting(); ++i) interruptible_sleep(100);
        // Taken before the SIGCONT: the catalog may answer before this thread,
        // on a loaded machine, reads the clock after it (the pause record's time).
        const long long resume_sent_at_ms = now_ms();
        resume_process(stack.catalog(), paused);
        const auto log_at_resume = px.log().size() + 1;
        await_commit_after(cp, log_at_resume, paused.resumed_at_ms, "the catalog's resume");
        // The pause spanned a commit when a request of the committer's (its
        // table load, the commit POST, or the metrics report that follows the
        // POST) was in flight while the catalog was stopped and was answered
        // only after it resumed: the commit waited on it. In flight includes a
        // request that arrived just before the stop: a POST answered just
        // before it leaves the committer waiting on its report through the pause.
        std::size_t held_by_pause = 0;
        for (const auto& r : table_requests(px, cp.committer_path, 1))
            if (r.received_at_ms < resume_sent_at_ms &&
                (r.answered_at_ms >= resume_sent_at_ms || r.dropped_at_ms >= resume_sent_at_ms))
                ++held_by_pause;
        progress(
            "nemesis: catalog resumed; " + std::to_string(held_by_pause) +
            " committer request(s) (the table's path or its metrics report) in flight during the pause waited for the resume");
        if (held_by_pause == 0)  // what the proxy saw around the pause, for whoever reads the failure
            for (const auto& r : table_requests(px, cp.committer_path, 1))
                if (r.received_at_ms >= paused.paused_at_ms - 5000)
                    progress("nemesis:   " + r.method + " received " +
                             std::to_string(r.received_at_ms - paused.paused_at_ms) + " ms after the pause, answered " +
                             (r.answered_at_ms
                                  ? std::to_string(r.answered_at_ms - resume_sent_at_ms) + " ms after the resume"
                                  : std::string("never")) +
                             (r.dropped_at_ms ? ", dropped" : "") + (r.note.empty() ? "" : " (" + r.note + ")"));

        // 2. One commit's reply lost: applied upstream, the client's connection dropped.
        const long long armed_at = now_ms();
        const auto rule =
            px.add_rule(experiment::fault_kind::http_lose_reply, {.method = "POST", .path = cp.pattern, .count = 1});
        const auto lost = cp.wait_rule(
            log_at_resume, rule, seconds(120), [](const auto& r) { return r.dropped_at_ms > 0 || !r.note.empty(); },
            "the lost reply");
        wait_restart_after(s.flink, job, armed_at, seconds(120));
        const auto healed = px.heal();
        const long long healed_at = now_ms();
        wait_all_running(s.flink, job, seconds(180));
        await_commit_after(cp, log_at_resume, healed_at, "the lost reply's heal");
        progress("nemesis: the reply to the commit of checkpoint " + std::to_string(lost.watermark) +
                 " was lost; the job restarted and commits again");

        feed.pace(0);
        const auto report =
            finish_and_drain(s, feed, job, p, static_cast<int>(spec.partitions), "nemesis", feed_start, seconds(300));
        const auto seen = observe_table(s.trino, s.table_checks, p.ns, p.table, spec).by_seq;
        const char catalog_state = process_state(paused.pid);
        const auto rules_left = px.rules().size();
        // 3. (--jobmanager) The JobManager killed and started again, after the table was read back.
        std::optional<experiment::applied_fault> jm;
        std::string job_after_jobmanager;
        if (jobmanager) {
            jm = kill_and_restart_jobmanager(stack, seconds(300));
            job_after_jobmanager = "not known to the new JobManager";  // a session cluster without HA forgets it
            for (const auto& [id, state] : s.flink.jobs())
                if (id == job) job_after_jobmanager = state;
            progress("nemesis: JobManager killed and started again; " + jm->notes["flink_taskmanager"].back() +
                     "; job " + job + ": " + job_after_jobmanager);
        }
        const bool passed = held_by_pause > 0 && state_while_paused == 'T' && lost.upstream_status == 200 &&
                            seen.matches() && seen.rows == spec.events && catalog_state != 'T' && rules_left == 0 &&
                            (!jm || jm->healed());
        progress("nemesis: " + std::to_string(seen.rows) + " rows, " + std::to_string(seen.duplicate_rows) +
                 " duplicates, " + std::to_string(seen.missing_runs.size()) + " missing runs; catalog state " +
                 catalog_state + ", " + std::to_string(rules_left) +
                 " proxy rules left: " + (passed ? "passed" : "FAILED"));
        json::value result = {
            {"check", "nemesis"},
            {"job_id", job},
            {"events", spec.events},
            {"acknowledged", report.acknowledged},
            {"catalog_pid", paused.pid},
            {"catalog_state_while_paused", std::string(1, state_while_paused)},
            {"paused_at_ms", paused.paused_at_ms},
            {"resumed_at_ms", paused.resumed_at_ms},
            {"committer_requests_held_by_the_pause", static_cast<std::uint64_t>(held_by_pause)},
            {"lost_reply_checkpoint", lost.watermark},
            {"lost_reply_upstream_status", lost.upstream_status},
            {"rules_removed_by_heal", static_cast<std::uint64_t>(healed.first)},
            {"rows", seen.rows},
            {"duplicate_rows", seen.duplicate_rows},
            {"missing_runs", static_cast<std::uint64_t>(seen.missing_runs.size())},
            {"catalog_state_at_end", std::string(1, catalog_state)},
            {"proxy_rules_left", static_cast<std::uint64_t>(rules_left)},
            {"passed", passed},
            {"started_at_ms", started},
            {"finished_at_ms", now_ms()},
        };
        if (jm) {
            result.as_object()["jobmanager_fault"] = result::to_json(*jm);
            result.as_object()["job_after_jobmanager"] = job_after_jobmanager;
        }
        if (!out_file.empty()) result::write_json_file(out_file, result);
        std::cout << json::serialize(result) << "\n";
        return passed ? 0 : 1;
    } catch (const interrupted& e) {
        std::cerr << "rosterrig-nemesis-check: " << e.what()
                  << "; the catalog was resumed and the run's topic, table and job removed\n";
        return 130;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-nemesis-check: FAILED: " << e.what() << "\n";
        return 1;
    }
}
