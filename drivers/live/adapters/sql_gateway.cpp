#include "adapters/sql_gateway.hpp"

#include <sstream>
#include <thread>
#include "adapters/http_client.hpp"
#include "rosterrig/engine/flink_error.hpp"
#include "rosterrig/experiment/job_template.hpp"

namespace rosterrig::live {

namespace json = boost::json;

// The gateway's error bodies bury the real error under a Java trace.
using engine::flink_cause;

sql_gateway::~sql_gateway() {
    try {
        close();
    } catch (...) {
    }
}

void sql_gateway::open(const std::map<std::string, std::string>& properties) {
    json::object props;
    for (const auto& [k, v] : properties) props[k] = v;
    json::value body = {{"properties", props}, {"sessionName", "rosterrig"}};
    auto r = http_json(where_, http_method::post, "/v1/sessions", &body);
    session_ = std::string(r.at("sessionHandle").as_string());
}

sql_outcome sql_gateway::execute(const std::string& statement, std::chrono::seconds deadline) {
    if (session_.empty()) open();
    json::value body = {{"statement", statement}};
    auto posted =
        http_call(where_, http_method::post, "/v1/sessions/" + session_ + "/statements", json::serialize(body));
    if (posted.status != 200)
        throw live_error(
            where_, "statement rejected: " + flink_cause(posted.body) + "\n  statement: " + statement.substr(0, 400));
    const std::string op = std::string(json::parse(posted.body).at("operationHandle").as_string());
    std::string next = "/v2/sessions/" + session_ + "/operations/" + op + "/result/0?rowFormat=JSON";
    sql_outcome out;
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    while (!next.empty()) {
        if (std::chrono::steady_clock::now() > give_up)
            throw live_error(where_, "statement did not finish within " + std::to_string(deadline.count()) +
                                         " s: " + statement.substr(0, 400));
        auto r = http_call(where_, http_method::get, next);
        if (r.status != 200)
            throw live_error(where_,
                             "statement failed: " + flink_cause(r.body) + "\n  statement: " + statement.substr(0, 400));
        auto doc = json::parse(r.body).as_object();
        const std::string type = doc.contains("resultType") ? std::string(doc.at("resultType").as_string()) : "";
        if (auto* jid = doc.if_contains("jobID"); jid && jid->is_string()) out.job_id = std::string(jid->as_string());
        if (type == "PAYLOAD") {
            if (auto* results = doc.if_contains("results"); results && results->is_object()) {
                if (auto* data = results->as_object().if_contains("data"); data && data->is_array())
                    for (const auto& row : data->as_array()) {
                        const auto& fields = row.as_object().at("fields").as_array();
                        out.rows.push_back(fields);
                    }
            }
        }
        if (type == "EOS") break;
        auto* n = doc.if_contains("nextResultUri");
        next = (n && n->is_string()) ? std::string(n->as_string()) : std::string{};
        if (type == "NOT_READY") std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    // An INSERT's single row carries the job id too; prefer what the gateway said.
    if (out.job_id.empty() && out.rows.size() == 1 && out.rows[0].size() == 1 && out.rows[0][0].is_string()) {
        std::string s(out.rows[0][0].as_string());
        if (s.size() == 32) out.job_id = s;
    }
    return out;
}

std::vector<std::string> sql_gateway::execute_script(const std::string& script) {
    std::vector<std::string> jobs;
    for (const auto& stmt : split_sql_script(script)) {
        auto r = execute(stmt);
        if (!r.job_id.empty()) jobs.push_back(r.job_id);
    }
    return jobs;
}

void sql_gateway::close() {
    if (session_.empty()) return;
    std::string s = std::move(session_);
    session_.clear();
    http_call(where_, http_method::del, "/v1/sessions/" + s, {}, "application/json", std::chrono::seconds(5));
}

std::string sql_gateway::version() const {
    auto v = http_json(where_, http_method::get, "/v1/info");
    return std::string(v.at("version").as_string());  // {"productName": "Apache Flink", "version": ...}
}

std::vector<std::string> split_sql_script(const std::string& script) { return experiment::sql_statements(script); }

std::string fill_template(std::string text, const std::map<std::string, std::string>& values) {
    std::string out;
    std::size_t pos = 0;
    while (true) {
        auto open = text.find("${", pos);
        if (open == std::string::npos) break;
        auto close = text.find('}', open);
        if (close == std::string::npos)
            throw live_error("SQL template: unterminated ${ at offset " + std::to_string(open));
        std::string name = text.substr(open + 2, close - open - 2);
        auto it = values.find(name);
        if (it == values.end()) throw live_error("SQL template: no value for ${" + name + "}");
        out += text.substr(pos, open - pos) + it->second;
        pos = close + 1;
    }
    return out + text.substr(pos);
}

}  // namespace rosterrig::live
