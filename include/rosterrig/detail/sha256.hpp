// rosterrig/detail/sha256.hpp: incremental SHA-256 as a lowercase hex digest
// (OpenSSL 3 EVP; link OpenSSL::Crypto, which rosterrig::experiments carries).
#ifndef ROSTERRIG_DETAIL_SHA256_HPP
#define ROSTERRIG_DETAIL_SHA256_HPP

#include <stdexcept>
#include <string>
#include <string_view>

#include <openssl/evp.h>

namespace rosterrig::detail {

/// Incremental SHA-256.
class sha256 {
public:
    sha256() : ctx_(EVP_MD_CTX_new()) {
        if (!ctx_ || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1) {
            EVP_MD_CTX_free(ctx_);
            throw std::runtime_error("sha256 init");
        }
    }
    ~sha256() { EVP_MD_CTX_free(ctx_); }
    sha256(const sha256&) = delete;
    sha256& operator=(const sha256&) = delete;

    void update(std::string_view bytes) {
        if (EVP_DigestUpdate(ctx_, bytes.data(), bytes.size()) != 1) throw std::runtime_error("sha256 update");
    }
    /// The digest of everything updated so far; call once.
    std::string hex() {
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned int len = 0;
        if (EVP_DigestFinal_ex(ctx_, md, &len) != 1) throw std::runtime_error("sha256 final");
        static constexpr char digits[] = "0123456789abcdef";
        std::string out;
        for (unsigned i = 0; i < len; ++i) {
            out.push_back(digits[md[i] >> 4]);
            out.push_back(digits[md[i] & 0xf]);
        }
        return out;
    }

private:
    EVP_MD_CTX* ctx_;
};

inline std::string sha256_hex(std::string_view bytes) {
    sha256 h;
    h.update(bytes);
    return h.hex();
}

}  // namespace rosterrig::detail

#endif
