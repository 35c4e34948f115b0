// AWS Signature Version 4 for S3 requests: the canonical request, the string
// to sign and the Authorization header (HMAC-SHA256 from OpenSSL). Header-only
// and free of the network, so a unit test holds it to AWS's published example.
#ifndef ROSTERRIG_LIVE_S3_SIGNATURE_HPP
#define ROSTERRIG_LIVE_S3_SIGNATURE_HPP
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

namespace rosterrig::live::sigv4 {

inline std::string hex(const unsigned char* p, std::size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(n * 2);
    for (std::size_t i = 0; i < n; ++i) out += digits[p[i] >> 4], out += digits[p[i] & 15];
    return out;
}

inline std::string sha256_hex(std::string_view data) {
    unsigned char md[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), md);
    return hex(md, sizeof md);
}

inline std::string hmac_sha256(std::string_view key, std::string_view data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
         data.size(), md, &len);
    return std::string(reinterpret_cast<const char*>(md), len);
}

/// RFC 3986 percent-encoding as SigV4 wants it: unreserved characters stay;
/// '/' stays in a path and is encoded in a query value.
inline std::string uri_encode(std::string_view s, bool keep_slash) {
    std::string out;
    for (unsigned char c : s) {
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.' || c == '~' || (keep_slash && c == '/')) {
            out += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

struct request {
    std::string method;                                      // GET
    std::string path;                                        // /bucket/key, not yet encoded
    std::vector<std::pair<std::string, std::string>> query;  // not yet encoded; a name with no value has ""
    std::vector<std::pair<std::string, std::string>>
        headers;               // lower-case names, all signed (host and x-amz-date among them)
    std::string payload_hash;  // hex SHA-256 of the body, or UNSIGNED-PAYLOAD
};

/// The query string as sent and as signed: names sorted, both sides encoded.
inline std::string canonical_query(const request& r) {
    std::vector<std::pair<std::string, std::string>> q;
    for (const auto& [k, v] : r.query) q.emplace_back(uri_encode(k, false), uri_encode(v, false));
    std::sort(q.begin(), q.end());
    std::string out;
    for (const auto& [k, v] : q) out += (out.empty() ? "" : "&") + k + "=" + v;
    return out;
}

inline std::string signed_headers(const request& r) {
    std::vector<std::string> names;
    for (const auto& h : r.headers) names.push_back(h.first);
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ";") + n;
    return out;
}

inline std::string canonical_request(const request& r) {
    auto headers = r.headers;
    std::sort(headers.begin(), headers.end());
    std::string canon;
    for (const auto& [k, v] : headers) canon += k + ":" + v + "\n";
    return r.method + "\n" + uri_encode(r.path, true) + "\n" + canonical_query(r) + "\n" + canon + "\n" +
           signed_headers(r) + "\n" + r.payload_hash;
}

/// The Authorization header's value. `amz_date` is the x-amz-date header's
/// value (YYYYMMDDTHHMMSSZ); the scope's date is its first eight characters.
inline std::string authorization(const request& r, const std::string& access_key, const std::string& secret_key,
                                 const std::string& region, const std::string& amz_date,
                                 const std::string& service = "s3") {
    const std::string date = amz_date.substr(0, 8);
    const std::string scope = date + "/" + region + "/" + service + "/aws4_request";
    const std::string to_sign =
        "AWS4-HMAC-SHA256\n" + amz_date + "\n" + scope + "\n" + sha256_hex(canonical_request(r));
    const std::string key =
        hmac_sha256(hmac_sha256(hmac_sha256(hmac_sha256("AWS4" + secret_key, date), region), service), "aws4_request");
    const std::string sig = hmac_sha256(key, to_sign);
    return "AWS4-HMAC-SHA256 Credential=" + access_key + "/" + scope + ", SignedHeaders=" + signed_headers(r) +
           ", Signature=" + hex(reinterpret_cast<const unsigned char*>(sig.data()), sig.size());
}

}  // namespace rosterrig::live::sigv4

#endif
