// The version each component reports about itself: on the local stack
// gathered by the stack script's `status --json` (which asks each component,
// never our pom); on a described stack asked of the components that report
// one over their API (Flink, its SQL Gateway, Trino).
#ifndef ROSTERRIG_LIVE_STACK_VERSIONS_HPP
#define ROSTERRIG_LIVE_STACK_VERSIONS_HPP
#include <map>
#include <string>
#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// component -> version; throws naming the component that is not healthy.
std::map<std::string, std::string> reported_versions(const stack_config& stack);

// Runs a command, returns its stdout; throws with its exit status on failure.
std::string run_command(const std::string& command);

}  // namespace rosterrig::live

#endif
