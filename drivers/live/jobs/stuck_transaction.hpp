// A transaction a cancelled job leaves open, and what it holds back
// (experiment 5's stuck runs): a long transaction timeout, the job ended with
// a transaction open (cancelled, or its TaskManager SIGKILLed first), then
// plain records written to the same topic and a read_committed reader polled,
// per partition, until it sees them all. The job's pieces are in kafka_txn_job.
#ifndef ROSTERRIG_LIVE_JOBS_STUCK_TRANSACTION_HPP
#define ROSTERRIG_LIVE_JOBS_STUCK_TRANSACTION_HPP
#include <functional>
#include <string>
#include <vector>

#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>

#include "adapters/kafka_producer.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

// One stuck run: `ending` is cancel or kill-then-cancel, `partitioner` the
// sink's (default or fixed); the job is fed `records`, the plain producer
// writes `plain` after the cancel. `record` is handed the run at its end,
// while its job and topics are still there (they go with the run's scope).
void run_stuck_transaction(session& s, const e5::parameters& params, const std::string& ending,
                           const std::string& partitioner, const std::vector<kafka_record>& records,
                           const std::vector<kafka_record>& plain, const std::function<void(e5::stuck_run&&)>& record);

}  // namespace rosterrig::live

#endif
