// rosterrig/experiments/e6_poll_interval/samples.hpp: the raw samples: the broker's offset samples, a consumer run, the samples struct, is_poll_warning

#ifndef ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E6_POLL_INTERVAL_SAMPLES_HPP

#include "rosterrig/experiments/e6_poll_interval/parameters.hpp"

namespace rosterrig::e6 {

/// The group's position as the broker reports it, `t_ms` after the members were started.
struct offset_sample {
    std::int64_t t_ms = 0;
    std::int64_t committed = 0;  // sum over partitions of the committed offset (none: 0)
    std::int64_t lag = 0;        // sum of end offset - committed
};
BOOST_DESCRIBE_STRUCT(offset_sample, (), (t_ms, committed, lag))

struct consumer_run {
    std::string run;                      // client/protocol/scenario
    std::optional<std::uint64_t> repeat;  // 1, 2, ... (absent: the configuration ran once)
    member_settings settings;
    std::int64_t events = 0;           // records in the topic (every one acknowledged before the members start)
    std::int64_t run_ms = 0;           // the members' run; then each finishes the batch in hand and leaves
    std::int64_t started_at_ms = 0;    // epoch ms, when the members were started
    std::vector<std::string> clients;  // what each member's start line reported (client, protocol, mode, version)
    std::vector<std::int64_t> exit_codes;
    std::vector<experiment::consumer_event> log;  // every member's lines, in time order (the raw samples)
    std::vector<offset_sample> offsets;
    std::int64_t client_poll_warnings = 0;             // the clients' own log lines about the poll interval (stderr)
    std::vector<std::string> client_warning_examples;  // the distinct kinds of those lines
};
BOOST_DESCRIBE_STRUCT(consumer_run, (),
                      (run, repeat, settings, events, run_ms, started_at_ms, clients, exit_codes, log, offsets,
                       client_poll_warnings, client_warning_examples))

struct samples {
    std::vector<consumer_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

/// "java/consumer/fix-interval #2": the configuration and, when it repeats, which repeat.
inline std::string run_label(const consumer_run& r) {
    return r.run + (r.repeat ? " #" + std::to_string(*r.repeat) : "");
}

/// Whether the runs carry repeat numbers (a run that repeats its configurations).
inline bool any_repeat(const samples& s) {
    return std::any_of(s.runs.begin(), s.runs.end(), [](const consumer_run& r) { return r.repeat.has_value(); });
}

/// A client log line that is about the poll interval being exceeded.
inline bool is_poll_warning(const std::string& line) {
    return line.find("max.poll.interval.ms") != std::string::npos || line.find("poll interval") != std::string::npos ||
           line.find("poll timeout") != std::string::npos;
}

}  // namespace rosterrig::e6

#endif
