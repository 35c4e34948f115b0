#include "jobs/coordinator_logs.hpp"

#include <chrono>
#include <string>

#include "adapters/poll.hpp"

namespace rosterrig::live {

std::int64_t coordinator_worker(const component_address& connect, const std::vector<log_tail>& logs) {
    std::int64_t worker = 0;
    poll_until(
        connect, std::chrono::seconds(30),
        [&] {
            for (std::size_t i = 0; i < logs.size(); ++i)
                if (e7b::count_coordinator_lines(logs[i].appended()).started > 0)
                    worker = static_cast<std::int64_t>(i) + 1;
            return worker > 0;
        },
        [] { return std::string("a worker's log saying a task was elected leader of the commit"); });
    return worker;
}

std::vector<std::string> appended_texts(const std::vector<log_tail>& logs) {
    std::vector<std::string> out;
    for (const auto& l : logs) out.push_back(l.appended());
    return out;
}

e7b::coordinator_lines coordinator_lines_since(const std::vector<log_tail>& logs) {
    std::string text;
    for (const auto& l : logs) text += l.appended();
    return e7b::count_coordinator_lines(text);
}

}  // namespace rosterrig::live
