#include "adapters/trino_client.hpp"

#include <thread>
#include "adapters/http_client.hpp"

namespace rosterrig::live {

namespace {
// nextUri is absolute (http://127.0.0.1:port/v1/statement/...): keep the path.
std::string path_of(const std::string& uri) {
    auto scheme = uri.find("://");
    if (scheme == std::string::npos) return uri;
    auto slash = uri.find('/', scheme + 3);
    return slash == std::string::npos ? "/" : uri.substr(slash);
}
}  // namespace

trino_result trino_client::query(const std::string& sql, std::chrono::seconds deadline) const {
    std::vector<boost::json::array> rows;
    auto out = for_each_row(sql, [&](const boost::json::array& r) { rows.push_back(r); }, deadline);
    out.rows = std::move(rows);
    return out;
}

trino_result trino_client::for_each_row(const std::string& sql,
                                        const std::function<void(const boost::json::array&)>& row,
                                        std::chrono::seconds deadline) const {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    const std::vector<std::pair<std::string, std::string>> headers{{"X-Trino-User", user_}};
    auto res =
        http_call(where_, http_method::post, "/v1/statement", sql, "text/plain", std::chrono::seconds(30), headers);
    trino_result out;
    for (;;) {
        *received_ += res.body.size();
        if (res.status == 503 || res.status == 429) {
            throw live_error(where_, "Trino is busy (HTTP " + std::to_string(res.status) + ") for: " + sql);
        }
        if (res.status != 200) {
            throw live_error(
                where_, "HTTP " + std::to_string(res.status) + " for query '" + sql + "': " + res.body.substr(0, 1000));
        }
        auto doc = boost::json::parse(res.body).as_object();
        if (auto* id = doc.if_contains("id")) out.query_id = std::string(id->as_string());
        if (auto* err = doc.if_contains("error")) {
            const auto& e = err->as_object();
            std::string msg = e.contains("message") ? std::string(e.at("message").as_string()) : "unknown error";
            std::string name = e.contains("errorName") ? std::string(e.at("errorName").as_string()) : "";
            throw live_error(where_, "query failed (" + name + "): " + msg + "\n  query: " + sql);
        }
        if (out.columns.empty()) {
            if (auto* cols = doc.if_contains("columns")) {
                for (const auto& c : cols->as_array()) out.columns.emplace_back(c.as_object().at("name").as_string());
            }
        }
        if (auto* data = doc.if_contains("data")) {
            for (const auto& r : data->as_array()) row(r.as_array());
        }
        auto* next = doc.if_contains("nextUri");
        if (!next || next->is_null()) break;
        if (std::chrono::steady_clock::now() > give_up) {
            http_call(where_, http_method::del, path_of(std::string(next->as_string())), {}, "text/plain",
                      std::chrono::seconds(5), headers);
            throw live_error(where_, "query did not finish within " + std::to_string(deadline.count()) + " s: " + sql);
        }
        res = http_call(where_, http_method::get, path_of(std::string(next->as_string())), {}, "text/plain",
                        std::chrono::seconds(30), headers);
    }
    return out;
}

long long trino_client::scalar(const std::string& sql) const {
    auto r = query(sql);
    if (r.rows.empty() || r.rows[0].empty()) throw live_error(where_, "no value returned by: " + sql);
    const auto& v = r.rows[0][0];
    if (v.is_int64()) return v.as_int64();
    if (v.is_uint64()) return static_cast<long long>(v.as_uint64());
    if (v.is_string()) return std::stoll(std::string(v.as_string()));
    if (v.is_null()) return 0;
    throw live_error(where_, "non-integer value returned by: " + sql);
}

std::string trino_client::version() const {
    auto info = http_json(where_, http_method::get, "/v1/info");
    return std::string(info.at("nodeVersion").at("version").as_string());
}

}  // namespace rosterrig::live
