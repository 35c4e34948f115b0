#include "jobs/kafka_txn_job.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <rosterrig/check/append_check.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/faults.hpp"
#include "roles/feeder.hpp"
#include "roles/job_waits.hpp"
#include "roles/process_faults.hpp"
#include "adapters/kafka_transactions.hpp"
#include "adapters/poll.hpp"
#include "adapters/process_fault.hpp"
#include "runner/progress.hpp"
#include "roles/remove_resource.hpp"

namespace rosterrig::live {

txn_scope::txn_scope(session& s, const std::string& label, const txn_job_settings& settings)
    : created(s.stack, s.on_created), s_(s) {
    const auto p = s.pipeline(label, {});
    spec.in_topic = p.topic;
    spec.group = p.group;
    spec.out_topic = p.topic + "_out";
    spec.transactional_id_prefix = p.topic + "_tx";
    spec.transaction_timeout_ms = settings.transaction_timeout_ms;
    spec.config.checkpoint_interval_ms = settings.checkpoint_interval_ms;
    spec.config.parallelism = settings.parallelism;
}

txn_scope::~txn_scope() {
    // The jobs end before the prefix's transactions are aborted, or a running
    // job would open more; `created` then removes the topics.
    for (const auto& job : jobs_) remove_and_log(s_.stack, experiment::resource_kind::job, job);
    remove_and_log(s_.stack, experiment::resource_kind::transactional_id_prefix, spec.transactional_id_prefix);
}

std::string txn_scope::submit() {
    const auto job = submit_kafka_pipeline(s_.stack, spec);
    created.job(job);
    jobs_.push_back(job);
    return job;
}

std::string txn_scope::launch(int partitions) {
    s_.on_created(experiment::name_of(experiment::resource_kind::transactional_id_prefix),
                  spec.transactional_id_prefix);
    for (const auto& t : {spec.in_topic, spec.out_topic}) {
        created.topic(t);
        s_.admin.create_topic(t, partitions);
    }
    return submit();
}

std::string txn_scope::relaunch_from(const std::string& savepoint) {
    spec.restore_from = savepoint;
    return submit();
}

transaction_sampler::transaction_sampler(session& s, const std::string& prefix,
                                         std::chrono::steady_clock::time_point t0)
    : tick_(std::chrono::milliseconds(3000), t0, [this, &s, prefix](long long t) {
          auto now = list_transactions(s.stack, prefix);
          std::lock_guard lock(mutex_);
          for (const auto& x : now) seen_.push_back({t, x.id, x.state});
      }) {}

std::vector<e5::transaction_state> transaction_sampler::stop() {
    tick_.stop();
    std::lock_guard lock(mutex_);
    return seen_;
}

log_marks mark_flink_logs(const stack_config& stack) {
    log_marks out;
    std::vector<std::string> names{"flink-jobmanager"};
    names.insert(names.end(), std::begin(stack_config::taskmanagers), std::end(stack_config::taskmanagers));
    for (const auto& name : names) {
        std::error_code ec;
        out[stack.log_file(name)] = std::filesystem::file_size(stack.log_file(name), ec);
    }
    return out;
}

namespace {
void count_transaction_warnings(const log_marks& since, const std::string& prefix, e5::job_signals& out) {
    for (const auto& [file, offset] : since) {
        std::ifstream in(file);
        in.seekg(static_cast<std::streamoff>(offset));
        std::string line;
        while (std::getline(in, line)) {
            if (!e5::is_transaction_warning_of(line, prefix)) continue;
            ++out.log_warnings;
            if (out.log_examples.size() < 3) out.log_examples.push_back(line.substr(0, 300));
        }
    }
}
}  // namespace

e5::job_signals signals_of(session& s, const std::string& job, const std::string& prefix, const log_marks& since) {
    e5::job_signals x;
    x.state = s.flink.job_state(job);
    const auto c = s.flink.checkpoints(job);
    x.completed_checkpoints = c.completed, x.failed_checkpoints = c.failed;
    const auto ex = s.flink.exceptions(job);
    x.exceptions = static_cast<std::int64_t>(ex.size());
    for (const auto& e : ex)
        if (x.exception_names.size() < 3) x.exception_names.push_back(e.name);
    count_transaction_warnings(since, prefix, x);
    return x;
}

e5::output_read read_back(session& s, const std::string& topic, int partitions, isolation level, std::uint64_t events) {
    const auto r = read_topic(s.stack.kafka(), topic, partitions, level);
    return e5::read_of(check_append(events, r.seqs), r.records);
}

std::vector<int> open_transactions::partitions_of(const std::string& topic) const {
    std::vector<int> out;
    for (const auto& tp : topic_partitions)
        if (tp.size() > topic.size() + 1 && tp.rfind(topic + "-", 0) == 0) try {
                out.push_back(std::stoi(tp.substr(topic.size() + 1)));
            } catch (const std::exception&) {
            }
    return out;
}

open_transactions describe_open(session& s, const std::vector<std::string>& ids) {
    open_transactions o;
    for (const auto& id : ids) {
        const auto d = describe_transaction(s.stack, id);
        if (d.timeout_ms > 0) o.registered_timeout_ms = d.timeout_ms;
        if (d.start_ms > 0 && (o.oldest_start_ms < 0 || d.start_ms < o.oldest_start_ms)) o.oldest_start_ms = d.start_ms;
        o.topic_partitions.insert(o.topic_partitions.end(), d.topic_partitions.begin(), d.topic_partitions.end());
    }
    return o;
}

long long cancel(session& s, const std::string& job) {
    s.flink.cancel(job);
    s.flink.wait_for_state(job, {"CANCELED"}, std::chrono::seconds(60));
    return now_ms();
}

long long kill_taskmanager_then_cancel(session& s, const std::string& job) {
    const auto tm = s.taskmanager_of(job);
    // Through the one interface for process faults: a stack description's own kill, or SIGKILL by the pid file.
    const process_target target{experiment::fault_target::flink_taskmanager, tm.address, tm.pid_file,
                                fault_placeholders(tm, job)};
    const auto killed = kill_target(s.stack, target);
    if (const auto* commands = killed.commands) {
        const long long at = cancel(s, job);
        poll_until(
            tm.address, std::chrono::seconds(commands->deadline_seconds),
            [&] {
                return (commands->came_back.empty() || came_back_once(s.stack, killed)) &&
                       s.all_taskmanagers_registered();
            },
            [&] { return std::string("the TaskManager did not come back after the kill command"); });
        return at;
    }
    const long long at = cancel(s, job);
    // the supervisor brings the TaskManager back for what follows
    poll_until(
        tm.address, std::chrono::seconds(90),
        [&] { return came_back_once(s.stack, killed) && s.all_taskmanagers_registered(); },
        [&] { return std::string("the TaskManager did not register again after the SIGKILL"); });
    return at;
}

killed_after_savepoint savepoint_then_kill(session& s, const std::string& job) {
    killed_after_savepoint k;
    k.triggered_at_ms = now_ms();
    k.savepoint = take_savepoint(s.flink, job, savepoint_dir_of(s.stack, job), [&] {
        k.savepoint_at_ms = now_ms();
        kill_taskmanager_then_cancel(s, job);
    });
    return k;
}

killed_after_savepoint savepoint_mid_feed(session& s, const std::string& job, long long before,
                                          std::int64_t interval_ms) {
    wait_checkpoint_above(s.flink, job, before, std::chrono::seconds(interval_ms / 1000 * 2 + 60));
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min<std::int64_t>(interval_ms / 4, 5000)));
    return savepoint_then_kill(s, job);
}

void let_it_commit(session& s, const std::string& job, std::int64_t n, std::int64_t interval_ms,
                   const std::string& label) {
    try {
        wait_more_checkpoints(s.flink, job, n, std::chrono::seconds(interval_ms / 1000 * 2 + 60));
    } catch (const live_error& e) {
        progress(label + ": " + e.what() + "; reading what was committed");
    }
    std::this_thread::sleep_for(std::chrono::seconds(11));
}

std::optional<std::int64_t> registered_timeout(session& s, const std::vector<e5::transaction_state>& sampled) {
    for (const auto& x : sampled) try {
            const auto d = describe_transaction(s.stack, x.transactional_id);
            if (d.timeout_ms > 0) return d.timeout_ms;
        } catch (const live_error&) {
        }
    return std::nullopt;
}

std::vector<std::string> feed_into_open_transaction(session& s, const std::string& job, const std::string& topic,
                                                    const std::vector<kafka_record>& records, const std::string& prefix,
                                                    std::chrono::seconds deadline) {
    const auto split = records.begin() + static_cast<std::ptrdiff_t>(records.size() - records.size() / 10);
    const long long completed_before = s.flink.checkpoints(job).completed;
    feeder(s.stack.kafka(), topic, {records.begin(), split}, 0).finish();
    bool tail_fed = split == records.end();
    auto feed_tail = [&] {
        feeder(s.stack.kafka(), topic, {split, records.end()}, 0).finish();
        tail_fed = true;
    };
    auto ongoing = [&] {
        std::vector<std::string> ids;
        for (const auto& t : list_transactions(s.stack, prefix))
            if (t.state == "Ongoing") ids.push_back(t.id);
        return ids;
    };
    auto open = poll_until(
        s.stack.kafka(), deadline,
        [&]() -> std::optional<std::vector<std::string>> {
            auto ids = ongoing();
            if (!ids.empty()) return ids;
            if (!tail_fed && s.flink.checkpoints(job).completed > completed_before)
                feed_tail();  // the head was committed
            return std::nullopt;
        },
        [&] {
            return "no transaction of " + prefix + " is open (" +
                   std::to_string(s.flink.checkpoints(job).completed - completed_before) +
                   " checkpoints completed since the feed began; tail " + (tail_fed ? "fed" : "held") + ")";
        },
        {std::chrono::milliseconds(1000)});
    if (tail_fed) return open;
    feed_tail();  // joins the open transaction, or opens the next
    auto now_open = ongoing();
    return now_open.empty() ? open : now_open;
}

std::vector<e5::transaction_description> describe_ongoing(session& s, const std::string& prefix) {
    std::vector<e5::transaction_description> out;
    for (const auto& t : list_transactions(s.stack, prefix)) {
        if (t.state != "Ongoing") continue;
        const auto d = describe_transaction(s.stack, t.id);
        out.push_back({t.id, d.start_ms, d.timeout_ms});
    }
    return out;
}

void watch_plain_records(session& s, e5::stuck_run& st, const std::string& topic, int partitions,
                         const std::map<std::uint64_t, int>& partition_of, std::chrono::seconds deadline) {
    const auto written = std::chrono::steady_clock::now();
    poll_until(
        s.stack.kafka(), deadline,
        [&] {
            const auto read = read_topic(s.stack.kafka(), topic, partitions, isolation::read_committed);
            const auto t =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - written)
                    .count();
            return e5::note_committed_read(st, partition_of, read.seqs, t);
        },
        [&] { return std::string("the plain records are still hidden from read_committed readers"); },
        {std::chrono::milliseconds(2000), std::chrono::seconds(15)});
}

std::pair<std::vector<kafka_record>, std::vector<kafka_record>> stuck_feeds(const e5::parameters& p,
                                                                            const std::vector<kafka_record>& records) {
    auto more = p.feed();
    more.events += p.stuck_plain_records;
    const auto all = kafka_records(generate(more));
    return {{records.begin(), records.begin() + static_cast<long>(records.size() / 4)},
            {all.end() - static_cast<long>(p.stuck_plain_records), all.end()}};
}

}  // namespace rosterrig::live
