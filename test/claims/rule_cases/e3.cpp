// test/claims/rule_cases/e3.cpp: the shipped cells and reader part with one cell's rows, files or freshness, or one table's timings, changed.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e3_file_size/e3_file_size.hpp>

#include <map>

namespace rosterrig::claims_test {
namespace {

void scale_data_bytes(e3::cell_run& c, double factor) {
    for (auto& f : c.files)
        if (f.content == 0) f.bytes = static_cast<std::int64_t>(static_cast<double>(f.bytes) * factor);
}

// The reader part's timed rounds of one query on one table in one phase.
template <class Change>
void each_timing(e3::samples& s, const std::string& phase, const std::string& table, const std::string& query,
                 Change change) {
    for (auto& t : s.reader.value().timings)
        if (t.phase == phase && t.table == table && t.query == query && t.round > 0) change(t.ms);
}

}  // namespace

template <>
std::vector<rule_case<e3::definition>> rule_cases<e3::definition>() {
    using S = e3::samples;
    using P = e3::parameters;
    return {
        {"e3.every-cell-lands-once", "cell 30s-p4's table holds one seq twice",
         [](S& s, P&) {
             auto& c = named(s.cells, "30s-p4", &e3::cell_run::cell);
             c.rows = c.events + 1;
             c.duplicate_rows = 1;
         },
         verdict_kind::refuted},
        {"e3.files-per-commit-equal-subtasks",
         "one subtask of cell 5s-p4 rolled its file inside a checkpoint: that commit added 5 data files",
         [](S& s, P&) {
             auto& c = named(s.cells, "5s-p4", &e3::cell_run::cell);
             for (std::size_t i = 0; i < c.files.size(); ++i) {
                 auto& f = c.files[i];
                 if (f.content != 0) continue;
                 auto second = f;
                 second.records = f.records / 2, second.bytes = f.bytes / 2;
                 f.records -= second.records, f.bytes -= second.bytes;
                 const auto snapshot = f.snapshot_id;
                 c.files.push_back(second);  // invalidates f
                 for (auto& x : c.snapshots)
                     if (x.snapshot_id == snapshot) ++x.added_data_files;
                 return;
             }
         },
         verdict_kind::refuted},
        {"e3.interval-moves-file-size",
         "cell 120s-p1's data files are a quarter of their size (under 3 times those at 5 s)",
         [](S& s, P&) { scale_data_bytes(named(s.cells, "120s-p1", &e3::cell_run::cell), 0.25); },
         verdict_kind::refuted},
        {"e3.interval-moves-file-size",
         "the baseline's third run (5s-p2 #3) wrote every data file 25,000 B bigger: a repeat spread 10 times of which exceeds the gap at parallelism 4",
         [](S& s, P&) {
             for (auto& f : named(s.cells, "5s-p2 #3", &e3::cell_run::cell).files)
                 if (f.content == 0) f.bytes += 25000;
         },
         verdict_kind::refuted},
        {"e3.target-does-not-move-file-size",
         "the 1 GB cell's data files are 10 % bigger (past the repeats' range plus 3 %)",
         [](S& s, P&) { scale_data_bytes(named(s.cells, "5s-p2-1GB", &e3::cell_run::cell), 1.10); },
         verdict_kind::refuted},
        {"e3.control-rolls-files",
         "the control's writers ignored the 1 KiB target: each commit added one data file per subtask",
         [](S& s, P&) {
             auto& c = named(s.cells, "30s-p2-control", &e3::cell_run::cell);
             const auto writers = c.in_force.writer_parallelism;
             std::map<std::int64_t, e3::file_entry> per_snapshot;  // the snapshot's data files, summed
             std::vector<e3::file_entry> kept;
             for (const auto& f : c.files) {
                 if (f.content != 0) {
                     kept.push_back(f);
                     continue;
                 }
                 auto& sum =
                     per_snapshot.try_emplace(f.snapshot_id, e3::file_entry{f.snapshot_id, 0, 0, 0}).first->second;
                 sum.records += f.records, sum.bytes += f.bytes;
             }
             for (const auto& [id, sum] : per_snapshot)
                 for (std::int64_t w = 0; w < writers; ++w)
                     kept.push_back({id, 0, sum.records / writers, sum.bytes / writers});
             c.files = kept;
             for (auto& x : c.snapshots)
                 if (per_snapshot.count(x.snapshot_id)) x.added_data_files = writers;
         },
         verdict_kind::refuted},
        {"e3.freshness-p50-tracks-half-interval",
         "every record of cell 5s-p2 became visible 2 s later (its commits lagged their checkpoints)",
         [](S& s, P&) {
             auto& h = named(s.cells, "5s-p2", &e3::cell_run::cell).freshness;
             for (auto& b : h.buckets) b.from_ms += 2000;
             h.min_ms += 2000, h.max_ms += 2000;
         },
         verdict_kind::refuted},
        {"e3.upsert-short-interval-reads-slower",
         "before optimize, every count(*) on the 5 s upsert table took a fifth of its recorded time (x1.3 the append table's)",
         [](S& s, P& p) {
             each_timing(s, "before", e3::upsert_name(p.reader_short_interval_ms), "count",
                         [](double& ms) { ms *= 0.2; });
         },
         verdict_kind::refuted},
        {"e3.optimize-removes-most-of-the-gap",
         "after optimize, every point lookup on the 5 s upsert table took 200 ms longer (over half the 325 ms gap before)",
         [](S& s, P& p) {
             each_timing(s, "after", e3::upsert_name(p.reader_short_interval_ms), "lookup",
                         [](double& ms) { ms += 200; });
         },
         verdict_kind::refuted},
    };
}

template <>
std::set<std::string> rules_not_run<e3::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
