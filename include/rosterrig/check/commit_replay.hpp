// rosterrig/check/commit_replay.hpp: a commit applied twice, seen in the table's
// own metadata, whatever the table kind. A replayed commit hides in an upsert
// table's rows (the later copy of a row replaces the earlier), but not in its
// snapshots: each commit adds records, so the records the writer's snapshots
// added exceed the events it was sent; a Flink committer that commits one
// checkpoint twice leaves two snapshots carrying the same
// flink.max-committed-checkpoint-id (the signature apache/iceberg PR #17901
// reproduces for IcebergSink); a Connect coordinator that commits one file twice
// leaves one data file path added by two snapshots (apache/iceberg #16282).
#ifndef ROSTERRIG_CHECK_COMMIT_REPLAY_HPP
#define ROSTERRIG_CHECK_COMMIT_REPLAY_HPP

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rosterrig::check {

/// One snapshot as the catalog reports it, writer-neutral: the fields a
/// replay check needs, from the snapshot's summary.
struct snapshot_entry {
    std::int64_t snapshot_id = 0;
    std::string operation;                      ///< append, overwrite, delete, replace
    std::string writer_id;                      ///< flink.job-id, or the Connect sink's commit id; "" when absent
    std::int64_t watermark = -1;                ///< flink.max-committed-checkpoint-id; -1 when absent
    std::int64_t added_records = 0;             ///< summary added-records (data rows, not delete rows)
    std::vector<std::string> added_data_files;  ///< file paths, when the check was given them
    std::optional<std::int64_t> timestamp_ms;  ///< the catalog's commit time; absent in results from before it was kept
};

/// Whether a snapshot counts as a commit of data: it added records, and it is not
/// a compaction's replace (which rewrites rows it does not add).
inline bool adds_data(const snapshot_entry& s) { return s.operation != "replace" && s.added_records > 0; }

struct replayed_watermark {
    std::string writer_id;
    std::int64_t watermark = -1;
    std::vector<std::int64_t> snapshot_ids;  ///< at least two, in the order given
    friend bool operator==(const replayed_watermark&, const replayed_watermark&) = default;
};

struct file_added_twice {
    std::string path;
    std::vector<std::int64_t> snapshot_ids;  ///< at least two
    friend bool operator==(const file_added_twice&, const file_added_twice&) = default;
};

struct commit_replay_report {
    std::int64_t snapshots_with_data = 0;
    std::int64_t records_added = 0;  ///< summed over the snapshots that added records
    std::int64_t events_sent = 0;
    /// records_added - events_sent: > 0 is records committed more than once (exact,
    /// from the catalog's counts); < 0 is records that never landed.
    std::int64_t excess_records() const { return records_added - events_sent; }
    std::vector<replayed_watermark> replayed_watermarks;
    std::vector<file_added_twice> files_added_twice;
    bool clean() const { return excess_records() == 0 && replayed_watermarks.empty() && files_added_twice.empty(); }
};

/// Checks the snapshots one writer made (oldest first) against the events it
/// was sent. Only snapshots that added records count: a compaction's replace
/// rewrites rows it does not add, so it is left out by its operation.
inline commit_replay_report commit_replay(const std::vector<snapshot_entry>& snapshots, std::int64_t events_sent) {
    commit_replay_report r;
    r.events_sent = events_sent;
    std::map<std::pair<std::string, std::int64_t>, std::vector<std::int64_t>> by_watermark;
    std::map<std::string, std::vector<std::int64_t>> by_file;
    std::vector<std::pair<std::string, std::int64_t>> watermark_order;
    std::vector<std::string> file_order;
    for (const auto& s : snapshots) {
        if (!adds_data(s)) continue;
        ++r.snapshots_with_data;
        r.records_added += s.added_records;
        if (s.watermark >= 0) {
            auto& ids = by_watermark[{s.writer_id, s.watermark}];
            if (ids.empty()) watermark_order.emplace_back(s.writer_id, s.watermark);
            ids.push_back(s.snapshot_id);
        }
        for (const auto& f : std::set<std::string>(s.added_data_files.begin(), s.added_data_files.end())) {
            auto& ids = by_file[f];
            if (ids.empty()) file_order.push_back(f);
            ids.push_back(s.snapshot_id);
        }
    }
    for (const auto& key : watermark_order)
        if (const auto& ids = by_watermark[key]; ids.size() > 1)
            r.replayed_watermarks.push_back({key.first, key.second, ids});
    for (const auto& f : file_order)
        if (const auto& ids = by_file[f]; ids.size() > 1) r.files_added_twice.push_back({f, ids});
    return r;
}

}  // namespace rosterrig::check

#endif
