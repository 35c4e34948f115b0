#include "roles/job_waits.hpp"

#include "adapters/poll.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

namespace {
// The job's own account of why it does not run: its newest exception.
std::string because(const flink_rest& flink, const std::string& job) {
    try {
        const auto e = flink.newest_exception(job);
        return e.empty() ? std::string("; its exception history is empty") : "; its newest exception: " + e;
    } catch (const std::exception&) {
        return "";
    }
}
}  // namespace

void wait_all_running(const flink_rest& flink, const std::string& job, std::chrono::seconds deadline) {
    std::string state;
    poll_until(
        flink.where(), deadline,
        [&] {
            if (flink.all_tasks_running(job)) return true;
            state = flink.job_state(job);
            if (state == "FAILED" || state == "CANCELED" || state == "FINISHED")
                throw live_error(flink.where(), "job " + job + " is " + state + because(flink, job));
            return false;
        },
        [&] { return "job " + job + " has tasks not RUNNING (job state " + state + ")" + because(flink, job); });
}

void wait_job_failed(const flink_rest& flink, const std::string& job, std::chrono::seconds deadline,
                     const std::string& about) {
    poll_until(
        flink.where(), deadline,
        [&] {
            const auto st = flink.job_state(job);
            return st == "FAILED" || st == "RESTARTING" || !flink.exceptions(job).empty();
        },
        [&] { return "job " + job + about + " has not failed"; });
}

long long failed_after_ms(const flink_rest& flink, const std::string& job, std::chrono::steady_clock::time_point t0,
                          std::chrono::seconds deadline, const std::string& about, const std::string& label) {
    try {
        wait_job_failed(flink, job, deadline, about);
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    } catch (const live_error& e) {
        progress(label + ": " + e.what());
    }
    return -1;
}

void wait_restart_after(const flink_rest& flink, const std::string& job, long long since_ms,
                        std::chrono::seconds deadline) {
    poll_until(
        flink.where(), deadline, [&] { return flink.last_restarting_ms(job) >= since_ms; },
        [&] { return "job " + job + " has not entered RESTARTING since the fault"; }, {std::chrono::milliseconds(100)});
}

void wait_free_slots(const flink_rest& flink, long long slots) {
    long long free = 0;
    poll_until(
        flink.where(), std::chrono::seconds(15), [&] { return (free = flink.free_slots()) >= slots; },
        [&] {
            return "a job needs " + std::to_string(slots) + " free slots; Flink has " + std::to_string(free) + " of " +
                   std::to_string(flink.total_slots()) +
                   " free (the jobs holding them: GET /jobs/overview; what a killed "
                   "run left behind: rosterrig-clean)";
        });
}

long long wait_checkpoint_above(const flink_rest& flink, const std::string& job, long long above,
                                std::chrono::seconds deadline) {
    flink_checkpoint_counts c;
    return poll_until(
        flink.where(), deadline,
        [&]() -> std::optional<long long> {
            c = flink.checkpoints(job);
            if (c.latest_completed_id > above) return c.latest_completed_id;
            return std::nullopt;
        },
        [&] {
            return "job " + job + " completed no checkpoint above " + std::to_string(above) + " (newest " +
                   std::to_string(c.latest_completed_id) + ", " + std::to_string(c.failed) + " failed)";
        });
}

long long wait_more_checkpoints(const flink_rest& flink, const std::string& job, long long n,
                                std::chrono::seconds each) {
    long long id = flink.checkpoints(job).latest_completed_id;
    for (long long i = 0; i < n; ++i) id = wait_checkpoint_above(flink, job, id, each);
    return id;
}

std::int64_t require_checkpoint_interval(const flink_rest& flink, const std::string& job, std::int64_t want) {
    const auto got = flink.checkpoint_config(job).interval_ms;
    if (got != want)
        throw live_error(flink.where(), "job " + job + " runs every " + std::to_string(got) +
                                            " ms, not the requested " + std::to_string(want));
    return got;
}

void wait_until_drained(const flink_rest& flink, kafka_admin& admin, const std::string& job, const std::string& group,
                        const std::string& topic, int partitions, std::chrono::seconds deadline,
                        int extra_checkpoints) {
    long long lag = -1;
    poll_until(
        flink.where(), deadline,
        [&] {
            lag = admin.lag(group, topic, partitions);
            return lag == 0;
        },
        [&] { return "job " + job + " is " + std::to_string(lag) + " records behind on " + topic; },
        {std::chrono::milliseconds(500), std::chrono::seconds(5)});
    // Each further checkpoint may take a whole interval: the caller's deadline, not a fixed 120 s
    // (a 120 s interval missed a fixed 120 s wait).
    wait_more_checkpoints(flink, job, extra_checkpoints, deadline);
    // The Iceberg commit runs in notifyCheckpointComplete, just after the
    // JobManager marks the checkpoint complete.
    std::this_thread::sleep_for(std::chrono::seconds(1));
}

void drain_if_healthy(const flink_rest& flink, kafka_admin& admin, const std::string& job, const std::string& group,
                      const std::string& topic, int partitions, std::chrono::seconds deadline,
                      const std::string& label) {
    if (!flink.all_tasks_running(job)) {
        progress(label + ": the job is " + flink.job_state(job) +
                 " with tasks not running; reading the table as it is");
        return;
    }
    try {
        wait_until_drained(flink, admin, job, group, topic, partitions, deadline);
    } catch (const live_error& e) {
        progress(label + ": " + e.what() + "; reading the table as it is");
    }
}

savepoint_taken take_savepoint(const flink_rest& flink, const std::string& job, const std::string& target_dir,
                               const std::function<void()>& right_after) {
    savepoint_taken t;
    // A 2-core machine under load does fail over now and then.
    for (int attempt = 1;; ++attempt) {
        try {
            t.path = flink.savepoint(job, target_dir);
            break;
        } catch (const live_error& e) {
            const std::string what = e.what();
            const bool failing_over = what.find("Checkpoint Coordinator is suspending") != std::string::npos ||
                                      what.find("not all required tasks are currently running") != std::string::npos;
            if (!failing_over || attempt == 3) throw;
            const auto ex = flink.exceptions(job);
            t.retried_after.push_back(ex.empty() ? std::string("no exception in the history") : ex.front().name);
            progress("savepoint of job " + job + " refused while it failed over (" + t.retried_after.back() +
                     "); retrying once it runs");
            wait_all_running(flink, job, std::chrono::seconds(120));
        }
    }
    if (right_after) right_after();
    // Flink's statistics list the savepoint a moment after it completes; until
    // then the newest completed checkpoint bounds its id (a job restored from
    // it reports the true one).
    t.id = flink.checkpoints(job).latest_completed_id + 1;
    try {
        t.id = poll_until(
            flink.where(), std::chrono::seconds(15),
            [&]() -> std::optional<long long> {
                long long id = flink.checkpoint_id_of(job, t.path);
                if (id < 0) id = flink.checkpoints(job).latest_savepoint_id;
                return id < 0 ? std::nullopt : std::optional<long long>(id);
            },
            [&] { return "job " + job + "'s statistics do not list savepoint " + t.path; });
    } catch (const live_error& e) {
        progress(std::string(e.what()) + "; using " + std::to_string(t.id) + " as an upper bound on its id");
        t.id_is_bound = true;
    }
    return t;
}

}  // namespace rosterrig::live
