#include "adapters/iceberg_catalog.hpp"

#include <boost/json.hpp>
#include "adapters/http_client.hpp"

namespace rosterrig::live {

namespace json = boost::json;

namespace {
long long as_ll(const json::value& v) {
    if (v.is_int64()) return v.as_int64();
    if (v.is_uint64()) return static_cast<long long>(v.as_uint64());
    return 0;
}

// The current schema's identifier-field-ids, by name: what makes the Flink
// sink write an equality delete per key (a PRIMARY KEY in Flink SQL).
std::vector<std::string> identifier_fields_of(const json::object& md) {
    std::vector<std::string> out;
    const auto* schemas = md.if_contains("schemas");
    const auto* current = md.if_contains("current-schema-id");
    if (!schemas || !schemas->is_array() || !current) return out;
    for (const auto& s : schemas->as_array()) {
        const auto& schema = s.as_object();
        const auto* id = schema.if_contains("schema-id");
        if (!id || as_ll(*id) != as_ll(*current)) continue;
        const auto* ids = schema.if_contains("identifier-field-ids");
        const auto* fields = schema.if_contains("fields");
        if (!ids || !ids->is_array() || !fields || !fields->is_array()) return out;
        for (const auto& want : ids->as_array())
            for (const auto& f : fields->as_array())
                if (const auto* fid = f.as_object().if_contains("id"); fid && as_ll(*fid) == as_ll(want))
                    out.push_back(std::string(f.as_object().at("name").as_string()));
    }
    return out;
}

// The default partition spec's fields as "transform(column)", e.g.
// "bucket[4](npi)"; empty for an unpartitioned table.
std::vector<std::string> partition_fields_of(const json::object& md) {
    std::vector<std::string> out;
    const auto* specs = md.if_contains("partition-specs");
    const auto* current = md.if_contains("default-spec-id");
    const auto* schemas = md.if_contains("schemas");
    if (!specs || !specs->is_array() || !current) return out;
    auto column = [&](long long id) -> std::string {
        if (schemas && schemas->is_array())
            for (const auto& s : schemas->as_array())
                if (const auto* fields = s.as_object().if_contains("fields"); fields && fields->is_array())
                    for (const auto& f : fields->as_array())
                        if (const auto* fid = f.as_object().if_contains("id"); fid && as_ll(*fid) == id)
                            return std::string(f.as_object().at("name").as_string());
        return "field " + std::to_string(id);
    };
    for (const auto& sp : specs->as_array()) {
        const auto& spec = sp.as_object();
        const auto* id = spec.if_contains("spec-id");
        if (!id || as_ll(*id) != as_ll(*current)) continue;
        if (const auto* fields = spec.if_contains("fields"); fields && fields->is_array())
            for (const auto& f : fields->as_array()) {
                const auto& o = f.as_object();
                const auto* transform = o.if_contains("transform");
                const auto* source = o.if_contains("source-id");
                out.push_back((transform && transform->is_string() ? std::string(transform->as_string()) : "?") + "(" +
                              (source ? column(as_ll(*source)) : "?") + ")");
            }
    }
    return out;
}
}  // namespace

std::string iceberg_snapshot::summary_text(const std::string& key) const {
    auto it = summary.find(key);
    return it == summary.end() ? std::string{} : it->second;
}

long long iceberg_snapshot::summary_int(const std::string& key, long long fallback) const {
    auto it = summary.find(key);
    if (it == summary.end()) return fallback;
    try {
        return std::stoll(it->second);
    } catch (...) {
        return fallback;
    }
}

check::snapshot_entry replay_entry_of(const iceberg_snapshot& s) {
    return {s.snapshot_id,       s.summary_text("operation"),       s.summary_text("flink.job-id"),
            s.flink_watermark(), s.summary_int("added-records", 0), {},
            s.timestamp_ms};
}

std::optional<iceberg_snapshot> iceberg_table_state::current() const {
    for (const auto& s : snapshots)
        if (s.snapshot_id == current_snapshot_id) return s;
    return std::nullopt;
}

iceberg_table_state iceberg_catalog::load(const std::string& ns, const std::string& table) const {
    auto res = http_call(where_, http_method::get, "/v1/namespaces/" + ns + "/tables/" + table);
    iceberg_table_state out;
    if (res.status == 404) return out;
    if (res.status != 200)
        throw live_error(where_, "load table " + ns + "." + table + " returned HTTP " + std::to_string(res.status) +
                                     ": " + res.body.substr(0, 500));
    auto doc = json::parse(res.body).as_object();
    const auto& md = doc.at("metadata").as_object();
    out.exists = true;
    if (auto* loc = md.if_contains("location"); loc && loc->is_string()) out.location = std::string(loc->as_string());
    if (auto* props = md.if_contains("properties"); props && props->is_object())
        for (const auto& [k, v] : props->as_object())
            out.properties[std::string(k)] = v.is_string() ? std::string(v.as_string()) : json::serialize(v);
    if (auto* cur = md.if_contains("current-snapshot-id"); cur && !cur->is_null())
        out.current_snapshot_id = as_ll(*cur);
    if (auto* v = md.if_contains("format-version")) out.format_version = as_ll(*v);
    out.identifier_fields = identifier_fields_of(md);
    out.partition_fields = partition_fields_of(md);
    if (auto* snaps = md.if_contains("snapshots"); snaps && snaps->is_array()) {
        for (const auto& s : snaps->as_array()) {
            const auto& o = s.as_object();
            iceberg_snapshot snap;
            snap.snapshot_id = as_ll(o.at("snapshot-id"));
            if (auto* p = o.if_contains("parent-snapshot-id"); p && !p->is_null()) snap.parent_id = as_ll(*p);
            if (auto* q = o.if_contains("sequence-number"); q) snap.sequence_number = as_ll(*q);
            snap.timestamp_ms = as_ll(o.at("timestamp-ms"));
            if (auto* sum = o.if_contains("summary"); sum && sum->is_object())
                for (const auto& [k, v] : sum->as_object())
                    snap.summary[std::string(k)] = v.is_string() ? std::string(v.as_string()) : json::serialize(v);
            out.snapshots.push_back(std::move(snap));
        }
    }
    return out;
}

void iceberg_catalog::drop_table(const std::string& ns, const std::string& table, bool purge) const {
    auto res = http_call(where_, http_method::del,
                         "/v1/namespaces/" + ns + "/tables/" + table + (purge ? "?purgeRequested=true" : ""));
    if (res.status >= 300 && res.status != 404)
        throw live_error(where_, "drop table " + ns + "." + table + " returned HTTP " + std::to_string(res.status));
}

void iceberg_catalog::create_namespace(const std::string& ns) const {
    json::value body = {{"namespace", json::array{json::string(ns)}}, {"properties", json::object{}}};
    auto res = http_call(where_, http_method::post, "/v1/namespaces", json::serialize(body));
    if (res.status >= 300 && res.status != 409)
        throw live_error(where_, "create namespace " + ns + " returned HTTP " + std::to_string(res.status) + ": " +
                                     res.body.substr(0, 300));
}

void iceberg_catalog::create_probe_table(const std::string& ns, const std::string& table,
                                         const std::string& location) const {
    json::value body = {{"name", table},
                        {"location", location},
                        {"schema",
                         {{"type", "struct"},
                          {"schema-id", 0},
                          {"fields", json::array{{{"id", 1}, {"name", "x"}, {"required", false}, {"type", "long"}}}}}}};
    auto res = http_call(where_, http_method::post, "/v1/namespaces/" + ns + "/tables", json::serialize(body));
    if (res.status >= 300)
        throw live_error(where_, "create table " + ns + "." + table + " returned HTTP " + std::to_string(res.status) +
                                     ": " + res.body.substr(0, 300));
}

std::vector<std::string> iceberg_catalog::list_tables(const std::string& ns) const {
    std::vector<std::string> out;
    std::string page;
    do {  // the catalog may page its answer
        auto res = http_call(where_, http_method::get,
                             "/v1/namespaces/" + ns + "/tables" + (page.empty() ? "" : "?pageToken=" + page));
        if (res.status == 404) return out;
        if (res.status >= 300)
            throw live_error(where_, "list tables of " + ns + " returned HTTP " + std::to_string(res.status));
        const auto body = json::parse(res.body);
        for (const auto& id : body.at("identifiers").as_array()) out.emplace_back(id.at("name").as_string());
        page.clear();
        if (const auto* next = body.as_object().if_contains("next-page-token"); next && next->is_string())
            page = std::string(next->as_string());
    } while (!page.empty());
    return out;
}

}  // namespace rosterrig::live
