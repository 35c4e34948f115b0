#include "jobs/reader_cost.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "roles/observe_table.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

e3::reader_table read_reader_table(trino_client& trino, experiment::table_check_setting& checks, const std::string& ns,
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
             std::to_string(t.equality_delete_files) + " equality-delete files, content " + (t.exact ? "exact" : "WRONG"));
    return t;
}

void copy_as_append(trino_client& trino, const std::string& ns, const std::string& from, const std::string& to) {
    trino.query("CREATE TABLE iceberg." + ns + "." + to + " AS SELECT * FROM iceberg." + ns + "." + from, std::chrono::seconds(300));
}

void time_query_rounds(trino_client& trino, const std::string& ns,
                       const std::vector<std::pair<std::string, std::string>>& physical,
                       std::uint64_t rounds, const std::string& phase, e3::reader_cost& rc) {
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
                const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
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

}  // namespace rosterrig::live
