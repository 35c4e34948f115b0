#include "roles/feeder.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include <rosterrig/generate/json_lines.hpp>

#include "adapters/poll.hpp"

namespace rosterrig::live {

std::vector<kafka_record> kafka_records(const std::vector<roster_event>& events) {
    std::vector<kafka_record> out;
    out.reserve(events.size());
    for (const auto& e : events) {
        std::string value = to_json_line(e);
        if (!value.empty() && value.back() == '\n') value.pop_back();
        out.push_back(
            {static_cast<int>(e.partition), std::to_string(e.npi), std::move(value), static_cast<long long>(e.seq)});
    }
    return out;
}

feeder::feeder(const component_address& broker, std::string topic, std::vector<kafka_record> records, double rate)
    : broker_(broker), topic_(std::move(topic)), records_(std::move(records)), pace_(rate), producer_(broker) {
    thread_ = std::jthread([this] {
        try {
            report_ = producer_.produce_all(topic_, records_, pace_.load(), {}, &pace_);
        } catch (...) {
            error_ = std::current_exception();
        }
    });
}

feeder::~feeder() {
    if (thread_.joinable()) thread_.join();
}

produce_report feeder::finish() {
    if (thread_.joinable()) thread_.join();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    if (report_.acknowledged != total())
        throw live_error(broker_, "only " + std::to_string(report_.acknowledged) + " of " + std::to_string(total()) +
                                      " records acknowledged on " + topic_ + ": " + report_.first_error);
    return report_;
}

produce_report feed_with_progress(
    const component_address& broker, const std::string& topic, const std::vector<kafka_record>& records, double rate,
    const std::function<std::string(long long acknowledged, long long total)>& progress_text) {
    feeder f(broker, topic, records, rate);
    poll_until(
        broker, std::chrono::seconds(static_cast<long>(records.size() / std::max(rate, 1.0)) + 120),
        [&] { return f.acknowledged() >= f.total(); }, [&] { return progress_text(f.acknowledged(), f.total()); },
        {std::chrono::milliseconds(500), std::chrono::seconds(10)});
    return f.finish();
}

}  // namespace rosterrig::live
