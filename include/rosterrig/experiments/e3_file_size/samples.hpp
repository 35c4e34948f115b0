// rosterrig/experiments/e3_file_size/samples.hpp: the raw samples (reader tables, query timings, samples) and how a cell's and the reader part's records are filled
// (The reader part's helpers, upsert_name to answer_right, and a cell's record, label_of to settings_text,
// came after the analysis in the old header; they fill the samples and use no analysis, so they sit here.)

#ifndef ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E3_FILE_SIZE_SAMPLES_HPP

#include "rosterrig/experiments/e3_file_size/parameters.hpp"

namespace rosterrig::e3 {

// ---- samples -----------------------------------------------------------------

using experiment::file_entry;

/// One table of the reader part, its files and its content checked against the model.
struct reader_table {
    std::string name;   // upsert-5s, upsert-120s, append, and the upsert ones again after optimize
    std::string phase;  // before | after (optimize)
    experiment::table_kind kind = experiment::table_kind::upsert;
    std::int64_t interval_ms = 0;  // the writer's; 0 for the table written once
    std::int64_t data_files = 0, position_delete_files = 0, equality_delete_files = 0;
    std::int64_t data_bytes = 0, delete_bytes = 0;
    std::uint64_t rows = 0, rows_sharing_npi = 0, missing_npis = 0, stale_rows = 0, unexpected_rows = 0;
    bool exact = false;  // one row per NPI, each the latest: timings count only then
};
BOOST_DESCRIBE_STRUCT(reader_table, (),
                      (name, phase, kind, interval_ms, data_files, position_delete_files, equality_delete_files,
                       data_bytes, delete_bytes, rows, rows_sharing_npi, missing_npis, stale_rows, unexpected_rows,
                       exact))

struct query_timing {
    std::string phase;        // before | after
    std::uint64_t round = 0;  // 0: the untimed warm-up (recorded, not used)
    std::string table;
    std::string query;  // count | lookup
    double ms = 0;      // wall time at the client, submit to last page
    std::int64_t answer = 0;
    bool answer_right = false;
};
BOOST_DESCRIBE_STRUCT(query_timing, (), (phase, round, table, query, ms, answer, answer_right))

struct reader_cost {
    std::string lookup_npi;
    std::int64_t lookup_expected_seq = 0;
    std::int64_t expected_rows = 0;
    std::vector<reader_table> tables;
    std::vector<query_timing> timings;
    std::vector<std::string> optimize_errors;  // Trino's message per failed optimize, none when all ran
};
BOOST_DESCRIBE_STRUCT(reader_cost, (),
                      (lookup_npi, lookup_expected_seq, expected_rows, tables, timings, optimize_errors))

struct samples {
    std::vector<cell_run> cells;
    std::optional<reader_cost> reader;                       // the reader part's first run
    std::optional<std::vector<reader_cost>> reader_repeats;  // its runs after the first (absent: it ran once)
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (cells, reader, reader_repeats, predictions))

/// Every run of the reader part, the first first.
inline std::vector<const reader_cost*> reader_runs(const samples& s) {
    std::vector<const reader_cost*> out;
    if (s.reader) out.push_back(&*s.reader);
    if (s.reader_repeats)
        for (const auto& r : *s.reader_repeats) out.push_back(&r);
    return out;
}

/// Records the reader part's next run: the first as `reader`, the rest as repeats.
inline void record_reader_run(samples& s, reader_cost rc) {
    if (!s.reader)
        s.reader = std::move(rc);
    else {
        if (!s.reader_repeats) s.reader_repeats.emplace();
        s.reader_repeats->push_back(std::move(rc));
    }
}

/// The reader part's table names.
inline std::string upsert_name(std::int64_t interval_ms) { return "upsert-" + seconds_text(interval_ms); }
inline const char* append_name = "append";

/// What the reader part asks and expects: the NPI a point lookup asks for
/// (the one with the most assertions, where equality deletes pile up; ties:
/// the smallest), its latest seq, and the rows a count must find (one per NPI).
inline void choose_lookup(reader_cost& rc, const std::vector<roster_event>& events) {
    std::map<std::uint64_t, std::pair<std::size_t, std::uint64_t>> per_npi;  // npi -> (assertions, latest seq)
    for (const auto& e : events) {
        auto& x = per_npi[e.npi];
        ++x.first;
        x.second = std::max<std::uint64_t>(x.second, e.seq);
    }
    const auto busiest = std::max_element(per_npi.begin(), per_npi.end(),
                                          [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
    if (busiest == per_npi.end()) return;
    rc.lookup_npi = std::to_string(busiest->first);
    rc.lookup_expected_seq = static_cast<std::int64_t>(busiest->second.second);
    rc.expected_rows = static_cast<std::int64_t>(per_npi.size());
}

/// A reader table's files, tallied by content kind.
inline void tally_files(reader_table& t, const std::vector<file_entry>& files) {
    for (const auto& f : files) {
        if (f.content == 0)
            ++t.data_files, t.data_bytes += f.bytes;
        else
            (f.content == 1 ? t.position_delete_files : t.equality_delete_files)++, t.delete_bytes += f.bytes;
    }
}

/// The SQL of one timed query (count | lookup) on table `from`.
inline std::string query_sql(const std::string& query, const std::string& from, const reader_cost& rc) {
    return query == "count" ? "SELECT count(*) FROM " + from
                            : "SELECT seq FROM " + from + " WHERE npi = '" + rc.lookup_npi + "'";
}

/// Whether a query's answer (rows returned, the first value) is the model's.
inline bool answer_right(const std::string& query, std::size_t rows, std::int64_t answer, const reader_cost& rc) {
    return query == "count" ? answer == rc.expected_rows : rows == 1 && answer == rc.lookup_expected_seq;
}

// ---- a cell's record, from what the stack reported --------------------------------

/// The progress log's name for a cell.
inline std::string label_of(const cell& c) { return "e3[" + c.name + "]"; }

/// A cell's record before it runs: what the cell asks for and the feed's size.
inline cell_run planned_run(const parameters& p, const cell& c) {
    cell_run run;
    run.cell = c.name, run.role = c.role, run.repeat = c.repeat, run.interval_ms = c.interval_ms,
    run.parallelism = c.parallelism, run.target_bytes = c.target_bytes, run.events = p.events;
    return run;
}

/// The settings in force: mode and interval as the writer reports them
/// (Flink's checkpoint config), the writer vertex's parallelism and
/// description from the job plan, and the target file size from the table's
/// properties in the catalog (none: not set).
inline settings_in_force settings_from(const experiment::writer_settings& writer,
                                       const std::pair<long long, std::string>& writer_vertex,
                                       const std::map<std::string, std::string>& table_properties) {
    settings_in_force in;
    in.mode = writer.mode;
    in.interval_ms = writer.interval_ms;
    std::tie(in.writer_parallelism, in.writer_vertex) = writer_vertex;
    if (auto it = table_properties.find("write.target-file-size-bytes"); it != table_properties.end())
        in.target_file_size_bytes = std::stoll(it->second);
    return in;
}

/// The settings in force as the stack reported them, for the progress log.
inline std::string settings_text(const cell_run& r) {
    const auto& in = r.in_force;
    return "job " + r.job_id + " runs " + in.mode + " every " + std::to_string(in.interval_ms) + " ms with " +
           std::to_string(in.writer_parallelism) + " writers; target " +
           (in.target_file_size_bytes ? std::to_string(*in.target_file_size_bytes) + " B" : std::string("not set"));
}

}  // namespace rosterrig::e3

#endif
