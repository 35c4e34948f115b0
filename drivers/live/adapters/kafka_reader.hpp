// Reads a whole topic back the way a downstream consumer would, at a chosen
// isolation level: read_committed stops at the last stable offset and skips
// aborted transactions; read_uncommitted sees every record written.
#ifndef ROSTERRIG_LIVE_KAFKA_READER_HPP
#define ROSTERRIG_LIVE_KAFKA_READER_HPP
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "adapters/live_error.hpp"

namespace rosterrig::live {

enum class isolation { read_committed, read_uncommitted };

struct topic_read {
    std::vector<std::uint64_t> seqs;  // the "seq" field of every JSON record read, in arrival order
    std::int64_t records = 0;         // records read, with or without a seq
};

// Every record of `topic` from the beginning up to the end the isolation level
// allows (each partition's end-of-partition event); throws naming Kafka after
// `deadline`.
topic_read read_topic(const component_address& broker, const std::string& topic, int partitions, isolation level,
                      std::chrono::seconds deadline = std::chrono::seconds(60));

}  // namespace rosterrig::live

#endif
