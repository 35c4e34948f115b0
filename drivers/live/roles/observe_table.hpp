// The one way every experiment (and the smoke test) observes a table: rows
// read back through Trino only (an Iceberg commit that only the engine that
// wrote it can read is not an Iceberg commit), file counts from Iceberg's
// metadata tables, both checked against the model by the library; and, to
// know when a feed has landed, the record count the catalog's newest snapshot
// reports.
#ifndef ROSTERRIG_LIVE_OBSERVE_TABLE_HPP
#define ROSTERRIG_LIVE_OBSERVE_TABLE_HPP
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <rosterrig/check/observed_row.hpp>
#include <rosterrig/experiment/seq_placement.hpp>
#include <rosterrig/experiment/table_check.hpp>
#include <rosterrig/experiment/table_observation.hpp>
#include <rosterrig/generate/roster_spec.hpp>

#include "adapters/iceberg_catalog.hpp"
#include "adapters/trino_client.hpp"
#include "roles/engine_checks.hpp"

namespace rosterrig::live {

// A run's table checks: the way each read takes (--table-check), and the
// feed models the engine's upsert check reads, written once per run.
struct run_table_checks {
    run_table_checks(const trino_client& trino, std::string run_id, upsert_models::recorder record)
        : models(trino, std::move(run_id), std::move(record)) {}
    experiment::table_check_setting way;
    upsert_models models;
};

// Hands each row of iceberg.<ns>.<table> to `row` as Trino's pages arrive,
// keeping none (seq, npi and the provider fields' digest); returns how many
// there were.
long long for_each_observed_row(const trino_client& trino, const std::string& ns, const std::string& table,
                                const std::function<void(const observed_row&)>& row);

// From the "$files" and "$snapshots" metadata tables.
experiment::table_files read_table_files(const trino_client& trino, const std::string& ns, const std::string& table);

// Every live file of the current snapshot, from the "$entries" metadata table
// (the snapshot that added it, its content kind, records and bytes).
std::vector<experiment::file_entry> read_file_entries(const trino_client& trino, const std::string& ns,
                                                      const std::string& table);

// For every row a reader sees: its seq and the snapshot that added the data
// file Trino reads it from ("$path" joined to "$entries"); -1 when the
// metadata does not list that file.
std::vector<std::pair<long long, long long>> seq_first_snapshots(const trino_client& trino, const std::string& ns,
                                                                 const std::string& table);

// Where the rows' seqs are, by the snapshot that added each data file ("$path"
// joined to "$entries", as seq_first_snapshots), as islands: ranges of seqs
// whose rows all come from one snapshot's files (experiment/seq_placement.hpp),
// a few per checkpoint, so a big table is not streamed again; snapshot -1
// for a file the metadata does not list.
std::vector<experiment::seq_island> seq_islands(const trino_client& trino, const std::string& ns,
                                                const std::string& table);

// Every copy of each seq the table holds more than once: (seq, the snapshot
// that added the data file Trino reads that copy from; -1 when the metadata
// does not list the file).
std::vector<std::pair<long long, long long>> duplicate_seq_snapshots(const trino_client& trino, const std::string& ns,
                                                                     const std::string& table);

// The same copies, each with the Flink checkpoint that committed it: its
// snapshot's committed-checkpoint id (-1 when no listed snapshot added the file).
std::vector<std::pair<long long, long long>> duplicate_seq_checkpoints(const trino_client& trino,
                                                                       const iceberg_catalog& catalog,
                                                                       const std::string& ns, const std::string& table);

// Rows and files, checked against the feed `spec` describes the way
// `checks` gives for this read (table_check.hpp; a read that runs both ways
// throws when they disagree).
experiment::table_observation observe_table(const trino_client& trino, run_table_checks& checks, const std::string& ns,
                                            const std::string& table, const roster_spec& spec);

// Rows a reader sees now (count(*)).
long long visible_rows(const trino_client& trino, const std::string& ns, const std::string& table);

// The records the table's newest snapshot counts (its summary's
// total-records), 0 before the first commit.
long long committed_records(const iceberg_catalog& catalog, const std::string& ns, const std::string& table);

// Waits until the table's newest snapshot counts at least `records` records
// (the writer has committed the whole feed); throws naming the catalog.
void wait_table_counts(const iceberg_catalog& catalog, const std::string& ns, const std::string& table,
                       long long records, std::chrono::seconds deadline);

// How many snapshots the catalog lists for the table.
long long snapshot_count(const iceberg_catalog& catalog, const std::string& ns, const std::string& table);

// How long from now until the catalog lists a first snapshot of the table,
// polled every 250 ms (so late by up to that); -1 when none within `wait_ms`.
long long first_snapshot_within(const iceberg_catalog& catalog, const std::string& ns, const std::string& table,
                                long long wait_ms);

// Polls the catalog every 200 ms until `done` says yes; throws naming the
// catalog and `what` the table was waited for.
void wait_table_until(const iceberg_catalog& catalog, const std::string& table, std::chrono::seconds deadline,
                      const std::string& what, const std::function<bool()>& done);

}  // namespace rosterrig::live

#endif
