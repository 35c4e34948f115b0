// The roster feed as Kafka records: keyed by NPI, sent to the partition the
// generator chose, the JSON line as the value, seq as the delivery opaque.
#pragma once
#include <vector>
#include <rosterrig/generate/generator.hpp>
#include <rosterrig/generate/json_lines.hpp>
#include "kafka_producer.hpp"

namespace rosterrig::experiments {

inline std::vector<live::kafka_record> kafka_records(const std::vector<roster_event>& events) {
    std::vector<live::kafka_record> out;
    out.reserve(events.size());
    for (const auto& e : events) {
        std::string value = to_json_line(e);
        if (!value.empty() && value.back() == '\n') value.pop_back();
        out.push_back({static_cast<int>(e.partition), std::to_string(e.npi), std::move(value),
                       static_cast<long long>(e.seq)});
    }
    return out;
}

}  // namespace rosterrig::experiments
