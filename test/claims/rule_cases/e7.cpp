// test/claims/rule_cases/e7.cpp: experiment 7's rules, each refuted by one
// change to its shipped run (the worker kills, the offsets steps, the dial).
#include "../rule_cases.hpp"

#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>

#include <stdexcept>

namespace rosterrig::claims_test {
namespace {
experiment::cell_run& cell_at(e7::samples& s, std::int64_t interval_ms) {
    for (auto& c : s.dial)
        if (c.interval_ms == interval_ms) return c;
    throw std::out_of_range("no dial cell " + e7::cell_name(interval_ms));
}
// The step's table holds `extra` more seqs twice (the table keeps them in later steps).
void replay_from(e7::samples& s, const std::string& name, std::uint64_t extra) {
    bool from_here = false;
    for (auto& x : s.offsets.steps) {
        from_here = from_here || x.step == name;
        if (from_here) x.rows += extra, x.duplicate_rows += extra;
    }
}
}  // namespace

template <>
std::vector<rule_case<e7::definition>> rule_cases<e7::definition>() {
    using S = e7::samples;
    using P = e7::parameters;
    return {
        {"e7.restart-no-duplicates", "seq 900, sent before kill 3, is in the table twice",
         [](S& s, P&) {
             auto& r = s.restart.value().run;
             r.duplicate_seqs.push_back({900, 2});
             r.duplicate_rows = 1;
             r.rows += 1;
             experiment::attribute(r);
         },
         verdict_kind::refuted},
        {"e7.restart-nothing-missing", "seqs 5001..5100 are missing from the table after the kills",
         [](S& s, P&) {
             auto& r = s.restart.value().run;
             r.missing_runs.push_back({5001, 5100});
             r.rows -= 100;
             r.distinct_seq -= 100;
         },
         verdict_kind::refuted},
        {"e7.rewind-refused-while-running",
         "the broker applied the rewind behind the running connector (offsets 0 after it)",
         [](S& s, P&) {
             s.offsets.rewind_while_running_refused.reset();
             auto& x = named(s.offsets.steps, e7::step_rewind_running, &e7::offsets_step::step);
             x.committed_after_action = 0;
             x.note = "the broker applied the rewind";
         },
         verdict_kind::refuted},
        {"e7.restarts-replay-nothing", "the worker kill replayed the last 500 records: they are in the table twice",
         [](S& s, P&) { replay_from(s, e7::step_worker_killed, 500); }, verdict_kind::refuted},
        {"e7.restarts-replay-nothing",
         "the same-name recreate replayed the last 500 records: they are in the table twice",
         [](S& s, P&) { replay_from(s, e7::step_recreated, 500); }, verdict_kind::refuted},
        {"e7.rewound-group-replays-everything",
         "the recreated connector ignored its rewound group: each seq is in the table once",
         [](S& s, P&) {
             auto& x = named(s.offsets.steps, e7::step_rewound_recreated, &e7::offsets_step::step);
             x.rows = s.offsets.events;
             x.duplicate_rows = 0;
         },
         verdict_kind::refuted},
        {"e7.dial-lands-once", "the 10 s cell's table is missing seqs 7001..7100",
         [](S& s, P&) {
             auto& c = cell_at(s, 10000);
             c.missing_runs.push_back({7001, 7100});
             c.rows -= 100;
         },
         verdict_kind::refuted},
        {"e7.longer-interval-larger-files",
         "the 30 s cell's tasks rolled each file into three (mean file about 32 KB, below the 10 s cell's 41 KB)",
         [](S& s, P&) {
             auto& c = cell_at(s, 30000);
             std::vector<experiment::file_entry> split;
             for (const auto& f : c.files)
                 for (int i = 0; i < 3; ++i)
                     split.push_back({f.snapshot_id, f.content, f.records / 3 + (i < f.records % 3 ? 1 : 0),
                                      f.bytes / 3 + (i < f.bytes % 3 ? 1 : 0)});
             c.files = split;
             for (auto& sn : c.snapshots) sn.added_data_files *= 3;
         },
         verdict_kind::refuted},
        {"e7.freshness-follows-interval",
         "every record of the 30 s cell became visible 20 s later (p50 37 s, above 30 s + 5 s)",
         [](S& s, P&) {
             auto& h = cell_at(s, 30000).freshness;
             for (auto& b : h.buckets) b.from_ms += 20000;
             h.min_ms += 20000, h.max_ms += 20000;
         },
         verdict_kind::refuted},
        {"e7.freshness-follows-interval", "the 10 s cell's records became visible as soon as the 2 s cell's (same p50)",
         [](S& s, P&) { cell_at(s, 10000).freshness = cell_at(s, 2000).freshness; }, verdict_kind::refuted},
    };
}

// Every rule of experiment 7 judges a part its run has: none is listed.
template <>
std::set<std::string> rules_not_run<e7::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
