// Where a result came from: the code's commit, the commit that recorded the
// predictions (they must be committed before the run), the source tree.
#ifndef ROSTERRIG_LIVE_PROVENANCE_HPP
#define ROSTERRIG_LIVE_PROVENANCE_HPP
#include <string>

#include <rosterrig/experiment/run_provenance.hpp>

#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// The checkout the driver was built from (compose/..).
std::string source_dir(const stack_config& stack);

// HEAD of that checkout, with "-dirty" when tracked files of the code differ
// (a result from uncommitted code says so).
std::string code_commit(const stack_config& stack);

// Whether this run may start: the commit compiled into the binary against the
// checkout's HEAD and its uncommitted code (experiment/run_provenance.hpp
// decides; a git that cannot answer refuses a full run).
experiment::run_permission run_permission_here(const stack_config& stack, bool quick);

// The commit a result records as the code that ran: the binary's own.
std::string binary_code_commit();

// The commit that last changed `file` (relative to the checkout); throws when
// it is uncommitted or has uncommitted changes: a prediction that was never
// committed cannot be recorded as made first.
std::string commit_that_recorded(const stack_config& stack, const std::string& file);

}  // namespace rosterrig::live

#endif
