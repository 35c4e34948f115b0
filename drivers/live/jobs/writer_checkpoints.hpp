// Experiment 1b's checkpoint statistics of the Iceberg writer's vertex, which
// give its alignment window, gathered into the run's history. A live step only
// experiment 1b takes, kept out of its driver so the driver stays its wiring.
#ifndef ROSTERRIG_LIVE_JOBS_WRITER_CHECKPOINTS_HPP
#define ROSTERRIG_LIVE_JOBS_WRITER_CHECKPOINTS_HPP
#include <cstddef>
#include <string>

#include <rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp>

#include "roles/session.hpp"
#include "runner/history_writer.hpp"

namespace rosterrig::live {

// Flink keeps the last few checkpoints' statistics: collected before each kill and at the end, so the run keeps every one.
void collect_checkpoints(session& s, const std::string& job, const std::string& writer_vertex, std::size_t at,
                         history_writer<e1b::definition>& h);

}  // namespace rosterrig::live

#endif
