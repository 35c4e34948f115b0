// Experiment 2's run: one repeat of a variant, from the first batch and the
// early savepoint to the restore watched, the third batch and the table read
// back. A live step only experiment 2 takes, kept out of its driver so the
// driver stays its wiring; the watch itself is in restore_watch.
#ifndef ROSTERRIG_LIVE_JOBS_SAVEPOINT_RESTORE_HPP
#define ROSTERRIG_LIVE_JOBS_SAVEPOINT_RESTORE_HPP
#include <cstdint>

#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>

#include "roles/session.hpp"
#include "runner/history_writer.hpp"

namespace rosterrig::live {

// Repeat `repeat` (from 1) of variant `v`, recorded in `h` as it goes.
void run_once(session& s, const e2::parameters& params, const e2::variant& v, std::uint64_t repeat,
              history_writer<e2::definition>& h);

}  // namespace rosterrig::live

#endif
