// rosterrig/result/run_status.hpp: where a run's history file stands. A
// history is written before the first fault and rewritten as samples come, so
// a run killed halfway still leaves what it saw, marked as such.
#ifndef ROSTERRIG_RESULT_RUN_STATUS_HPP
#define ROSTERRIG_RESULT_RUN_STATUS_HPP

#include <boost/describe.hpp>

namespace rosterrig::result {

/// running: the driver was still writing (or died without a word);
/// failed: it stopped on an error, named in the envelope's `failure`;
/// complete: every phase ran and the verdicts were judged from the saved file.
enum class run_status { running, failed, complete };
BOOST_DESCRIBE_ENUM(run_status, running, failed, complete)

}  // namespace rosterrig::result

#endif
