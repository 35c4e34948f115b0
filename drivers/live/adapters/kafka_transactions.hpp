// What the broker says about transactions, asked through the Kafka
// distribution's own tools (the client library has no admin call for them):
// each transactional id's state and the timeout it registered, and the
// broker's transaction settings. Each call starts a JVM (about 2 s).
#ifndef ROSTERRIG_LIVE_KAFKA_TRANSACTIONS_HPP
#define ROSTERRIG_LIVE_KAFKA_TRANSACTIONS_HPP
#include <optional>
#include <string>
#include <vector>

#include "adapters/live_error.hpp"
#include "adapters/stack_config.hpp"

namespace rosterrig::live {

struct transaction_info {
    std::string id;
    std::string state;          // Empty, Ongoing, PrepareCommit, CompleteCommit, PrepareAbort, CompleteAbort ...
    long long timeout_ms = -1;  // TransactionTimeoutMs, from describe only
    long long start_ms = -1;    // CurrentTransactionStartTimeMs, from describe only (-1: none open)
    std::vector<std::string>
        topic_partitions;  // TopicPartitions, from describe only: <topic>-<partition> written in the open transaction
};

// Every transactional id the broker knows that starts with `prefix`, with its
// state (TransactionsCommand list).
std::vector<transaction_info> list_transactions(const stack_config& stack, const std::string& prefix);

// One id as the broker describes it, with the timeout it registered.
transaction_info describe_transaction(const stack_config& stack, const std::string& id);

// A broker setting as the broker reports it (ConfigCommand --describe --all).
long long broker_setting(const stack_config& stack, const std::string& name);
// broker_setting for a setting a run records but can do without: none, with a
// progress line under `label` saying why, when the broker's answer cannot be read.
std::optional<long long> broker_setting_if_read(const stack_config& stack, const std::string& name,
                                                const std::string& label);

// Ends whatever transaction each id left open: a producer initialised under
// the same id makes the broker abort its predecessor's transaction (and fence
// it). Used to leave no open transaction behind when a run ends.
void abort_transactions(const component_address& broker, const std::vector<std::string>& ids);

}  // namespace rosterrig::live

#endif
