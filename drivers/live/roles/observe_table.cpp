#include "roles/observe_table.hpp"

#include <map>

#include <rosterrig/generate/roster_event.hpp>

#include "adapters/poll.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

namespace json = boost::json;

namespace {
std::string str(const json::value& v) { return v.is_string() ? std::string(v.as_string()) : std::string{}; }
}  // namespace

namespace {
const char* const row_columns = "seq, npi, name, taxonomy, address, city, state, zip, phone, status";

observed_row observed_of(const json::array& row) {
    provider_fields f{str(row[2]), str(row[3]), str(row[4]), str(row[5]),
                      str(row[6]), str(row[7]), str(row[8]), str(row[9])};
    observed_row o;
    if (!row[0].is_null()) o.seq = trino_integer(row[0]);
    o.npi = trino_integer(row[1]);
    o.fields_digest = fields_digest(f);
    return o;
}
}  // namespace

long long for_each_observed_row(const trino_client& trino, const std::string& ns, const std::string& table,
                                const std::function<void(const observed_row&)>& row) {
    long long n = 0;
    trino.for_each_row(
        std::string("SELECT ") + row_columns + " FROM " + trino_table(ns, table),
        [&](const json::array& r) { row(observed_of(r)), ++n; }, std::chrono::seconds(600));
    return n;
}

experiment::table_files read_table_files(const trino_client& trino, const std::string& ns, const std::string& table) {
    experiment::table_files out;
    // content: 0 data, 1 position deletes, 2 equality deletes (Iceberg spec).
    auto r = trino.query("SELECT content, count(*) FROM " + trino_table(ns, table, "$files") + " GROUP BY content");
    for (const auto& row : r.rows) {
        auto content = trino_integer(row[0]);
        auto n = static_cast<long long>(trino_integer(row[1]));
        if (content == 0)
            out.data_files = n;
        else if (content == 1)
            out.position_delete_files = n;
        else if (content == 2)
            out.equality_delete_files = n;
    }
    out.snapshots = trino.scalar("SELECT count(*) FROM " + trino_table(ns, table, "$snapshots"));
    return out;
}

std::vector<experiment::file_entry> read_file_entries(const trino_client& trino, const std::string& ns,
                                                      const std::string& table) {
    // status 2 (DELETED) entries are files the current snapshot removed, not live ones.
    auto r = trino.query(
        "SELECT snapshot_id, data_file.content, data_file.record_count, data_file.file_size_in_bytes FROM " +
        trino_table(ns, table, "$entries") + " WHERE status <> 2");
    std::vector<experiment::file_entry> out;
    for (const auto& row : r.rows)
        out.push_back(
            {static_cast<std::int64_t>(trino_integer(row[0])), static_cast<std::int64_t>(trino_integer(row[1])),
             static_cast<std::int64_t>(trino_integer(row[2])), static_cast<std::int64_t>(trino_integer(row[3]))});
    return out;
}

std::vector<std::pair<long long, long long>> duplicate_seq_snapshots(const trino_client& trino, const std::string& ns,
                                                                     const std::string& table) {
    const auto t = trino_table(ns, table);
    std::vector<std::pair<long long, long long>> out;
    trino.for_each_row(
        "SELECT t.seq, e.snapshot_id FROM " + t +
            " t LEFT JOIN (SELECT snapshot_id, data_file.file_path AS path FROM " + trino_table(ns, table, "$entries") +
            " WHERE status <> 2 AND data_file.content = 0) e ON t.\"$path\" = e.path "
            "WHERE t.seq IN (SELECT seq FROM " +
            t + " GROUP BY seq HAVING count(*) > 1)",
        [&](const json::array& row) {
            out.emplace_back(static_cast<long long>(trino_integer(row[0])),
                             row[1].is_null() ? -1LL : static_cast<long long>(trino_integer(row[1])));
        },
        std::chrono::seconds(300));
    return out;
}

std::vector<std::pair<long long, long long>> duplicate_seq_checkpoints(const trino_client& trino,
                                                                       const iceberg_catalog& catalog,
                                                                       const std::string& ns,
                                                                       const std::string& table) {
    std::map<long long, long long> checkpoint_of;  // snapshot id -> the checkpoint that committed it
    for (const auto& snap : catalog.load(ns, table).snapshots) checkpoint_of[snap.snapshot_id] = snap.flink_watermark();
    auto copies = duplicate_seq_snapshots(trino, ns, table);
    for (auto& [seq, snapshot] : copies) {
        const auto it = checkpoint_of.find(snapshot);
        snapshot = it == checkpoint_of.end() ? -1 : it->second;
    }
    return copies;
}

std::vector<std::pair<long long, long long>> seq_first_snapshots(const trino_client& trino, const std::string& ns,
                                                                 const std::string& table) {
    auto r = trino.query("SELECT t.seq, e.snapshot_id FROM " + trino_table(ns, table) +
                             " t LEFT JOIN (SELECT snapshot_id, "
                             "data_file.file_path AS path FROM " +
                             trino_table(ns, table, "$entries") +
                             " WHERE status <> 2 AND data_file.content = 0) e ON t.\"$path\" = e.path",
                         std::chrono::seconds(300));
    std::vector<std::pair<long long, long long>> out;
    out.reserve(r.rows.size());
    for (const auto& row : r.rows)
        out.emplace_back(static_cast<long long>(trino_integer(row[0])),
                         row[1].is_null() ? -1LL : static_cast<long long>(trino_integer(row[1])));
    return out;
}

std::vector<experiment::seq_island> seq_islands(const trino_client& trino, const std::string& ns,
                                                const std::string& table) {
    // Within a bucket of seqs (the window orders within one bucket only, as
    // the engine check's does), a row's rank among all the rows' distinct seqs
    // less its rank among its own snapshot's rises exactly where a row of
    // another snapshot lies between two of its own: constant along an island.
    // Islands break at bucket edges too, which loses nothing. Each comes back
    // with its distinct seqs, which spans_of holds to the missing runs.
    const std::string bucket = "t.seq / " + std::to_string(std::uint64_t{1} << 20);
    const std::string snapshot = "coalesce(e.snapshot_id, -1)";
    const std::string q = "SELECT snapshot_id, min(seq), max(seq), count(DISTINCT seq) FROM (SELECT t.seq, " + bucket +
                          " AS bucket, " + snapshot + " AS snapshot_id, dense_rank() OVER (PARTITION BY " + bucket +
                          " ORDER BY t.seq) - dense_rank() OVER (PARTITION BY " + bucket + ", " + snapshot +
                          " ORDER BY t.seq) AS island FROM " + trino_table(ns, table) +
                          " t LEFT JOIN (SELECT snapshot_id, data_file.file_path AS path FROM " +
                          trino_table(ns, table, "$entries") +
                          " WHERE status <> 2 AND data_file.content = 0) e ON t.\"$path\" = e.path WHERE t.seq IS "
                          "NOT NULL) x GROUP BY bucket, snapshot_id, island";
    std::vector<experiment::seq_island> out;
    trino.for_each_row(
        q,
        [&](const json::array& row) {
            out.push_back(
                {static_cast<std::int64_t>(trino_integer(row[0])), static_cast<std::uint64_t>(trino_integer(row[1])),
                 static_cast<std::uint64_t>(trino_integer(row[2])), static_cast<std::uint64_t>(trino_integer(row[3]))});
        },
        std::chrono::seconds(300));
    return out;
}

experiment::table_observation observe_table(const trino_client& trino, run_table_checks& checks, const std::string& ns,
                                            const std::string& table, const roster_spec& spec) {
    const auto way = checks.way.next_read();
    if (way == experiment::table_check_way::engine) {
        auto seen = engine_observe_table(trino, ns, table, spec, checks.models.of(ns, spec));
        seen.files = read_table_files(trino, ns, table);
        return seen;
    }
    experiment::table_observer o(spec);
    for_each_observed_row(trino, ns, table, [&](const observed_row& r) { o.observe(r); });
    auto seen = o.finish(read_table_files(trino, ns, table));
    if (way == experiment::table_check_way::both) {
        require_checks_agree(trino, table, seen,
                             engine_observe_table(trino, ns, table, spec, checks.models.of(ns, spec)));
        progress("table " + table + ": Trino's own check agrees with the streaming check (" +
                 std::to_string(seen.by_seq.rows) + " rows, " + std::to_string(seen.by_seq.missing_seq) +
                 " seqs missing, " + std::to_string(seen.by_seq.duplicate_rows) + " duplicate rows)");
    }
    return seen;
}

long long visible_rows(const trino_client& trino, const std::string& ns, const std::string& table) {
    return trino.scalar("SELECT count(*) FROM " + trino_table(ns, table));
}

long long committed_records(const iceberg_catalog& catalog, const std::string& ns, const std::string& table) {
    const auto cur = catalog.load(ns, table).current();
    return cur ? cur->summary_int("total-records", 0) : 0;
}

void wait_table_counts(const iceberg_catalog& catalog, const std::string& ns, const std::string& table,
                       long long records, std::chrono::seconds deadline) {
    poll_until(
        catalog.where(), deadline,
        [&] {
            const auto cur = catalog.load(ns, table).current();
            return cur && cur->summary_int("total-records", 0) >= records;
        },
        [&] { return "table " + table + " does not yet count " + std::to_string(records) + " records"; },
        {std::chrono::milliseconds(500), std::chrono::seconds(15)});
}

long long snapshot_count(const iceberg_catalog& catalog, const std::string& ns, const std::string& table) {
    return static_cast<long long>(catalog.load(ns, table).snapshots.size());
}

long long first_snapshot_within(const iceberg_catalog& catalog, const std::string& ns, const std::string& table,
                                long long wait_ms) {
    return elapsed_until(
        now_ms(), wait_ms, [&] { return !catalog.load(ns, table).snapshots.empty(); }, std::chrono::milliseconds(250));
}

void wait_table_until(const iceberg_catalog& catalog, const std::string& table, std::chrono::seconds deadline,
                      const std::string& what, const std::function<bool()>& done) {
    poll_until(catalog.where(), deadline, done, [&] { return "table " + table + ": waiting for " + what; },
               {std::chrono::milliseconds(200), std::chrono::seconds(10)});
}

}  // namespace rosterrig::live
