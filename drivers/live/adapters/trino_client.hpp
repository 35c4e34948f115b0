// Trino's statement protocol: POST /v1/statement, follow nextUri until it is gone,
// collect rows, and surface Trino's own error text when a query fails.
#ifndef ROSTERRIG_LIVE_TRINO_CLIENT_HPP
#define ROSTERRIG_LIVE_TRINO_CLIENT_HPP
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <functional>
#include <string>
#include <vector>
#include <boost/json.hpp>
#include "adapters/live_error.hpp"

namespace rosterrig::live {

struct trino_result {
    std::vector<std::string> columns;
    std::vector<boost::json::array> rows;
    std::string query_id;
};

// iceberg.<ns>."<table><suffix>": a table (or its metadata table, suffix "$files") as Trino names it.
inline std::string trino_table(const std::string& ns, const std::string& table, const std::string& suffix = "") {
    return "iceberg." + ns + ".\"" + table + suffix + "\"";
}

// An integer cell of a Trino row (a number, or a number as a string); throws on anything else.
inline std::uint64_t trino_integer(const boost::json::value& v) {
    if (v.is_int64()) return static_cast<std::uint64_t>(v.as_int64());
    if (v.is_uint64()) return v.as_uint64();
    if (v.is_string()) return std::stoull(std::string(v.as_string()));
    throw std::runtime_error("expected an integer in a Trino row, got " + boost::json::serialize(v));
}

class trino_client {
public:
    explicit trino_client(component_address where, std::string user = "rosterrig")
        : where_(std::move(where)), user_(std::move(user)) {}

    // Runs one statement to completion; throws live_error carrying Trino's message.
    trino_result query(const std::string& sql, std::chrono::seconds deadline = std::chrono::seconds(120)) const;

    // Runs one statement, handing each row to `row` as its page arrives and
    // keeping none: memory is one page, whatever the table's size. Returns
    // the columns and query id (no rows).
    trino_result for_each_row(const std::string& sql, const std::function<void(const boost::json::array&)>& row,
                              std::chrono::seconds deadline = std::chrono::seconds(120)) const;

    // The first column of the first row as an integer (count(*) and friends).
    long long scalar(const std::string& sql) const;

    // GET /v1/info: nodeVersion.version, as Trino reports it.
    std::string version() const;

    const component_address& where() const { return where_; }

    // Response bytes this client (and its copies) received from Trino so far:
    // what a check costs the rig's side of the wire.
    std::uint64_t bytes_received() const { return *received_; }

private:
    component_address where_;
    std::string user_;
    std::shared_ptr<std::atomic<std::uint64_t>> received_ = std::make_shared<std::atomic<std::uint64_t>>(0);
};

}  // namespace rosterrig::live

#endif
