#include "adapters/table_store.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <system_error>

#include "adapters/process_fault.hpp"  // now_ms
#include "adapters/s3_client.hpp"

namespace rosterrig::live {
namespace {

std::string strip(std::string s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

// A file:/// or file:/ path as the local filesystem spells it; any other location unchanged.
std::string local_path(const std::string& location) { return strip(strip(location, "file://"), "file:"); }

std::string with_slash(std::string s) { return s.empty() || s.back() == '/' ? s : s + "/"; }

void add_column(const trino_client& trino, const std::string& sql, std::set<std::string>& out) {
    for (const auto& row : trino.query(sql).rows)
        if (!row.empty() && row[0].is_string()) out.insert(std::string(row[0].as_string()));
}

s3_client s3_client_of(const stack_config& stack) {
    return s3_client(stack.s3(), stack.described.region, stack.described.access_key, stack.described.secret_key);
}

}  // namespace

store_files list_location(const stack_config& stack, const std::string& location) {
    namespace fs = std::filesystem;
    store_files out;
    if (location.rfind("s3://", 0) == 0) {
        const auto rest = location.substr(5);
        const auto slash = rest.find('/');
        const auto bucket = rest.substr(0, slash);
        const auto prefix = with_slash(slash == std::string::npos ? std::string() : rest.substr(slash + 1));
        const auto s3 = s3_client_of(stack);
        out.method = "S3 ListObjectsV2 and ListMultipartUploads on s3://" + bucket + "/" + prefix;
        for (const auto& o : s3.list_objects(bucket, prefix))
            out.files.push_back({strip(o.key, prefix), o.bytes, o.modified_ms});
        out.multipart_uploads = static_cast<std::int64_t>(s3.list_multipart_uploads(bucket, prefix).size());
        out.listed = true;
        // Where S3FileIO keeps a file it has not uploaded yet: the java.io.tmpdir
        // of each TaskManager (compose/flink/component.sh: one, or three).
        out.writer_staging_files = 0, out.writer_staging_bytes = 0;
        for (const std::string tm : stack_config::taskmanagers) {
            const fs::path tmp = fs::path(stack.state_dir) / "tmp" / "flink" / tm.substr(6);  // "flink-" off
            std::error_code ec;
            for (fs::recursive_directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
                std::error_code size_ec;
                if (it->is_regular_file(size_ec) && it->path().filename().string().rfind("s3fileio-", 0) == 0) {
                    ++out.writer_staging_files;
                    const auto n = it->file_size(size_ec);
                    if (!size_ec) out.writer_staging_bytes += static_cast<std::int64_t>(n);
                }
            }
        }
        return out;
    }
    const auto root = fs::path(local_path(location));
    out.method = "a walk of " + root.string();
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return out;
    out.listed = true;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code size_ec;
        if (!it->is_regular_file(size_ec)) continue;
        const auto n = it->file_size(size_ec);
        std::error_code time_ec;
        const auto written = it->last_write_time(time_ec);
        const auto ms = time_ec ? 0
                                : std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::file_clock::to_sys(written).time_since_epoch())
                                      .count();
        out.files.push_back({fs::relative(it->path(), root).string(), size_ec ? 0 : static_cast<std::int64_t>(n), ms});
    }
    if (ec) throw live_error("walking " + root.string() + ": " + ec.message());
    return out;
}

std::set<std::string> referenced_paths(const trino_client& trino, const std::string& ns, const std::string& table) {
    const std::string t = "iceberg." + ns + ".\"" + table;
    std::set<std::string> out;
    add_column(trino, "SELECT DISTINCT data_file.file_path FROM " + t + "$all_entries\"", out);
    add_column(trino, "SELECT DISTINCT path FROM " + t + "$all_manifests\"", out);
    add_column(trino, "SELECT manifest_list FROM " + t + "$snapshots\"", out);
    add_column(trino, "SELECT file FROM " + t + "$metadata_log_entries\"", out);
    return out;
}

std::vector<experiment::file_added_twice> files_added_twice(const trino_client& trino, const std::string& ns,
                                                            const std::string& table) {
    // status 1 is ADDED, content 0 a data file (not a delete file).
    const auto rows =
        trino
            .query("SELECT data_file.file_path, array_agg(DISTINCT snapshot_id) FROM iceberg." + ns + ".\"" + table +
                   "$all_entries\" WHERE status = 1 AND data_file.content = 0 GROUP BY "
                   "data_file.file_path HAVING count(DISTINCT snapshot_id) > 1 ORDER BY 1")
            .rows;
    std::vector<experiment::file_added_twice> out;
    for (const auto& row : rows) {
        experiment::file_added_twice f;
        f.file_path = std::string(row.at(0).as_string());
        for (const auto& id : row.at(1).as_array()) f.snapshots.push_back(id.to_number<std::int64_t>());
        std::sort(f.snapshots.begin(), f.snapshots.end());
        out.push_back(std::move(f));
    }
    return out;
}

experiment::store_listing listing_of(const store_files& f, const std::string& location,
                                     const std::set<std::string>& referenced) {
    // Trino and the catalog write file:/// where the walk sees /: one spelling.
    std::set<std::string> refs;
    for (const auto& r : referenced) refs.insert(local_path(r));
    auto l = experiment::classify(f.files, local_path(location), refs);
    l.method = f.method, l.location_listed = f.listed;
    l.multipart_uploads = f.multipart_uploads;
    l.writer_staging_files = f.writer_staging_files, l.writer_staging_bytes = f.writer_staging_bytes;
    return l;
}

missing_files referenced_but_missing(const session& s, const std::string& ns, const std::string& table,
                                     const std::string& location) {
    const auto listing = list_location(s, location);
    std::set<std::string> present;
    for (const auto& f : listing.files) present.insert(f.relative);
    const auto root = with_slash(local_path(location));
    missing_files out;
    const auto rows =
        s.trino.query("SELECT file_path, record_count FROM iceberg." + ns + ".\"" + table + "$files\"").rows;
    for (const auto& row : rows) {
        ++out.referenced;
        if (!present.count(strip(local_path(std::string(row.at(0).as_string())), root)))
            ++out.missing, out.records_in_missing += row.at(1).to_number<std::int64_t>();
    }
    return out;
}

std::int64_t remove_table_files(const stack_config& stack, const std::string& ns, const std::string& table) {
    namespace fs = std::filesystem;
    if (ns.empty() || table.empty() || ns.find('/') != std::string::npos || table.find('/') != std::string::npos ||
        ns.find("..") != std::string::npos || table.find("..") != std::string::npos)
        throw live_error("refusing to remove the files of table '" + ns + "." + table + "': not a plain name");
    std::int64_t removed = 0;
    const auto bucket = stack.described.bucket;
    const auto prefix = "warehouse/" + ns + "/" + table + "/";
    const auto s3 = s3_client_of(stack);
    for (const auto& o : s3.list_objects(bucket, prefix)) {
        s3.delete_object(bucket, o.key);
        ++removed;
    }
    const fs::path dir = fs::path(stack.data_dir()) / "warehouse" / ns / table;
    std::error_code ec;
    if (fs::exists(dir, ec)) {
        for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec)) ++removed;
        fs::remove_all(dir, ec);
        if (ec) throw live_error("removing " + dir.string() + ": " + ec.message());
    }
    return removed;
}

experiment::store_check check_table_store(const session& s, const std::string& ns, const std::string& table,
                                          const std::string& location) {
    const auto referenced = referenced_paths(s.trino, ns, table);
    const auto listed = list_location(s, location);
    if (!listed.listed) throw live_error("the store holds nothing under " + location + " (" + listed.method + ")");
    auto out = experiment::check_store(listed.files, location, referenced);
    out.listed_at_ms = now_ms();
    out.method = listed.method + ", against Trino's $all_entries, $all_manifests, $snapshots and $metadata_log_entries";
    return out;
}

}  // namespace rosterrig::live
