// rosterrig-e6-member: one member of experiment 6's consumer group, on
// librdkafka's C++ client. It takes batches of --batch records, "processes"
// each with a dependency of --latency-ms (a sleep: the result is
// deterministic), commits the batch, and logs every record and every event
// the application sees as JSON lines (the format compose/kafka/PollTrapMember.java
// writes too; rosterrig/experiment/consumer_log.hpp reads both). The
// client's own log lines go to stderr, for the driver to count.
#include <librdkafka/rdkafkacpp.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <rosterrig/cli/arg_parser.hpp>

namespace json = boost::json;
using clock_type = std::chrono::system_clock;

namespace {

long long now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now().time_since_epoch()).count();
}

// One line per event, flushed at once: the driver may read it while we run,
// and a killed member loses at most the line it was writing.
class event_log {
public:
    event_log(const std::string& file, std::string member) : out_(file, std::ios::app), member_(std::move(member)) {
        if (!out_) throw std::runtime_error("cannot open " + file);
    }
    void write(const std::string& kind, json::object fields = {}) {
        json::object line{{"t", now_ms()}, {"member", member_}, {"kind", kind}};
        for (auto& [k, v] : fields) line[k] = v;
        std::lock_guard lock(mutex_);
        out_ << json::serialize(line) << '\n' << std::flush;
    }

private:
    std::ofstream out_;
    std::string member_;
    std::mutex mutex_;
};

long long seq_of(const RdKafka::Message& m) {
    const std::string_view v(static_cast<const char*>(m.payload()), m.len());
    const std::string_view key = "{\"seq\":";
    if (v.substr(0, key.size()) != key) return -1;
    long long seq = 0;
    std::size_t i = key.size();
    if (i >= v.size() || v[i] < '0' || v[i] > '9') return -1;
    for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) seq = seq * 10 + (v[i] - '0');
    return seq;
}

json::array partition_numbers(const std::vector<RdKafka::TopicPartition*>& ps) {
    json::array out;
    for (const auto* p : ps) out.push_back(p->partition());
    return out;
}

// Eager (classic) rebalancing: the application assigns and unassigns.
class rebalance_logger : public RdKafka::RebalanceCb {
public:
    explicit rebalance_logger(event_log& log) : log_(log) {}
    void rebalance_cb(RdKafka::KafkaConsumer* c, RdKafka::ErrorCode err, std::vector<RdKafka::TopicPartition*>& ps) override {
        if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
            log_.write("assigned", {{"partitions", partition_numbers(ps)}});
            c->assign(ps);
            c->resume(ps);  // librdkafka keeps a partition's pause across a rebalance: one paused before is ours to read again
        } else {
            const bool lost = c->assignment_lost();
            // Pause mode: the batch in progress stops after its current
            // record and what it processed is committed while the partitions
            // are still ours (the rest is the next owner's to read); waiting
            // for the whole batch here would exceed the poll interval.
            if (!lost && before_revoke) before_revoke();
            log_.write(lost ? "lost" : "revoked", {{"partitions", partition_numbers(ps)}});
            c->unassign();
        }
    }
    std::function<void()> before_revoke;

private:
    event_log& log_;
};

// The client's own log lines (where librdkafka says the poll interval was
// exceeded) go to stderr; errors it hands the application's event callback
// are events the application saw.
class client_events : public RdKafka::EventCb {
public:
    explicit client_events(event_log& log) : log_(log) {}
    void event_cb(RdKafka::Event& e) override {
        if (e.type() == RdKafka::Event::EVENT_LOG)
            std::cerr << "client-log level " << e.severity() << " " << e.fac() << ": " << e.str() << std::endl;
        else if (e.type() == RdKafka::Event::EVENT_ERROR)
            log_.write("error", {{"where", "event_cb"}, {"error", RdKafka::err2str(e.err()) + ": " + e.str()}});
    }

private:
    event_log& log_;
};

struct batch {
    std::vector<std::unique_ptr<RdKafka::Message>> records;
    std::map<int, long long> next_offsets;  // partition -> last processed offset + 1 (what a commit may claim)
};

// Processes the batch, record by record, unless told to stop (its partitions
// are being taken away): what it did not process stays uncommitted.
void process(batch& b, long long latency_ms, event_log& log, const std::atomic<bool>& stop) {
    for (const auto& m : b.records) {
        if (stop.load()) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(latency_ms));
        log.write("record", {{"partition", m->partition()}, {"offset", m->offset()}, {"seq", seq_of(*m)}});
        b.next_offsets[m->partition()] = m->offset() + 1;
    }
}

long long processed_in(const batch& b) {
    long long n = 0;
    for (const auto& m : b.records)
        if (auto it = b.next_offsets.find(m->partition()); it != b.next_offsets.end() && m->offset() < it->second) ++n;
    return n;
}

void commit(RdKafka::KafkaConsumer& c, const std::string& topic, const batch& b, event_log& log) {
    std::vector<RdKafka::TopicPartition*> offsets;
    json::object shown;
    if (b.next_offsets.empty()) return;  // nothing processed, nothing to claim
    for (const auto& [p, o] : b.next_offsets) {
        offsets.push_back(RdKafka::TopicPartition::create(topic, p, o));
        shown[std::to_string(p)] = o;
    }
    const auto err = c.commitSync(offsets);
    std::string why = err == RdKafka::ERR_NO_ERROR ? "" : RdKafka::err2str(err);
    for (const auto* tp : offsets)
        if (why.empty() && tp->err() != RdKafka::ERR_NO_ERROR) why = RdKafka::err2str(tp->err());
    RdKafka::TopicPartition::destroy(offsets);
    if (why.empty()) log.write("commit", {{"ok", true}, {"offsets", shown}});
    else log.write("commit", {{"ok", false}, {"offsets", shown}, {"error", why}});
}

}  // namespace

int main(int argc, char** argv) {
    std::string bootstrap, topic, group, member, protocol = "classic", mode = "plain", log_file;
    long long batch_size = 0, latency_ms = -1, max_poll_interval_ms = 0, run_ms = 0;
    rosterrig::cli::arg_parser args{"rosterrig-e6-member", "One member of experiment 6's consumer group (librdkafka)."};
    args.option("--bootstrap", bootstrap, "HOST:PORT", "the broker", rosterrig::cli::required);
    args.option("--topic", topic, "T", "the topic", rosterrig::cli::required);
    args.option("--group", group, "G", "the consumer group", rosterrig::cli::required);
    args.option("--member", member, "NAME", "this member's name (client.id and every log line)", rosterrig::cli::required);
    args.option("--batch", batch_size, "B", "records per poll (max.poll.records)", rosterrig::cli::required);
    args.option("--latency-ms", latency_ms, "L", "the dependency's latency per record", rosterrig::cli::required);
    args.option("--max-poll-interval-ms", max_poll_interval_ms, "P", "max.poll.interval.ms", rosterrig::cli::required);
    args.choice("--protocol", protocol, {"classic"}, "the group protocol (librdkafka 2.0 has only classic)");
    args.choice("--mode", mode, {"plain", "pause"}, "plain: process in the poll loop; pause: pause, keep polling, process on a worker");
    args.option("--run-ms", run_ms, "D", "how long to run", rosterrig::cli::required);
    args.option("--log", log_file, "FILE", "the event log (JSON lines, appended)", rosterrig::cli::required);
    try {
        if (!args.parse(argc, argv)) return 0;
        if (batch_size <= 0) throw rosterrig::cli::usage_error("--batch: expected at least 1, got " + std::to_string(batch_size));
        if (latency_ms < 0) throw rosterrig::cli::usage_error("--latency-ms: expected 0 or more, got " + std::to_string(latency_ms));
        if (max_poll_interval_ms <= 0 || run_ms <= 0) throw rosterrig::cli::usage_error("--max-poll-interval-ms and --run-ms: expected at least 1");
    } catch (const rosterrig::cli::usage_error& e) {
        std::cerr << "rosterrig-e6-member: " << e.what() << "\n" << args.usage();
        return 2;
    }
    try {
        event_log log(log_file, member);
        rebalance_logger rebalances(log);
        client_events events(log);
        std::string err;
        std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
        auto set = [&](const std::string& k, const std::string& v) {
            if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK) throw std::runtime_error("consumer config " + k + ": " + err);
        };
        set("bootstrap.servers", bootstrap);
        set("group.id", group);
        set("client.id", member);
        set("enable.auto.commit", "false");
        set("auto.offset.reset", "earliest");
        set("max.poll.interval.ms", std::to_string(max_poll_interval_ms));
        set("session.timeout.ms", "6000");
        set("heartbeat.interval.ms", "1000");
        if (conf->set("rebalance_cb", &rebalances, err) != RdKafka::Conf::CONF_OK) throw std::runtime_error(err);
        if (conf->set("event_cb", &events, err) != RdKafka::Conf::CONF_OK) throw std::runtime_error(err);
        std::unique_ptr<RdKafka::KafkaConsumer> c(RdKafka::KafkaConsumer::create(conf.get(), err));
        if (!c) throw std::runtime_error("cannot create a consumer at " + bootstrap + ": " + err);
        log.write("start", {{"client", "cpp"}, {"protocol", protocol}, {"mode", mode}, {"batch", batch_size},
                            {"latency_ms", latency_ms}, {"max_poll_interval_ms", max_poll_interval_ms},
                            {"client_version", "librdkafka " + RdKafka::version_str()}});
        if (const auto e = c->subscribe({topic}); e != RdKafka::ERR_NO_ERROR)
            throw std::runtime_error("cannot subscribe to " + topic + ": " + RdKafka::err2str(e));

        auto pause_all = [&] {
            std::vector<RdKafka::TopicPartition*> assigned;
            c->assignment(assigned);
            c->pause(assigned);
            RdKafka::TopicPartition::destroy(assigned);
        };
        const long long stop_at = now_ms() + run_ms;
        std::future<void> worker;  // pause mode: the batch in progress
        batch current;
        std::vector<std::unique_ptr<RdKafka::Message>> pending;  // arrived while a batch was in progress
        // librdkafka hands the application up to --batch records per poll the
        // way Java's max.poll.records does: a consume() loop that stops at B
        // records or when nothing more is waiting.
        auto take_batch = [&]() {
            batch b;
            for (auto& m : pending) b.records.push_back(std::move(m));
            pending.clear();
            while (static_cast<long long>(b.records.size()) < batch_size) {
                std::unique_ptr<RdKafka::Message> m(c->consume(b.records.empty() ? 100 : 0));
                if (m->err() == RdKafka::ERR__TIMED_OUT || m->err() == RdKafka::ERR__PARTITION_EOF) break;
                if (m->err() != RdKafka::ERR_NO_ERROR) {
                    log.write("error", {{"where", "poll"}, {"error", RdKafka::err2str(m->err()) + ": " + m->errstr()}});
                    break;
                }
                b.records.push_back(std::move(m));
            }
            return b;
        };
        std::atomic<bool> stop_batch{false};
        auto finish_in_flight = [&] {
            if (!worker.valid()) return;
            worker.get();
            stop_batch = false;
            commit(*c, topic, current, log);
        };
        if (mode == "pause")
            rebalances.before_revoke = [&] {
                pending.clear();  // records of partitions no longer ours: the next owner reads them
                if (!worker.valid()) return;
                stop_batch = true;
                finish_in_flight();
            };
        // A batch in progress at the end is finished, polling on in pause
        // mode (a wait without polls would exceed the interval itself).
        while (now_ms() < stop_at || worker.valid()) {
            if (mode == "pause" && worker.valid()) {
                // Keep polling (with everything paused) so the group sees a
                // live member; the worker does the slow part.
                std::unique_ptr<RdKafka::Message> m(c->consume(100));
                if (m->err() != RdKafka::ERR__TIMED_OUT && m->err() != RdKafka::ERR_NO_ERROR && m->err() != RdKafka::ERR__PARTITION_EOF)
                    log.write("error", {{"where", "poll"}, {"error", RdKafka::err2str(m->err()) + ": " + m->errstr()}});
                if (m->err() == RdKafka::ERR_NO_ERROR) {  // a partition assigned while busy is not paused: keep its record for the next batch
                    pending.push_back(std::move(m));
                    pause_all();
                }
                if (!worker.valid() || worker.wait_for(std::chrono::seconds(0)) != std::future_status::ready) continue;
                finish_in_flight();
                std::vector<RdKafka::TopicPartition*> assigned;
                c->assignment(assigned);
                c->resume(assigned);
                RdKafka::TopicPartition::destroy(assigned);
                continue;
            }
            if (now_ms() >= stop_at) break;
            current = take_batch();
            if (current.records.empty()) continue;
            const long long started = now_ms();
            if (mode == "pause") {
                pause_all();
                worker = std::async(std::launch::async, [&, started] {
                    process(current, latency_ms, log, stop_batch);
                    log.write("batch", {{"records", processed_in(current)}, {"took_ms", now_ms() - started}});
                });
                continue;
            }
            process(current, latency_ms, log, stop_batch);
            log.write("batch", {{"records", processed_in(current)}, {"took_ms", now_ms() - started}});
            commit(*c, topic, current, log);
        }
        finish_in_flight();
        c->close();
        log.write("end");
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-e6-member: " << e.what() << "\n";
        return 1;
    }
}
