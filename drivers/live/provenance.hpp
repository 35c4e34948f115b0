// Where a result came from: the code's commit, the commit that recorded the
// predictions (they must be committed before the run), the source tree.
#ifndef ROSTERRIG_LIVE_PROVENANCE_HPP
#define ROSTERRIG_LIVE_PROVENANCE_HPP
#include <string>

#include "stack_config.hpp"

namespace rosterrig::live {

// The checkout the driver was built from (compose/..).
std::string source_dir(const stack_config& stack);

// HEAD of that checkout, with "-dirty" when tracked files of the code differ
// (a result from uncommitted code says so).
std::string code_commit(const stack_config& stack);

// The commit that last changed `file` (relative to the checkout); throws when
// it is uncommitted or has uncommitted changes: a prediction that was never
// committed cannot be recorded as made first.
std::string commit_that_recorded(const stack_config& stack, const std::string& file);

}  // namespace rosterrig::live

#endif
