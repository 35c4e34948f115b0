// rosterrig-proxy-latency: what the fault proxy adds to a request when no
// rule is armed. One run, side by side: the same requests against an
// in-process loopback upstream directly and through an in-process proxy in
// front of it, for a small POST (a catalog commit's size) and a 1 MiB PUT (an
// object store write), on one kept-alive connection each, alternating direct
// and proxied so load on a shared machine falls on both. Output: one markdown
// table of medians and 90th percentiles in microseconds. Says nothing about a
// real catalog or object store (that needs the stack).
//
//   rosterrig-proxy-latency [--requests N]   (default 2000 per cell)
#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "fault_proxy.hpp"
#include "loopback.hpp"
#include "rosterrig/stats/quantile.hpp"

using namespace rosterrig::live::proxy;
using rosterrig::stats::nearest_rank_quantile;

namespace {
std::string us(double v) { return std::to_string(static_cast<long long>(v + 0.5)); }
}  // namespace

int main(int argc, char** argv) {
    std::size_t requests = 2000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--requests" && i + 1 < argc)
            requests = std::stoul(argv[++i]);
        else {
            std::cerr << "usage: rosterrig-proxy-latency [--requests N]\n";
            return 2;
        }
    }
    loopback_http_upstream upstream;
    upstream.start();
    proxy_options o;
    o.upstream_port = upstream.port();
    fault_proxy proxy(o);
    proxy.start();

    struct shape {
        std::string label, method, target, body;
    };
    const std::vector<shape> shapes{
        {"POST, 300 B body", "POST", "/v1/namespaces/ns/tables/t", std::string(300, 'c')},
        {"PUT, 1 MiB body", "PUT", "/bucket/data/file.parquet", std::string(1 << 20, 'p')},
    };
    std::cout
        << "| Request | n | direct median | through proxy median | added median | direct p90 | through proxy p90 |\n"
        << "|---|---|---|---|---|---|---|\n";
    for (const auto& s : shapes) {
        http_connection direct(upstream.port()), proxied(proxy.port());
        std::vector<double> d, p;
        const std::size_t n = s.body.size() > 100'000 ? std::max<std::size_t>(1, requests / 10) : requests;
        for (std::size_t k = 0; k < n + 20; ++k) {  // the first 20 of each warm up
            for (auto* c : {&direct, &proxied}) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto r = c->call(s.method, s.target, s.body);
                const auto t1 = std::chrono::steady_clock::now();
                if (r.error || r.status != 200) {
                    std::cerr << "rosterrig-proxy-latency: " << s.label << ": " << r.error.message() << " " << r.status
                              << "\n";
                    return 1;
                }
                if (k >= 20)
                    (c == &direct ? d : p).push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            }
        }
        const auto dm = nearest_rank_quantile(d, 0.5), pm = nearest_rank_quantile(p, 0.5);
        std::cout << "| " << s.label << " | " << n << " | " << us(dm) << " µs | " << us(pm) << " µs | " << us(pm - dm)
                  << " µs | " << us(nearest_rank_quantile(d, 0.9)) << " µs | " << us(nearest_rank_quantile(p, 0.9))
                  << " µs |\n";
    }
    proxy.stop();
    upstream.stop();
    return 0;
}
