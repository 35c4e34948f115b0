// Experiment 5's rules on hand-built samples: which runs each prediction
// judges, and that a rule bites on the one fact it is about.
#include <catch2/catch.hpp>

#include <rosterrig/experiments/e5_transaction_timeout.hpp>

using namespace rosterrig;

namespace {
e5::txn_run run_with(std::int64_t interval, std::int64_t timeout, std::uint64_t committed, bool aborts) {
    e5::txn_run r;
    r.part = "boundary";
    r.name = std::to_string(timeout) + "/" + std::to_string(interval);
    r.interval_ms = interval, r.requested_timeout_ms = timeout, r.registered_timeout_ms = timeout;
    r.events = 100;
    r.committed.distinct_seq = committed;
    if (committed < 100) r.committed.missing_runs.push_back({committed + 1, 100});
    r.uncommitted.distinct_seq = 100;
    r.signals.state = "RUNNING";
    r.states.push_back({0, "tx-0-1", "Ongoing"});
    if (aborts) r.states.push_back({3000, "tx-0-1", "CompleteAbort"});
    return r;
}
}  // namespace

TEST_CASE("the boundary plan asks each ratio of the interval, each repeat", "[e5]") {
    const auto p = e5::parameters::full();
    const auto runs = e5::runs_of(p);
    CHECK(runs.size() == p.pair_timeouts_ms.size() + p.boundary_ratios.size() * p.boundary_repeats);
    CHECK(runs.back().timeout_ms == 60000);  // 3 x 20 s
}

TEST_CASE("a reader that saw records at read_committed refutes the far-under prediction", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 10000, 0, true));
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::held);
    // Mutation: count the output at read_uncommitted (what every record written
    // shows) in place of read_committed, and the prediction is refuted.
    s.runs[0].committed = s.runs[0].uncommitted;
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::refuted);
}

TEST_CASE("without an abort observed at the broker, lost records are not explained as aborted", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 10000, 0, true));
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::held);
    // Mutation: drop CompleteAbort from the observed states and this is refuted.
    s.runs[0].states.pop_back();
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::refuted);
}

TEST_CASE("each prediction judges only the runs on its side of the interval", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 18000, 90, false));   // 0.9
    s.runs.push_back(run_with(20000, 22000, 100, false));  // 1.1
    s.runs.push_back(run_with(20000, 30000, 100, false));  // 1.5
    CHECK(e5::far_under_interval_loses_everything(s).verdict == verdict_kind::inconclusive);
    CHECK(e5::just_under_interval_loses_records(s).verdict == verdict_kind::held);
    CHECK(e5::just_above_interval_suffices(s).verdict == verdict_kind::held);
    CHECK(e5::above_interval_delivers_once(s).verdict == verdict_kind::held);
    s.runs[2].committed.duplicate_rows = 1;
    CHECK(e5::above_interval_delivers_once(s).verdict == verdict_kind::refuted);
    CHECK(e5::just_above_interval_suffices(s).verdict == verdict_kind::held);
}

TEST_CASE("a registered timeout other than the request refutes the broker prediction", "[e5][verdict]") {
    e5::samples s;
    s.runs.push_back(run_with(20000, 30000, 100, false));
    CHECK(e5::broker_registered_the_request(s).verdict == verdict_kind::held);
    s.runs[0].registered_timeout_ms = 60000;
    CHECK(e5::broker_registered_the_request(s).verdict == verdict_kind::refuted);
    s.runs[0].registered_timeout_ms.reset();
    CHECK(e5::broker_registered_the_request(s).verdict == verdict_kind::inconclusive);
}

TEST_CASE("the stuck transaction must hide the plain records for most of the rest of its timeout", "[e5][verdict]") {
    e5::samples s;
    e5::stuck_run st;
    st.ending = "kill-then-cancel";
    st.requested_timeout_ms = 30000;
    st.open_for_ms_at_cancel = 5000;
    st.plain_acked_after_cancel_ms = 1000;
    st.open_at_cancel = {"tx-0-1"};
    st.visibility = {{2000, 0}, {20000, 0}, {24000, 100}};
    st.all_visible_after_ms = 24000;
    s.stuck = {st};
    CHECK(e5::stuck_transaction_blocks_readers(s).verdict == verdict_kind::held);
    CHECK(e5::cancel_aborts_its_transaction(s).verdict == verdict_kind::inconclusive);  // judges the other ending only
    // Visible after 2 s: the transaction held nothing back.
    s.stuck[0].visibility = {{2000, 100}};
    s.stuck[0].all_visible_after_ms = 2000;
    CHECK(e5::stuck_transaction_blocks_readers(s).verdict == verdict_kind::refuted);
    s.stuck[0].ending = "cancel";
    CHECK(e5::cancel_aborts_its_transaction(s).verdict == verdict_kind::held);
}
