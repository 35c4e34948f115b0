// rosterrig/experiment/store_listing.hpp: what a store holds under a table's
// location, listed independently of Iceberg (the object store's own API, or a
// directory walk), classified against every file the table's metadata
// references. What a maintenance procedure had to work with, and what a
// dropped table left behind.
#ifndef ROSTERRIG_EXPERIMENT_STORE_LISTING_HPP
#define ROSTERRIG_EXPERIMENT_STORE_LISTING_HPP

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <boost/describe.hpp>

namespace rosterrig::experiment {

/// What the store holds under the table's location, listed independently of
/// Iceberg, and classified against every file the table's metadata references
/// (all snapshots' data and delete files, manifests, manifest lists and the
/// metadata log).
struct store_listing {
    std::string method;            // how it was listed
    bool location_listed = false;  // the listing answered for the location
    std::int64_t data_files = 0;   // under data/
    std::int64_t data_bytes = 0;
    std::int64_t data_unreferenced = 0;
    std::int64_t data_unreferenced_bytes = 0;
    std::vector<std::string> data_unreferenced_names;  // file names, the first 20
    std::int64_t metadata_files = 0;                   // under metadata/
    std::int64_t metadata_unreferenced = 0;            // statistics files included: Trino's tables do not list them
    std::int64_t other_files = 0;                      // anything else (checksum files, say)
    std::int64_t multipart_uploads = -1;               // open uploads under the location; -1: not a store that has them
    std::int64_t writer_staging_files = -1;  // S3FileIO staging files in the TaskManager's temp dir; -1: not looked
    std::int64_t writer_staging_bytes = -1;
};
BOOST_DESCRIBE_STRUCT(store_listing, (),
                      (method, location_listed, data_files, data_bytes, data_unreferenced, data_unreferenced_bytes,
                       data_unreferenced_names, metadata_files, metadata_unreferenced, other_files, multipart_uploads,
                       writer_staging_files, writer_staging_bytes))

/// The file name after the last '/'.
inline std::string base_name(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// One file the store listed: its path relative to the table's location.
struct listed_file {
    std::string relative;
    std::int64_t bytes = 0;
    std::int64_t modified_ms = 0;  // when the store wrote it; 0 when the listing does not say
};

/// The referenced full paths under `location`, relative to it (as a listing names them).
inline std::set<std::string> relative_to(const std::string& location, const std::set<std::string>& referenced) {
    std::set<std::string> refs;
    const std::string root = location.empty() || location.back() == '/' ? location : location + "/";
    for (const auto& r : referenced)
        if (r.rfind(root, 0) == 0) refs.insert(r.substr(root.size()));
    return refs;
}

/// Classifies what the store listed against the paths the table's metadata
/// references (full paths, compared by their part after `location`).
inline store_listing classify(const std::vector<listed_file>& files, const std::string& location,
                              const std::set<std::string>& referenced) {
    const auto refs = relative_to(location, referenced);
    store_listing out;
    for (const auto& f : files) {
        const bool ref = refs.count(f.relative) > 0;
        if (f.relative.rfind("data/", 0) == 0 && f.relative.find("/.", 4) == std::string::npos &&
            f.relative.size() > 8 && f.relative.compare(f.relative.size() - 8, 8, ".parquet") == 0) {
            ++out.data_files, out.data_bytes += f.bytes;
            if (!ref) {
                ++out.data_unreferenced, out.data_unreferenced_bytes += f.bytes;
                if (out.data_unreferenced_names.size() < 20)
                    out.data_unreferenced_names.push_back(base_name(f.relative));
            }
        } else if (f.relative.rfind("metadata/", 0) == 0 && base_name(f.relative).rfind('.', 0) != 0) {
            ++out.metadata_files;
            if (!ref) ++out.metadata_unreferenced;
        } else {
            ++out.other_files;
        }
    }
    return out;
}

/// Data files unreferenced before the call and absent after it: what it deleted.
inline std::vector<std::string> deleted_between(const store_listing& before,
                                                const std::vector<listed_file>& after_files) {
    std::set<std::string> after;
    for (const auto& f : after_files) after.insert(base_name(f.relative));
    std::vector<std::string> out;
    for (const auto& n : before.data_unreferenced_names)
        if (!after.count(n)) out.push_back(n);
    return out;
}

}  // namespace rosterrig::experiment

#endif
