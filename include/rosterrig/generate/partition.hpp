// rosterrig/generate/partition.hpp: which partition an NPI's records go to.
//
// Our own rule, not Kafka's murmur2 default partitioner: the producer is told
// the partition explicitly, so the arrival order within every partition is
// known from the seed alone. All records of one NPI share a partition.
#ifndef ROSTERRIG_GENERATE_PARTITION_HPP
#define ROSTERRIG_GENERATE_PARTITION_HPP

#include <cstdint>

#include "rosterrig/random/splitmix64.hpp"

namespace rosterrig {

/// partition = mix64(npi) mod partitions (mix64 is the SplitMix64 finalizer).
constexpr std::uint32_t partition_of(std::uint64_t npi, std::uint32_t partitions) noexcept {
    return partitions == 0 ? 0 : static_cast<std::uint32_t>(mix64(npi) % partitions);
}

}  // namespace rosterrig

#endif
