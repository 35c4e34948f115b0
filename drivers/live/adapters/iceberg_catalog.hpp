// The Iceberg REST catalog: a table's snapshots and their summaries, read from
// the catalog itself rather than through an engine.
#ifndef ROSTERRIG_LIVE_ICEBERG_CATALOG_HPP
#define ROSTERRIG_LIVE_ICEBERG_CATALOG_HPP
#include <map>
#include <optional>
#include <string>
#include <vector>
#include <rosterrig/check/commit_replay.hpp>

#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct iceberg_snapshot {
    long long snapshot_id = 0;
    long long parent_id = -1;
    long long sequence_number = 0;
    long long timestamp_ms = 0;
    std::map<std::string, std::string> summary;  // operation, flink.job-id, total-records ...

    long long summary_int(const std::string& key, long long fallback = -1) const;
    std::string summary_text(const std::string& key) const;  // "" when absent
    // The Flink committer's watermark: flink.max-committed-checkpoint-id, -1 when absent.
    long long flink_watermark() const { return summary_int("flink.max-committed-checkpoint-id", -1); }
};

struct iceberg_table_state {
    bool exists = false;
    long long current_snapshot_id = -1;
    std::vector<iceberg_snapshot> snapshots;  // in the order the catalog lists them
    std::string location;
    std::map<std::string, std::string> properties;  // the table's properties, as the catalog holds them
    long long format_version = 0;                   // the metadata's format-version
    std::vector<std::string> identifier_fields;     // the current schema's identifier fields, by name
    std::vector<std::string> partition_fields;      // the default spec's fields, "bucket[4](npi)"; empty: unpartitioned
    std::optional<iceberg_snapshot> current() const;
};

// The snapshot as the replay check reads it (check/commit_replay.hpp): operation,
// writer, watermark, added records and commit time from the catalog's summary.
check::snapshot_entry replay_entry_of(const iceberg_snapshot& s);

class iceberg_catalog {
public:
    explicit iceberg_catalog(component_address where) : where_(std::move(where)) {}

    iceberg_table_state load(const std::string& ns, const std::string& table) const;
    void drop_table(const std::string& ns, const std::string& table, bool purge = true) const;
    void create_namespace(const std::string& ns) const;  // idempotent
    std::vector<std::string> list_tables(const std::string& ns) const;
    // Creates an empty one-column table (x bigint) at `location`: the doctor's probe.
    void create_probe_table(const std::string& ns, const std::string& table,
                            const std::string& location) const;  // [] when the namespace does not exist
    const component_address& where() const { return where_; }

private:
    component_address where_;
};

}  // namespace rosterrig::live

#endif
