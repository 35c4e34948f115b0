// Experiment 7b's trial: a fresh connector on the cell's workers, a paced
// feed, the step's fault and its heal, the settle window, a REST restart when
// the window ended short, and every row read back. A live step only
// experiment 7b takes, kept out of its driver so the driver stays its wiring.
#ifndef ROSTERRIG_LIVE_JOBS_REBALANCE_TRIAL_HPP
#define ROSTERRIG_LIVE_JOBS_REBALANCE_TRIAL_HPP
#include <rosterrig/experiment/fault_plan.hpp>
#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

#include "jobs/connect_workers.hpp"
#include "roles/session.hpp"
#include "runner/history_writer.hpp"

namespace rosterrig::live {

// The trial of `step`, recorded in `h` once its fault has healed and again at its end.
void run_trial(session& s, const e7b::parameters& params, const experiment::fault_step& step, connect_workers& w2,
               history_writer<e7b::definition>& h);

// Every step of the plan in order. A resumed run (--resume) keeps the trials
// it recorded to their end and runs the rest, the one it stopped in included.
void run_trials(session& s, const e7b::parameters& params, const experiment::fault_plan& plan, connect_workers& w2,
                history_writer<e7b::definition>& h);

}  // namespace rosterrig::live

#endif
