// live_error: every failure talking to the stack names the component, the address
// and the log file to read, so an operator never has to guess where to look.
#ifndef ROSTERRIG_LIVE_LIVE_ERROR_HPP
#define ROSTERRIG_LIVE_LIVE_ERROR_HPP
#include <map>
#include <stdexcept>
#include <string>

namespace rosterrig::live {

struct component_address {
    std::string name;  // "flink", "trino", "catalog", "kafka", "sql-gateway"
    std::string host;  // 127.0.0.1 for the local stack; a stack description may say otherwise
    unsigned short port = 0;
    std::string log_file;  // where that component writes its log ("" when a stack description names none)
    std::string address;   // when set, where() in full: a Kafka bootstrap list of several brokers
    std::map<std::string, std::string>
        client;  // what a client needs to reach it: librdkafka settings for Kafka, HTTP headers otherwise

    std::string where() const { return address.empty() ? host + ":" + std::to_string(port) : address; }
};

// What went wrong, with the component, its address and its log.
inline std::string component_message(const component_address& c, const std::string& what) {
    return c.name + " at " + c.where() + ": " + what + (c.log_file.empty() ? "" : " (read " + c.log_file + ")");
}

class live_error : public std::runtime_error {
public:
    live_error(const component_address& c, const std::string& what) : std::runtime_error(component_message(c, what)) {}
    explicit live_error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace rosterrig::live

#endif
