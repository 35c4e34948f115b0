// rosterrig/experiment/table_observation.hpp: what one read-back of a table
// says, checked against the model. Every experiment reads a table the same
// way (through the reader engine, rows and file counts), so they all judge
// the same numbers: duplicates and missing runs by seq, and per NPI the
// upsert check, whose sharing count is the one NPI count for both table kinds.
#ifndef ROSTERRIG_EXPERIMENT_TABLE_OBSERVATION_HPP
#define ROSTERRIG_EXPERIMENT_TABLE_OBSERVATION_HPP

#include <cstdint>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/check/append_check.hpp"
#include "rosterrig/check/expected_state.hpp"
#include "rosterrig/check/observed_row.hpp"
#include "rosterrig/check/upsert_check.hpp"
#include "rosterrig/generate/roster_spec.hpp"

namespace rosterrig::experiment {

/// File and snapshot counts from the table's metadata ($files, $snapshots).
struct table_files {
    std::int64_t data_files = 0;
    std::int64_t position_delete_files = 0;
    std::int64_t equality_delete_files = 0;
    std::int64_t snapshots = 0;
};
BOOST_DESCRIBE_STRUCT(table_files, (), (data_files, position_delete_files, equality_delete_files, snapshots))

/// One live file of the table's current snapshot, from Iceberg's metadata.
struct file_entry {
    std::int64_t snapshot_id = 0;  ///< the snapshot that added it
    std::int64_t content = 0;      ///< 0 data, 1 position deletes, 2 equality deletes (Iceberg spec)
    std::int64_t records = 0;
    std::int64_t bytes = 0;
};
BOOST_DESCRIBE_STRUCT(file_entry, (), (snapshot_id, content, records, bytes))

struct table_observation {
    append_result by_seq;  ///< duplicates and missing runs of seq 1..N
    upsert_result by_npi;  ///< per NPI: sharing, missing, stale, unexpected (meaningful as failures for upsert tables)
    table_files files;
};

/// Checks rows as a reader hands them over, one at a time, keeping nothing
/// per row: memory is the per-seq counts and the per-NPI state, never the
/// rows, so a table of millions is checked while it is read.
class table_observer {
public:
    explicit table_observer(const roster_spec& spec) : seqs_(spec.events), npis_(expect_upsert(spec)) {}
    void observe(const observed_row& r) {
        seqs_.observe(r.seq.value_or(0));
        npis_.observe(r);
    }
    table_observation finish(table_files files) { return {seqs_.finish(), npis_.finish(), files}; }

private:
    append_checker seqs_;
    upsert_checker npis_;
};

/// Checks the rows a reader saw against the feed `spec` describes.
inline table_observation observe_rows(const std::vector<observed_row>& rows, const roster_spec& spec,
                                      table_files files) {
    table_observer o(spec);
    for (const auto& r : rows) o.observe(r);
    return o.finish(files);
}

/// The upsert table's promise: one row per NPI of the feed, each its latest.
inline bool upsert_table_is_exact(const table_observation& o) {
    return o.by_npi.rows_sharing_npi == 0 && o.by_npi.missing_npis.empty() && o.by_npi.stale_rows == 0 &&
           o.by_npi.unexpected_rows == 0;
}

}  // namespace rosterrig::experiment

#endif
