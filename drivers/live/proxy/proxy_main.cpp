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
#include <charconv>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <string>

#include <boost/json.hpp>

#include <rosterrig/cli/arg_parser.hpp>

#include "fault_proxy.hpp"
#include "proxy_control.hpp"

using namespace rosterrig::live::proxy;
namespace cli = rosterrig::cli;

namespace {
unsigned short port_of(std::uint64_t n, const std::string& flag) {
    if (n > 65535) throw cli::usage_error(flag + ": not a port: " + std::to_string(n));
    return static_cast<unsigned short>(n);
}
}  // namespace

int main(int argc, char** argv) {
    proxy_options options;
    std::string upstream, mode = "http";
    std::uint64_t listen_port = 0, control = 0;
    std::uint64_t upstream_timeout_ms = static_cast<std::uint64_t>(options.upstream_timeout.count());
    std::uint64_t idle_timeout_ms = static_cast<std::uint64_t>(options.idle_timeout.count());
    cli::arg_parser args{"rosterrig-proxy",
                         "The fault proxy on 127.0.0.1: prints its ports as one JSON line, serves its "
                         "control API and runs until SIGINT or SIGTERM."};
    args.option("--upstream", upstream, "HOST:PORT", "what it forwards to", cli::required);
    args.option("--listen", listen_port, "PORT", "the proxy's port (default 0: a free one)");
    args.option("--control", control, "PORT", "the control API's port (default 0: a free one)");
    args.choice("--mode", mode, {"http", "tcp"}, "requests or bytes (default http)");
    args.option("--upstream-timeout-ms", upstream_timeout_ms, "N", "a request's deadline upstream (default 60000)");
    args.option("--idle-timeout-ms", idle_timeout_ms, "N", "an idle connection's life (default 900000)");
    unsigned short control_port = 0;
    try {
        if (!args.parse(argc, argv)) return 0;
        const auto colon = upstream.rfind(':');
        if (colon == std::string::npos || colon == 0)
            throw cli::usage_error("--upstream: expected HOST:PORT, got \"" + upstream + "\"");
        std::uint64_t up_port = 0;
        const auto text = upstream.substr(colon + 1);
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), up_port);
        if (text.empty() || ec != std::errc{} || end != text.data() + text.size())
            throw cli::usage_error("--upstream: not a port: \"" + text + "\"");
        options.upstream_host = upstream.substr(0, colon);
        options.upstream_port = port_of(up_port, "--upstream");
        options.listen_port = port_of(listen_port, "--listen");
        control_port = port_of(control, "--control");
        options.mode = mode == "tcp" ? proxy_mode::tcp : proxy_mode::http;
        options.upstream_timeout = std::chrono::milliseconds(upstream_timeout_ms);
        options.idle_timeout = std::chrono::milliseconds(idle_timeout_ms);
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-proxy: " << e.what() << "\n" << args.usage();
        return 2;
    }

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
