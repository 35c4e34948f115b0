#include "adapters/kafka_transactions.hpp"

#include <librdkafka/rdkafkacpp.h>

#include <map>
#include <memory>
#include <sstream>

#include "runner/progress.hpp"
#include "adapters/stack_versions.hpp"

namespace rosterrig::live {

namespace {

// Runs a Kafka tool class on the stack's jars (compose/kafka/component.sh's
// kafka_tool), with a deadline; returns its standard output.
// The bootstrap server goes before the tool's subcommand (TransactionsCommand
// takes no options after `list`).
std::string kafka_tool(const stack_config& stack, const std::string& tool, const std::string& args) {
    const std::string c = stack.compose_dir;
    return run_command("timeout 90 bash -c '. \"" + c + "/lib.sh\" && . \"" + c +
                       "/kafka/component.sh\" && kafka_tool " + tool + " --bootstrap-server " +
                       stack.kafka_bootstrap() + " " + args + "' 2>/dev/null");
}

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, sep)) {
        // the tools pad each cell with spaces to align the columns
        const auto from = cell.find_first_not_of(' '), to = cell.find_last_not_of(' ');
        out.push_back(from == std::string::npos ? std::string() : cell.substr(from, to - from + 1));
    }
    return out;
}

// A tab-separated table with a header line, as rows of header -> cell.
std::vector<std::map<std::string, std::string>> tab_table(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        auto cells = split(line, '\t');
        if (cells.empty()) continue;
        if (header.empty()) {
            header = cells;
            continue;
        }
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < cells.size() && i < header.size(); ++i) row[header[i]] = cells[i];
        rows.push_back(row);
    }
    if (header.empty())
        throw live_error("Kafka's TransactionsCommand printed nothing (is the broker up? read .stack/logs/kafka.log)");
    return rows;
}

long long number_or(const std::map<std::string, std::string>& row, const std::string& key, long long fallback) {
    auto it = row.find(key);
    if (it == row.end()) return fallback;
    try {
        return std::stoll(it->second);
    } catch (const std::exception&) {
        return fallback;
    }
}

}  // namespace

std::vector<transaction_info> list_transactions(const stack_config& stack, const std::string& prefix) {
    std::vector<transaction_info> out;
    for (const auto& row : tab_table(kafka_tool(stack, "TransactionsCommand", "list"))) {
        auto id = row.find("TransactionalId");
        if (id == row.end() || id->second.rfind(prefix, 0) != 0) continue;
        out.push_back({id->second, row.count("TransactionState") ? row.at("TransactionState") : "", -1, -1});
    }
    return out;
}

transaction_info describe_transaction(const stack_config& stack, const std::string& id) {
    const auto rows = tab_table(kafka_tool(stack, "TransactionsCommand", "describe --transactional-id " + id));
    if (rows.empty()) throw live_error(stack.kafka(), "the broker does not describe transactional id " + id);
    const auto& r = rows.front();
    transaction_info t{id,
                       r.count("TransactionState") ? r.at("TransactionState") : "",
                       number_or(r, "TransactionTimeoutMs", -1),
                       number_or(r, "CurrentTransactionStartTimeMs", -1),
                       {}};
    if (auto it = r.find("TopicPartitions"); it != r.end())
        for (auto& tp : split(it->second, ','))
            if (!tp.empty() && tp != "None") t.topic_partitions.push_back(tp);
    return t;
}

long long broker_setting(const stack_config& stack, const std::string& name) {
    std::istringstream in(kafka_tool(stack, "ConfigCommand", "--describe --entity-type brokers --entity-name 1 --all"));
    std::string line;
    while (std::getline(in, line)) {
        const auto at = line.find(name + "=");
        if (at == std::string::npos || (at > 0 && line[at - 1] != ' ')) continue;
        try {
            return std::stoll(line.substr(at + name.size() + 1));
        } catch (const std::exception&) {
            break;
        }
    }
    throw live_error(stack.kafka(),
                     "the broker does not report " + name + " (ConfigCommand; read .stack/logs/kafka.log)");
}

std::optional<long long> broker_setting_if_read(const stack_config& stack, const std::string& name,
                                                const std::string& label) {
    try {
        return broker_setting(stack, name);
    } catch (const live_error& e) {
        progress(label + ": " + e.what());
    }
    return std::nullopt;
}

void abort_transactions(const component_address& broker, const std::vector<std::string>& ids) {
    for (const auto& id : ids) {
        std::string err;
        std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
        if (conf->set("bootstrap.servers", broker.where(), err) != RdKafka::Conf::CONF_OK ||
            conf->set("transactional.id", id, err) != RdKafka::Conf::CONF_OK ||
            conf->set("transaction.timeout.ms", "60000", err) != RdKafka::Conf::CONF_OK)
            throw live_error(broker, "producer config for " + id + ": " + err);
        for (const auto& [k, v] : broker.client)
            if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK)
                throw live_error(broker, "producer config " + k + ": " + err);
        std::unique_ptr<RdKafka::Producer> p(RdKafka::Producer::create(conf.get(), err));
        if (!p) throw live_error(broker, "cannot create a producer for " + id + ": " + err);
        std::unique_ptr<RdKafka::Error> e(p->init_transactions(30000));
        if (e) throw live_error(broker, "init_transactions as " + id + " (to abort what it left open): " + e->str());
    }
}

}  // namespace rosterrig::live
