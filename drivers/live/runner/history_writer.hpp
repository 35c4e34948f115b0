// The history file of one run (runs/<experiment>/), with status "running"
// from before the first fault, and the samples as they come.
#ifndef ROSTERRIG_LIVE_HISTORY_WRITER_HPP
#define ROSTERRIG_LIVE_HISTORY_WRITER_HPP
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include <rosterrig/generate/timestamp.hpp>
#include <rosterrig/result/envelope.hpp>

#include "adapters/process_fault.hpp"  // now_ms

namespace rosterrig::live {

// The history file of one run, rewritten whole (temporary file, rename) on
// every change, so a reader, or a run killed with SIGKILL, never sees half.
template <class E>
class history_writer {
public:
    using samples_type = typename E::samples;

    history_writer(std::string file, result::result_envelope env, samples_type initial)
        : file_(std::move(file)), env_(std::move(env)), samples_(std::move(initial)) {
        write_locked();
    }

    // Applies `change` to the samples, saves them, and returns what it returned.
    template <class Change>
    auto record(Change&& change) {
        std::lock_guard lock(mutex_);
        if constexpr (std::is_void_v<std::invoke_result_t<Change, samples_type&>>) {
            change(samples_);
            write_locked();
        } else {
            auto r = change(samples_);
            write_locked();
            return r;
        }
    }

    // Applies `change` without saving: for a sampler's tick, which must not
    // wait for the disk; the run's main loop calls flush().
    template <class Change>
    void stage(Change&& change) {
        std::lock_guard lock(mutex_);
        change(samples_);
        staged_ = true;
    }
    // Saves what was staged since the last save; nothing staged, nothing written.
    void flush() {
        std::lock_guard lock(mutex_);
        if (staged_) write_locked();
    }
    // Reads the samples under the lock, without saving.
    template <class Read>
    auto read(Read&& look) const {
        std::lock_guard lock(mutex_);
        return look(samples_);
    }

    // Records a resource before it is created.
    void note_created(const std::string& kind, const std::string& name) {
        std::lock_guard lock(mutex_);
        if (!env_.created) env_.created.emplace();
        env_.created->push_back({kind, name});
        write_locked();
    }

    void fail(const std::string& why) { finish(result::run_status::failed, why); }
    void complete() { finish(result::run_status::complete, {}); }
    const std::string& file() const { return file_; }

private:
    void finish(result::run_status status, const std::string& why) {
        std::lock_guard lock(mutex_);
        env_.status = status;
        if (!why.empty()) env_.failure = why;
        env_.finished_at = iso8601_utc(now_ms());
        write_locked();
    }
    void write_locked() {
        env_.samples = result::to_json(samples_);
        result::write_result(file_, env_);
        staged_ = false;
    }

    std::string file_;
    result::result_envelope env_;
    samples_type samples_;
    bool staged_ = false;  // changes staged by a sampler and not yet saved
    mutable std::mutex mutex_;
};

}  // namespace rosterrig::live

#endif
