// rosterrig-proxy-overhead: what the fault proxy adds, with no rule armed, to
// the two calls the nemesis puts it in front of, on the running local stack:
// an Iceberg REST table commit (a POST to the table's path that sets one
// property, so the catalog writes a new metadata file to the store) and a
// 1 MiB PUT to the object store. One run, side by side: each call made
// directly and through an embedded proxy in front of the same component,
// alternating, after warm-up calls; medians and 90th percentiles in ms, and
// the median's added share. It creates one probe table and objects under one
// prefix of its own, and removes them, also when it fails.
//
//   rosterrig-proxy-overhead [--calls N]   (default 200 commits and 100 PUTs each way)
#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include <boost/json.hpp>

#include "adapters/http_client.hpp"
#include "adapters/iceberg_catalog.hpp"
#include "proxy/fault_proxy.hpp"
#include "adapters/s3_client.hpp"
#include "adapters/stack_config.hpp"
#include "rosterrig/stats/quantile.hpp"

using namespace rosterrig::live;
using rosterrig::stats::nearest_rank_quantile;

namespace {

std::string ms(double v) {
    const auto x = static_cast<long long>(v * 100 + 0.5);
    return std::to_string(x / 100) + "." + (x % 100 < 10 ? "0" : "") + std::to_string(x % 100);
}

// Times `call(direct)` and `call(proxied)` alternately, `n` each after `warm` each.
void side_by_side(const std::string& label, std::size_t n, std::size_t warm,
                  const std::function<void(bool proxied)>& call) {
    std::vector<double> d, p;
    for (std::size_t k = 0; k < n + warm; ++k)
        for (const bool proxied : {false, true}) {
            const auto t0 = std::chrono::steady_clock::now();
            call(proxied);
            const auto t1 = std::chrono::steady_clock::now();
            if (k >= warm) (proxied ? p : d).push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
    const auto dm = nearest_rank_quantile(d, 0.5), pm = nearest_rank_quantile(p, 0.5);
    std::cout << "| " << label << " | " << n << " | " << ms(dm) << " ms | " << ms(pm) << " ms | " << ms(pm - dm)
              << " ms (" << ms(100.0 * (pm - dm) / dm) << " %) | " << ms(nearest_rank_quantile(d, 0.9)) << " ms | "
              << ms(nearest_rank_quantile(p, 0.9)) << " ms |\n";
}

component_address proxy_address(const proxy::fault_proxy& px, const std::string& name) {
    component_address a;
    a.name = name, a.host = "127.0.0.1", a.port = px.port();
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t calls = 200;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--calls" && i + 1 < argc)
            calls = std::stoul(argv[++i]);
        else {
            std::cerr << "usage: rosterrig-proxy-overhead [--calls N]\n";
            return 2;
        }
    }
    if (calls < 10) {
        std::cerr << "rosterrig-proxy-overhead: --calls: at least 10, for a median\n";
        return 2;
    }
    const auto stack = stack_config::load("");
    const auto& d = stack.described;
    const std::string table = "bench_proxy_" + std::to_string(::getpid());
    const std::string prefix = "bench/proxy_" + std::to_string(::getpid()) + "/";
    const iceberg_catalog catalog(stack.catalog());
    const s3_client store(stack.s3(), d.region, d.access_key, d.secret_key);
    std::vector<std::string> keys;
    bool created = false;
    try {
        proxy::proxy_options oc;
        oc.upstream_host = stack.catalog().host, oc.upstream_port = stack.catalog().port;
        proxy::fault_proxy catalog_px(oc);
        catalog_px.start();
        proxy::proxy_options os;
        os.upstream_host = stack.s3().host, os.upstream_port = stack.s3().port;
        proxy::fault_proxy store_px(os);
        store_px.start();

        catalog.create_namespace(d.ns);
        catalog.create_probe_table(d.ns, table, "s3://" + d.bucket + "/warehouse/" + d.ns + "/" + table);
        created = true;
        const auto catalog_via = proxy_address(catalog_px, "fault proxy (in front of the catalog)");
        const auto store_via = s3_client(proxy_address(store_px, "fault proxy (in front of the object store)"),
                                         d.region, d.access_key, d.secret_key);
        std::cerr << "rosterrig-proxy-overhead: catalog " << stack.catalog().where() << " (proxy " << catalog_px.port()
                  << "), object store " << stack.s3().where() << " (proxy " << store_px.port() << "); table " << d.ns
                  << "." << table << "\n";
        std::cout
            << "| Call | n | direct median | through proxy median | added median | direct p90 | through proxy p90 |\n"
            << "|---|---|---|---|---|---|---|\n";
        std::size_t commit = 0;
        side_by_side("Iceberg REST table commit (set-properties)", calls, 10, [&](bool proxied) {
            boost::json::value body = {
                {"requirements", boost::json::array{}},
                {"updates", boost::json::array{{{"action", "set-properties"},
                                                {"updates", {{"bench.commit", std::to_string(++commit)}}}}}}};
            const auto res = http_call(proxied ? catalog_via : stack.catalog(), http_method::post,
                                       "/v1/namespaces/" + d.ns + "/tables/" + table, boost::json::serialize(body));
            if (res.status != 200)
                throw live_error(stack.catalog(),
                                 "commit answered " + std::to_string(res.status) + ": " + res.body.substr(0, 200));
        });
        const std::string mib(1 << 20, 'p');
        std::size_t put = 0;
        side_by_side("Object store PUT, 1 MiB", std::max<std::size_t>(10, calls / 2), 5, [&](bool proxied) {
            keys.push_back(prefix + std::to_string(++put));
            (proxied ? store_via : store).put_object(d.bucket, keys.back(), mib);
        });
        catalog_px.stop();
        store_px.stop();
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-proxy-overhead: FAILED: " << e.what() << "\n";
        if (created) catalog.drop_table(d.ns, table);
        for (const auto& k : keys) store.delete_object(d.bucket, k);
        return 1;
    }
    catalog.drop_table(d.ns, table);
    for (const auto& k : keys) store.delete_object(d.bucket, k);
    std::cerr << "rosterrig-proxy-overhead: removed table " << d.ns << "." << table << " and " << keys.size()
              << " objects\n";
    return 0;
}
