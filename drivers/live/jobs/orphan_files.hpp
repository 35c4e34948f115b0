// Experiment 4's remove_orphan_files run: part of the feed committed, the rest
// held in flight, the call made with the table's location listed in the store
// before and after it, then the job's report and the table checked. A live
// step only experiment 4 takes, kept out of its driver so the driver stays its
// wiring; the job on its table and the call are in table_maintenance.
#ifndef ROSTERRIG_LIVE_JOBS_ORPHAN_FILES_HPP
#define ROSTERRIG_LIVE_JOBS_ORPHAN_FILES_HPP
#include <vector>

#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>
#include <rosterrig/generate/roster_spec.hpp>

#include "adapters/kafka_producer.hpp"
#include "roles/session.hpp"
#include "runner/history_writer.hpp"

namespace rosterrig::live {

// One run of `plan` (part "orphans"), recorded in `h` at its end.
void run_orphans(session& s, const e4::parameters& params, const e4::run_plan& plan,
                 const std::vector<kafka_record>& records, const roster_spec& spec, history_writer<e4::definition>& h);

}  // namespace rosterrig::live

#endif
