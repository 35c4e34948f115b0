// test/claims/rule_cases/e5.cpp: the shipped run with one run's read, job signals, registered timeout or visibility changed.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace rosterrig::claims_test {
namespace {

// The first run of the reference pair with this timeout (named with a repeat number when the pair repeats).
e5::txn_run& pair_run(e5::samples& s, std::int64_t timeout_ms) {
    for (auto& r : s.runs)
        if (r.part == "pair" && r.requested_timeout_ms == timeout_ms) return r;
    throw std::logic_error("e5 rule cases: no pair run with a " + std::to_string(timeout_ms) + " ms timeout");
}

// The first run in the seed's condition, exactly as the reference study
// describes it: the feed over at 1 s, the first abort between 8 and 9 s,
// nothing read committed, every seq uncommitted, the job RUNNING with no
// exception and no failed checkpoint. Made from the 5 s pair run when the
// shipped run has none.
void as_in_the_study(e5::txn_run& r) {
    r.feed_done_ms = 1000;
    r.states = {{500, "t-0-1", "Empty"}, {8000, "t-0-1", "Ongoing"}, {9000, "t-0-1", "CompleteAbort"}};
    r.committed = {0, 0, 0, {{1, r.events}}};
    r.uncommitted = {static_cast<std::int64_t>(r.events), r.events, 0, {}};
    r.signals.state = "RUNNING", r.signals.exceptions = 0, r.signals.failed_checkpoints = 0;
    r.signals.exception_names.clear();
}
e5::txn_run& seed_condition_run(e5::samples& s) {
    auto it =
        std::find_if(s.runs.begin(), s.runs.end(), [](const e5::txn_run& r) { return r.part == "seed-condition"; });
    if (it == s.runs.end()) {
        auto copy = pair_run(s, 5000);
        copy.part = "seed-condition", copy.name = "seed condition (made from the pair run)";
        s.runs.push_back(copy);
        it = std::prev(s.runs.end());
    }
    as_in_the_study(*it);
    return *it;
}

// Every run in the seed's condition as seed_condition_run makes the first
// (the shipped run has one whose first checkpoint came before the abort,
// which the rule leaves undecided).
void every_seed_condition_run_as_in_the_study(e5::samples& s) {
    seed_condition_run(s);
    for (auto& r : s.runs)
        if (r.part == "seed-condition") as_in_the_study(r);
}

e5::stuck_run& stuck_run_of(e5::samples& s, const std::string& ending, const std::string& partitioner) {
    for (auto& st : s.stuck)
        if (st.ending == ending && st.sink_partitioner == partitioner) return st;
    throw std::logic_error("e5 rule cases: no stuck run " + ending + "/" + partitioner);
}

e5::restart_run& restart_of(e5::samples& s, const std::string& ending) {
    for (auto& r : s.restarts)
        if (r.ending == ending) return r;
    throw std::logic_error("e5 rule cases: no " + ending + " restore");
}

// A read_committed reader of the run misses the seqs [from, to].
void lose_seqs(e5::output_read& o, std::uint64_t from, std::uint64_t to) {
    const auto n = to - from + 1;
    o.distinct_seq -= n;
    o.records -= static_cast<std::int64_t>(n);
    o.missing_runs.push_back({from, to});
}

// Every plain record of the stuck run became visible to read_committed `after_ms` after it was acknowledged, none before.
void all_visible_after(e5::stuck_run& st, std::int64_t after_ms) {
    std::vector<e5::visibility_sample> seen;
    for (const auto& v : st.visibility)
        if (v.t_ms < after_ms) seen.push_back({v.t_ms, 0});
    seen.push_back({after_ms, static_cast<std::int64_t>(st.plain_records)});
    st.visibility = seen;
    st.all_visible_after_ms = after_ms;
    for (auto& p : st.partitions) p.all_visible_after_ms = after_ms;
}

}  // namespace

template <>
std::vector<rule_case<e5::definition>> rule_cases<e5::definition>() {
    using S = e5::samples;
    using P = e5::parameters;
    return {
        {"e5.far-under-interval-job-fails-over",
         "the 5 s-timeout job's exception history stays empty, as in the reference study",
         [](S& s, P&) {
             auto& r = pair_run(s, 5000);
             r.signals.exceptions = 0;
             r.signals.exception_names.clear();
         },
         verdict_kind::refuted},
        {"e5.seed-condition-is-silent",
         "every repeat in the seed's condition exactly as the reference study describes it",
         [](S& s, P&) { every_seed_condition_run_as_in_the_study(s); }, verdict_kind::held},
        {"e5.seed-condition-is-silent", "in the seed's condition the job fails over once",
         [](S& s, P&) {
             auto& r = seed_condition_run(s);
             r.signals.exceptions = 1;
             r.signals.exception_names = {"java.io.IOException"};
         },
         verdict_kind::refuted},
        {"e5.seed-condition-is-silent", "the feed is acknowledged only after the first abort: not the seed's condition",
         [](S& s, P&) { seed_condition_run(s).feed_done_ms = 8500; }, verdict_kind::inconclusive},
        {"e5.above-interval-delivers-once", "a read_committed reader of the 3x run #1 gets seq 1 twice",
         [](S& s, P&) {
             auto& c = named(s.runs, "boundary x3.0 #1", &e5::txn_run::name).committed;
             c.records += 1;
             c.duplicate_rows = 1;
         },
         verdict_kind::refuted},
        {"e5.just-above-interval-suffices", "a read_committed reader of the 1.1x run #1 misses seqs 7901-8000",
         [](S& s, P&) { lose_seqs(named(s.runs, "boundary x1.1 #1", &e5::txn_run::name).committed, 7901, 8000); },
         verdict_kind::refuted},
        {"e5.broker-registers-the-request",
         "the broker registered its 60 s default for the 1.1x run #2, which asked for 22 s",
         [](S& s, P&) { named(s.runs, "boundary x1.1 #2", &e5::txn_run::name).registered_timeout_ms = 60000; },
         verdict_kind::refuted},
        {"e5.above-broker-max-fails-loudly",
         "the job asking for more than the broker's maximum runs quietly and delivers every record to read_committed",
         [](S& s, P&) {
             auto& r = named(s.runs, "above the broker's maximum", &e5::txn_run::name);
             r.signals.state = "RUNNING";
             r.signals.exceptions = 0;
             r.signals.exception_names.clear();
             r.failed_after_ms = -1;
             r.committed = {static_cast<std::int64_t>(r.events), r.events, 0, {}};
             r.uncommitted = r.committed;
         },
         verdict_kind::refuted},
        {"e5.cancel-aborts-its-transaction",
         "after the graceful cancel the plain records become visible only after 15 s",
         [](S& s, P&) { all_visible_after(stuck_run_of(s, "cancel", "default"), 15020); }, verdict_kind::refuted},
        {"e5.stuck-transaction-blocks-readers", "after the kill-then-cancel the plain records are visible within 1.5 s",
         [](S& s, P&) { all_visible_after(stuck_run_of(s, "kill-then-cancel", "default"), 1506); },
         verdict_kind::refuted},
        {"e5.stuck-transaction-holds-only-its-partitions",
         "in the fixed-partitioner run, partitions 2 and 3 (no open transaction wrote them) stay hidden as long as 0 and 1",
         [](S& s, P&) {
             auto& st = stuck_run_of(s, "kill-then-cancel", "fixed");
             all_visible_after(st, st.all_visible_after_ms);
         },
         verdict_kind::refuted},
        {"e5.restart-late-loses-the-pending-transaction",
         "the late restore commits the savepoint's transaction: read_committed holds every seq once, no commit is logged failing",
         [](S& s, P&) {
             auto& r = restart_of(s, "late");
             r.committed = {static_cast<std::int64_t>(r.events), r.events, 0, {}};
             r.signals.log_warnings = 0;
             r.signals.log_examples.clear();
         },
         verdict_kind::refuted},
        {"e5.restart-late-is-silent-but-for-the-logs",
         "the late restore's logs carry no warning about the lost transaction",
         [](S& s, P&) {
             auto& r = restart_of(s, "late");
             r.signals.log_warnings = 0;
             r.signals.log_examples.clear();
         },
         verdict_kind::refuted},
        {"e5.restart-late-is-silent-but-for-the-logs",
         "the late restored job's exception history holds the failed commit",
         [](S& s, P&) {
             auto& sig = restart_of(s, "late").signals;
             sig.exceptions = 1;
             sig.exception_names = {"org.apache.kafka.common.errors.InvalidTxnStateException"};
         },
         verdict_kind::refuted},
        {"e5.restart-prompt-delivers-once", "a read_committed reader of the prompt restore misses seqs 1125-3028",
         [](S& s, P&) { lose_seqs(restart_of(s, "prompt").committed, 1125, 3028); }, verdict_kind::refuted},
    };
}

// Every part of experiment 5 ran: no rule waits for a cell.
template <>
std::set<std::string> rules_not_run<e5::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
