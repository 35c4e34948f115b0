// The one way every experiment (and the smoke test) observes a table: rows
// read back through Trino only (an Iceberg commit that only the engine that
// wrote it can read is not an Iceberg commit), file counts from Iceberg's
// metadata tables, both checked against the model by the library.
#ifndef ROSTERRIG_LIVE_OBSERVE_TABLE_HPP
#define ROSTERRIG_LIVE_OBSERVE_TABLE_HPP
#include <string>
#include <vector>

#include <rosterrig/check/observed_row.hpp>
#include <rosterrig/experiment/table_observation.hpp>
#include <rosterrig/generate/roster_spec.hpp>

#include "trino_client.hpp"

namespace rosterrig::live {

// Every row of iceberg.<ns>.<table>: seq, npi and the provider fields' digest.
std::vector<observed_row> read_rows(const trino_client& trino, const std::string& ns, const std::string& table);

// From the "$files" and "$snapshots" metadata tables.
experiment::table_files read_table_files(const trino_client& trino, const std::string& ns, const std::string& table);

// Rows and files, checked against the feed `spec` describes.
experiment::table_observation observe_table(const trino_client& trino, const std::string& ns, const std::string& table,
                                            const roster_spec& spec);

// Rows a reader sees now (count(*)).
long long visible_rows(const trino_client& trino, const std::string& ns, const std::string& table);

}  // namespace rosterrig::live

#endif
