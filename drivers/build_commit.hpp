// The commit this binary was built from, compiled in on every build
// (cmake/build_commit.cmake): what a result records as the code that ran, and
// what a full run checks against the checkout's HEAD before it starts.
#ifndef ROSTERRIG_DRIVERS_BUILD_COMMIT_HPP
#define ROSTERRIG_DRIVERS_BUILD_COMMIT_HPP

namespace rosterrig {

/// `git describe --always --abbrev=40` at build time, "-dirty" appended when
/// the code had uncommitted changes; "unknown" when git was not available.
const char* build_commit();

}  // namespace rosterrig

#endif
