// What every experiment driver needs around the adapters: the code's commit, the
// commit that recorded a prediction, waiting for a job to drain the topic into
// the table, and a small flag parser.
#pragma once
#include <chrono>
#include <map>
#include <string>
#include <vector>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/prediction_file.hpp>

#include "flink_rest.hpp"
#include "prediction_outcome.hpp"
#include "kafka_admin.hpp"
#include "stack_config.hpp"

namespace rosterrig::experiments {

// HEAD of the checkout the driver was built from, with "-dirty" when tracked
// files differ (a result from uncommitted code says so).
std::string code_commit(const live::stack_config& stack);
// The commit that last changed `file` (relative to the checkout), or throws:
// a prediction that was never committed cannot be recorded as "made first".
std::string commit_that_recorded(const live::stack_config& stack, const std::string& file);
std::string source_dir(const live::stack_config& stack);

// An envelope ready for a run: the experiment id, the parameters, the start
// time, the predictions (read from their committed file, with the commit that
// recorded them), the code's commit and the versions the components report.
// `predictions` receives the file's predictions for the judge.
result::result_envelope begin_envelope(const live::stack_config& stack, const std::string& experiment,
                                       const std::string& predictions_file, boost::json::object parameters,
                                       std::vector<result::prediction>& predictions);

// Puts the samples and the computed verdicts in, stamps the end time, writes
// the file atomically and prints each verdict on stderr.
void finish_envelope(result::result_envelope& env, boost::json::value samples,
                     const std::vector<prediction_outcome>& judged, const std::string& out);

// Waits until the job's committed offsets reach the end of the topic (lag 0),
// then for `extra_checkpoints` more completed checkpoints so the commit that
// carried the last records has landed. Progress on stderr.
void wait_until_drained(const live::flink_rest& flink, live::kafka_admin& admin, const std::string& job,
                        const std::string& group, const std::string& topic, int partitions,
                        std::chrono::seconds deadline, int extra_checkpoints = 2);

// Waits until the job has entered RESTARTING at or after `since_ms` (epoch ms).
void wait_restart_after(const live::flink_rest& flink, const std::string& job, long long since_ms,
                        std::chrono::seconds deadline);

// Waits until every task of the job is running.
void wait_all_running(const live::flink_rest& flink, const std::string& job, std::chrono::seconds deadline);

// Waits until the job has completed a checkpoint with id above `above`.
long long wait_checkpoint_above(const live::flink_rest& flink, const std::string& job, long long above,
                                std::chrono::seconds deadline);

// --flag value parsing shared by the drivers; unknown flags exit 2 with usage.
struct flags {
    std::map<std::string, std::string> values;
    std::vector<std::string> switches;
    bool has(const std::string& s) const;
    std::string get(const std::string& k, const std::string& fallback) const;
    long long number(const std::string& k, long long fallback) const;  // exits 2 on a non-number
};
flags parse_flags(int argc, char** argv, const std::vector<std::string>& with_value,
                  const std::vector<std::string>& switches, const std::string& usage);

}  // namespace rosterrig::experiments
