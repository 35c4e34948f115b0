// test/claims/rule_cases/e1b.cpp: the shipped run with a kill's restore replaying one seq, at-least-once replaying none, or a seq lost.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp>

#include <stdexcept>

namespace rosterrig::claims_test {
namespace {

// A configuration's name is its run's.
const std::string& run_name(const e1b::configuration_run& c) { return c.run.name; }

// Seq 1 is committed by the checkpoint the first kill restored and again by
// the next one: the restore replayed it. Attributed as the driver does.
void replay_one_seq(e1b::configuration_run& c) {
    const auto& kill = c.run.kills.at(0);
    if (kill.restored_checkpoint_id < 0)
        throw std::logic_error("e1b rule cases: the first kill restored no checkpoint");
    c.duplicate_copies.push_back({1, kill.restored_checkpoint_id});
    c.duplicate_copies.push_back({1, kill.restored_checkpoint_id + 1});
    c.run.duplicate_seqs.push_back({1, 2});
    ++c.run.duplicate_rows, ++c.run.rows;
    e1b::attribute_by_checkpoint(c);
}

// No kill's restore replayed anything: every seq once in the table.
void replay_nothing(e1b::configuration_run& c) {
    c.run.rows -= c.run.duplicate_rows;
    c.run.duplicate_rows = 0;
    c.run.duplicate_seqs.clear();
    c.duplicate_copies.clear();
    e1b::attribute_by_checkpoint(c);
}

}  // namespace

template <>
std::vector<rule_case<e1b::definition>> rule_cases<e1b::definition>() {
    using S = e1b::samples;
    using P = e1b::parameters;
    const auto c = e1b::configurations();
    std::vector<rule_case<e1b::definition>> out;
    out.push_back({"e1b.at-least-once-duplicates", "no kill of the paced at-least-once job duplicates (30 clean kills)",
                   [n = c[0].name](S& s, P&) { replay_nothing(named(s.configurations, n, run_name)); },
                   verdict_kind::refuted});
    for (const auto& x : {c[1], c[2]})
        out.push_back({"e1b.no-duplicates:" + x.name, "the first kill's restore replays seq 1 into a later checkpoint",
                       [n = x.name](S& s, P&) { replay_one_seq(named(s.configurations, n, run_name)); },
                       verdict_kind::refuted});
    out.push_back({"e1b.saturated-at-least-once-duplicates", "no kill of the saturated at-least-once job duplicates",
                   [n = c[3].name](S& s, P&) { replay_nothing(named(s.configurations, n, run_name)); },
                   verdict_kind::refuted});
    out.push_back({"e1b.saturated-exactly-once-clean", "the first kill's restore replays seq 1 into a later checkpoint",
                   [n = c[4].name](S& s, P&) { replay_one_seq(named(s.configurations, n, run_name)); },
                   verdict_kind::refuted});
    out.push_back({"e1b.nothing-missing", "the aligned exactly-once table lacks seq 500,000",
                   [n = c[1].name](S& s, P&) {
                       auto& r = named(s.configurations, n, run_name).run;
                       r.missing_runs.push_back({500'000, 500'000});
                       --r.distinct_seq, --r.rows;
                   },
                   verdict_kind::refuted});
    return out;
}

// Every cell of this experiment ran: no rule waits for one.
template <>
std::set<std::string> rules_not_run<e1b::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
