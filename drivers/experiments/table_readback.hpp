// Reading a table back through Trino only (an Iceberg commit that only the
// engine that wrote it can read is not an Iceberg commit), in the shapes the
// core checks take, plus the table's file counts from Iceberg's metadata tables.
#pragma once
#include <string>
#include <vector>
#include <rosterrig/check/observed_row.hpp>
#include "trino_client.hpp"

namespace rosterrig::experiments {

// Every row of iceberg.<ns>.<table> with seq, npi and the provider fields' digest.
std::vector<observed_row> read_rows(const live::trino_client& trino, const std::string& ns, const std::string& table);

struct table_files {
    long long data_files = 0;
    long long position_delete_files = 0;
    long long equality_delete_files = 0;
    long long snapshots = 0;
};

// From the "$files" and "$snapshots" metadata tables, through Trino.
table_files read_table_files(const live::trino_client& trino, const std::string& ns, const std::string& table);

}  // namespace rosterrig::experiments
