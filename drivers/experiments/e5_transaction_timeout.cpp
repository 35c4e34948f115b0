// rosterrig-e5: what does a Kafka transaction timeout shorter than the
// checkpoint interval cost a job that writes to Kafka at exactly-once?
//
// Per run: an input topic with the roster feed, a Flink SQL job copying it to
// an output topic through the Kafka sink at exactly-once (its own
// transactional-id prefix and transaction.timeout.ms), the broker's view of
// the job's transactions sampled every few seconds, and the output read back
// at read_committed and read_uncommitted once the job has had time to commit.
// The stuck-transaction part cancels a job with a transaction open and
// watches a read_committed reader wait. Everything else is in
// include/rosterrig/experiments/e5_transaction_timeout.hpp.
#include <csignal>
#include <fstream>
#include <mutex>

#include <rosterrig/check/append_check.hpp>
#include <rosterrig/experiments/e5_transaction_timeout.hpp>
#include <rosterrig/generate/generator.hpp>

#include "feeder.hpp"
#include "job_waits.hpp"
#include "kafka_reader.hpp"
#include "kafka_transactions.hpp"
#include "periodic.hpp"
#include "process_fault.hpp"
#include "poll.hpp"
#include "runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e5::definition>;

namespace {

// One run's topics, job and transactional ids, undone however the run ends:
// the job cancelled, every transaction it left open aborted (checked with the
// broker), the topics deleted.
class txn_scope {
public:
    txn_scope(session& s, const std::string& label) : created(s.stack, s.on_created), s_(s) {
        const auto p = s.pipeline(label, {});
        spec.in_topic = p.topic;
        spec.group = p.group;
        spec.out_topic = p.topic + "_out";
        spec.transactional_id_prefix = p.topic + "_tx";
    }
    ~txn_scope() {
        for (const auto& job : jobs_) try {
                if (s_.flink.job_state(job) != "CANCELED") s_.flink.cancel(job), s_.flink.wait_for_state(job, {"CANCELED", "FAILED"}, std::chrono::seconds(60));
            } catch (const std::exception& e) {
                progress("cleanup: job " + job + ": " + e.what());
            }
        try {
            std::vector<std::string> open;
            for (const auto& t : list_transactions(s_.stack, spec.transactional_id_prefix))
                if (t.state == "Ongoing" || t.state == "PrepareCommit" || t.state == "PrepareAbort") open.push_back(t.id);
            abort_transactions(s_.stack.kafka(), open);
            if (!open.empty()) progress("cleanup: aborted " + std::to_string(open.size()) + " open transaction(s) of " + spec.transactional_id_prefix);
        } catch (const std::exception& e) {
            progress("cleanup: transactions of " + spec.transactional_id_prefix + ": " + e.what());
        }
    }
    // Creates both topics and submits the job; returns its id.
    std::string launch(int partitions) {
        s_.on_created("transactional-id-prefix", spec.transactional_id_prefix);
        for (const auto& t : {spec.in_topic, spec.out_topic}) {
            created.topic(t);
            s_.admin.create_topic(t, partitions);
        }
        const auto job = submit_kafka_pipeline(s_.stack, spec);
        created.job(job);
        jobs_.push_back(job);
        return job;
    }

    kafka_pipeline_spec spec;
    created_resources created;

private:
    session& s_;
    std::vector<std::string> jobs_;
};

// The broker's transaction states for the prefix, sampled on a thread.
struct state_sampler {
    state_sampler(session& s, const std::string& prefix, std::chrono::steady_clock::time_point t0)
        : tick(std::chrono::milliseconds(3000), t0, [this, &s, prefix](long long t) {
              auto now = list_transactions(s.stack, prefix);
              std::lock_guard lock(mutex);
              for (const auto& x : now) seen.push_back({t, x.id, x.state});
          }) {}
    std::vector<e5::transaction_state> stop() {
        tick.stop();
        std::lock_guard lock(mutex);
        return seen;
    }
    std::mutex mutex;
    std::vector<e5::transaction_state> seen;
    periodic tick;
};

// Where each Flink log ends now, so a run counts only its own lines.
std::map<std::string, std::uintmax_t> log_ends(const stack_config& stack) {
    std::map<std::string, std::uintmax_t> out;
    for (const auto* name : {"flink-jobmanager", "flink-taskmanager"}) {
        std::error_code ec;
        out[stack.log_file(name)] = std::filesystem::file_size(stack.log_file(name), ec);
    }
    return out;
}

// Lines at WARN or ERROR that mention a transaction, written since `from`.
void count_transaction_warnings(const std::map<std::string, std::uintmax_t>& from, e5::job_signals& out) {
    for (const auto& [file, offset] : from) {
        std::ifstream in(file);
        in.seekg(static_cast<std::streamoff>(offset));
        std::string line;
        while (std::getline(in, line)) {
            if (!e5::is_transaction_warning(line)) continue;
            ++out.log_warnings;
            if (out.log_examples.size() < 3) out.log_examples.push_back(line.substr(0, 300));
        }
    }
}

e5::job_signals signals_of(session& s, const std::string& job, const std::map<std::string, std::uintmax_t>& logs) {
    e5::job_signals x;
    x.state = s.flink.job_state(job);
    const auto c = s.flink.checkpoints(job);
    x.completed_checkpoints = c.completed, x.failed_checkpoints = c.failed;
    const auto ex = s.flink.exceptions(job);
    x.exceptions = static_cast<std::int64_t>(ex.size());
    for (const auto& e : ex)
        if (x.exception_names.size() < 3) x.exception_names.push_back(e.name);
    count_transaction_warnings(logs, x);
    return x;
}

e5::output_read read_back(session& s, const std::string& topic, int parts, isolation level, std::uint64_t events) {
    const auto r = read_topic(s.stack.kafka(), topic, parts, level);
    return e5::read_of(check_append(events, r.seqs), r.records);
}

void run_once(session& s, const e5::parameters& params, const e5::run_plan& plan, std::int64_t broker_max,
              const std::vector<kafka_record>& records, history& h) {
    const std::string label = "e5[" + plan.name + "]";
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, plan.part + "_" + std::to_string(h.read([](const e5::samples& x) { return x.runs.size(); })));
    scope.spec.transaction_timeout_ms = plan.timeout_ms;
    scope.spec.config.checkpoint_interval_ms = plan.interval_ms;
    scope.spec.config.parallelism = params.parallelism;
    e5::txn_run run{plan.part, plan.name, plan.repeat, plan.ratio, plan.timeout_ms};
    run.broker_max_timeout_ms = broker_max;
    run.events = params.events;
    const auto logs = log_ends(s.stack);
    const auto t0 = std::chrono::steady_clock::now();
    run.job_id = scope.launch(parts);
    state_sampler states(s, scope.spec.transactional_id_prefix, t0);
    progress(label + ": job " + run.job_id + ", timeout " + std::to_string(plan.timeout_ms) + " ms, interval " +
             std::to_string(plan.interval_ms) + " ms");
    if (plan.part == "above-max") {
        // Does the job fail, and when? It runs the feed like any other run.
        feeder f(s.stack.kafka(), scope.spec.in_topic, records, 0);
        f.finish();
        try {
            poll_until(s.flink.where(), std::chrono::seconds(120), [&] {
                const auto st = s.flink.job_state(run.job_id);
                return st == "FAILED" || st == "RESTARTING" || !s.flink.exceptions(run.job_id).empty();
            }, [&] { return "job " + run.job_id + " with a timeout above the broker's maximum has not failed"; });
            run.failed_after_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
        } catch (const live_error& e) {
            progress(label + ": " + e.what());
        }
        run.interval_ms = s.flink.checkpoint_config(run.job_id).interval_ms;
    } else {
        wait_all_running(s.flink, run.job_id, std::chrono::seconds(120));
        run.interval_ms = s.flink.checkpoint_config(run.job_id).interval_ms;
        if (run.interval_ms != plan.interval_ms)
            throw live_error(s.flink.where(), "job " + run.job_id + " runs every " + std::to_string(run.interval_ms) +
                                                  " ms, not the requested " + std::to_string(plan.interval_ms));
        feeder(s.stack.kafka(), scope.spec.in_topic, records,
               static_cast<double>(records.size()) * 1000.0 / static_cast<double>(params.feed_ms)).finish();
        // Time to commit: `commit_wait_checkpoints` more checkpoints, then the
        // broker's abort sweep (every 10 s) a chance to act on what timed out.
        // A job failing over may not complete them: what it did is recorded, not waited for forever.
        try {
            auto id = s.flink.checkpoints(run.job_id).latest_completed_id;
            for (std::int64_t i = 0; i < params.commit_wait_checkpoints; ++i)
                id = wait_checkpoint_above(s.flink, run.job_id, id, std::chrono::seconds(plan.interval_ms / 1000 * 2 + 60));
        } catch (const live_error& e) {
            progress(label + ": " + e.what() + "; reading what was committed");
        }
        std::this_thread::sleep_for(std::chrono::seconds(11));
    }
    run.states = states.stop();
    for (const auto& x : run.states) {  // the timeout the broker registered, for one of the job's ids
        try {
            const auto d = describe_transaction(s.stack, x.transactional_id);
            if (d.timeout_ms > 0) { run.registered_timeout_ms = d.timeout_ms; break; }
        } catch (const live_error&) {
        }
    }
    run.committed = read_back(s, scope.spec.out_topic, parts, isolation::read_committed, params.events);
    run.uncommitted = read_back(s, scope.spec.out_topic, parts, isolation::read_uncommitted, params.events);
    run.signals = signals_of(s, run.job_id, logs);
    progress(label + ": " + e5::read_text(run));
    h.record([&](e5::samples& x) { x.runs.push_back(std::move(run)); });
}

// Ends the job one of two ways: a graceful cancel (the writer closes), or a
// SIGKILL of the TaskManager followed at once by a cancel, so the writer never
// closes and no restart recovers its transaction. Returns the cancel's time.
long long end_job(session& s, const std::string& job, const std::string& ending) {
    long long old_pid = 0;
    if (ending == "kill-then-cancel") {
        old_pid = read_pid(s.taskmanager_pid_file());
        if (old_pid <= 0 || ::kill(static_cast<pid_t>(old_pid), SIGKILL) != 0)
            throw live_error(s.taskmanager(), "cannot SIGKILL the TaskManager (pid file " + s.taskmanager_pid_file() + ")");
    }
    s.flink.cancel(job);
    s.flink.wait_for_state(job, {"CANCELED"}, std::chrono::seconds(60));
    const long long at = now_ms();
    if (old_pid > 0)  // the supervisor brings a TaskManager back for the runs that follow
        poll_until(s.taskmanager(), std::chrono::seconds(90), [&] {
            const auto pid = read_pid(s.taskmanager_pid_file());
            return pid > 0 && pid != old_pid && process_alive(pid) && s.flink.registered_taskmanagers() >= 1;
        }, [&] { return std::string("no TaskManager registered again after the SIGKILL"); });
    return at;
}

void run_stuck(session& s, const e5::parameters& params, const std::string& ending, const std::vector<kafka_record>& records,
               const std::vector<kafka_record>& plain, history& h) {
    const std::string label = "e5[stuck, " + ending + "]";
    const int parts = static_cast<int>(params.partitions);
    txn_scope scope(s, "stuck_" + ending);
    scope.spec.transaction_timeout_ms = params.stuck_timeout_ms;
    scope.spec.config.checkpoint_interval_ms = params.stuck_interval_ms;
    scope.spec.config.parallelism = params.parallelism;
    e5::stuck_run st;
    st.ending = ending;
    st.requested_timeout_ms = params.stuck_timeout_ms;
    st.plain_records = plain.size();
    const auto t0 = std::chrono::steady_clock::now();
    st.job_id = scope.launch(parts);
    state_sampler states(s, scope.spec.transactional_id_prefix, t0);
    wait_all_running(s.flink, st.job_id, std::chrono::seconds(120));
    st.interval_ms = s.flink.checkpoint_config(st.job_id).interval_ms;
    feeder(s.stack.kafka(), scope.spec.in_topic, records, 0).finish();
    // A transaction is open once the sink has written into it.
    const auto open = poll_until(s.stack.kafka(), std::chrono::seconds(90), [&]() -> std::optional<std::vector<transaction_info>> {
        std::vector<transaction_info> ongoing;
        for (const auto& t : list_transactions(s.stack, scope.spec.transactional_id_prefix))
            if (t.state == "Ongoing") ongoing.push_back(t);
        return ongoing.empty() ? std::nullopt : std::optional(ongoing);
    }, [&] { return "no transaction of " + scope.spec.transactional_id_prefix + " is open"; }, {std::chrono::milliseconds(1000)});
    long long oldest = -1;
    for (const auto& t : open) {
        st.open_at_cancel.push_back(t.id);
        const auto d = describe_transaction(s.stack, t.id);
        if (d.timeout_ms > 0) st.registered_timeout_ms = d.timeout_ms;
        if (d.start_ms > 0 && (oldest < 0 || d.start_ms < oldest)) oldest = d.start_ms;
    }
    const long long cancelled_at = end_job(s, st.job_id, ending);
    st.open_for_ms_at_cancel = oldest > 0 ? cancelled_at - oldest : -1;
    progress(label + ": job cancelled with " + std::to_string(open.size()) + " transaction(s) open; writing " +
             std::to_string(plain.size()) + " plain records");
    feeder(s.stack.kafka(), scope.spec.out_topic, plain, 0).finish();
    const auto written = std::chrono::steady_clock::now();
    st.plain_acked_after_cancel_ms = now_ms() - cancelled_at;
    const std::uint64_t first_plain = params.events + 1;
    poll_until(s.stack.kafka(), std::chrono::seconds(params.stuck_timeout_ms / 1000 + 90), [&] {
        const auto r = read_topic(s.stack.kafka(), scope.spec.out_topic, parts, isolation::read_committed);
        std::int64_t visible = 0;
        for (auto seq : r.seqs) visible += seq >= first_plain;
        const auto t = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - written).count();
        st.visibility.push_back({t, visible});
        if (visible >= static_cast<std::int64_t>(plain.size())) {
            st.all_visible_after_ms = t;
            return true;
        }
        return false;
    }, [&] { return std::string("the plain records are still hidden from read_committed readers"); },
       {std::chrono::milliseconds(2000), std::chrono::seconds(15)});
    st.states = states.stop();
    progress(label + ": plain records hidden for " + std::to_string(e5::hidden_for_ms(st)) + " ms");
    h.record([&](e5::samples& x) { x.stuck.push_back(std::move(st)); });
}

}  // namespace

int main(int argc, char** argv) {
    return run_experiment<e5::definition>(
        argc, argv, "Experiment 5: what a Kafka transaction timeout shorter than the checkpoint interval costs a job "
                    "writing to Kafka at exactly-once; where the rule bites; a timeout above the broker's maximum; and "
                    "the transaction a cancelled job leaves open.",
        {{"--pair-timeouts", "MS,MS", "the reference pair's timeouts, in ms (default 5000,300000)", &e5::parameters::pair_timeouts_ms}},
        [](session& s, const e5::parameters& params, const experiment::fault_plan&, history& h) {
            const auto events = generate(params.feed());
            const auto records = kafka_records(events);
            const auto max = broker_setting(s.stack, "transaction.max.timeout.ms");
            for (const auto& plan : e5::runs_of(params)) run_once(s, params, plan, max, records, h);
            run_once(s, params, {"above-max", "above the broker's maximum", params.boundary_interval_ms, max + params.above_max_by_ms, 1, std::nullopt},
                     max, records, h);
            auto more = params.feed();
            more.events += params.stuck_plain_records;
            auto all = kafka_records(generate(more));
            const std::vector<kafka_record> plain(all.end() - static_cast<long>(params.stuck_plain_records), all.end());
            const std::vector<kafka_record> first(records.begin(), records.begin() + static_cast<long>(records.size() / 4));
            for (const std::string ending : {"cancel", "kill-then-cancel"}) run_stuck(s, params, ending, first, plain, h);
        });
}
