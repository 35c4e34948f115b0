#include "experiment_support.hpp"

#include <rosterrig/generate/timestamp.hpp>
#include "process_fault.hpp"

#include <iostream>
#include <thread>
#include "progress.hpp"
#include "stack_versions.hpp"

namespace rosterrig::experiments {

using namespace rosterrig::live;

std::string source_dir(const stack_config& stack) { return stack.compose_dir + "/.."; }

namespace {
std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}
}  // namespace

std::string code_commit(const stack_config& stack) {
    const std::string git = "git -C '" + source_dir(stack) + "' ";
    std::string head = trim(run_command(git + "rev-parse HEAD"));
    std::string dirty = trim(run_command(git + "status --porcelain --untracked-files=no -- include drivers sql compose"));
    return dirty.empty() ? head : head + "-dirty";
}

std::string commit_that_recorded(const stack_config& stack, const std::string& file) {
    const std::string git = "git -C '" + source_dir(stack) + "' ";
    std::string c = trim(run_command(git + "log -1 --format=%H -- '" + file + "'"));
    if (c.empty()) throw live_error("the prediction file " + file + " is not committed: commit it before the run");
    std::string dirty = trim(run_command(git + "status --porcelain -- '" + file + "'"));
    if (!dirty.empty()) throw live_error("the prediction file " + file + " has uncommitted changes: commit them first");
    return c;
}

void wait_all_running(const flink_rest& flink, const std::string& job, std::chrono::seconds deadline) {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (!flink.all_tasks_running(job)) {
        throw_if_interrupted();
        auto s = flink.job_state(job);
        if (s == "FAILED" || s == "CANCELED" || s == "FINISHED")
            throw live_error(flink.where(), "job " + job + " is " + s);
        if (std::chrono::steady_clock::now() > give_up)
            throw live_error(flink.where(), "job " + job + " tasks not all RUNNING after " +
                                                std::to_string(deadline.count()) + " s (state " + s + ")");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

result::result_envelope begin_envelope(const stack_config& stack, const std::string& experiment,
                                       const std::string& predictions_file, boost::json::object parameters,
                                       std::vector<result::prediction>& predictions) {
    result::result_envelope env;
    env.experiment = experiment;
    env.parameters = std::move(parameters);
    env.started_at = iso8601_utc(now_ms());
    predictions = result::read_predictions(source_dir(stack) + "/" + predictions_file);
    env.prediction.file = predictions_file;
    env.prediction.recorded_in_commit = commit_that_recorded(stack, predictions_file);
    for (const auto& p : predictions) env.prediction.text += p.id + ": " + p.text + "\n";
    env.code_commit = code_commit(stack);
    env.component_versions = reported_versions(stack);
    return env;
}

void finish_envelope(result::result_envelope& env, boost::json::value samples,
                     const std::vector<prediction_outcome>& judged, const std::string& out) {
    env.samples = std::move(samples);
    env.verdict = overall(judged);
    env.verdict_reason.clear();
    for (const auto& p : judged)
        env.verdict_reason += p.id + ": " + std::string(to_string(p.verdict)) + " (" + p.reason + ")\n";
    env.finished_at = iso8601_utc(now_ms());
    result::write_result(out, env);
    progress(env.experiment + ": results written to " + out);
    for (const auto& p : judged) progress("  " + p.id + ": " + std::string(to_string(p.verdict)));
}

void wait_restart_after(const flink_rest& flink, const std::string& job, long long since_ms,
                        std::chrono::seconds deadline) {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (flink.last_restarting_ms(job) < since_ms) {
        throw_if_interrupted();
        if (std::chrono::steady_clock::now() > give_up)
            throw live_error(flink.where(), "job " + job + " did not restart within " +
                                                std::to_string(deadline.count()) + " s of the fault");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

long long wait_checkpoint_above(const flink_rest& flink, const std::string& job, long long above,
                                std::chrono::seconds deadline) {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        throw_if_interrupted();
        auto c = flink.checkpoints(job);
        if (c.latest_completed_id > above) return c.latest_completed_id;
        if (std::chrono::steady_clock::now() > give_up)
            throw live_error(flink.where(), "job " + job + " completed no checkpoint above " + std::to_string(above) +
                                                " within " + std::to_string(deadline.count()) + " s (" +
                                                std::to_string(c.failed) + " failed)");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

void wait_until_drained(const flink_rest& flink, kafka_admin& admin, const std::string& job, const std::string& group,
                        const std::string& topic, int partitions, std::chrono::seconds deadline,
                        int extra_checkpoints) {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    auto last_report = std::chrono::steady_clock::now();
    for (;;) {
        throw_if_interrupted();
        long long lag = admin.lag(group, topic, partitions);
        if (lag == 0) break;
        if (std::chrono::steady_clock::now() > give_up)
            throw live_error(flink.where(), "job " + job + " still " + std::to_string(lag) + " records behind after " +
                                                std::to_string(deadline.count()) + " s");
        if (std::chrono::steady_clock::now() - last_report > std::chrono::seconds(5)) {
            progress("  draining: lag " + std::to_string(lag));
            last_report = std::chrono::steady_clock::now();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    long long id = flink.checkpoints(job).latest_completed_id;
    for (int i = 0; i < extra_checkpoints; ++i) id = wait_checkpoint_above(flink, job, id, std::chrono::seconds(120));
    // The Iceberg commit runs in notifyCheckpointComplete, just after the
    // JobManager marks the checkpoint complete.
    std::this_thread::sleep_for(std::chrono::seconds(1));
}

bool flags::has(const std::string& s) const {
    for (const auto& x : switches)
        if (x == s) return true;
    return false;
}
std::string flags::get(const std::string& k, const std::string& fallback) const {
    auto it = values.find(k);
    return it == values.end() ? fallback : it->second;
}
long long flags::number(const std::string& k, long long fallback) const {
    auto it = values.find(k);
    if (it == values.end()) return fallback;
    try {
        std::size_t used = 0;
        long long v = std::stoll(it->second, &used);
        if (used != it->second.size()) throw std::invalid_argument(k);
        return v;
    } catch (const std::exception&) {
        std::cerr << k << " needs a whole number, not '" << it->second << "'\n";
        std::exit(2);
    }
}

flags parse_flags(int argc, char** argv, const std::vector<std::string>& with_value,
                  const std::vector<std::string>& switches, const std::string& usage) {
    flags f;
    auto in = [](const std::vector<std::string>& v, const std::string& s) {
        for (const auto& x : v)
            if (x == s) return true;
        return false;
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::cout << usage;
            std::exit(0);
        }
        if (in(with_value, a)) {
            if (i + 1 >= argc) {
                std::cerr << a << " needs a value\n" << usage;
                std::exit(2);
            }
            f.values[a] = argv[++i];
        } else if (in(switches, a)) {
            f.switches.push_back(a);
        } else {
            std::cerr << "unknown flag " << a << "\n" << usage;
            std::exit(2);
        }
    }
    return f;
}

}  // namespace rosterrig::experiments
