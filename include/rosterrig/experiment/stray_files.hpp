// rosterrig/experiment/stray_files.hpp: what the store holds under a table's
// location against every path its metadata references, file by file: the
// referenced files the store lacks (a live snapshot that cannot be read) and
// the files nothing references (what a failed or unacknowledged commit left),
// each with the time the store wrote it, so a fault can be matched to what it
// left. The names Iceberg gives its files say what wrote them: a Flink
// committer's temporary manifest carries its checkpoint id.
#ifndef ROSTERRIG_EXPERIMENT_STRAY_FILES_HPP
#define ROSTERRIG_EXPERIMENT_STRAY_FILES_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/store_listing.hpp"

namespace rosterrig::experiment {

/// A file under the table's location that nothing in its metadata references.
struct stray_file {
    std::string relative;  ///< under the table's location
    std::int64_t bytes = 0;
    std::int64_t modified_ms = 0;  ///< when the store wrote it (S3 LastModified, or the file's mtime); 0: not listed
    friend bool operator==(const stray_file&, const stray_file&) = default;
};
BOOST_DESCRIBE_STRUCT(stray_file, (), (relative, bytes, modified_ms))

/// The store under a table's location, checked against its metadata.
struct store_check {
    std::string method;             ///< how the store was listed
    std::int64_t listed_at_ms = 0;  ///< after the metadata was read: a file it references was written before
    std::int64_t referenced = 0;    ///< paths under the location that the metadata references
    std::vector<std::string> referenced_missing;  ///< of those, the ones the store does not hold (relative)
    std::vector<stray_file> unreferenced;         ///< files the store holds that nothing references, oldest first
};
BOOST_DESCRIBE_STRUCT(store_check, (), (method, listed_at_ms, referenced, referenced_missing, unreferenced))

/// Compares a listing with the full paths the metadata references (read
/// before the listing, so every file they name was already written).
inline store_check check_store(const std::vector<listed_file>& files, const std::string& location,
                               const std::set<std::string>& referenced) {
    const auto refs = relative_to(location, referenced);
    std::set<std::string> held;
    store_check out;
    out.referenced = static_cast<std::int64_t>(refs.size());
    for (const auto& f : files) {
        held.insert(f.relative);
        if (!refs.count(f.relative)) out.unreferenced.push_back({f.relative, f.bytes, f.modified_ms});
    }
    for (const auto& r : refs)
        if (!held.count(r)) out.referenced_missing.push_back(r);
    std::stable_sort(out.unreferenced.begin(), out.unreferenced.end(),
                     [](const stray_file& a, const stray_file& b) { return a.modified_ms < b.modified_ms; });
    return out;
}

namespace detail {
inline bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (const char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}
}  // namespace detail

/// The checkpoint a Flink committer's temporary manifest was written for,
/// from its name: <job id>-<operator uid>-<subtask, 5 digits>-<attempt>-
/// <checkpoint>-<count, 5 digits>.avro (iceberg-flink 1.10's
/// ManifestOutputFileFactory). nullopt for any other file, a manifest list
/// (snap-<id>-<attempt>-<uuid>.avro) or a manifest (<uuid>-m<n>.avro) included.
inline std::optional<std::int64_t> flink_manifest_checkpoint(std::string_view path) {
    auto name = path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
    if (!name.ends_with(".avro")) return std::nullopt;
    name.remove_suffix(5);
    std::string_view fields[4];  // count, checkpoint, attempt, subtask: from the end
    for (auto& f : fields) {
        const auto dash = name.find_last_of('-');
        if (dash == std::string_view::npos) return std::nullopt;
        f = name.substr(dash + 1);
        name = name.substr(0, dash);
    }
    const auto& [count, checkpoint, attempt, subtask] = fields;
    // What is left starts with the job id (32 hex digits) and its dash.
    if (count.size() != 5 || subtask.size() != 5 || !detail::all_digits(count) || !detail::all_digits(subtask) ||
        !detail::all_digits(attempt) || !detail::all_digits(checkpoint) || checkpoint.size() > 18 || name.size() < 34 ||
        name[32] != '-')
        return std::nullopt;
    for (const char c : name.substr(0, 32))
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
    return std::stoll(std::string(checkpoint));
}

/// A manifest list, as SnapshotProducer names it: snap-<snapshot id>-<attempt>-<uuid>.avro.
inline bool is_manifest_list(std::string_view path) {
    return base_name(std::string(path)).rfind("snap-", 0) == 0 && path.ends_with(".avro");
}

/// A manifest a commit writes (not a Flink temporary one): <uuid>-m<n>.avro.
inline bool is_commit_manifest(std::string_view path) {
    if (!path.ends_with(".avro") || is_manifest_list(path)) return false;
    const auto name = std::string_view(path).substr(0, path.size() - 5);
    const auto m = name.find_last_of('-');
    return m != std::string_view::npos && m + 2 <= name.size() && name[m + 1] == 'm' &&
           detail::all_digits(name.substr(m + 2));
}

}  // namespace rosterrig::experiment

#endif
