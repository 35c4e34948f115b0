// Kafka Connect's worker REST API (a distributed worker): create, read back,
// pause and delete a connector, and ask the worker what it runs. A connector
// config the worker refuses throws connect_rejected with the worker's own
// message: bad input, which a driver reports and exits 2 for.
#ifndef ROSTERRIG_LIVE_CONNECT_REST_HPP
#define ROSTERRIG_LIVE_CONNECT_REST_HPP
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <rosterrig/experiment/bad_input.hpp>

#include "adapters/live_error.hpp"

namespace rosterrig::live {

// The worker answered a connector request with an error of its own (a bad config).
class connect_rejected : public experiment::bad_input {
public:
    connect_rejected(const component_address& c, const std::string& what) : bad_input(component_message(c, what)) {}
};

struct connector_status {
    std::string state;                     // RUNNING, PAUSED, FAILED, UNASSIGNED, "" when absent
    std::vector<std::string> task_states;  // per task, in task id order
    std::string trace;                     // the first FAILED task's or connector's trace, "" when none
    std::int64_t running_tasks() const {
        std::int64_t n = 0;
        for (const auto& t : task_states) n += t == "RUNNING";
        return n;
    }
    bool all_running() const {
        if (state != "RUNNING" || task_states.empty()) return false;
        for (const auto& t : task_states)
            if (t != "RUNNING") return false;
        return true;
    }
};

class connect_rest {
public:
    explicit connect_rest(component_address where) : where_(std::move(where)) {}

    // GET /: the worker's version and commit, as it reports them.
    std::string version() const;
    // Whether the worker answers at all (a short deadline, never throws).
    bool answers() const;
    // Whether its herder runs, so it has joined its group (GET /health 200, KIP-1017; never throws).
    bool healthy() const;
    // GET /connector-plugins: the class names the worker loaded.
    std::vector<std::string> plugins() const;

    // PUT /connectors/<name>/config: creates or updates; throws connect_rejected with the worker's message.
    void put_config(const std::string& name, const std::map<std::string, std::string>& config) const;
    // GET /connectors/<name>/config, as the worker stored it.
    std::map<std::string, std::string> config(const std::string& name) const;
    // GET /connectors/<name>/status; nothing when the worker does not know the connector.
    std::optional<connector_status> status(const std::string& name) const;
    void pause(const std::string& name) const;
    void resume(const std::string& name) const;
    // POST /connectors/<name>/restart?includeTasks=true: the connector and every task, what an operator does.
    void restart(const std::string& name) const;
    // POST /connectors/<name>/tasks/<task>/restart: that task alone, what an operator does to a failed one.
    void restart_task(const std::string& name, int task) const;
    // DELETE /connectors/<name>; true when it existed.
    bool remove(const std::string& name) const;

    // Waits until the connector and every task run; throws naming the worker's
    // trace when a task failed, or the last status when the deadline passes.
    connector_status wait_running(const std::string& name, std::chrono::seconds deadline) const;
    // The connector's tasks RUNNING, its status alone asked every second until
    // `want` of them are or `deadline_ms` has passed: the last count (never throws on a short count).
    std::int64_t running_tasks_within(const std::string& name, std::int64_t want, long long deadline_ms) const;

    const component_address& where() const { return where_; }

private:
    component_address where_;
};

}  // namespace rosterrig::live

#endif
