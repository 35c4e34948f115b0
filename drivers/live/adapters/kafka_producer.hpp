// A librdkafka producer for the roster feed: each record goes to the partition
// the generator chose, keyed by NPI, and only a delivery report counts it as
// acknowledged. A steady-rate mode spreads the feed over time so that faults
// land while data is still arriving.
#ifndef ROSTERRIG_LIVE_KAFKA_PRODUCER_HPP
#define ROSTERRIG_LIVE_KAFKA_PRODUCER_HPP
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "adapters/live_error.hpp"

namespace RdKafka {
class Producer;
}

namespace rosterrig::live {

struct kafka_record {
    int partition = 0;
    std::string key;
    std::string value;
    long long seq = 0;  // carried as the message opaque, for the delivery report
};

struct produce_report {
    long long attempted = 0;
    long long acknowledged = 0;  // delivery report without error
    long long failed = 0;        // delivery report with an error
    long long undelivered = 0;   // still queued after the final flush
    std::vector<long long> failed_seqs;
    // (seq, epoch ms) of each acknowledgement, as the delivery report was
    // served: at or after the broker's acknowledgement, never before.
    std::vector<std::pair<long long, long long>> acked_at;
    std::string first_error;
    // SHA-256 (hex) of the values handed to the producer, in order, each
    // followed by '\n' (generate/feed_digest.hpp): for a roster feed, what
    // `rosterrig generate | sha256sum` prints for the same records.
    std::string feed_sha256;
};

class kafka_producer {
public:
    kafka_producer(const component_address& broker, bool idempotent = true);
    ~kafka_producer();

    // Produces every record; rate_per_second <= 0 means as fast as possible.
    // on_progress is called about once a second with the running report.
    // When pace is given, the rate is read from it before every record, so a
    // driver can re-pace the rest of the feed while it runs (steady between
    // changes).
    produce_report produce_all(const std::string& topic, const std::vector<kafka_record>& records,
                               double rate_per_second = 0,
                               const std::function<void(const produce_report&)>& on_progress = {},
                               const std::atomic<double>* pace = nullptr);

    // Acknowledged so far: safe to read from another thread during produce_all.
    long long acknowledged() const { return acknowledged_.load(); }
    long long attempted() const { return attempted_.load(); }

private:
    struct delivery_callback;
    component_address broker_;
    std::unique_ptr<delivery_callback> callback_;  // must outlive the producer
    std::unique_ptr<RdKafka::Producer> producer_;
    std::atomic<long long> acknowledged_{0};
    std::atomic<long long> attempted_{0};
};

}  // namespace rosterrig::live

#endif
