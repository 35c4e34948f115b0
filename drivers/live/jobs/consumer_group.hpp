// Experiment 6's consumer group on the live broker: its members started as
// processes (our C++ member, or the Java client through compose/kafka's
// `kafka_member`), the group's committed offsets and lag sampled from the
// broker while they run, and their logs read back when they have ended.
#ifndef ROSTERRIG_LIVE_CONSUMER_GROUP_HPP
#define ROSTERRIG_LIVE_CONSUMER_GROUP_HPP
#include <filesystem>
#include <string>

#include <rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp>

#include "roles/session.hpp"

namespace rosterrig::live {

struct group_spec {
    std::string topic;
    std::string group;
    int partitions = 0;
    std::uint64_t members = 2;
    std::int64_t run_ms = 0;
    std::int64_t sample_every_ms = 1000;
    std::filesystem::path log_dir;  // each member's event log and standard error go here
};

// Runs the members to the end (they stop `run_ms` after starting, once the
// batch in hand is done; a member still running a batch and a minute later
// is killed and its exit recorded as such) and fills the run's log, offsets,
// exit codes and the clients' own warnings about the poll interval.
void run_consumer_group(session& s, const group_spec& g, e6::consumer_run& run);

}  // namespace rosterrig::live

#endif
