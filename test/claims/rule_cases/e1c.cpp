// test/claims/rule_cases/e1c.cpp: the shipped run with a cell that loses seqs or NPIs, an NPI on two rows, a duplicate seq or a restart.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace rosterrig::claims_test {
namespace {

// Every run of a cell (one per repeat), in the order they ran.
std::vector<e1c::cell_run*> runs_named(e1c::samples& s, const std::string& name) {
    std::vector<e1c::cell_run*> out;
    for (auto& r : s.runs)
        if (r.name == name) out.push_back(&r);
    if (out.empty()) throw std::logic_error("e1c rule cases: no run of " + name);
    return out;
}

// An append run misses seqs 20,001..30,000: one data file left in the store, never committed.
void lose_a_file(e1c::cell_run& r) {
    constexpr std::uint64_t first = 20'001, n = 10'000;
    r.missing_seq += n;
    r.missing_runs.push_back({first, first + n - 1});
    r.rows -= n, r.distinct_seq -= n;
    ++r.store.data_unreferenced;
}
// An append run misses no seq: every data file it wrote was committed.
void lose_nothing(e1c::cell_run& r) {
    r.rows += r.missing_seq, r.distinct_seq += r.missing_seq;
    r.missing_seq = 0;
    r.missing_runs.clear();
    r.store.data_unreferenced = 0;
}
// An upsert run: one NPI's only row is an older record than its last.
void leave_an_npi_stale(e1c::cell_run& r) {
    ++r.upsert.value().npis_without_latest;
    ++r.upsert->stale_rows;
}
// An upsert run: one NPI on two rows, its last record and an older one.
void put_an_npi_on_two_rows(e1c::cell_run& r) {
    ++r.upsert.value().rows_sharing_npi;
    ++r.upsert->stale_rows;
    ++r.rows;
}
// An upsert run: every NPI on one row (the extra rows, all stale, gone).
void no_npi_on_two_rows(e1c::cell_run& r) {
    auto& u = r.upsert.value();
    r.rows -= u.rows_sharing_npi;
    u.stale_rows -= std::min(u.stale_rows, u.rows_sharing_npi);
    u.rows_sharing_npi = 0;
}

// An upsert run in which every NPI keeps its last record.
void every_npi_keeps_its_last(e1c::cell_run& r) {
    auto& u = r.upsert.value();
    r.rows += u.npis_missing;  // each NPI that was on no row now has its row
    u.stale_rows -= std::min(u.stale_rows, u.npis_without_latest);
    u.npis_missing = 0, u.npis_without_latest = 0;
}

// The shipped paced runs of `cell`, with one backpressure sample per second
// of each drain: `paced` ms/s in the paced runs, `at_once` in every run
// produced at once (some shipped runs got no metric from Flink).
std::vector<e1c::cell_run*> paced_runs(e1c::samples& s, const std::string& cell, double paced = 5,
                                       double at_once = 950) {
    for (auto& r : s.runs) {
        r.source_backpressure.emplace();
        const double v = r.feed_rate.value_or(0) > 0 ? paced : at_once;
        for (std::int64_t t = 0; t <= r.drained_ms; t += 1000) r.source_backpressure->push_back({t, v});
    }
    return runs_named(s, cell);
}

}  // namespace

template <>
std::vector<rule_case<e1c::definition>> rule_cases<e1c::definition>() {
    using S = e1c::samples;
    using P = e1c::parameters;
    const auto c = e1c::cells();
    std::vector<rule_case<e1c::definition>> out;

    out.push_back({"e1c.loses:" + c[0].name,
                   "no repeat of the unaligned FlinkSink cell misses a seq, after all its timeouts",
                   [n = c[0].name](S& s, P&) {
                       for (auto* r : runs_named(s, n)) lose_nothing(*r);
                   },
                   verdict_kind::refuted});
    for (const auto& x : {c[1], c[2], c[3]})
        out.push_back(
            {"e1c.loses-nothing:" + x.name, "repeat 1 misses seqs 20,001..30,000 (a data file never committed)",
             [n = x.name](S& s, P&) { lose_a_file(named(s.runs, n, &e1c::cell_run::name)); }, verdict_kind::refuted});
    out.push_back({"e1c.control-loses-nothing", "the generous-timeout control's repeat 1 misses seqs 20,001..30,000",
                   [n = c[4].name](S& s, P&) { lose_a_file(named(s.runs, n, &e1c::cell_run::name)); },
                   verdict_kind::refuted});
    out.push_back({"e1c.loses:" + c[5].name,
                   "every NPI of every repeat of the unaligned FlinkSink upsert cell keeps its last record",
                   [n = c[5].name](S& s, P&) {
                       for (auto* r : runs_named(s, n)) {
                           auto& u = r->upsert.value();
                           r->rows += u.npis_missing;  // each NPI that was on no row now has its row
                           u.stale_rows -= std::min(u.stale_rows, u.npis_without_latest);
                           u.npis_missing = 0, u.npis_without_latest = 0;
                       }
                   },
                   verdict_kind::refuted});
    out.push_back({"e1c.no-key-on-two-rows:" + c[5].name, "repeat 1 leaves one NPI on two rows",
                   [n = c[5].name](S& s, P&) { put_an_npi_on_two_rows(named(s.runs, n, &e1c::cell_run::name)); },
                   verdict_kind::refuted});
    out.push_back({"e1c.key-on-two-rows:" + c[6].name,
                   "no repeat of the unaligned SinkV2 upsert cell leaves an NPI on two rows",
                   [n = c[6].name](S& s, P&) {
                       for (auto* r : runs_named(s, n)) no_npi_on_two_rows(*r);
                   },
                   verdict_kind::refuted});
    for (const auto& x : {c[6], c[7], c[8]})
        out.push_back({"e1c.loses-nothing:" + x.name,
                       "repeat 1 leaves one NPI only on an older row than its last record",
                       [n = x.name](S& s, P&) { leave_an_npi_stale(named(s.runs, n, &e1c::cell_run::name)); },
                       verdict_kind::refuted});
    // The shipped run refutes it (the aligned SinkV2 cell doubles NPIs): this one shows it can hold.
    out.push_back({"e1c.no-key-on-two-rows:" + c[7].name,
                   "no repeat of the aligned SinkV2 upsert cell leaves an NPI on two rows",
                   [n = c[7].name](S& s, P&) {
                       for (auto* r : runs_named(s, n)) no_npi_on_two_rows(*r);
                   },
                   verdict_kind::held});
    out.push_back({"e1c.no-key-on-two-rows:" + c[8].name, "repeat 1 leaves one NPI on two rows",
                   [n = c[8].name](S& s, P&) { put_an_npi_on_two_rows(named(s.runs, n, &e1c::cell_run::name)); },
                   verdict_kind::refuted});
    out.push_back({"e1c.upsert-control-exact", "the upsert control's repeat 1 leaves one NPI on two rows",
                   [n = c[9].name](S& s, P&) { put_an_npi_on_two_rows(named(s.runs, n, &e1c::cell_run::name)); },
                   verdict_kind::refuted});
    out.push_back({"e1c.upsert-control-exact", "the upsert control's repeat 1 leaves one NPI only on an older row",
                   [n = c[9].name](S& s, P&) { leave_an_npi_stale(named(s.runs, n, &e1c::cell_run::name)); },
                   verdict_kind::refuted});
    out.push_back({"e1c.no-duplicates", "the aligned FlinkSink cell's repeat 1 holds one seq twice",
                   [n = c[1].name](S& s, P&) {
                       auto& r = named(s.runs, n, &e1c::cell_run::name);
                       ++r.rows, ++r.duplicate_rows;
                   },
                   verdict_kind::refuted});
    // The shipped run refutes it (upsert runs with fewer than 30 timeouts); a restart refutes it whatever the counts.
    out.push_back({"e1c.timeouts-applied", "the aligned SinkV2 cell's repeat 1 restarted once",
                   [n = c[3].name](S& s, P&) { named(s.runs, n, &e1c::cell_run::name).restarts_reported = 1; },
                   verdict_kind::refuted});
    // The paced cells, on their shipped runs.
    out.push_back({"e1c.loses:" + c[10].name, "the paced unaligned FlinkSink runs, missing no seq",
                   [c](S& s, P&) {
                       for (auto* r : paced_runs(s, c[10].name)) lose_nothing(*r);
                   },
                   verdict_kind::refuted});
    out.push_back({"e1c.loses:" + c[10].name, "the paced unaligned FlinkSink runs, as they lost",
                   [c](S& s, P&) { paced_runs(s, c[10].name); }, verdict_kind::held});
    out.push_back({"e1c.loses-nothing:" + c[11].name,
                   "the paced unaligned SinkV2 runs, the first missing seqs 20,001..30,000",
                   [c](S& s, P&) { lose_a_file(*paced_runs(s, c[11].name).front()); }, verdict_kind::refuted});
    out.push_back({"e1c.loses:" + c[12].name,
                   "the paced unaligned FlinkSink upsert runs, every NPI keeping its last record",
                   [c](S& s, P&) {
                       for (auto* r : paced_runs(s, c[12].name)) every_npi_keeps_its_last(*r);
                   },
                   verdict_kind::refuted});
    for (const auto& to : {c[13], c[14]})
        out.push_back({"e1c.key-on-two-rows:" + to.name, "the runs of " + to.name + ", no NPI on two rows",
                       [t = to.name](S& s, P&) {
                           for (auto* r : paced_runs(s, t)) no_npi_on_two_rows(*r);
                       },
                       verdict_kind::refuted});
    out.push_back({"e1c.paced-without-backpressure", "paced runs whose source was backpressured 300 ms/s",
                   [c](S& s, P&) { paced_runs(s, c[10].name, 300); }, verdict_kind::refuted});
    out.push_back({"e1c.paced-without-backpressure", "paced runs at 5 ms/s, the runs produced at once at 950",
                   [c](S& s, P&) { paced_runs(s, c[10].name); }, verdict_kind::held});
    out.push_back({"e1c.paced-times-out-less", "the shipped runs (the paced upsert cells timed out a larger share)",
                   [c](S& s, P&) { paced_runs(s, c[10].name); }, verdict_kind::refuted});
    out.push_back({"e1c.paced-times-out-less", "paced runs none of whose checkpoints timed out",
                   [c](S& s, P&) {
                       for (std::size_t i = 10; i <= 14; ++i)
                           for (auto* r : paced_runs(s, c[i].name))
                               for (auto& k : r->checkpoints) k.status = "COMPLETED", k.failure_message.clear();
                   },
                   verdict_kind::held});
    // The kill cells, on their shipped runs.
    for (const auto& to : {c[15], c[16], c[17]}) {
        out.push_back({"e1c.loses-nothing:" + to.name, "the runs of " + to.name + ", the first missing a file",
                       [t = to.name](S& s, P&) { lose_a_file(*runs_named(s, t).front()); }, verdict_kind::refuted});
        out.push_back({"e1c.loses-nothing:" + to.name, "the runs of " + to.name + ", as they lost nothing",
                       [t = to.name](S& s, P&) { runs_named(s, t); }, verdict_kind::held});
    }
    out.push_back({"e1c.kill-after-timeout-no-duplicates", "the aligned FlinkSink kill runs, one seq twice",
                   [c](S& s, P&) {
                       auto& r = *runs_named(s, c[15].name).front();
                       ++r.rows, ++r.duplicate_rows;
                   },
                   verdict_kind::refuted});
    out.push_back({"e1c.kill-after-timeout-no-duplicates", "the aligned FlinkSink kill runs, as they were",
                   [c](S& s, P&) { runs_named(s, c[15].name); }, verdict_kind::held});
    out.push_back({"e1c.kills-applied", "the aligned FlinkSink kill cell's first run making two kills of three",
                   [c](S& s, P& p) {
                       p.kills_per_run = 3;
                       runs_named(s, c[15].name).front()->kills->pop_back();
                   },
                   verdict_kind::refuted});
    out.push_back({"e1c.kills-applied", "the kill runs as they were, every one with its three kills",
                   [c](S& s, P& p) {
                       p.kills_per_run = 3;
                       runs_named(s, c[15].name);
                   },
                   verdict_kind::held});
    out.push_back({"e1c.kills-applied", "a kill run whose second trigger was not above the first restore",
                   [c](S& s, P& p) {
                       p.kills_per_run = 3;
                       auto& kills = *runs_named(s, c[15].name).front()->kills;
                       kills.at(1).timed_out_checkpoint = kills.at(0).kill.restored_checkpoint_id;
                   },
                   verdict_kind::refuted});
    return out;
}

// Every cell of this experiment ran: no rule waits for one.
template <>
std::set<std::string> rules_not_run<e1c::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
