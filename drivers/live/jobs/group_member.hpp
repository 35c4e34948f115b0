// One consumer-group member on librdkafka's C++ client, as experiment 6's
// C++ member uses it: batches of up to N records per poll (librdkafka's
// consume() has no max.poll.records), pausing and resuming its partitions,
// synchronous commits, and a log of everything the application is told
// (the format of rosterrig/experiment/consumer_log.hpp). The client's own log
// lines go to stderr, for the driver to count.
#ifndef ROSTERRIG_LIVE_GROUP_MEMBER_HPP
#define ROSTERRIG_LIVE_GROUP_MEMBER_HPP
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/json.hpp>

namespace RdKafka {
class KafkaConsumer;
class Message;
class RebalanceCb;
class EventCb;
}  // namespace RdKafka

namespace rosterrig::live {

// One JSON line per event, flushed at once: the driver may read it while the
// member runs, and a killed member loses at most the line it was writing.
class event_log {
public:
    event_log(const std::string& file, std::string member);
    void write(const std::string& kind, boost::json::object fields = {});

private:
    std::ofstream out_;
    std::string member_;
    std::mutex mutex_;
};

struct member_config {
    std::string bootstrap, topic, group, member;
    long long batch = 0;
    long long max_poll_interval_ms = 0;
    long long session_timeout_ms = 6000;  // librdkafka wants it <= the poll interval
};

using message_ptr = std::unique_ptr<RdKafka::Message>;

class group_member {
public:
    group_member(const member_config& c, event_log& log);
    ~group_member();

    // Up to `batch` records: first those that arrived while paused, then
    // what consume() has, waiting at most 100 ms for the first.
    std::vector<message_ptr> poll_batch();
    // One poll with the partitions paused, so the group sees a live member;
    // a record of a partition assigned meanwhile is kept for the next batch.
    void poll_while_paused();
    void pause_all();
    void resume_all();
    // commitSync of `next_offsets` (partition -> offset); logs the answer. Nothing to claim, nothing sent.
    void commit(const std::map<std::int64_t, std::int64_t>& next_offsets);
    void close();

    // Called in a revocation (not a loss) before the partitions go.
    std::function<void()> before_revoke;

private:
    class callbacks;
    member_config config_;
    event_log& log_;
    std::unique_ptr<callbacks> callbacks_;
    std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
    std::vector<message_ptr> pending_;
    void log_poll_error(const RdKafka::Message& m);
};

}  // namespace rosterrig::live

#endif
