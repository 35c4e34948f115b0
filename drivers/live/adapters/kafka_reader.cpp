#include "adapters/kafka_reader.hpp"

#include <librdkafka/rdkafkacpp.h>

#include <memory>
#include <set>

#include <boost/json.hpp>

namespace rosterrig::live {

topic_read read_topic(const component_address& broker, const std::string& topic, int partitions, isolation level,
                      std::chrono::seconds deadline) {
    std::string err;
    std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
    auto set = [&](const std::string& k, const std::string& v) {
        if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK)
            throw live_error(broker, "consumer config " + k + ": " + err);
    };
    set("bootstrap.servers", broker.where());
    // A group id librdkafka requires; partitions are assigned, never subscribed, and nothing is committed.
    set("group.id", "rosterrig-reader-" + topic);
    set("enable.auto.commit", "false");
    set("enable.partition.eof", "true");
    set("isolation.level", level == isolation::read_committed ? "read_committed" : "read_uncommitted");
    set("socket.timeout.ms", "10000");
    for (const auto& [k, v] : broker.client) set(k, v);
    std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
    if (!consumer) throw live_error(broker, "cannot create a consumer: " + err);
    std::vector<RdKafka::TopicPartition*> assignment;
    for (int p = 0; p < partitions; ++p)
        assignment.push_back(RdKafka::TopicPartition::create(topic, p, RdKafka::Topic::OFFSET_BEGINNING));
    const auto code = consumer->assign(assignment);
    RdKafka::TopicPartition::destroy(assignment);
    if (code != RdKafka::ERR_NO_ERROR)
        throw live_error(broker, "cannot assign " + topic + ": " + RdKafka::err2str(code));

    topic_read out;
    std::set<int> at_end;
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (static_cast<int>(at_end.size()) < partitions) {
        if (std::chrono::steady_clock::now() > give_up) {
            consumer->close();
            throw live_error(broker, "reading " + topic + ": " + std::to_string(at_end.size()) + " of " +
                                         std::to_string(partitions) + " partitions reached their end in " +
                                         std::to_string(deadline.count()) + " s");
        }
        std::unique_ptr<RdKafka::Message> m(consumer->consume(500));
        if (m->err() == RdKafka::ERR__PARTITION_EOF) {
            at_end.insert(m->partition());
            continue;
        }
        if (m->err() == RdKafka::ERR__TIMED_OUT) continue;
        if (m->err() != RdKafka::ERR_NO_ERROR) {
            consumer->close();
            throw live_error(broker, "reading " + topic + ": " + m->errstr());
        }
        ++out.records;
        at_end.erase(m->partition());  // a record after an EOF: not at the end after all
        boost::system::error_code ec;
        auto v = boost::json::parse(std::string_view(static_cast<const char*>(m->payload()), m->len()), ec);
        if (!ec && v.is_object())
            if (auto* seq = v.as_object().if_contains("seq"); seq && seq->is_int64() && seq->as_int64() > 0)
                out.seqs.push_back(static_cast<std::uint64_t>(seq->as_int64()));
    }
    consumer->close();
    return out;
}

}  // namespace rosterrig::live
