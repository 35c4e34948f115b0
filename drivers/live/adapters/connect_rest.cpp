#include "adapters/connect_rest.hpp"

#include <boost/json.hpp>

#include "adapters/http_client.hpp"
#include "adapters/poll.hpp"

namespace rosterrig::live {

namespace json = boost::json;

namespace {
constexpr auto deadline = std::chrono::seconds(20);  // the worker forwards to its leader; a rebalance can hold a call

std::string text_of(const json::value& v) {
    if (v.is_string()) return std::string(v.as_string());
    return json::serialize(v);
}

// The worker's error body is {"error_code": N, "message": "..."}.
std::string message_of(const http_response& r) {
    try {
        const auto v = json::parse(r.body);
        if (const auto* m = v.as_object().if_contains("message")) return text_of(*m);
    } catch (const std::exception&) {
    }
    return r.body.substr(0, 2000);
}

json::value parsed(const component_address& w, const http_response& r, const std::string& what) {
    if (r.status < 200 || r.status >= 300)
        throw live_error(w, what + ": HTTP " + std::to_string(r.status) + ": " + message_of(r));
    try {
        return r.body.empty() ? json::value() : json::parse(r.body);
    } catch (const std::exception& e) {
        throw live_error(w, what + ": the answer is not JSON: " + r.body.substr(0, 200));
    }
}

std::string path_of(const std::string& name) { return "/connectors/" + name; }
}  // namespace

std::string connect_rest::version() const {
    const auto v = parsed(where_, http_call(where_, http_method::get, "/", {}, "application/json", deadline), "GET /");
    const auto& o = v.as_object();
    std::string out = o.contains("version") ? text_of(o.at("version")) : "unknown";
    if (o.contains("commit")) out += " (commit " + text_of(o.at("commit")) + ")";
    return out;
}

bool connect_rest::healthy() const {
    try {
        return http_call(where_, http_method::get, "/health", {}, "application/json", std::chrono::seconds(2)).status ==
               200;
    } catch (const std::exception&) {
        return false;
    }
}

bool connect_rest::answers() const {
    try {
        return http_call(where_, http_method::get, "/", {}, "application/json", std::chrono::seconds(2)).status == 200;
    } catch (const std::exception&) {
        return false;
    }
}

std::vector<std::string> connect_rest::plugins() const {
    const auto v =
        parsed(where_, http_call(where_, http_method::get, "/connector-plugins", {}, "application/json", deadline),
               "GET /connector-plugins");
    std::vector<std::string> out;
    for (const auto& p : v.as_array()) out.push_back(text_of(p.as_object().at("class")));
    return out;
}

void connect_rest::put_config(const std::string& name, const std::map<std::string, std::string>& config) const {
    json::object body;
    for (const auto& [k, v] : config) body[k] = v;
    const auto r = http_call(where_, http_method::put, path_of(name) + "/config", json::serialize(body),
                             "application/json", deadline);
    if (r.status >= 400 && r.status < 500)
        throw connect_rejected(where_, "the worker refused connector " + name + "'s config: " + message_of(r));
    parsed(where_, r, "PUT " + path_of(name) + "/config");
}

std::map<std::string, std::string> connect_rest::config(const std::string& name) const {
    const auto v =
        parsed(where_, http_call(where_, http_method::get, path_of(name) + "/config", {}, "application/json", deadline),
               "GET " + path_of(name) + "/config");
    std::map<std::string, std::string> out;
    for (const auto& [k, x] : v.as_object()) out[std::string(k)] = text_of(x);
    return out;
}

std::optional<connector_status> connect_rest::status(const std::string& name) const {
    const auto r = http_call(where_, http_method::get, path_of(name) + "/status", {}, "application/json", deadline);
    if (r.status == 404) return std::nullopt;
    const auto v = parsed(where_, r, "GET " + path_of(name) + "/status");
    const auto& o = v.as_object();
    connector_status s;
    const auto& c = o.at("connector").as_object();
    s.state = text_of(c.at("state"));
    if (const auto* t = c.if_contains("trace")) s.trace = text_of(*t);
    std::vector<std::pair<long long, std::string>> tasks;
    for (const auto& t : o.at("tasks").as_array()) {
        const auto& to = t.as_object();
        tasks.emplace_back(to.at("id").to_number<long long>(), text_of(to.at("state")));
        if (s.trace.empty())
            if (const auto* tr = to.if_contains("trace")) s.trace = text_of(*tr);
    }
    std::sort(tasks.begin(), tasks.end());
    for (auto& [id, state] : tasks) s.task_states.push_back(state);
    return s;
}

void connect_rest::pause(const std::string& name) const {
    parsed(where_, http_call(where_, http_method::put, path_of(name) + "/pause", {}, "application/json", deadline),
           "PUT pause");
}

void connect_rest::resume(const std::string& name) const {
    parsed(where_, http_call(where_, http_method::put, path_of(name) + "/resume", {}, "application/json", deadline),
           "PUT resume");
}

void connect_rest::restart(const std::string& name) const {
    const auto r = http_call(where_, http_method::post, path_of(name) + "/restart?includeTasks=true&onlyFailed=false",
                             {}, "application/json", deadline);
    if (r.status == 202 || r.status == 204) return;  // accepted: the restart runs on; no body to parse on 204
    parsed(where_, r, "POST restart");
}

void connect_rest::restart_task(const std::string& name, int task) const {
    const auto path = path_of(name) + "/tasks/" + std::to_string(task) + "/restart";
    const auto r = http_call(where_, http_method::post, path, {}, "application/json", deadline);
    if (r.status == 202 || r.status == 204) return;
    parsed(where_, r, "POST " + path);
}

bool connect_rest::remove(const std::string& name) const {
    const auto r = http_call(where_, http_method::del, path_of(name), {}, "application/json", deadline);
    if (r.status == 404) return false;
    parsed(where_, r, "DELETE " + path_of(name));
    return true;
}

connector_status connect_rest::wait_running(const std::string& name, std::chrono::seconds limit) const {
    std::optional<connector_status> last;
    return poll_until(
        where_, limit,
        [&]() -> std::optional<connector_status> {
            try {
                last = status(name);
            } catch (const live_error&) {
                return std::nullopt;  // the worker is restarting or rebalancing: ask again
            }
            if (!last) return std::nullopt;
            for (const auto& t : last->task_states)
                if (t == "FAILED")
                    throw live_error(where_, "connector " + name + ": a task FAILED: " + last->trace.substr(0, 3000));
            if (last->state == "FAILED")
                throw live_error(where_, "connector " + name + " FAILED: " + last->trace.substr(0, 3000));
            if (last->all_running()) return last;
            return std::nullopt;
        },
        [&] {
            std::string tasks;
            if (last)
                for (const auto& t : last->task_states) tasks += (tasks.empty() ? "" : ",") + t;
            return "connector " + name +
                   " and its tasks RUNNING (last: " + (last ? last->state + " [" + tasks + "]" : "unknown") + ")";
        },
        {std::chrono::milliseconds(250), std::chrono::seconds(15)});
}

std::int64_t connect_rest::running_tasks_within(const std::string& name, std::int64_t want,
                                                long long deadline_ms) const {
    std::int64_t running = 0;
    elapsed_until(now_ms(), deadline_ms, [&] {
        const auto st = status(name);
        return (running = st ? st->running_tasks() : 0) >= want;
    });
    return running;
}

}  // namespace rosterrig::live
