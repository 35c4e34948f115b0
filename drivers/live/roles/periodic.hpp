// A sampler: calls `tick(t_ms)` every period on its own thread, t_ms counted
// from a start the caller chose (the restore request, say), until stopped. A
// tick that throws ends the sampling and the error comes back from stop().
#ifndef ROSTERRIG_LIVE_PERIODIC_HPP
#define ROSTERRIG_LIVE_PERIODIC_HPP
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <utility>

#include "runner/progress.hpp"

namespace rosterrig::live {

class periodic {
public:
    using clock = std::chrono::steady_clock;

    periodic(std::chrono::milliseconds period, clock::time_point start, std::function<void(long long)> tick)
        : thread_([this, period, start, tick = std::move(tick)](std::stop_token stop) {
              try {
                  while (!stop.stop_requested()) {
                      const auto next = clock::now() + period;
                      tick(std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - start).count());
                      while (!stop.stop_requested() && clock::now() < next)
                          std::this_thread::sleep_for(std::chrono::milliseconds(20));
                  }
              } catch (...) {
                  error_ = std::current_exception();
                  failed_.store(true);
              }
          }) {}

    // Stops and joins; rethrows what a tick threw.
    void stop() {
        thread_.request_stop();
        if (thread_.joinable()) thread_.join();
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    }
    // True when a tick has thrown (the sampler has ended).
    bool failed() const { return failed_.load(); }

    ~periodic() {
        thread_.request_stop();
        if (thread_.joinable()) thread_.join();
        if (error_) {
            try {
                std::rethrow_exception(error_);
            } catch (const std::exception& e) {
                progress(std::string("sampler stopped on an error: ") + e.what());
            } catch (...) {
                progress("sampler stopped on an unknown error");
            }
        }
    }

private:
    std::exception_ptr error_;  // written by the thread before it ends, read after join
    std::atomic<bool> failed_{false};
    std::jthread thread_;
};

}  // namespace rosterrig::live

#endif
