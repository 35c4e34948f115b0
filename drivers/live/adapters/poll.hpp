// The one poll-with-deadline every wait uses: ask, sleep, ask again, and on
// timeout throw a live_error that names the component, what was awaited and
// the last answer. Ctrl-C interrupts it between asks.
#ifndef ROSTERRIG_LIVE_POLL_HPP
#define ROSTERRIG_LIVE_POLL_HPP
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>

#include "adapters/live_error.hpp"
#include "adapters/process_fault.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

struct poll_options {
    std::chrono::milliseconds period{200};
    std::chrono::seconds report_every{0};  // progress line with the last answer; 0: none
};

/// Calls `ask` until it returns a value (std::optional<T> engaged) or true
/// (bool); `describe` turns the wait into words for the timeout message and
/// the progress lines, given what the last ask saw.
template <class Ask, class Describe>
auto poll_until(const component_address& who, std::chrono::seconds deadline, Ask ask, Describe describe,
                poll_options options = {}) {
    const auto start = std::chrono::steady_clock::now();
    const auto give_up = start + deadline;
    auto last_report = start;
    for (;;) {
        throw_if_interrupted();
        auto answer = ask();
        if constexpr (std::is_same_v<decltype(answer), bool>) {
            if (answer) return;
        } else {
            if (answer) return *answer;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now > give_up)
            throw live_error(who, describe() + ", still not so after " + std::to_string(deadline.count()) + " s");
        if (options.report_every.count() > 0 && now - last_report > options.report_every) {
            progress("  waiting: " + describe());
            last_report = now;
        }
        std::this_thread::sleep_for(options.period);
    }
}

/// The non-throwing form, for a wait whose running out is an outcome: polls
/// `done` every `period` (a second unless asked) until it holds or
/// `deadline_ms` has passed since `from_ms` (wall clock); the milliseconds it
/// took (late by up to one period), or -1.
template <class Done>
long long elapsed_until(long long from_ms, long long deadline_ms, Done&& done,
                        std::chrono::milliseconds period = std::chrono::seconds(1)) {
    for (;;) {
        throw_if_interrupted();
        if (done()) return now_ms() - from_ms;
        if (now_ms() - from_ms >= deadline_ms) return -1;
        std::this_thread::sleep_for(period);
    }
}

}  // namespace rosterrig::live

#endif
