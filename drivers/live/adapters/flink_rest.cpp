#include "adapters/flink_rest.hpp"

#include <algorithm>
#include <set>
#include <thread>
#include "adapters/http_client.hpp"

namespace rosterrig::live {

namespace json = boost::json;

namespace {
long long int_of(const json::value& v) {
    if (v.is_int64()) return v.as_int64();
    if (v.is_uint64()) return static_cast<long long>(v.as_uint64());
    if (v.is_double()) return static_cast<long long>(v.as_double());
    if (v.is_string()) return std::stoll(std::string(v.as_string()));
    return 0;
}
long long int_at(const json::object& o, const char* key, long long fallback = 0) {
    auto* v = o.if_contains(key);
    return (v && !v->is_null()) ? int_of(*v) : fallback;
}
std::string str_at(const json::object& o, const char* key) {
    auto* v = o.if_contains(key);
    return (v && v->is_string()) ? std::string(v->as_string()) : std::string{};
}
}  // namespace

std::string flink_rest::version() const {
    auto c = http_json(where_, http_method::get, "/config");
    return str_at(c.as_object(), "flink-version");
}

std::vector<std::pair<std::string, std::string>> flink_rest::jobs() const {
    auto j = http_json(where_, http_method::get, "/jobs");
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : j.at("jobs").as_array())
        out.emplace_back(str_at(e.as_object(), "id"), str_at(e.as_object(), "status"));
    return out;
}

std::string flink_rest::job_state(const std::string& id) const {
    return str_at(http_json(where_, http_method::get, "/jobs/" + id).as_object(), "state");
}

long long flink_rest::last_restarting_ms(const std::string& id) const {
    auto j = http_json(where_, http_method::get, "/jobs/" + id).as_object();
    return int_at(j.at("timestamps").as_object(), "RESTARTING");
}

std::string flink_rest::job_name(const std::string& id) const {
    return str_at(http_json(where_, http_method::get, "/jobs/" + id).as_object(), "name");
}

long long flink_rest::restarts(const std::string& id, int attempts) const {
    // The REST server answers from its metric fetcher's cache, which knows a
    // job only after its next fetch (every second here, see
    // compose/flink/component.sh): ask again for a few seconds before saying
    // "not reported" (-1).
    for (int attempt = 0; attempt < attempts; ++attempt) {
        if (attempt > 0) std::this_thread::sleep_for(std::chrono::seconds(1));
        auto m = http_json(where_, http_method::get, "/jobs/" + id + "/metrics?get=numRestarts");
        for (const auto& e : m.as_array())
            if (str_at(e.as_object(), "id") == "numRestarts") return int_of(e.at("value"));
    }
    return -1;
}

flink_checkpoint_counts flink_rest::checkpoints(const std::string& id) const {
    auto c = http_json(where_, http_method::get, "/jobs/" + id + "/checkpoints").as_object();
    flink_checkpoint_counts out;
    const auto& counts = c.at("counts").as_object();
    out.completed = int_at(counts, "completed");
    out.failed = int_at(counts, "failed");
    out.in_progress = int_at(counts, "in_progress");
    out.restored = int_at(counts, "restored");
    if (auto* latest = c.if_contains("latest"); latest && latest->is_object()) {
        if (auto* done = latest->as_object().if_contains("completed"); done && done->is_object()) {
            out.latest_completed_id = int_at(done->as_object(), "id", -1);
            out.latest_completed_at_ms = int_at(done->as_object(), "latest_ack_timestamp");
        }
        if (auto* sp = latest->as_object().if_contains("savepoint"); sp && sp->is_object())
            out.latest_savepoint_id = int_at(sp->as_object(), "id", -1);
        if (auto* r = latest->as_object().if_contains("restored"); r && r->is_object()) {
            out.latest_restored_id = int_at(r->as_object(), "id", -1);
            out.latest_restored_at_ms = int_at(r->as_object(), "restore_timestamp");
            auto* sp = r->as_object().if_contains("is_savepoint");
            out.latest_restored_is_savepoint = sp && sp->is_bool() && sp->as_bool();
        }
    }
    return out;
}

flink_checkpoint_config flink_rest::checkpoint_config(const std::string& id) const {
    auto c = http_json(where_, http_method::get, "/jobs/" + id + "/checkpoints/config").as_object();
    flink_checkpoint_config out;
    out.mode = str_at(c, "mode");
    out.interval_ms = int_at(c, "interval");
    out.timeout_ms = int_at(c, "timeout");
    if (auto* ext = c.if_contains("externalization"); ext && ext->is_object()) {
        auto* on = ext->as_object().if_contains("enabled");
        auto* del = ext->as_object().if_contains("delete_on_cancellation");
        out.externalization =
            (on && on->is_bool() && on->as_bool())
                ? ((del && del->is_bool() && del->as_bool()) ? "delete_on_cancellation" : "retain_on_cancellation")
                : "disabled";
    }
    if (auto* u = c.if_contains("unaligned_checkpoints"); u && u->is_bool()) out.unaligned = u->as_bool();
    out.aligned_checkpoint_timeout_ms = int_at(c, "aligned_checkpoint_timeout");
    out.tolerable_failed_checkpoints = int_at(c, "tolerable_failed_checkpoints", -1);
    return out;
}

std::pair<std::string, std::vector<std::pair<std::string, std::string>>> flink_rest::jobmanager_config(
    const std::string& id) const {
    std::string path = "/jobs/" + id + "/jobmanager/config";
    auto res = http_call(where_, http_method::get, path);
    if (res.status == 404) path = "/jobmanager/config", res = http_call(where_, http_method::get, path);
    if (res.status != 200)
        throw live_error(
            where_, "GET " + path + " returned HTTP " + std::to_string(res.status) + ": " + res.body.substr(0, 300));
    std::vector<std::pair<std::string, std::string>> out;
    try {
        const auto entries = json::parse(res.body);  // kept: the loop walks into it
        for (const auto& e : entries.as_array())
            out.emplace_back(str_at(e.as_object(), "key"), str_at(e.as_object(), "value"));
    } catch (const std::exception& e) {
        throw live_error(where_, "GET " + path + ": not a list of {key, value}: " + e.what());
    }
    return {path, out};
}

std::vector<flink_exception> flink_rest::exceptions(const std::string& id) const {
    auto e = http_json(where_, http_method::get, "/jobs/" + id + "/exceptions?maxExceptions=1000").as_object();
    std::vector<flink_exception> out;
    if (auto* hist = e.if_contains("exceptionHistory"); hist && hist->is_object()) {
        for (const auto& entry : hist->as_object().at("entries").as_array()) {
            const auto& o = entry.as_object();
            const auto trace = str_at(o, "stacktrace");
            out.push_back({str_at(o, "exceptionName"), str_at(o, "taskName"), int_at(o, "timestamp"),
                           trace.substr(0, std::min(trace.find('\n'), std::size_t{400}))});
        }
    }
    return out;
}

std::vector<experiment::plan_edge> flink_rest::plan_edges(const std::string& id) const {
    auto p = http_json(where_, http_method::get, "/jobs/" + id + "/plan").as_object();
    const auto& nodes = p.at("plan").at("nodes").as_array();
    auto node = [&](const std::string& node_id) -> const json::object* {
        for (const auto& n : nodes)
            if (str_at(n.as_object(), "id") == node_id) return &n.as_object();
        return nullptr;
    };
    std::vector<experiment::plan_edge> out;
    for (const auto& n : nodes) {
        const auto& o = n.as_object();
        auto* inputs = o.if_contains("inputs");
        if (!inputs || !inputs->is_array() || inputs->as_array().empty()) {
            // A vertex fed by nothing upstream: its first operator is a source,
            // and whatever is chained after it gets records without an exchange.
            out.push_back(
                {"", str_at(o, "description"), "NONE (source vertex)", std::nullopt, int_at(o, "parallelism")});
        } else {
            for (const auto& in : inputs->as_array()) {
                const auto& io = in.as_object();
                const auto* from = node(str_at(io, "id"));
                out.push_back({from ? str_at(*from, "description") : str_at(io, "id"), str_at(o, "description"),
                               str_at(io, "ship_strategy"),
                               from ? std::optional<std::int64_t>(int_at(*from, "parallelism")) : std::nullopt,
                               int_at(o, "parallelism")});
            }
        }
    }
    return out;
}

std::string flink_rest::writer_vertex(const std::string& id) const {
    const auto p = http_json(where_, http_method::get, "/jobs/" + id + "/plan");  // kept: the loop walks into it
    for (const auto& n : p.at("plan").at("nodes").as_array())
        if (experiment::holds_writer(str_at(n.as_object(), "description"))) return str_at(n.as_object(), "id");
    return {};
}

std::string flink_rest::source_vertex(const std::string& id) const {
    const auto p = http_json(where_, http_method::get, "/jobs/" + id + "/plan");  // kept: the loop walks into it
    for (const auto& n : p.at("plan").at("nodes").as_array()) {
        const auto* inputs = n.as_object().if_contains("inputs");
        if (!inputs || !inputs->is_array() || inputs->as_array().empty()) return str_at(n.as_object(), "id");
    }
    return {};
}

std::optional<double> flink_rest::max_subtask_metric(const std::string& id, const std::string& vertex_id,
                                                     const std::string& metric) const {
    const auto m = http_json(where_, http_method::get,
                             "/jobs/" + id + "/vertices/" + vertex_id + "/subtasks/metrics?get=" + metric + "&agg=max");
    for (const auto& e : m.as_array()) {
        const auto& o = e.as_object();
        const auto* v = o.if_contains("max");
        if (str_at(o, "id") == metric && v && v->is_number()) return v->to_number<double>();
    }
    return std::nullopt;
}

std::vector<experiment::checkpoint_stat> flink_rest::checkpoint_stats(const std::string& id,
                                                                      const std::string& writer_vertex,
                                                                      const std::vector<std::int64_t>& known) const {
    const auto c = http_json(where_, http_method::get, "/jobs/" + id + "/checkpoints");  // kept: the loop walks into it
    std::vector<experiment::checkpoint_stat> out;
    const auto* history = c.as_object().if_contains("history");
    if (!history || !history->is_array()) return out;
    for (const auto& h : history->as_array()) {
        const auto& o = h.as_object();
        experiment::checkpoint_stat x;
        x.id = int_at(o, "id", -1);
        x.status = str_at(o, "status");
        if (auto* sp = o.if_contains("is_savepoint"); sp && sp->is_bool() && sp->as_bool()) continue;
        if (x.status != "COMPLETED" || std::find(known.begin(), known.end(), x.id) != known.end()) continue;
        x.trigger_ms = int_at(o, "trigger_timestamp");
        x.end_to_end_ms = int_at(o, "end_to_end_duration");
        x.checkpointed_bytes = int_at(o, "checkpointed_size");
        if (!writer_vertex.empty()) {
            const auto path =
                "/jobs/" + id + "/checkpoints/details/" + std::to_string(x.id) + "/subtasks/" + writer_vertex;
            const auto res = http_call(where_, http_method::get, path);
            if (res.status == 200) {                   // 404: the checkpoint left Flink's history between the two calls
                const auto d = json::parse(res.body);  // kept: the loop walks into it
                for (const auto& st : d.at("subtasks").as_array()) {
                    const auto& so = st.as_object();
                    ++x.writer_subtasks;
                    x.writer_start_delay_max_ms =
                        std::max<std::int64_t>(x.writer_start_delay_max_ms, int_at(so, "start_delay"));
                    if (auto* u = so.if_contains("unaligned_checkpoint"); u && u->is_bool() && u->as_bool())
                        x.writer_unaligned = true;
                    if (auto* a = so.if_contains("alignment"); a && a->is_object()) {
                        const auto& ao = a->as_object();
                        x.writer_alignment_max_ms =
                            std::max<std::int64_t>(x.writer_alignment_max_ms, int_at(ao, "duration"));
                        x.writer_processed_bytes += int_at(ao, "processed");
                        x.writer_persisted_bytes += int_at(ao, "persisted");
                    }
                }
            }
        }
        out.push_back(x);
    }
    return out;
}

std::vector<experiment::checkpoint_outcome> flink_rest::checkpoint_outcomes(const std::string& id) const {
    const auto c = http_json(where_, http_method::get, "/jobs/" + id + "/checkpoints");  // kept: the loop walks into it
    std::vector<experiment::checkpoint_outcome> out;
    const auto* history = c.as_object().if_contains("history");
    if (!history || !history->is_array()) return out;
    for (const auto& h : history->as_array()) {
        const auto& o = h.as_object();
        if (auto* sp = o.if_contains("is_savepoint"); sp && sp->is_bool() && sp->as_bool()) continue;
        experiment::checkpoint_outcome x;
        x.id = int_at(o, "id", -1);
        x.status = str_at(o, "status");
        if (x.status != "COMPLETED" && x.status != "FAILED") continue;
        x.trigger_ms = int_at(o, "trigger_timestamp");
        x.end_to_end_ms = int_at(o, "end_to_end_duration");
        if (auto* m = o.if_contains("failure_message"); m && m->is_string())
            x.failure_message = std::string(m->as_string());
        out.push_back(x);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return out;
}

long long flink_rest::total_slots() const {
    return int_at(http_json(where_, http_method::get, "/overview").as_object(), "slots-total");
}

long long flink_rest::free_slots() const {
    return int_at(http_json(where_, http_method::get, "/overview").as_object(), "slots-available");
}

std::string flink_rest::newest_exception(const std::string& job_id) const {
    const auto ex = exceptions(job_id);
    if (ex.empty()) return "";
    const auto newest = std::max_element(ex.begin(), ex.end(),
                                         [](const auto& a, const auto& b) { return a.timestamp_ms < b.timestamp_ms; });
    return newest->first_line.empty() ? newest->name : newest->first_line;
}

std::pair<long long, std::string> flink_rest::writer_parallelism(const std::string& id) const {
    auto p = http_json(where_, http_method::get, "/jobs/" + id + "/plan").as_object();
    for (const auto& n : p.at("plan").at("nodes").as_array()) {
        const auto& o = n.as_object();
        const auto d = str_at(o, "description");
        if (d.find("Writer") != std::string::npos && d.find("Committer") == std::string::npos)
            return {int_at(o, "parallelism"), d};
    }
    return {-1, ""};
}

bool flink_rest::all_tasks_running(const std::string& id) const {
    auto j = http_json(where_, http_method::get, "/jobs/" + id).as_object();
    if (str_at(j, "state") != "RUNNING") return false;
    const auto& vertices = j.at("vertices").as_array();
    if (vertices.empty()) return false;
    for (const auto& v : vertices)
        if (str_at(v.as_object(), "status") != "RUNNING") return false;
    return true;
}

std::pair<long long, long long> flink_rest::deploying_and_running_ms(const std::string& id) const {
    long long deploying = 0, running = 0;
    const auto job = http_json(where_, http_method::get, "/jobs/" + id);  // kept: the loop walks into it
    for (const auto& v : job.as_object().at("vertices").as_array()) {
        const auto vid = str_at(v.as_object(), "id");
        const auto times = http_json(where_, http_method::get, "/jobs/" + id + "/vertices/" + vid + "/subtasktimes");
        for (const auto& st : times.as_object().at("subtasks").as_array()) {
            const auto& ts = st.as_object().at("timestamps").as_object();
            const long long d = int_at(ts, "DEPLOYING"), r = int_at(ts, "RUNNING");
            if (d > 0) deploying = deploying == 0 ? d : std::min(deploying, d);
            running = std::max(running, r);
        }
    }
    return {deploying, running};
}

std::vector<std::string> flink_rest::taskmanager_ids() const {
    std::vector<std::string> out;
    for (const auto& tm : taskmanagers()) out.push_back(tm.id);
    return out;
}

std::vector<flink_rest::taskmanager_entry> flink_rest::taskmanagers() const {
    std::vector<taskmanager_entry> out;
    const auto tms = http_json(where_, http_method::get, "/taskmanagers");  // kept: the loop walks into it
    for (const auto& tm : tms.as_object().at("taskmanagers").as_array()) {
        const auto& o = tm.as_object();
        taskmanager_entry e{str_at(o, "id"), "", 0, static_cast<int>(int_at(o, "dataPort"))};
        const auto path = str_at(o, "path");
        const auto at = path.find('@'), slash = path.find('/', at == std::string::npos ? 0 : at);
        const auto hostport = at == std::string::npos ? std::string() : path.substr(at + 1, slash - at - 1);
        if (const auto colon = hostport.rfind(':'); colon != std::string::npos) {
            e.host = hostport.substr(0, colon);
            e.rpc_port = std::atoi(hostport.c_str() + colon + 1);
        }
        out.push_back(e);
    }
    return out;
}

std::vector<int> flink_rest::job_taskmanager_data_ports(const std::string& job_id) const {
    std::set<int> ports;
    const auto job = http_json(where_, http_method::get, "/jobs/" + job_id);  // kept: the loop walks into it
    for (const auto& v : job.as_object().at("vertices").as_array()) {
        const auto tms = http_json(where_, http_method::get,
                                   "/jobs/" + job_id + "/vertices/" + str_at(v.as_object(), "id") + "/taskmanagers");
        for (const auto& tm : tms.as_object().at("taskmanagers").as_array()) {
            const auto endpoint = str_at(tm.as_object(), "endpoint");
            const auto colon = endpoint.rfind(':');
            if (colon != std::string::npos) ports.insert(std::stoi(endpoint.substr(colon + 1)));
        }
    }
    return {ports.begin(), ports.end()};
}

int flink_rest::registered_taskmanagers() const {
    return static_cast<int>(int_at(http_json(where_, http_method::get, "/overview").as_object(), "taskmanagers"));
}

std::string flink_rest::await_savepoint(const std::string& id, const std::string& trigger,
                                        std::chrono::seconds deadline) const {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < give_up) {
        auto s = http_json(where_, http_method::get, "/jobs/" + id + "/savepoints/" + trigger).as_object();
        if (str_at(s.at("status").as_object(), "id") == "COMPLETED") {
            const auto& op = s.at("operation").as_object();
            if (auto* loc = op.if_contains("location"); loc && loc->is_string()) return std::string(loc->as_string());
            throw live_error(where_, "savepoint of job " + id + " failed: " + json::serialize(op).substr(0, 1500));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    throw live_error(where_,
                     "savepoint of job " + id + " did not complete within " + std::to_string(deadline.count()) + " s");
}

std::string flink_rest::stop_with_savepoint(const std::string& id, const std::string& dir,
                                            std::chrono::seconds deadline) const {
    json::value body = {{"targetDirectory", dir}, {"drain", false}};
    auto r = http_json(where_, http_method::post, "/jobs/" + id + "/stop", &body);
    return await_savepoint(id, std::string(r.at("request-id").as_string()), deadline);
}

std::string flink_rest::savepoint(const std::string& id, const std::string& dir, std::chrono::seconds deadline) const {
    json::value body = {{"target-directory", dir}, {"cancel-job", false}};
    auto r = http_json(where_, http_method::post, "/jobs/" + id + "/savepoints", &body);
    return await_savepoint(id, std::string(r.at("request-id").as_string()), deadline);
}

long long flink_rest::checkpoint_id_of(const std::string& id, const std::string& external_path) const {
    auto c = http_json(where_, http_method::get, "/jobs/" + id + "/checkpoints").as_object();
    // Flink may print the path as file:/x or file:///x; compare from the first '/'.
    auto tail = [](const std::string& p) {
        auto at = p.find('/');
        return at == std::string::npos ? p : p.substr(p.find_first_not_of('/', at));
    };
    if (auto* h = c.if_contains("history"); h && h->is_array())
        for (const auto& e : h->as_array()) {
            const auto& o = e.as_object();
            if (tail(str_at(o, "external_path")) == tail(external_path)) return int_at(o, "id", -1);
        }
    return -1;
}

void flink_rest::cancel(const std::string& id) const {
    auto r = http_call(where_, http_method::patch, "/jobs/" + id + "?mode=cancel");
    if (r.status >= 300 && r.status != 404)
        throw live_error(where_, "cancel of job " + id + " returned HTTP " + std::to_string(r.status));
}

std::string flink_rest::wait_for_state(const std::string& id, const std::vector<std::string>& states,
                                       std::chrono::seconds deadline) const {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    std::string s;
    while (std::chrono::steady_clock::now() < give_up) {
        s = job_state(id);
        for (const auto& want : states)
            if (s == want) return s;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    throw live_error(where_, "job " + id + " still " + s + " after " + std::to_string(deadline.count()) + " s");
}

}  // namespace rosterrig::live
