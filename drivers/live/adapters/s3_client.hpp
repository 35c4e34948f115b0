// The object store through its own API, independently of Iceberg: the objects
// under a prefix (ListObjectsV2) and the multipart uploads still open there
// (ListMultipartUploads), each request signed with SigV4.
#ifndef ROSTERRIG_LIVE_S3_CLIENT_HPP
#define ROSTERRIG_LIVE_S3_CLIENT_HPP
#include <cstdint>
#include <string>
#include <vector>

#include "adapters/http_client.hpp"
#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct s3_object {
    std::string key;
    std::int64_t bytes = 0;
    std::int64_t modified_ms = 0;  // LastModified; 0 when the listing gave none it could read
};

struct s3_upload {
    std::string key;
    std::string upload_id;
};

class s3_client {
public:
    s3_client(component_address where, std::string region, std::string access_key, std::string secret_key)
        : where_(std::move(where)),
          region_(std::move(region)),
          access_key_(std::move(access_key)),
          secret_key_(std::move(secret_key)) {}

    // Every object whose key starts with `prefix`, all pages.
    std::vector<s3_object> list_objects(const std::string& bucket, const std::string& prefix) const;
    // Every multipart upload initiated and neither completed nor aborted under `prefix`.
    std::vector<s3_upload> list_multipart_uploads(const std::string& bucket, const std::string& prefix) const;

    // Deletes one object (S3 answers 204 whether or not it existed).
    void delete_object(const std::string& bucket, const std::string& key) const;
    // Writes one object in a single PUT (the payload unsigned, as SigV4 allows).
    void put_object(const std::string& bucket, const std::string& key, const std::string& body) const;

    const component_address& where() const { return where_; }

private:
    std::string get(const std::string& path, const std::vector<std::pair<std::string, std::string>>& query) const;
    http_response signed_call(http_method method, const std::string& path,
                              const std::vector<std::pair<std::string, std::string>>& query,
                              const std::string& body = {}) const;

    component_address where_;
    std::string region_, access_key_, secret_key_;
};

}  // namespace rosterrig::live

#endif
