// Table maintenance run through Trino against a table a Flink job is still
// writing, as experiment 4 records it: the call with the table's state before
// and after (from the catalog and Trino's metadata tables), what the job
// reported, and the table read back and checked against the seed.
#ifndef ROSTERRIG_LIVE_TABLE_MAINTENANCE_HPP
#define ROSTERRIG_LIVE_TABLE_MAINTENANCE_HPP
#include <string>

#include <rosterrig/experiments/e4_maintenance.hpp>

#include "pipeline.hpp"
#include "session.hpp"

namespace rosterrig::live {

// Runs `ALTER TABLE … EXECUTE <execute>`; a failure of the procedure is
// recorded (ok false, Trino's message), not thrown. `t0_ms`: the run's start.
e4::procedure_call run_procedure(session& s, const pipeline_spec& p, const std::string& job, const std::string& execute,
                                 long long t0_ms);

// State, restarts, exceptions and checkpoint counts, as Flink reports them.
e4::job_health job_health_of(session& s, const std::string& job);

// The whole table read through Trino and checked against the feed; a scan
// that fails is recorded with Trino's message. The current snapshot's files
// are checked against the store's own listing.
e4::table_check check_table(session& s, const pipeline_spec& p, const roster_spec& spec, const std::string& kind);

}  // namespace rosterrig::live

#endif
