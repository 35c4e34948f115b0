#include "adapters/s3_client.hpp"

#include <rosterrig/generate/timestamp.hpp>

#include <chrono>
#include <ctime>

#include "adapters/http_client.hpp"
#include "adapters/s3_signature.hpp"

namespace rosterrig::live {
namespace {

std::string amz_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[20];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    return buf;
}

// The text of every <tag>…</tag> inside `xml` from `from` on; S3's listings are
// flat enough that this reads them without an XML library.
std::vector<std::string> all_of(const std::string& xml, const std::string& tag) {
    std::vector<std::string> out;
    const std::string open = "<" + tag + ">", close = "</" + tag + ">";
    for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at)) {
        const auto start = at + open.size();
        const auto end = xml.find(close, start);
        if (end == std::string::npos) break;
        out.push_back(xml.substr(start, end - start));
        at = end + close.size();
    }
    return out;
}

std::string first_of(const std::string& xml, const std::string& tag) {
    auto all = all_of(xml, tag);
    return all.empty() ? std::string() : all.front();
}

std::string unescape(std::string s) {
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"&amp;", "&"},
                                   {"&lt;", "<"},
                                   {"&gt;", ">"},
                                   {"&quot;", "\""},
                                   {"&apos;", "'"}})
        for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
            s.replace(at, from.size(), to);
    return s;
}

}  // namespace

http_response s3_client::signed_call(http_method method, const std::string& path,
                                     const std::vector<std::pair<std::string, std::string>>& query,
                                     const std::string& body) const {
    sigv4::request r{method == http_method::del   ? "DELETE"
                     : method == http_method::put ? "PUT"
                                                  : "GET",
                     path,
                     query,
                     {},
                     "UNSIGNED-PAYLOAD"};
    const auto date = amz_now();
    r.headers = {{"host", where_.where()}, {"x-amz-content-sha256", r.payload_hash}, {"x-amz-date", date}};
    const auto auth = sigv4::authorization(r, access_key_, secret_key_, region_, date);
    const auto q = sigv4::canonical_query(r);
    const auto target = sigv4::uri_encode(path, true) + (q.empty() ? std::string() : "?" + q);
    auto res = http_call(where_, method, target, body, "application/octet-stream", std::chrono::seconds(15),
                         {{"x-amz-content-sha256", r.payload_hash}, {"x-amz-date", date}, {"Authorization", auth}});
    if (res.status >= 300)
        throw live_error(where_, r.method + " " + target + " answered " + std::to_string(res.status) + ": " +
                                     res.body.substr(0, 300));
    return res;
}

std::string s3_client::get(const std::string& path,
                           const std::vector<std::pair<std::string, std::string>>& query) const {
    return signed_call(http_method::get, path, query).body;
}

void s3_client::delete_object(const std::string& bucket, const std::string& key) const {
    signed_call(http_method::del, "/" + bucket + "/" + key, {});
}

void s3_client::put_object(const std::string& bucket, const std::string& key, const std::string& body) const {
    signed_call(http_method::put, "/" + bucket + "/" + key, {}, body);
}

std::vector<s3_object> s3_client::list_objects(const std::string& bucket, const std::string& prefix) const {
    std::vector<s3_object> out;
    std::string token;
    for (int page = 0; page < 1000; ++page) {
        std::vector<std::pair<std::string, std::string>> q{{"list-type", "2"}, {"prefix", prefix}};
        if (!token.empty()) q.emplace_back("continuation-token", token);
        const auto body = get("/" + bucket, q);
        for (const auto& c : all_of(body, "Contents")) {
            const auto size = first_of(c, "Size");
            out.push_back({unescape(first_of(c, "Key")), size.empty() ? 0 : std::stoll(size),
                           parse_iso8601_utc(first_of(c, "LastModified")).value_or(0)});
        }
        if (first_of(body, "IsTruncated") != "true") return out;
        token = unescape(first_of(body, "NextContinuationToken"));
        if (token.empty())
            throw live_error(where_,
                             "a truncated listing of s3://" + bucket + "/" + prefix + " gave no continuation token");
    }
    throw live_error(where_, "more than 1000 pages listing s3://" + bucket + "/" + prefix);
}

std::vector<s3_upload> s3_client::list_multipart_uploads(const std::string& bucket, const std::string& prefix) const {
    // One page of up to 1000 uploads: a table of ours never has more open.
    const auto body = get("/" + bucket, {{"uploads", ""}, {"prefix", prefix}});
    std::vector<s3_upload> out;
    for (const auto& u : all_of(body, "Upload")) out.push_back({unescape(first_of(u, "Key")), first_of(u, "UploadId")});
    if (first_of(body, "IsTruncated") == "true")
        throw live_error(where_, "more than one page of multipart uploads under s3://" + bucket + "/" + prefix);
    return out;
}

}  // namespace rosterrig::live
