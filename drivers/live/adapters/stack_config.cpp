#include "adapters/stack_config.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <rosterrig/stack/fault_command.hpp>

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

// The local stack as a description: every component on RR_HOST, the fixture
// credentials of ports.env, no fault commands (the built-in pid path).
static stack::description local_description(const stack_config& c) {
    namespace json = boost::json;
    const auto at = [&](const char* port_key) { return c.get("RR_HOST") + ":" + c.get(port_key); };
    stack::description_file f;
    f.name = "the local stack (" + c.compose_dir + "/ports.env)";
    f.kafka.bootstrap = at("RR_KAFKA_PORT");
    f.kafka.log = c.log_file("kafka");
    f.flink = {at("RR_FLINK_REST_PORT"), c.log_file("flink-jobmanager")};
    f.sql_gateway = {at("RR_SQL_GATEWAY_PORT"), c.log_file("flink-sql-gateway")};
    f.catalog.address = at("RR_CATALOG_PORT");
    f.catalog.log = c.log_file("catalog");
    f.trino.address = at("RR_TRINO_PORT");
    f.trino.log = c.log_file("trino");
    f.object_store = {at("RR_S3_PORT"),
                      c.get("RR_S3_REGION"),
                      c.get("RR_S3_BUCKET"),
                      json::string(c.get("RR_S3_ACCESS_KEY")),
                      json::string(c.get("RR_S3_SECRET_KEY")),
                      c.log_file("s3")};
    return stack::resolve(f, f.name.value(), [](const std::string&) { return std::nullopt; });
}

stack_config stack_config::load(const std::string& description_file) {
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
    if (description_file.empty()) {
        c.described = local_description(c);
    } else {
        c.described = stack::read_description(description_file);
        stack::check_placeholders(c.described);
        // A relative log path is read from the file's folder, like the fault commands.
        const auto folder = std::filesystem::path(description_file).parent_path();
        for (std::string* log : {&c.described.kafka_log, &c.described.flink.log, &c.described.sql_gateway.log,
                                 &c.described.catalog.log, &c.described.trino.log, &c.described.object_store.log})
            if (!log->empty() && log->front() == '.') *log = std::filesystem::weakly_canonical(folder / *log).string();
        c.description_file = description_file;
    }
    return c;
}

std::string stack_config::get(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end())
        throw live_error("stack configuration: " + key + " missing from " + compose_dir + "/ports.env");
    return it->second;
}

namespace {
component_address address_of(const char* name, const stack::endpoint& e) {
    return {name, e.host, e.port, e.log, {}, {}};
}
}  // namespace

component_address stack_config::kafka() const {
    // The first broker names it in errors; the client gets the whole list and its settings.
    const auto first = described.kafka_bootstrap.substr(0, described.kafka_bootstrap.find(','));
    const auto colon = first.rfind(':');
    component_address a{
        "kafka", first.substr(0, colon), 0, described.kafka_log, described.kafka_bootstrap, described.kafka_client};
    if (colon != std::string::npos) a.port = port_of(first.substr(colon + 1), "kafka.bootstrap");
    return a;
}
component_address stack_config::flink() const { return address_of("flink-jobmanager", described.flink); }
component_address stack_config::sql_gateway() const { return address_of("flink-sql-gateway", described.sql_gateway); }
component_address stack_config::catalog() const {
    auto a = address_of("iceberg-rest-catalog", described.catalog);
    if (!described.catalog_token.empty()) a.client["Authorization"] = "Bearer " + described.catalog_token;
    return a;
}
component_address stack_config::trino() const { return address_of("trino", described.trino); }
component_address stack_config::s3() const { return address_of("s3", described.object_store); }
component_address stack_config::connect() const {
    if (!local())
        throw live_error("the Kafka Connect writer runs on the local stack only: " + description_file +
                         " describes no Connect worker (docs/STACK.md)");
    return {"kafka-connect",
            get("RR_HOST"),
            port_of(get("RR_CONNECT_PORT"), "RR_CONNECT_PORT"),
            log_file("connect"),
            {},
            {}};
}

}  // namespace rosterrig::live
