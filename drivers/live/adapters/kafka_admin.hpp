// Kafka administration through librdkafka's C admin API (the C++ API has none):
// topics, a consumer group's committed offsets (read and rewind), and lag.
#ifndef ROSTERRIG_LIVE_KAFKA_ADMIN_HPP
#define ROSTERRIG_LIVE_KAFKA_ADMIN_HPP
#include <chrono>
#include <map>
#include <string>
#include <vector>
#include "adapters/live_error.hpp"

typedef struct rd_kafka_s rd_kafka_t;

namespace rosterrig::live {

class kafka_admin {
public:
    explicit kafka_admin(const component_address& broker);
    ~kafka_admin();
    kafka_admin(const kafka_admin&) = delete;
    kafka_admin& operator=(const kafka_admin&) = delete;

    void create_topic(const std::string& topic, int partitions);
    void delete_topic(const std::string& topic);  // absent is fine
    void delete_group(const std::string& group);  // absent is fine; a group with members is an error

    // partition -> committed offset (-1 when the group has none for it).
    std::map<int, long long> committed_offsets(const std::string& group, const std::string& topic, int partitions);
    // Sets the group's committed offsets; the group must have no active member
    // using Kafka's group protocol (Flink's source commits without joining).
    void alter_committed_offsets(const std::string& group, const std::string& topic,
                                 const std::map<int, long long>& offsets);
    // partition -> high watermark (the next offset to be written).
    std::map<int, long long> end_offsets(const std::string& topic, int partitions);
    // The group's members as the broker describes them (their client ids), and its state; no members when it is absent.
    struct group_description {
        std::string state;
        std::vector<std::string> member_client_ids;
    };
    group_description describe_group(const std::string& group);
    // Sum over partitions of end offset minus committed offset (committed -1 counts as 0).
    long long lag(const std::string& group, const std::string& topic, int partitions);

    // Summed over partitions, a partition without a committed offset as 0.
    long long committed_offsets_sum(const std::string& group, const std::string& topic, int partitions) {
        return sum_of(committed_offsets(group, topic, partitions));
    }
    long long end_offsets_sum(const std::string& topic, int partitions) {
        return sum_of(end_offsets(topic, partitions));
    }
    // Every partition's committed offset back to 0: the start of the log.
    void rewind_committed_offsets(const std::string& group, const std::string& topic, int partitions) {
        std::map<int, long long> zero;
        for (int i = 0; i < partitions; ++i) zero[i] = 0;
        alter_committed_offsets(group, topic, zero);
    }

private:
    static long long sum_of(const std::map<int, long long>& m) {
        long long s = 0;
        for (const auto& [partition, v] : m) s += v > 0 ? v : 0;
        return s;
    }
    component_address broker_;
    std::string auth_failure_;  // set by librdkafka's error callback (a refused SASL or TLS handshake)
    rd_kafka_t* handle_ = nullptr;
};

}  // namespace rosterrig::live

#endif
