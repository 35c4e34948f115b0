// The feed on its own thread: records produced at a steady rate that the run
// can re-pace while it goes (so data is still arriving at the last fault), with
// the producer's error carried back to the run instead of lost in the thread.
#ifndef ROSTERRIG_LIVE_FEEDER_HPP
#define ROSTERRIG_LIVE_FEEDER_HPP
#include <atomic>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <rosterrig/generate/roster_event.hpp>

#include "adapters/kafka_producer.hpp"

namespace rosterrig::live {

// The roster feed as Kafka records: keyed by NPI, to the partition the
// generator chose, the JSON line as the value, seq as the delivery opaque.
std::vector<kafka_record> kafka_records(const std::vector<roster_event>& events);

class feeder {
public:
    // Starts producing at once; rate <= 0: as fast as the broker takes them.
    feeder(const component_address& broker, std::string topic, std::vector<kafka_record> records, double rate);
    ~feeder();  // joins (the producer stops early on Ctrl-C)

    void pace(double rate) { pace_.store(rate); }
    long long sent() const { return producer_.attempted(); }
    long long acknowledged() const { return producer_.acknowledged(); }
    long long total() const { return static_cast<long long>(records_.size()); }

    // Waits for the end of the feed; rethrows the producer's error; throws
    // (naming Kafka) unless every record was acknowledged.
    produce_report finish();

private:
    component_address broker_;
    std::string topic_;
    std::vector<kafka_record> records_;
    std::atomic<double> pace_;
    kafka_producer producer_;
    produce_report report_;
    std::exception_ptr error_;
    std::jthread thread_;
};

// Feeds `records` at `rate` and waits for every acknowledgement, with a
// progress line every 10 s (a long paced feed shows it is moving) from
// `progress_text(acknowledged, total)`, which also names the timeout; the
// deadline is the feed's own duration plus 120 s.
produce_report feed_with_progress(
    const component_address& broker, const std::string& topic, const std::vector<kafka_record>& records, double rate,
    const std::function<std::string(long long acknowledged, long long total)>& progress_text);

}  // namespace rosterrig::live

#endif
