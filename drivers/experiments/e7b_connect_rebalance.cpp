// rosterrig-e7b: Kafka Connect's Iceberg sink when its tasks move between
// workers. Per trial: a fresh connector on the group's workers, a paced feed,
// one seeded fault (the coordinator's worker SIGKILLed, the other worker
// paused past its session timeouts, or the only worker SIGKILLed), a settle
// window, a REST restart when the window ended short, and every row read
// back. The stack's second worker is started (and stopped) through
// compose/stack and left as it was found; every worker JVM is started anew
// before each trial and once more at the end. The trial, the workers, the
// fault and its heal, and what the workers' logs say of the coordinators are in
// drivers/live/ (jobs/rebalance_trial, jobs/connect_workers,
// roles/process_faults, jobs/coordinator_logs); the rest is in
// include/rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp.
#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

#include "jobs/connect_workers.hpp"
#include "jobs/rebalance_trial.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e7b::definition>;

int main(int argc, char** argv) {
    return run_experiment<e7b::definition>(
        argc, argv,
        "Experiment 7b: Kafka Connect's Iceberg sink when its tasks move between workers: the coordinator's "
        "worker killed, the other worker paused past its session timeout, and one worker killed as the control.",
        {{"--trials", "N", "trials per cell (default 5, quick 1)", &e7b::parameters::trials}},
        [](session& s, const e7b::parameters& params, const experiment::fault_plan& plan, history& h) {
            if (!s.stack.local())
                throw live_error(
                    "experiment 7b starts a second Connect worker and signals pids: it needs the local stack");
            const auto version =
                connect_rest(s.stack.connect()).version();  // a worker that does not answer stops the run first
            h.record([&](e7b::samples& x) { x.worker_version = version; });
            connect_workers w2(s);
            for (const auto& step : plan.steps) run_trial(s, params, step, w2, h);
        });
}
