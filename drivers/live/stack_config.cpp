#include "stack_config.hpp"

#include <cstdlib>
#include <fstream>

#ifndef ROSTERRIG_SOURCE_DIR
#define ROSTERRIG_SOURCE_DIR "."
#endif

namespace rosterrig::live {

namespace {
std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return (v && *v) ? std::string(v) : fallback;
}
unsigned short port_of(const std::string& s, const std::string& key) {
    try {
        return static_cast<unsigned short>(std::stoul(s));
    } catch (...) {
        throw live_error("stack configuration: " + key + "='" + s + "' is not a port number");
    }
}
}  // namespace

stack_config stack_config::load() {
    stack_config c;
    c.compose_dir = env_or("ROSTERRIG_COMPOSE", std::string(ROSTERRIG_SOURCE_DIR) + "/compose");
    c.state_dir = env_or("ROSTERRIG_STATE", std::string(ROSTERRIG_SOURCE_DIR) + "/.stack");
    const std::string file = c.compose_dir + "/ports.env";
    std::ifstream in(file);
    if (!in) throw live_error("stack configuration: cannot read " + file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        std::string key = line.substr(0, eq);
        c.values[key] = env_or(("ROSTERRIG_" + key.substr(3)).c_str(), line.substr(eq + 1));
    }
    return c;
}

std::string stack_config::get(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end()) throw live_error("stack configuration: " + key + " missing from " + compose_dir + "/ports.env");
    return it->second;
}

component_address stack_config::kafka() const {
    return {"kafka", get("RR_HOST"), port_of(get("RR_KAFKA_PORT"), "RR_KAFKA_PORT"), log_file("kafka")};
}
component_address stack_config::flink() const {
    return {"flink-jobmanager", get("RR_HOST"), port_of(get("RR_FLINK_REST_PORT"), "RR_FLINK_REST_PORT"),
            log_file("flink-jobmanager")};
}
component_address stack_config::sql_gateway() const {
    return {"flink-sql-gateway", get("RR_HOST"), port_of(get("RR_SQL_GATEWAY_PORT"), "RR_SQL_GATEWAY_PORT"),
            log_file("flink-sql-gateway")};
}
component_address stack_config::catalog() const {
    return {"iceberg-rest-catalog", get("RR_HOST"), port_of(get("RR_CATALOG_PORT"), "RR_CATALOG_PORT"),
            log_file("catalog")};
}
component_address stack_config::trino() const {
    return {"trino", get("RR_HOST"), port_of(get("RR_TRINO_PORT"), "RR_TRINO_PORT"), log_file("trino")};
}
component_address stack_config::s3() const {
    return {"s3", get("RR_HOST"), port_of(get("RR_S3_PORT"), "RR_S3_PORT"), log_file("s3")};
}

}  // namespace rosterrig::live
