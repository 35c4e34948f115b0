// Experiment 1's part 2: are the committed offsets of Flink's Kafka source the
// truth or monitoring? The group rewound behind a running job, the TaskManager
// killed, then a fresh job started that trusts the rewound offsets; after each
// step the offsets and the table recorded. A live step only experiment 1
// takes, kept out of its driver so the driver stays its wiring.
#ifndef ROSTERRIG_LIVE_JOBS_FLINK_OFFSETS_HPP
#define ROSTERRIG_LIVE_JOBS_FLINK_OFFSETS_HPP
#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>

#include "roles/session.hpp"
#include "runner/history_writer.hpp"

namespace rosterrig::live {

void run_offsets(session& s, const e1::parameters& params, history_writer<e1::definition>& h);

}  // namespace rosterrig::live

#endif
