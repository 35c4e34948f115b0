// rosterrig-e2: restoring from a savepoint older than the table.
//
// Per repeat: an append (or upsert) job writes a first batch; a savepoint is
// taken early; the job runs on until the table's flink.max-committed-checkpoint-id
// is `watermark_lead` checkpoints past it; the job is stopped; a second batch is
// written; a new job is restored from the old savepoint. From the restore request
// a sampler records, every 0.5 s, what an on-call rotation could see (job state,
// checkpoints, failed checkpoints, Kafka lag) and what the table is (snapshot id
// and summary from the catalog), and every 3 s the rows Trino sees.
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <ranges>
#include <thread>
#include <unistd.h>

#include <rosterrig/check/append_check.hpp>
#include <rosterrig/check/expected_state.hpp>
#include <rosterrig/check/upsert_check.hpp>
#include <rosterrig/generate/generator.hpp>
#include <rosterrig/generate/timestamp.hpp>

#include "e2_results.hpp"
#include "experiment_support.hpp"
#include "feed.hpp"
#include "iceberg_catalog.hpp"
#include "pipeline.hpp"
#include "process_fault.hpp"
#include "progress.hpp"
#include "stack_versions.hpp"
#include "table_readback.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using namespace rosterrig::experiments;

namespace {

const char* usage_text =
    "usage: rosterrig-e2 [--quick] [--repeats N] [--seed S] [--warehouse s3|local] [--out FILE]\n"
    "       rosterrig-e2 --analyze FILE     re-judge a saved result offline (no stack)\n"
    "  Experiment 2: restore a job from a savepoint older than the table's newest\n"
    "  commit, and time the freeze, the lump and the duplicates from the restore.\n"
    "  --quick: one repeat of each variant with smaller batches, for CI.\n";

const std::string predictions_file = "predictions/e2_savepoint_restore.json";

struct variant {
    std::string name, table_kind;
    bool v2_sink;
};

std::int64_t table_watermark(const iceberg_table_state& t) {
    auto cur = t.current();
    return cur ? cur->summary_int("flink.max-committed-checkpoint-id", -1) : -1;
}

std::string summary_string(const iceberg_snapshot& s, const std::string& key) {
    auto it = s.summary.find(key);
    return it == s.summary.end() ? std::string{} : it->second;
}

e2::restore_run run_once(const stack_config& stack, const variant& v, const e2::parameters& params,
                         std::uint64_t repeat, const std::string& run_id) {
    const std::string label = "e2[" + v.name + " #" + std::to_string(repeat) + "]";
    progress(label + ": setting up");
    created_resources created(stack);
    flink_rest flink(stack.flink());
    trino_client trino(stack.trino());
    kafka_admin admin(stack.kafka());
    iceberg_catalog catalog(stack.catalog());

    roster_spec spec;
    spec.seed = params.seed + repeat;
    spec.events = params.first_batch_events + params.second_batch_events;
    spec.providers = params.providers;
    spec.partitions = params.partitions;
    auto records = kafka_records(generate(spec));
    std::vector<kafka_record> first(records.begin(), records.begin() + static_cast<long>(params.first_batch_events));
    std::vector<kafka_record> second(records.begin() + static_cast<long>(params.first_batch_events), records.end());

    pipeline_spec p;
    const std::string tag = v.name + "_" + std::to_string(repeat) + "_" + run_id;
    std::string safe_tag = tag;
    for (auto& c : safe_tag)
        if (c == '-') c = '_';
    p.topic = "rr_e2_" + safe_tag;
    p.group = "rr_e2_" + safe_tag;
    p.table = "e2_" + safe_tag;
    p.table_kind = v.table_kind;
    p.v2_sink = v.v2_sink;
    p.warehouse = params.warehouse;
    p.checkpoint_interval_ms = params.checkpoint_interval_ms;
    p.parallelism = static_cast<int>(params.parallelism);
    const int parts = static_cast<int>(spec.partitions);

    e2::restore_run run;
    run.variant = v.name;
    run.repeat = repeat;
    run.table_kind = v.table_kind;
    run.v2_sink = v.v2_sink;
    run.events_total = spec.events;

    admin.create_topic(p.topic, parts);
    created.topic(p.topic);
    created.table(p.ns, p.table);
    run.old_job_id = submit_pipeline(stack, p, true);
    created.job(run.old_job_id);
    wait_all_running(flink, run.old_job_id, std::chrono::seconds(120));

    // The first batch arrives at a steady rate, so checkpoints keep committing.
    const double feed_seconds = 10.0 + static_cast<double>(params.watermark_lead + 8) *
                                           static_cast<double>(params.checkpoint_interval_ms) / 1000.0;
    kafka_producer producer(stack.kafka());
    produce_report first_report;
    std::exception_ptr feed_error;
    std::thread feeder([&] {
        try {
            first_report = producer.produce_all(p.topic, first, static_cast<double>(first.size()) / feed_seconds);
        } catch (...) {
            feed_error = std::current_exception();
        }
    });
    struct join_guard {
        std::thread& t;
        ~join_guard() {
            if (t.joinable()) t.join();
        }
    } joiner{feeder};

    // An early savepoint: after the second checkpoint with data.
    wait_checkpoint_above(flink, run.old_job_id, 1, std::chrono::seconds(120));
    run.savepoint_path = flink.savepoint(run.old_job_id, "file://" + stack.data_dir() + "/flink/savepoints");
    // Flink's checkpoint statistics list the savepoint a moment after it
    // completes; until then the newest completed checkpoint bounds its id.
    long long savepoint_id = -1;
    const long long bound = flink.checkpoints(run.old_job_id).latest_completed_id + 1;
    for (int attempt = 0; attempt < 30 && savepoint_id < 0; ++attempt) {
        savepoint_id = flink.checkpoint_id_of(run.old_job_id, run.savepoint_path);
        if (savepoint_id < 0) savepoint_id = flink.checkpoints(run.old_job_id).latest_savepoint_id;
        if (savepoint_id < 0) std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    if (savepoint_id < 0) {
        progress(label + ": Flink's statistics do not list the savepoint; using " + std::to_string(bound) +
                 " as an upper bound on its id (the restored job reports the true id)");
        savepoint_id = bound;
    }
    progress(label + ": savepoint " + std::to_string(savepoint_id) + " at " + run.savepoint_path);

    // Run on until the table's watermark is well past the savepoint, and the
    // whole first batch has landed.
    feeder.join();
    if (feed_error) std::rethrow_exception(feed_error);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    for (;;) {
        throw_if_interrupted();
        auto w = table_watermark(catalog.load(p.ns, p.table));
        if (w >= savepoint_id + params.watermark_lead && admin.lag(p.group, p.topic, parts) == 0) break;
        if (std::chrono::steady_clock::now() > give_up)
            throw live_error(stack.catalog(), "table watermark stuck at " + std::to_string(w) + ", savepoint " +
                                                  std::to_string(savepoint_id));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    wait_until_drained(flink, admin, run.old_job_id, p.group, p.topic, parts, std::chrono::seconds(120));
    flink.cancel(run.old_job_id);
    flink.wait_for_state(run.old_job_id, {"CANCELED"}, std::chrono::seconds(60));
    auto before = catalog.load(p.ns, p.table);
    run.watermark_before = table_watermark(before);
    run.snapshot_before = before.current_snapshot_id;
    run.total_records_before = before.current() ? before.current()->summary_int("total-records", 0) : 0;
    run.rows_before = trino.scalar("SELECT count(*) FROM iceberg." + p.ns + ".\"" + p.table + "\"");
    progress(label + ": stopped with table watermark " + std::to_string(run.watermark_before) + ", " +
             std::to_string(run.rows_before) + " rows; writing the second batch");

    auto second_report = producer.produce_all(p.topic, second);
    if (first_report.acknowledged + second_report.acknowledged != static_cast<long long>(spec.events))
        throw live_error(stack.kafka(), "not every event was acknowledged");

    // The restore, and the clock starts with the request.
    const auto t0 = std::chrono::steady_clock::now();
    auto since = [&] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    };
    std::mutex job_mutex;
    std::string new_job;
    std::atomic<bool> stop{false};
    std::mutex samples_mutex;
    std::exception_ptr sampler_error;
    std::thread sampler([&] {
        try {
            kafka_admin lag_admin(stack.kafka());
            while (!stop.load()) {
                auto next = std::chrono::steady_clock::now() + std::chrono::milliseconds(params.sample_period_ms);
                e2::sample s;
                s.t_ms = since();
                std::string job;
                {
                    std::lock_guard lock(job_mutex);
                    job = new_job;
                }
                if (!job.empty()) {
                    s.job_state = flink.job_state(job);
                    auto c = flink.checkpoints(job);
                    s.newest_checkpoint_id = c.latest_completed_id;
                    s.failed_checkpoints = c.failed;
                }
                s.lag = lag_admin.lag(p.group, p.topic, parts);
                auto t = catalog.load(p.ns, p.table);
                s.snapshot_id = t.current_snapshot_id;
                if (auto cur = t.current()) {
                    s.max_committed_checkpoint_id = cur->summary_int("flink.max-committed-checkpoint-id", -1);
                    s.snapshot_job_id = summary_string(*cur, "flink.job-id");
                    s.total_records = cur->summary_int("total-records", 0);
                }
                {
                    std::lock_guard lock(samples_mutex);
                    run.samples.push_back(s);
                }
                std::this_thread::sleep_until(next);
            }
        } catch (...) {
            sampler_error = std::current_exception();
        }
    });
    std::thread counter([&] {
        try {
            trino_client reader(stack.trino());
            while (!stop.load()) {
                auto next = std::chrono::steady_clock::now() + std::chrono::milliseconds(params.row_count_period_ms);
                e2::row_count_sample c;
                c.t_ms = since();
                c.rows = reader.scalar("SELECT count(*) FROM iceberg." + p.ns + ".\"" + p.table + "\"");
                {
                    std::lock_guard lock(samples_mutex);
                    run.row_counts.push_back(c);
                }
                while (!stop.load() && std::chrono::steady_clock::now() < next)
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        } catch (...) {
        }
    });
    struct stop_guard {
        std::atomic<bool>& stop;
        std::thread& a;
        std::thread& b;
        ~stop_guard() {
            stop.store(true);
            if (a.joinable()) a.join();
            if (b.joinable()) b.join();
        }
    } stopper{stop, sampler, counter};

    pipeline_spec restored = p;
    restored.restore_from = run.savepoint_path;
    std::string job = submit_pipeline(stack, restored, false);
    created.job(job);
    {
        std::lock_guard lock(job_mutex);
        new_job = job;
    }
    run.new_job_id = job;
    progress(label + ": restored as job " + job + " after " + std::to_string(since()) + " ms; sampling");

    // Sample until the table has moved, the lag is zero and three more
    // checkpoints have passed; at most four minutes.
    long long moved_at_checkpoint = -1;
    const auto sample_limit = std::chrono::steady_clock::now() + std::chrono::seconds(240);
    auto last_report = std::chrono::steady_clock::now();
    for (;;) {
        throw_if_interrupted();
        if (sampler_error) std::rethrow_exception(sampler_error);
        e2::sample last;
        {
            std::lock_guard lock(samples_mutex);
            if (!run.samples.empty()) last = run.samples.back();
        }
        if (moved_at_checkpoint < 0 && last.snapshot_id != run.snapshot_before && last.snapshot_id != -1)
            moved_at_checkpoint = last.newest_checkpoint_id;
        if (moved_at_checkpoint >= 0 && last.lag == 0 && last.newest_checkpoint_id >= moved_at_checkpoint + 3) break;
        if (std::chrono::steady_clock::now() > sample_limit) {
            progress(label + ": sampling limit reached before the table settled");
            break;
        }
        if (std::chrono::steady_clock::now() - last_report > std::chrono::seconds(5)) {
            last_report = std::chrono::steady_clock::now();
            progress(label + ": t=" + std::to_string(last.t_ms) + " ms, job " + last.job_state + ", checkpoint " +
                     std::to_string(last.newest_checkpoint_id) + ", lag " + std::to_string(last.lag) +
                     ", table watermark " + std::to_string(last.max_committed_checkpoint_id) + ", records " +
                     std::to_string(last.total_records));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    stop.store(true);
    sampler.join();
    counter.join();
    if (sampler_error) std::rethrow_exception(sampler_error);

    wait_until_drained(flink, admin, job, p.group, p.topic, parts, std::chrono::seconds(120));
    run.savepoint_checkpoint_id = flink.checkpoints(job).latest_restored_id;
    run.restarts_during = flink.restarts(job);
    run.exceptions_during = static_cast<std::int64_t>(flink.exceptions(job).size());
    auto rows = read_rows(trino, p.ns, p.table);
    auto check = check_append(spec.events, rows | std::views::transform([](const observed_row& r) {
                                                return r.seq.value_or(0);
                                            }));
    run.rows = check.rows;
    run.duplicate_rows = check.duplicate_rows;
    if (v.table_kind == "append")
        for (const auto& r : check.missing_runs) run.missing_runs.push_back({r.first, r.last});
    if (v.table_kind == "upsert") {
        upsert_checker checker(expect_upsert(spec));
        for (const auto& r : rows) checker.observe(r);
        auto u = checker.finish();
        run.rows_sharing_npi = u.rows_sharing_npi;
        run.missing_npis = u.missing_npis.size();
        run.stale_rows = u.stale_rows;
    }
    // Every snapshot the restore produced, following the parent chain back to
    // the snapshot the table had when the old job stopped.
    {
        auto t = catalog.load(p.ns, p.table);
        std::map<long long, const iceberg_snapshot*> by_id;
        for (const auto& snap : t.snapshots) by_id[snap.snapshot_id] = &snap;
        std::vector<e2::snapshot_record> chain;
        for (long long id = t.current_snapshot_id; id != -1 && id != run.snapshot_before;) {
            auto it = by_id.find(id);
            if (it == by_id.end()) break;
            const auto& snap = *it->second;
            chain.push_back({snap.snapshot_id, snap.timestamp_ms, snap.summary_int("flink.max-committed-checkpoint-id", -1),
                             summary_string(snap, "flink.job-id"), summary_string(snap, "operation"),
                             snap.summary_int("added-records", 0), snap.summary_int("total-records", 0)});
            id = snap.parent_id;
        }
        run.snapshots_after.assign(chain.rbegin(), chain.rend());
    }
    auto a = e2::analyze(run);
    progress(label + ": froze from restore to between " + std::to_string(a.last_old_ms) + " and " +
             std::to_string(a.first_new_ms) + " ms; ended by checkpoint " + std::to_string(a.ended_by_checkpoint) +
             " (watermark " + std::to_string(run.watermark_before) + "); burst of " + std::to_string(a.burst_snapshots) +
             " snapshots up to checkpoint " + std::to_string(a.burst_final_checkpoint) + " adding " +
             std::to_string(a.burst_records) + " records; first snapshot " + std::to_string(a.lump_records) +
             " records; " + std::to_string(run.rows) + " rows, " + std::to_string(run.duplicate_rows) + " duplicates");
    return run;
}

int analyze_file(const std::string& file) {
    auto env = result::read_result(file);
    auto s = result::samples_as<e2::samples>(env, file);
    for (const auto& r : s.runs) {
        auto a = e2::analyze(r);
        std::cout << r.variant << " #" << r.repeat << ": freeze [" << a.last_old_ms << ", " << a.first_new_ms
                  << "] ms, ended by checkpoint " << a.ended_by_checkpoint << " (watermark " << r.watermark_before
                  << "), lump " << a.lump_records << ", duplicates " << r.duplicate_rows << "\n";
    }
    for (const auto& p : s.predictions) std::cout << p.id << ": " << to_string(p.verdict) << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    auto f = parse_flags(argc, argv, {"--repeats", "--seed", "--warehouse", "--out", "--analyze"}, {"--quick"},
                         usage_text);
    if (f.values.count("--analyze")) {
        try {
            return analyze_file(f.get("--analyze", ""));
        } catch (const std::exception& e) {
            std::cerr << "rosterrig-e2: " << e.what() << "\n";
            return 2;
        }
    }
    e2::parameters params;
    params.quick = f.has("--quick");
    params.seed = static_cast<std::uint64_t>(f.number("--seed", 2));
    params.repeats = static_cast<std::uint64_t>(f.number("--repeats", params.quick ? 1 : 3));
    params.warehouse = f.get("--warehouse", "s3");
    if (params.quick) {
        params.first_batch_events = 2000;
        params.second_batch_events = 1000;
        params.providers = 500;
        params.watermark_lead = 4;
    }
    if (params.warehouse != "s3" && params.warehouse != "local") {
        std::cerr << "--warehouse must be s3 or local\n" << usage_text;
        return 2;
    }
    const auto stack = stack_config::load();
    const std::string out = f.get("--out", source_dir(stack) + "/results/e2_savepoint_restore.json");
    install_interrupt_handler();

    try {
        std::vector<result::prediction> predictions;
        auto env = begin_envelope(stack, "e2_savepoint_restore", predictions_file, result::to_json_object(params),
                                  predictions);
        const std::string run_id = std::to_string(::getpid()) + "_" + std::to_string(now_ms() % 100000000);
        const std::vector<variant> variants{
            {"append-flinksink", "append", false},
            {"upsert-flinksink", "upsert", false},
            {"append-sinkv2", "append", true},
        };
        e2::samples samples;
        for (std::uint64_t r = 1; r <= params.repeats; ++r)
            for (const auto& v : variants) samples.runs.push_back(run_once(stack, v, params, r, run_id));
        samples = e2::judge(samples, predictions);
        finish_envelope(env, result::to_json(samples), samples.predictions, out);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-e2: FAILED: " << e.what() << "\n";
        return 1;
    }
}
