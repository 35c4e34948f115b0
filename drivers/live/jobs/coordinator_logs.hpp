// The Iceberg sink's commit coordinators as the Connect workers' own logs tell
// of them: which worker runs the coordinator, and what the coordinators did,
// read from what each worker appended to its log since a mark (log_tail).
#ifndef ROSTERRIG_LIVE_JOBS_COORDINATOR_LOGS_HPP
#define ROSTERRIG_LIVE_JOBS_COORDINATOR_LOGS_HPP
#include <cstdint>
#include <string>
#include <vector>

#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

#include "jobs/connect_workers.hpp"

namespace rosterrig::live {

// The worker (1-based, in the order of `logs`) whose log says a task was
// elected leader of the commit, the last of them if more than one does;
// polled up to 30 s, then throws naming `connect`.
std::int64_t coordinator_worker(const component_address& connect, const std::vector<log_tail>& logs);

// What each worker appended since its mark, worker 1 first.
std::vector<std::string> appended_texts(const std::vector<log_tail>& logs);

// The coordinators' lines every worker appended since its mark, counted together.
e7b::coordinator_lines coordinator_lines_since(const std::vector<log_tail>& logs);

}  // namespace rosterrig::live

#endif
