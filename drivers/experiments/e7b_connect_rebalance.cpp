// rosterrig-e7b: Kafka Connect's Iceberg sink when its tasks move between
// workers. Per trial: a fresh connector on the group's workers, a paced feed,
// one seeded fault, a settle window, a REST restart when the window ended
// short, and every row read back. The cells (--cells picks some, in the order
// given; each draws the delays it draws in the full run):
//   coordinator-kill               two workers; SIGKILL the coordinator's worker
//   coordinator-kill-after-commit  the same, timed from the table's first snapshot
//   coordinator-kill-earliest      the same, iceberg.kafka.auto.offset.reset=earliest
//   zombie-pause                   two workers; SIGSTOP the other one past its session, SIGCONT
//   one-worker-kill                the control: one worker, SIGKILLed
//   coordinator-pause              two workers; SIGSTOP the coordinator's worker, SIGCONT
//   tasks-4                        coordinator-kill with tasks.max 4 (two tasks per worker)
//   worker-leave                   two workers; the other one SIGTERMed, started again later
//   worker-join                    one worker; the second started mid-cycle (it joins)
//   config-update                  one worker; the connector's configuration updated through REST
//   task-restart                   one worker; task 0 restarted through REST
//   task-restart-in-commit         the same, as soon as the coordinator starts a commit round
// One cell, once, for a live check: rosterrig-e7b --quick --cells worker-join
// (the quick feed and window; stays in runs/), or with the full run's feed and
// windows: rosterrig-e7b --cells worker-join --trials 1 --out FILE (without
// --out a full run, of any cells, replaces results/). CI's --quick alone is
// unchanged: one coordinator-kill. A stopped full run goes on with --resume
// HISTORY (runs/e7b_connect_rebalance/), keeping the trials it finished.
// The stack's second worker is started (and stopped) through compose/stack and
// left as it was found; every worker JVM is started anew before each trial and
// once more at the end. The trial, the workers, the fault and its heal, and
// what the workers' logs say of the coordinators are in drivers/live/
// (jobs/rebalance_trial, jobs/connect_workers, roles/process_faults,
// jobs/coordinator_logs); the rest is in
// include/rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp.
#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

#include "jobs/connect_workers.hpp"
#include "jobs/rebalance_trial.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e7b::definition>;

int main(int argc, char** argv) {
    std::string cells;
    for (const auto& c : e7b::known_cells()) cells += (cells.empty() ? "" : ", ") + c;
    return run_experiment<e7b::definition>(
        argc, argv,
        "Experiment 7b: Kafka Connect's Iceberg sink when its tasks move between workers: the coordinator's "
        "worker killed or paused, the other worker paused past its session timeout or leaving cleanly, a worker "
        "joining mid-cycle, four tasks, and one worker killed as the control.",
        {{"--trials", "N", "trials per cell (default 5, quick 1)", &e7b::parameters::trials},
         {"--cells", "CELL,..",
          "the cells to run, in this order (default: every one; quick: coordinator-kill); a full run of "
          "some still replaces results/ unless --out: " +
              cells,
          &e7b::parameters::cells}},
        [](session& s, const e7b::parameters& params, const experiment::fault_plan& plan, history& h) {
            if (!s.stack.local())
                throw live_error(
                    "experiment 7b starts a second Connect worker and signals pids: it needs the local stack");
            const auto version =
                connect_rest(s.stack.connect()).version();  // a worker that does not answer stops the run first
            h.record([&](e7b::samples& x) { x.worker_version = version; });
            connect_workers w2(s);
            run_trials(s, params, plan, w2, h);
        });
}
