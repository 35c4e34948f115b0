// Experiment 7's part 2: are the connector's consumer-group offsets the
// truth? The group rewound behind the running connector, the worker killed,
// the connector deleted and created again under the same name, with and
// without the group rewound; after each step the offsets and the table
// watched, then every row read back.
#ifndef ROSTERRIG_LIVE_JOBS_CONNECT_OFFSETS_HPP
#define ROSTERRIG_LIVE_JOBS_CONNECT_OFFSETS_HPP
#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>

#include "runner/runner.hpp"

namespace rosterrig::live {

void run_connect_offsets(session& s, const e7::parameters& params, history_writer<e7::definition>& h);

}  // namespace rosterrig::live

#endif
