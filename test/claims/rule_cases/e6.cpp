// test/claims/rule_cases/e6.cpp: the shipped run with a record processed twice, a commit failing or taking, a poll error added or gone, or the broker's committed offsets held back.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace rosterrig::claims_test {
namespace {

// The last record a member processed is processed once more, right after.
void process_last_record_again(e6::consumer_run& r) {
    const auto it = std::find_if(r.log.rbegin(), r.log.rend(), [](const auto& e) { return e.kind == "record"; });
    if (it == r.log.rend()) throw std::logic_error("e6 rule cases: no record in " + r.run);
    auto again = *it;
    again.t_ms += 1;
    r.log.insert(it.base(), again);
}

// The broker shows no more than `most` records committed, in every sample.
void committed_at_most(e6::consumer_run& r, std::int64_t most) {
    for (auto& o : r.offsets)
        if (o.committed > most) o.committed = most, o.lag = r.events - most;
}

// From `from_ms` after the members started, the broker shows `committed` (not less).
void committed_from(e6::consumer_run& r, std::int64_t from_ms, std::int64_t committed) {
    for (auto& o : r.offsets)
        if (o.t_ms >= from_ms && o.committed < committed) o.committed = committed, o.lag = r.events - committed;
}

experiment::consumer_event& first_commit(e6::consumer_run& r, bool ok) {
    for (auto& e : r.log)
        if (e.kind == "commit" && e.ok == ok) return e;
    throw std::logic_error("e6 rule cases: no such commit in " + r.run);
}

// Every configuration three times (the shipped run's repeats, or its single
// runs copied), each configuration's repeats copies of its first.
void three_alike_repeats(e6::samples& s) {
    std::vector<e6::consumer_run> firsts;
    for (const auto& r : s.runs)
        if (r.repeat.value_or(1) == 1) firsts.push_back(r);
    s.runs.clear();
    for (std::uint64_t k = 1; k <= 3; ++k)
        for (auto r : firsts) {
            r.repeat = k;
            s.runs.push_back(std::move(r));
        }
}

// The run as if clean: each record's first processing kept, every commit answered ok.
void make_clean(e6::consumer_run& r) {
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    std::erase_if(r.log,
                  [&](const auto& e) { return e.kind == "record" && !seen.insert({e.partition, e.offset}).second; });
    for (auto& e : r.log)
        if (e.kind == "commit") e.ok = true, e.error.clear();
}

e6::consumer_run& repeat_of(e6::samples& s, const std::string& run, std::uint64_t k) {
    for (auto& r : s.runs)
        if (r.run == run && r.repeat == k) return r;
    throw std::logic_error("e6 rule cases: no repeat " + std::to_string(k) + " of " + run);
}

// Three alike repeats, but the interval fix under Java's consumer protocol is
// clean in its first two and processes a record twice in its third.
void only_the_predicted_one_varies(e6::samples& s) {
    three_alike_repeats(s);
    for (std::uint64_t k = 1; k <= 3; ++k) make_clean(repeat_of(s, e6::predicted_to_vary, k));
    process_last_record_again(repeat_of(s, e6::predicted_to_vary, 3));
}

}  // namespace

template <>
std::vector<rule_case<e6::definition>> rule_cases<e6::definition>() {
    using S = e6::samples;
    using P = e6::parameters;
    return {
        {"e6.healthy-progresses-once", "the healthy C++ group processes its last record twice",
         [](S& s, P&) { process_last_record_again(named(s.runs, "cpp/classic/healthy", &e6::consumer_run::run)); },
         verdict_kind::refuted},
        {"e6.healthy-progresses-once",
         "the healthy Java classic group's committed offsets stop 50 short of the topic's end",
         [](S& s, P&) { committed_at_most(named(s.runs, "java/classic/healthy", &e6::consumer_run::run), 2950); },
         verdict_kind::refuted},
        {"e6.degraded-livelocks",
         "the degraded Java classic group's first commit succeeds, and the broker shows its 50 records committed from then on",
         [](S& s, P&) {
             auto& r = named(s.runs, "java/classic/degraded", &e6::consumer_run::run);
             auto& c = first_commit(r, false);
             c.ok = true;
             c.error.clear();
             std::int64_t n = 0;
             for (const auto& [partition, next] : c.offsets) n += next;
             committed_from(r, c.t_ms - r.started_at_ms, n);
         },
         verdict_kind::refuted},
        {"e6.cpp-poll-reports-the-interval",
         "librdkafka's consume() hands the degraded C++ member no error; only its log names the interval",
         [](S& s, P&) {
             auto& log = named(s.runs, "cpp/classic/degraded", &e6::consumer_run::run).log;
             std::erase_if(log, [](const auto& e) { return e.kind == "error" && e.where == "poll"; });
         },
         verdict_kind::refuted},
        {"e6.java-poll-stays-quiet", "the degraded Java member's poll() throws once, at its first failed commit",
         [](S& s, P&) {
             auto& r = named(s.runs, "java/consumer/degraded", &e6::consumer_run::run);
             const auto& c = first_commit(r, false);
             experiment::consumer_event e;
             e.t_ms = c.t_ms, e.member = c.member, e.kind = "error", e.where = "poll";
             e.error = "KafkaException: max.poll.interval.ms exceeded, the member left the group";
             r.log.push_back(e);
         },
         verdict_kind::refuted},
        {"e6.java-poll-stays-quiet", "the degraded Java classic client's log says nothing about the poll interval",
         [](S& s, P&) {
             auto& r = named(s.runs, "java/classic/degraded", &e6::consumer_run::run);
             r.client_poll_warnings = 0;
             r.client_warning_examples.clear();
         },
         verdict_kind::refuted},
        {"e6.fix-interval-progresses",
         "the Java consumer-protocol group's last commit under the 60 s interval fails; its 50 records stay uncommitted",
         [](S& s, P&) {
             auto& r = named(s.runs, "java/consumer/fix-interval", &e6::consumer_run::run);
             const auto it =
                 std::find_if(r.log.rbegin(), r.log.rend(), [](const auto& e) { return e.kind == "commit"; });
             it->ok = false;
             it->error =
                 "CommitFailedException: OffsetCommit failed with unknown member ID. The coordinator is not aware of this member.";
             committed_at_most(r, e6::committed_at_end(r) - 50);  // that commit was partition 2's first 50 records
         },
         verdict_kind::refuted},
        {"e6.fix-batch-progresses", "the C++ group at 5 records a poll processes its last record twice",
         [](S& s, P&) { process_last_record_again(named(s.runs, "cpp/classic/fix-batch", &e6::consumer_run::run)); },
         verdict_kind::refuted},
        {"e6.fix-pause-progresses", "the pausing Java classic group processes its last record twice",
         [](S& s, P&) { process_last_record_again(named(s.runs, "java/classic/fix-pause", &e6::consumer_run::run)); },
         verdict_kind::refuted},
        {"e6.fixes-keep-throughput",
         "the Java consumer-protocol group under the 60 s interval commits only 150 records by the end",
         [](S& s, P&) { committed_at_most(named(s.runs, "java/consumer/fix-interval", &e6::consumer_run::run), 150); },
         verdict_kind::refuted},
        {"e6.only-java-consumer-interval-fix-varies",
         "three repeats: the Java consumer-protocol interval fix clean twice and a record processed twice once, every other configuration alike",
         [](S& s, P&) { only_the_predicted_one_varies(s); }, verdict_kind::held},
        {"e6.only-java-consumer-interval-fix-varies",
         "three repeats, the Java consumer-protocol interval fix clean in all three",
         [](S& s, P&) {
             three_alike_repeats(s);
             for (std::uint64_t k = 1; k <= 3; ++k) make_clean(repeat_of(s, e6::predicted_to_vary, k));
         },
         verdict_kind::refuted},
        {"e6.only-java-consumer-interval-fix-varies",
         "as in the held case, and the C++ batch fix also processes a record twice in its second repeat",
         [](S& s, P&) {
             only_the_predicted_one_varies(s);
             make_clean(repeat_of(s, "cpp/classic/fix-batch", 1));
             make_clean(repeat_of(s, "cpp/classic/fix-batch", 3));
             process_last_record_again(repeat_of(s, "cpp/classic/fix-batch", 2));
         },
         verdict_kind::refuted},
    };
}

// Every part of experiment 6 ran: no rule waits for a cell.
template <>
std::set<std::string> rules_not_run<e6::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
