// Flink's JobManager REST API: the job, its checkpoints, the checkpoint
// configuration actually in force, its exceptions, and stop-with-savepoint.
#ifndef ROSTERRIG_LIVE_FLINK_REST_HPP
#define ROSTERRIG_LIVE_FLINK_REST_HPP
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <boost/json.hpp>
#include <rosterrig/experiment/checkpoint_outcome.hpp>
#include <rosterrig/experiment/checkpoint_stats.hpp>
#include <rosterrig/experiment/job_plan.hpp>
#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct flink_checkpoint_counts {
    long long completed = 0;
    long long failed = 0;
    long long in_progress = 0;
    long long restored = 0;
    long long latest_completed_id = -1;    // -1: none yet
    long long latest_completed_at_ms = 0;  // Flink's latest_ack_timestamp
    long long latest_restored_id = -1;
    long long latest_restored_at_ms = 0;  // restore_timestamp: when the JobManager restored it (epoch ms)
    bool latest_restored_is_savepoint = false;
    long long latest_savepoint_id = -1;
};

struct flink_checkpoint_config {
    std::string mode;  // as Flink reports it: "exactly_once" or "at_least_once"
    long long interval_ms = 0;
    long long timeout_ms = 0;
    std::string externalization;                  // retention of externalized checkpoints
    bool unaligned = false;                       // unaligned_checkpoints
    long long aligned_checkpoint_timeout_ms = 0;  // 0: every checkpoint unaligned when unaligned is on
    long long tolerable_failed_checkpoints = -1;  // -1: not reported
};

struct flink_exception {
    std::string name;
    std::string task;
    long long timestamp_ms = 0;
    std::string first_line;  // of its stack trace: the name and the message
};

class flink_rest {
public:
    explicit flink_rest(component_address where) : where_(std::move(where)) {}

    std::string version() const;                                    // GET /config: flink-version
    std::vector<std::pair<std::string, std::string>> jobs() const;  // (id, state)
    std::string job_state(const std::string& job_id) const;
    std::string job_name(const std::string& job_id) const;
    // numRestarts metric (per failed region, refreshed by the metric fetcher);
    // -1 if the fetcher has not reported the job within a few seconds.
    // attempts: how many asks, one second apart, before -1 ("not reported").
    long long restarts(const std::string& job_id, int attempts = 6) const;
    // Over every subtask of every vertex, the current attempt's first
    // DEPLOYING and last RUNNING timestamps (epoch ms; 0 when none).
    std::pair<long long, long long> deploying_and_running_ms(const std::string& job_id) const;
    // The ids of the TaskManagers registered now.
    std::vector<std::string> taskmanager_ids() const;
    // The TaskManagers registered now, as GET /taskmanagers reports them.
    struct taskmanager_entry {
        std::string id;
        std::string host;  // from its RPC path (pekko.tcp://flink@<host>:<port>/...)
        int rpc_port = 0;
        int data_port = 0;
    };
    std::vector<taskmanager_entry> taskmanagers() const;
    // The data ports of the TaskManagers running the job's current subtasks
    // (from each vertex's "endpoint", host:dataPort), lowest first.
    std::vector<int> job_taskmanager_data_ports(const std::string& job_id) const;
    // When the job last entered RESTARTING (epoch ms, 0 if never): the prompt
    // sign that a failure was seen, unlike the metric, which refreshes late.
    long long last_restarting_ms(const std::string& job_id) const;
    flink_checkpoint_counts checkpoints(const std::string& job_id) const;
    flink_checkpoint_config checkpoint_config(const std::string& job_id) const;
    // The configuration the job's JobManager runs with, as [{key, value}]
    // entries, and the path that answered: GET /jobs/<id>/jobmanager/config,
    // or the cluster's /jobmanager/config when Flink has no job endpoint (404).
    std::pair<std::string, std::vector<std::pair<std::string, std::string>>> jobmanager_config(
        const std::string& job_id) const;
    std::vector<flink_exception> exceptions(const std::string& job_id) const;
    // Each edge of the job's plan, with both vertices' parallelism.
    std::vector<experiment::plan_edge> plan_edges(const std::string& job_id) const;
    // The id of the plan's vertex that holds the Iceberg writer; "" if none.
    std::string writer_vertex(const std::string& job_id) const;
    // The id of the plan's first vertex fed by nothing upstream (the source); "" if none.
    std::string source_vertex(const std::string& job_id) const;
    // The largest value of a subtask metric over the vertex's subtasks, from the
    // REST server's metric cache (refreshed every second here); nullopt while
    // the cache does not hold it yet.
    std::optional<double> max_subtask_metric(const std::string& job_id, const std::string& vertex_id,
                                             const std::string& metric) const;
    // The job's checkpoint history as Flink keeps it (web.checkpoints.history
    // entries, newest first), with the writer vertex's per-subtask alignment
    // figures for each completed checkpoint whose id is not in `known`.
    std::vector<experiment::checkpoint_stat> checkpoint_stats(const std::string& job_id,
                                                              const std::string& writer_vertex,
                                                              const std::vector<std::int64_t>& known) const;
    // How each checkpoint in Flink's history ended (savepoints and those
    // still in progress left out), oldest first.
    std::vector<experiment::checkpoint_outcome> checkpoint_outcomes(const std::string& job_id) const;
    int registered_taskmanagers() const;  // GET /overview
    long long total_slots() const;        // GET /overview: slots-total
    long long free_slots() const;         // GET /overview: slots-available
    // The newest exception's first line, "" when the history is empty.
    std::string newest_exception(const std::string& job_id) const;
    // The parallelism of the plan's vertex that writes (described with
    // "Writer" and not "Committer"), with its description; -1 if none.
    std::pair<long long, std::string> writer_parallelism(const std::string& job_id) const;
    // The job is RUNNING and so is every one of its vertices (a restarted job
    // reports RUNNING while its tasks are still being deployed).
    bool all_tasks_running(const std::string& job_id) const;

    // Stop with a savepoint and wait; returns the savepoint's path.
    std::string stop_with_savepoint(const std::string& job_id, const std::string& target_dir,
                                    std::chrono::seconds deadline = std::chrono::seconds(120)) const;
    // Savepoint without stopping; returns its path.
    std::string savepoint(const std::string& job_id, const std::string& target_dir,
                          std::chrono::seconds deadline = std::chrono::seconds(120)) const;
    // The id Flink gave the checkpoint or savepoint written to external_path
    // (from the job's checkpoint history); -1 when the history does not list it.
    long long checkpoint_id_of(const std::string& job_id, const std::string& external_path) const;
    void cancel(const std::string& job_id) const;
    // Waits until the job reaches one of the states; returns the state reached.
    std::string wait_for_state(const std::string& job_id, const std::vector<std::string>& states,
                               std::chrono::seconds deadline) const;

    const component_address& where() const { return where_; }

private:
    std::string await_savepoint(const std::string& job_id, const std::string& trigger,
                                std::chrono::seconds deadline) const;
    component_address where_;
};

}  // namespace rosterrig::live

#endif
