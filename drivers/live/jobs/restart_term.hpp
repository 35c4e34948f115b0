// Experiment 5's restart term (below), a live step only experiment 5 takes,
// kept out of its driver so the driver stays its wiring. The job's pieces are
// in kafka_txn_job.
#ifndef ROSTERRIG_LIVE_JOBS_RESTART_TERM_HPP
#define ROSTERRIG_LIVE_JOBS_RESTART_TERM_HPP
#include <cstdint>
#include <string>
#include <vector>

#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>

#include "adapters/kafka_producer.hpp"
#include "roles/session.hpp"
#include "runner/history_writer.hpp"

namespace rosterrig::live {

// The restart term: a savepoint mid-feed pre-commits the writer's
// transactions; the TaskManager is SIGKILLed and the job cancelled; a job
// restored from the savepoint (at once, or `restart_late_wait_ms` after it)
// has to commit them, while the feed goes on.
void run_restart(session& s, const e5::parameters& params, const std::string& ending, std::uint64_t repeat,
                 const std::vector<kafka_record>& records, history_writer<e5::definition>& h);

}  // namespace rosterrig::live

#endif
