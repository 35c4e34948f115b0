#include "build_commit.hpp"

#include "rosterrig_build_commit.hpp"  // generated on every build

namespace rosterrig {

const char* build_commit() { return ROSTERRIG_BUILD_COMMIT; }

}  // namespace rosterrig
