// Flink SQL Gateway REST: one session per job submission, statements executed in
// order, INSERT statements return the job id the cluster assigned.
#ifndef ROSTERRIG_LIVE_SQL_GATEWAY_HPP
#define ROSTERRIG_LIVE_SQL_GATEWAY_HPP
#include <chrono>
#include <map>
#include <string>
#include <vector>
#include <boost/json.hpp>
#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct sql_outcome {
    std::string job_id;                    // set for INSERT statements
    std::vector<boost::json::array> rows;  // set for queries that return rows
};

class sql_gateway {
public:
    explicit sql_gateway(component_address where) : where_(std::move(where)) {}
    ~sql_gateway();
    sql_gateway(const sql_gateway&) = delete;
    sql_gateway& operator=(const sql_gateway&) = delete;

    // Opens a session with the given configuration (e.g. checkpointing mode).
    void open(const std::map<std::string, std::string>& properties = {});
    // Executes one statement and waits for it to be accepted (an INSERT returns
    // once the job is submitted, not when it finishes). Throws with Flink's cause.
    sql_outcome execute(const std::string& statement, std::chrono::seconds deadline = std::chrono::seconds(120));
    // Executes every statement of a script separated by ';' at line ends;
    // returns the job ids of the INSERTs.
    std::vector<std::string> execute_script(const std::string& script);
    void close();

    std::string version() const;  // GET /v1/info: version

private:
    component_address where_;
    std::string session_;
};

// Splits a SQL script into statements: ';' at the end of a line ends one;
// lines starting with "--" are comments.
std::vector<std::string> split_sql_script(const std::string& script);

// Replaces every ${name} in text; an unknown placeholder throws, so a template
// can never reach Flink half-filled.
std::string fill_template(std::string text, const std::map<std::string, std::string>& values);

}  // namespace rosterrig::live

#endif
