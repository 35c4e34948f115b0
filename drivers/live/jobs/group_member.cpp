#include "jobs/group_member.hpp"

#include <librdkafka/rdkafkacpp.h>

#include <chrono>
#include <iostream>
#include <stdexcept>

#include "adapters/process_fault.hpp"

namespace rosterrig::live {

namespace json = boost::json;

event_log::event_log(const std::string& file, std::string member)
    : out_(file, std::ios::app), member_(std::move(member)) {
    if (!out_) throw std::runtime_error("cannot open " + file);
}

void event_log::write(const std::string& kind, json::object fields) {
    json::object line{{"t", now_ms()}, {"member", member_}, {"kind", kind}};
    for (auto& [k, v] : fields) line[k] = v;
    std::lock_guard lock(mutex_);
    out_ << json::serialize(line) << '\n' << std::flush;
}

namespace {
json::array partition_numbers(const std::vector<RdKafka::TopicPartition*>& ps) {
    json::array out;
    for (const auto* p : ps) out.push_back(p->partition());
    return out;
}
}  // namespace

// Eager (classic) rebalancing, where the application assigns and unassigns;
// the client's log lines to stderr; errors handed to the event callback are
// events the application saw.
class group_member::callbacks : public RdKafka::RebalanceCb, public RdKafka::EventCb {
public:
    explicit callbacks(group_member& m) : m_(m) {}
    void rebalance_cb(RdKafka::KafkaConsumer* c, RdKafka::ErrorCode err,
                      std::vector<RdKafka::TopicPartition*>& ps) override {
        if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
            m_.log_.write("assigned", {{"partitions", partition_numbers(ps)}});
            c->assign(ps);
            c->resume(
                ps);  // librdkafka keeps a partition's pause across a rebalance: one paused before is ours to read again
            return;
        }
        const bool lost = c->assignment_lost();
        m_.pending_.clear();  // records of partitions no longer ours: the next owner reads them
        if (!lost && m_.before_revoke) m_.before_revoke();
        m_.log_.write(lost ? "lost" : "revoked", {{"partitions", partition_numbers(ps)}});
        c->unassign();
    }
    void event_cb(RdKafka::Event& e) override {
        if (e.type() == RdKafka::Event::EVENT_LOG)
            std::cerr << "client-log level " << e.severity() << " " << e.fac() << ": " << e.str() << std::endl;
        else if (e.type() == RdKafka::Event::EVENT_ERROR)
            m_.log_.write("error", {{"where", "event_cb"}, {"error", RdKafka::err2str(e.err()) + ": " + e.str()}});
    }

private:
    group_member& m_;
};

group_member::group_member(const member_config& c, event_log& log)
    : config_(c), log_(log), callbacks_(std::make_unique<callbacks>(*this)) {
    std::string err;
    std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
    auto set = [&](const std::string& k, const std::string& v) {
        if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK)
            throw std::runtime_error("consumer config " + k + ": " + err);
    };
    set("bootstrap.servers", c.bootstrap);
    set("group.id", c.group);
    set("client.id", c.member);
    set("enable.auto.commit", "false");
    set("auto.offset.reset", "earliest");
    set("max.poll.interval.ms", std::to_string(c.max_poll_interval_ms));
    set("session.timeout.ms", std::to_string(c.session_timeout_ms));
    set("heartbeat.interval.ms", "1000");
    if (conf->set("rebalance_cb", static_cast<RdKafka::RebalanceCb*>(callbacks_.get()), err) !=
            RdKafka::Conf::CONF_OK ||
        conf->set("event_cb", static_cast<RdKafka::EventCb*>(callbacks_.get()), err) != RdKafka::Conf::CONF_OK)
        throw std::runtime_error(err);
    consumer_.reset(RdKafka::KafkaConsumer::create(conf.get(), err));
    if (!consumer_) throw std::runtime_error("cannot create a consumer at " + c.bootstrap + ": " + err);
    if (const auto e = consumer_->subscribe({c.topic}); e != RdKafka::ERR_NO_ERROR)
        throw std::runtime_error("cannot subscribe to " + c.topic + ": " + RdKafka::err2str(e));
}

group_member::~group_member() = default;

void group_member::log_poll_error(const RdKafka::Message& m) {
    log_.write("error", {{"where", "poll"}, {"error", RdKafka::err2str(m.err()) + ": " + m.errstr()}});
}

std::vector<message_ptr> group_member::poll_batch() {
    std::vector<message_ptr> b = std::move(pending_);
    pending_.clear();
    while (static_cast<long long>(b.size()) < config_.batch) {
        message_ptr m(consumer_->consume(b.empty() ? 100 : 0));
        if (m->err() == RdKafka::ERR__TIMED_OUT || m->err() == RdKafka::ERR__PARTITION_EOF) break;
        if (m->err() != RdKafka::ERR_NO_ERROR) {
            log_poll_error(*m);
            break;
        }
        b.push_back(std::move(m));
    }
    return b;
}

void group_member::poll_while_paused() {
    message_ptr m(consumer_->consume(100));
    if (m->err() == RdKafka::ERR_NO_ERROR) {
        pending_.push_back(std::move(m));
        pause_all();
    } else if (m->err() != RdKafka::ERR__TIMED_OUT && m->err() != RdKafka::ERR__PARTITION_EOF) {
        log_poll_error(*m);
    }
}

void group_member::pause_all() {
    std::vector<RdKafka::TopicPartition*> assigned;
    consumer_->assignment(assigned);
    consumer_->pause(assigned);
    RdKafka::TopicPartition::destroy(assigned);
}

void group_member::resume_all() {
    std::vector<RdKafka::TopicPartition*> assigned;
    consumer_->assignment(assigned);
    consumer_->resume(assigned);
    RdKafka::TopicPartition::destroy(assigned);
}

void group_member::commit(const std::map<std::int64_t, std::int64_t>& next_offsets) {
    if (next_offsets.empty()) return;
    std::vector<RdKafka::TopicPartition*> offsets;
    json::object shown;
    for (const auto& [p, o] : next_offsets) {
        offsets.push_back(RdKafka::TopicPartition::create(config_.topic, static_cast<int>(p), o));
        shown[std::to_string(p)] = o;
    }
    const auto err = consumer_->commitSync(offsets);
    std::string why = err == RdKafka::ERR_NO_ERROR ? "" : RdKafka::err2str(err);
    for (const auto* tp : offsets)
        if (why.empty() && tp->err() != RdKafka::ERR_NO_ERROR) why = RdKafka::err2str(tp->err());
    RdKafka::TopicPartition::destroy(offsets);
    if (why.empty())
        log_.write("commit", {{"ok", true}, {"offsets", shown}});
    else
        log_.write("commit", {{"ok", false}, {"offsets", shown}, {"error", why}});
}

void group_member::close() { consumer_->close(); }

}  // namespace rosterrig::live
