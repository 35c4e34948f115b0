#include "runner/preflight.hpp"

#include "adapters/flink_rest.hpp"
#include "adapters/kafka_transactions.hpp"

namespace rosterrig::live {

experiment::preflight_facts read_preflight_facts(const stack_config& stack,
                                                 const experiment::stack_facts_wanted& wanted) {
    experiment::preflight_facts facts;
    if (wanted.task_slots) facts.task_slots = flink_rest(stack.flink()).total_slots();
    // A Kafka-writing experiment asks the broker the longest transaction it allows.
    if (wanted.broker_transaction_max_timeout_ms)
        facts.broker_transaction_max_timeout_ms = broker_setting(stack, "transaction.max.timeout.ms");
    return facts;
}

}  // namespace rosterrig::live
