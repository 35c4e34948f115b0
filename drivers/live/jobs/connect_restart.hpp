// Experiment 7's part 1: Kafka Connect's Iceberg sink fed at a paced rate
// while its worker is SIGKILLed at the moments the fault plan drew, each kill
// recorded with experiment 1's kill sample and this writer's own record; then
// the table read back.
#ifndef ROSTERRIG_LIVE_JOBS_CONNECT_RESTART_HPP
#define ROSTERRIG_LIVE_JOBS_CONNECT_RESTART_HPP
#include <rosterrig/experiment/fault_plan.hpp>
#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>

#include "runner/runner.hpp"

namespace rosterrig::live {

void run_connect_restart(session& s, const e7::parameters& params, const experiment::fault_plan& plan,
                         history_writer<e7::definition>& h);

}  // namespace rosterrig::live

#endif
