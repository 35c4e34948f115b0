// rosterrig-e2: what does restoring from a savepoint older than the table do?
//
// Per variant and repeat: a job writes a first batch; a savepoint is taken
// early; the job runs on until the table's flink.max-committed-checkpoint-id is
// `watermark_lead` checkpoints past it, and is stopped; a second batch is
// written; a new job is restored from the old savepoint. From the restore
// request a sampler records every 0.5 s what an on-call rotation could see
// (job state, checkpoints, failed checkpoints, Kafka lag) and what the table
// is (snapshot and summary, from the catalog), and every 3 s the rows Trino
// sees (drivers/live/jobs/restore_watch). The run is in
// drivers/live/jobs/savepoint_restore; everything else is in
// include/rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp.
#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>

#include "jobs/savepoint_restore.hpp"
#include "runner/runner.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
using history = history_writer<e2::definition>;

int main(int argc, char** argv) {
    return run_experiment<e2::definition>(
        argc, argv,
        "Experiment 2: restore a job from a savepoint older than the table's newest commit, and time the "
        "freeze, the lump and the duplicates from the restore.",
        {{"--repeats", "N", "repeats of each variant (default 3, quick 1)", &e2::parameters::repeats}},
        [](session& s, const e2::parameters& params, const experiment::fault_plan&, history& h) {
            for (std::uint64_t r = 1; r <= params.repeats; ++r)
                for (const auto& v : e2::variants(params)) run_once(s, params, v, r, h);
        });
}
