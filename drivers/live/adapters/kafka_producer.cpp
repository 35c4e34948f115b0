#include "adapters/kafka_producer.hpp"

#include <librdkafka/rdkafkacpp.h>
#include <mutex>
#include <rosterrig/generate/feed_digest.hpp>
#include <thread>
#include "runner/progress.hpp"

namespace rosterrig::live {

struct kafka_producer::delivery_callback : RdKafka::DeliveryReportCb {
    kafka_producer* owner = nullptr;
    produce_report* report = nullptr;
    std::mutex mutex;
    void dr_cb(RdKafka::Message& m) override {
        std::lock_guard lock(mutex);
        if (!report) return;
        if (m.err() == RdKafka::ERR_NO_ERROR) {
            ++report->acknowledged;
            owner->acknowledged_.fetch_add(1);
            report->acked_at.emplace_back(reinterpret_cast<long long>(m.msg_opaque()),
                                          std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::system_clock::now().time_since_epoch())
                                              .count());
        } else {
            ++report->failed;
            report->failed_seqs.push_back(reinterpret_cast<long long>(m.msg_opaque()));
            if (report->first_error.empty()) report->first_error = m.errstr();
        }
    }
};

kafka_producer::kafka_producer(const component_address& broker, bool idempotent)
    : broker_(broker), callback_(std::make_unique<delivery_callback>()) {
    callback_->owner = this;
    std::string err;
    std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
    auto set = [&](const std::string& k, const std::string& v) {
        if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK)
            throw live_error(broker_, "producer config " + k + ": " + err);
    };
    set("bootstrap.servers", broker_.where());
    set("enable.idempotence", idempotent ? "true" : "false");
    set("acks", "all");
    set("linger.ms", "5");
    set("message.timeout.ms", "60000");
    set("socket.timeout.ms", "10000");
    for (const auto& [k, v] : broker_.client) set(k, v);
    if (conf->set("dr_cb", callback_.get(), err) != RdKafka::Conf::CONF_OK)
        throw live_error(broker_, "producer config dr_cb: " + err);
    producer_.reset(RdKafka::Producer::create(conf.get(), err));
    if (!producer_) throw live_error(broker_, "cannot create producer: " + err);
}

kafka_producer::~kafka_producer() {
    if (producer_) producer_->flush(5000);
}

produce_report kafka_producer::produce_all(const std::string& topic, const std::vector<kafka_record>& records,
                                           double rate, const std::function<void(const produce_report&)>& on_progress,
                                           const std::atomic<double>* pace) {
    produce_report report;
    {
        std::lock_guard lock(callback_->mutex);
        callback_->report = &report;
    }
    // Delivery reports may still arrive after an early exit (the destructor
    // flushes): they must never reach this function's dead report.
    struct detach {
        delivery_callback& cb;
        ~detach() {
            std::lock_guard lock(cb.mutex);
            cb.report = nullptr;
        }
    } detach_on_exit{*callback_};
    const auto start = std::chrono::steady_clock::now();
    auto last_progress = start;
    auto due = start;  // when the next record may go
    // The digest of the records handed over, in order, hashed on another
    // core while this one produces: records go strictly in vector order, so
    // the digest of records[0, attempted) is the digest of what was produced.
    auto digest_of = [&records](std::size_t n) {
        feed_hasher h;
        for (std::size_t i = 0; i < n; ++i) h.add_value(records[i].value);
        return h.hex();
    };
    std::string whole_digest;
    std::jthread hashing([&] { whole_digest = digest_of(records.size()); });
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        throw_if_interrupted();  // Ctrl-C must not wait for a slow feed to end
        if (pace) rate = pace->load();
        if (rate > 0) {
            while (std::chrono::steady_clock::now() < due && !interrupted_flag().load()) producer_->poll(1);
            due += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::duration<double>(1.0 / rate));
        }
        for (;;) {
            auto code = producer_->produce(topic, r.partition, RdKafka::Producer::RK_MSG_COPY,
                                           const_cast<char*>(r.value.data()), r.value.size(), r.key.data(),
                                           r.key.size(), 0, reinterpret_cast<void*>(r.seq));
            if (code == RdKafka::ERR_NO_ERROR) break;
            if (code == RdKafka::ERR__QUEUE_FULL) {
                producer_->poll(100);
                continue;
            }
            throw live_error(broker_, "produce to " + topic + " failed: " + RdKafka::err2str(code));
        }
        ++report.attempted;
        attempted_.fetch_add(1);
        // Delivery reports and the progress line, every 256 records: serving
        // them after each record cost a third of the unpaced rate.
        if ((i & 255) != 255 && rate <= 0) continue;
        producer_->poll(0);
        auto now = std::chrono::steady_clock::now();
        if (on_progress && now - last_progress > std::chrono::seconds(1)) {
            last_progress = now;
            std::lock_guard lock(callback_->mutex);
            on_progress(report);
        }
    }
    producer_->flush(30000);
    report.undelivered = producer_->outq_len();
    hashing.join();
    const auto handed = static_cast<std::size_t>(report.attempted);
    report.feed_sha256 = handed == records.size() ? whole_digest : digest_of(handed);
    return report;
}

}  // namespace rosterrig::live
