// rosterrig/experiment/committed_offsets.hpp: the offsets a Kafka source's
// group had committed, read at one moment. Flink's Kafka source commits them
// after a checkpoint completes, but not promptly: a run's readings can stay
// unchanged over several completed checkpoints, so they bound when data was
// covered (no later than the reading), not which checkpoint covered it.
#ifndef ROSTERRIG_EXPERIMENT_COMMITTED_OFFSETS_HPP
#define ROSTERRIG_EXPERIMENT_COMMITTED_OFFSETS_HPP

#include <cstdint>
#include <vector>

#include <boost/describe.hpp>

namespace rosterrig::experiment {

struct committed_offsets_sample {
    std::int64_t at_ms = 0;                 ///< epoch ms of the reading
    std::vector<std::int64_t> next_offset;  ///< per partition: the next offset to read (negative: none committed)
};
BOOST_DESCRIBE_STRUCT(committed_offsets_sample, (), (at_ms, next_offset))

}  // namespace rosterrig::experiment

#endif
