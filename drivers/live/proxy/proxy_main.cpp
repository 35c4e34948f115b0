// rosterrig-proxy: the fault proxy as a program, for a driver in another
// process or a user putting one component of their own cluster behind it.
//
//   rosterrig-proxy --upstream HOST:PORT [--listen PORT] [--control PORT] [--mode http|tcp]
//                   [--upstream-timeout-ms N] [--idle-timeout-ms N]
//
// Listens on 127.0.0.1 (port 0 by default: a free one), serves the control
// API (proxy_control.hpp) on 127.0.0.1, prints one JSON line with both ports
// once it listens, and runs until SIGINT or SIGTERM. Exit 2 for bad flags,
// 1 when it cannot listen.
#include <csignal>
#include <iostream>
#include <stdexcept>
#include <string>

#include <boost/json.hpp>

#include "fault_proxy.hpp"
#include "proxy_control.hpp"

using namespace rosterrig::live::proxy;

namespace {
unsigned short port_of(const std::string& text, const std::string& flag) {
    std::size_t used = 0;
    const auto n = std::stoul(text, &used);
    if (used != text.size() || n > 65535) throw std::invalid_argument(flag + ": not a port: " + text);
    return static_cast<unsigned short>(n);
}

int usage(const std::string& why) {
    std::cerr << "rosterrig-proxy: " << why << "\n"
              << "usage: rosterrig-proxy --upstream HOST:PORT [--listen PORT] [--control PORT] [--mode http|tcp]\n"
              << "                       [--upstream-timeout-ms N] [--idle-timeout-ms N]\n";
    return 2;
}
}  // namespace

int main(int argc, char** argv) {
    proxy_options options;
    unsigned short control_port = 0;
    bool have_upstream = false;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string flag = argv[i];
            if (flag == "--help" || flag == "-h") return usage("the fault proxy"), 0;
            if (i + 1 >= argc) return usage(flag + " needs a value");
            const std::string value = argv[++i];
            if (flag == "--upstream") {
                const auto colon = value.rfind(':');
                if (colon == std::string::npos || colon == 0) return usage("--upstream: expected HOST:PORT");
                options.upstream_host = value.substr(0, colon);
                options.upstream_port = port_of(value.substr(colon + 1), flag);
                have_upstream = true;
            } else if (flag == "--listen") options.listen_port = port_of(value, flag);
            else if (flag == "--control") control_port = port_of(value, flag);
            else if (flag == "--mode") {
                if (value == "http") options.mode = proxy_mode::http;
                else if (value == "tcp") options.mode = proxy_mode::tcp;
                else return usage("--mode: http or tcp");
            } else if (flag == "--upstream-timeout-ms") options.upstream_timeout = std::chrono::milliseconds(std::stoll(value));
            else if (flag == "--idle-timeout-ms") options.idle_timeout = std::chrono::milliseconds(std::stoll(value));
            else return usage("unknown flag " + flag);
        }
    } catch (const std::exception& e) {
        return usage(e.what());
    }
    if (!have_upstream) return usage("--upstream is required");

    // Signals are taken by sigwait below, not by a handler on some thread.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    try {
        fault_proxy proxy(options);
        proxy.start();
        control_server control(proxy, control_port);
        control.start();
        std::cout << boost::json::serialize(boost::json::object{
                         {"proxy_port", proxy.port()},
                         {"control_port", control.port()},
                         {"mode", options.mode == proxy_mode::http ? "http" : "tcp"},
                         {"upstream", options.upstream_host + ":" + std::to_string(options.upstream_port)}})
                  << std::endl;
        int got = 0;
        sigwait(&signals, &got);
        control.stop();
        proxy.stop();
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-proxy: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
