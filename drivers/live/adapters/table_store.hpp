// A table's files as the store holds them, listed without asking Iceberg: the
// object store through its own API (objects and open multipart uploads), a
// local warehouse by walking its directory; and the paths the table's
// metadata references, from Trino's metadata tables, to classify them against.
#ifndef ROSTERRIG_LIVE_TABLE_STORE_HPP
#define ROSTERRIG_LIVE_TABLE_STORE_HPP
#include <set>
#include <string>
#include <vector>

#include <rosterrig/experiment/file_commits.hpp>
#include <rosterrig/experiment/store_listing.hpp>
#include <rosterrig/experiment/stray_files.hpp>

#include "roles/session.hpp"

namespace rosterrig::live {

struct store_files {
    std::string method;
    bool listed = false;                         // the location answered (an existing prefix or directory)
    std::vector<experiment::listed_file> files;  // relative to the location
    std::int64_t multipart_uploads = -1;         // s3 only
    std::int64_t writer_staging_files = -1;      // s3 only: S3FileIO's staging files in the TaskManager's temp dir
    std::int64_t writer_staging_bytes = -1;
};

// Lists everything under `location` (s3://bucket/… or file:///…).
store_files list_location(const stack_config& stack, const std::string& location);
inline store_files list_location(const session& s, const std::string& location) {
    return list_location(s.stack, location);
}

// Removes every file left under the location of a table a run created, in
// either warehouse mode: the catalog's purge deletes only the files its
// metadata reaches, and a job's files written after the drop, or no longer
// referenced (an expired snapshot's, a deleted in-flight file's), stay. Only
// <warehouse>/<ns>/<table> is touched. Returns how many files it removed.
std::int64_t remove_table_files(const stack_config& stack, const std::string& ns, const std::string& table);

// Every file the table's metadata references, as full paths: every
// snapshot's data and delete files, manifests and manifest lists, and the
// metadata log.
std::set<std::string> referenced_paths(const trino_client& trino, const std::string& ns, const std::string& table);

// Every data file that two or more snapshots added (ADDED entries in the
// manifests of every snapshot, $all_entries), with those snapshots.
std::vector<experiment::file_added_twice> files_added_twice(const trino_client& trino, const std::string& ns,
                                                            const std::string& table);

// The listing classified against the metadata, with the store's extras.
experiment::store_listing listing_of(const store_files& f, const std::string& location,
                                     const std::set<std::string>& referenced);

struct missing_files {
    std::int64_t referenced = 0;  // live files of the current snapshot
    std::int64_t missing = 0;     // of those, absent from the store
    std::int64_t records_in_missing = 0;
};
// The current snapshot's files ($files) checked against the store's listing.
missing_files referenced_but_missing(const session& s, const std::string& ns, const std::string& table,
                                     const std::string& location);

// The store under the table's location against every path its metadata
// references, file by file. The metadata is read first: each file it names
// was written before the listing, so one the listing lacks is one the store
// does not hold.
experiment::store_check check_table_store(const session& s, const std::string& ns, const std::string& table,
                                          const std::string& location);

}  // namespace rosterrig::live

#endif
