#include "jobs/reader_cost.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>

#include "roles/commit_cell_run.hpp"
#include "roles/flink_sql_writer.hpp"
#include "roles/job_waits.hpp"
#include "roles/observe_table.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

e3::reader_table read_reader_table(trino_client& trino, run_table_checks& checks, const std::string& ns,
                                   const std::string& table, const std::string& name, const std::string& phase,
                                   experiment::table_kind kind, std::int64_t interval_ms, const roster_spec& spec) {
    e3::reader_table t{name, phase, kind, interval_ms};
    e3::tally_files(t, read_file_entries(trino, ns, table));
    const auto seen = observe_table(trino, checks, ns, table, spec);
    t.rows = seen.by_npi.rows, t.rows_sharing_npi = seen.by_npi.rows_sharing_npi,
    t.missing_npis = seen.by_npi.missing_npis.size(), t.stale_rows = seen.by_npi.stale_rows,
    t.unexpected_rows = seen.by_npi.unexpected_rows;
    t.exact = experiment::upsert_table_is_exact(seen);
    progress("e3[reader]: " + phase + " " + name + ": " + std::to_string(t.data_files) + " data files, " +
             std::to_string(t.equality_delete_files) + " equality-delete files, content " +
             (t.exact ? "exact" : "WRONG"));
    return t;
}

void copy_as_append(trino_client& trino, const std::string& ns, const std::string& from, const std::string& to) {
    trino.query("CREATE TABLE iceberg." + ns + "." + to + " AS SELECT * FROM iceberg." + ns + "." + from,
                std::chrono::seconds(300));
}

void time_query_rounds(trino_client& trino, const std::string& ns,
                       const std::vector<std::pair<std::string, std::string>>& physical, std::uint64_t rounds,
                       const std::string& phase, e3::reader_cost& rc) {
    std::map<std::string, std::string> table_of;
    std::vector<std::string> names;
    for (const auto& [name, table] : physical) names.push_back(name), table_of[name] = table;
    for (std::uint64_t round = 0; round <= rounds; ++round) {
        std::rotate(names.begin(), names.begin() + static_cast<long>(round % names.size()), names.end());
        for (const auto& name : names) {
            const std::string from = "iceberg." + ns + "." + table_of.at(name);
            for (const std::string q : {"count", "lookup"}) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto r = trino.query(e3::query_sql(q, from, rc));
                const double ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                e3::query_timing t{phase, round, name, q, ms, -1, false};
                if (r.rows.size() == 1 && r.rows[0][0].is_int64()) t.answer = r.rows[0][0].as_int64();
                t.answer_right = e3::answer_right(q, r.rows.size(), t.answer, rc);
                rc.timings.push_back(t);
            }
        }
    }
    progress("e3[reader]: " + phase + ": " + std::to_string(rounds) + " timed rounds done");
}

void optimize(trino_client& trino, const std::string& ns, const std::string& table, const std::string& name,
              e3::reader_cost& rc) {
    try {
        trino.query("ALTER TABLE iceberg." + ns + "." + table + " EXECUTE optimize", std::chrono::seconds(600));
    } catch (const live_error& e) {
        rc.optimize_errors.push_back(name + ": " + e.what());
    }
}

void run_reader_part(session& s, const e3::parameters& params, const std::vector<kafka_record>& records,
                     const std::vector<roster_event>& events, const roster_spec& spec, std::uint64_t run,
                     const std::function<void(e3::reader_cost&&)>& keep) {
    pipeline_scope scope(s);
    const int parts = static_cast<int>(params.partitions);
    const auto short_name = e3::upsert_name(params.reader_short_interval_ms);
    const auto long_name = e3::upsert_name(params.reader_long_interval_ms);
    // The first run keeps the names a single run had; a repeat's carry its number.
    const std::string prefix = run == 1 ? "reader_" : "reader" + std::to_string(run) + "_";
    auto ps = s.pipeline(prefix + short_name, e3::reader_pipeline(params, params.reader_short_interval_ms));
    auto pl = s.pipeline(prefix + long_name, e3::reader_pipeline(params, params.reader_long_interval_ms));
    pl.topic = ps.topic;  // one feed, read by both jobs under their own groups
    const auto job_short = scope.launch(ps, parts);
    const auto job_long = scope.writer.start(pl, true);
    wait_all_running(s.flink, job_long, std::chrono::seconds(120));
    scope.writer.in_force(job_short, ps), scope.writer.in_force(job_long, pl);
    progress("e3[reader " + std::to_string(run) + "]: jobs " + job_short + " (" + short_name + ") and " + job_long +
             " (" + long_name + ") running");
    feed_watching_table(s, "e3[reader " + std::to_string(run) + "]", ps, records, params.feed_rate());
    wait_until_drained(s.flink, s.admin, job_short, ps.group, ps.topic, parts,
                       std::chrono::seconds(params.reader_short_interval_ms * 3 / 1000 + 120));
    wait_until_drained(s.flink, s.admin, job_long, pl.group, pl.topic, parts,
                       std::chrono::seconds(params.reader_long_interval_ms * 3 / 1000 + 120));
    scope.writer.stop(job_short);
    scope.writer.stop(job_long);

    e3::reader_cost rc;
    e3::choose_lookup(rc, events);

    const auto append_table = s.pipeline(prefix + "append", e3::reader_pipeline(params, 0)).table;
    rc.tables.push_back(read_reader_table(s.trino, s.table_checks, ps.ns, ps.table, short_name, "before",
                                          experiment::table_kind::upsert, params.reader_short_interval_ms, spec));
    rc.tables.push_back(read_reader_table(s.trino, s.table_checks, pl.ns, pl.table, long_name, "before",
                                          experiment::table_kind::upsert, params.reader_long_interval_ms, spec));
    scope.created.table(ps.ns, append_table);
    copy_as_append(s.trino, ps.ns, ps.table, append_table);
    rc.tables.push_back(read_reader_table(s.trino, s.table_checks, ps.ns, append_table, e3::append_name, "before",
                                          experiment::table_kind::append, 0, spec));

    const std::vector<std::pair<std::string, std::string>> physical{
        {short_name, ps.table}, {long_name, pl.table}, {e3::append_name, append_table}};
    time_query_rounds(s.trino, ps.ns, physical, params.query_rounds, "before", rc);
    for (const auto& [name, table, interval] : {std::tuple{long_name, pl.table, params.reader_long_interval_ms},
                                                std::tuple{short_name, ps.table, params.reader_short_interval_ms}}) {
        optimize(s.trino, ps.ns, table, name, rc);
        rc.tables.push_back(read_reader_table(s.trino, s.table_checks, ps.ns, table, name, "after",
                                              experiment::table_kind::upsert, interval, spec));
    }
    rc.tables.push_back(read_reader_table(s.trino, s.table_checks, ps.ns, append_table, e3::append_name, "after",
                                          experiment::table_kind::append, 0, spec));
    time_query_rounds(s.trino, ps.ns, physical, params.query_rounds, "after", rc);
    keep(std::move(rc));  // scope still holds what it created
}

}  // namespace rosterrig::live
