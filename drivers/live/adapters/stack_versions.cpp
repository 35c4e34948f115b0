#include "adapters/stack_versions.hpp"

#include <array>
#include <chrono>
#include <thread>
#include <cstdio>
#include <sys/wait.h>
#include <boost/json.hpp>

#include "adapters/flink_rest.hpp"
#include "adapters/sql_gateway.hpp"
#include "adapters/trino_client.hpp"

namespace rosterrig::live {

std::string run_command(const std::string& command) {
    std::string out;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) throw live_error("cannot run: " + command);
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    int status = ::pclose(p);
    if (status != 0)
        throw live_error("command failed (status " + std::to_string(WEXITSTATUS(status)) + "): " + command);
    return out;
}

namespace {
std::map<std::string, std::string> versions_once(const stack_config& stack) {
    std::string text;
    try {
        text = run_command("'" + stack.compose_dir + "/stack' status --json 2>/dev/null");
    } catch (const live_error&) {
        // status exits 1 when a component is down; the JSON still says which.
        text = run_command("'" + stack.compose_dir + "/stack' status --json 2>/dev/null || true");
    }
    auto doc = boost::json::parse(text).as_object();
    std::map<std::string, std::string> out;
    for (const auto& [name, v] : doc) {
        const auto& o = v.as_object();
        if (o.at("health").as_string() != "healthy")
            throw live_error(std::string(name) + " is not healthy (read " + stack.log_file(std::string(name)) + ")");
        out[std::string(name)] = std::string(o.at("version").as_string());
    }
    return out;
}
}  // namespace

// A described stack: each component that reports its version over its own
// API is asked; the others are named as not reporting one, never guessed.
std::map<std::string, std::string> described_versions(const stack_config& stack) {
    const std::string none = "not reported over the network";
    return {{"flink", flink_rest(stack.flink()).version()},
            {"flink-sql-gateway", sql_gateway(stack.sql_gateway()).version()},
            {"trino", trino_client(stack.trino(), stack.described.trino_user).version()},
            {"kafka", none},
            {"catalog", none},
            {"s3", none}};
}

std::map<std::string, std::string> reported_versions(const stack_config& stack) {
    if (!stack.local()) return described_versions(stack);
    // A TaskManager killed at the end of the previous run may still be
    // restarting (the supervisor's pause, then its start): give it 30 s.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        try {
            return versions_once(stack);
        } catch (const live_error&) {
            if (std::chrono::steady_clock::now() > give_up) throw;
            std::this_thread::sleep_for(std::chrono::seconds(2));
        }
    }
}

}  // namespace rosterrig::live
