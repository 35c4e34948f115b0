#include "roles/remove_resource.hpp"

#include <thread>

#include "adapters/connect_rest.hpp"
#include "adapters/flink_rest.hpp"
#include "adapters/iceberg_catalog.hpp"
#include "adapters/kafka_admin.hpp"
#include "adapters/kafka_transactions.hpp"
#include "roles/pipeline.hpp"
#include "runner/progress.hpp"
#include "adapters/table_store.hpp"

namespace rosterrig::live {

using experiment::resource_kind;

namespace {

std::string remove_job(const stack_config& stack, const std::string& id) {
    flink_rest flink(stack.flink());
    std::string state;
    for (const auto& [known, st] : flink.jobs())
        if (known == id) state = st;
    // Once the job has ended, not before: a running job still writes checkpoints.
    auto folders = [&] {
        return remove_job_folders(stack, id) > 0 ? ", its checkpoint and savepoint folders removed" : "";
    };
    if (state.empty()) return "job " + id + ": not known to Flink (gone)" + folders();
    if (state == "CANCELED" || state == "FINISHED" || state == "FAILED")
        return "job " + id + ": already " + state + folders();
    flink.cancel(id);
    flink.wait_for_state(id, {"CANCELED", "FAILED", "FINISHED"}, std::chrono::seconds(60));
    return "job " + id + ": cancelled (was " + state + ")" + folders();
}

std::string abort_open_transactions(const stack_config& stack, const std::string& prefix) {
    std::vector<std::string> open;
    for (const auto& t : list_transactions(stack, prefix))
        if (t.state == "Ongoing" || t.state == "PrepareCommit" || t.state == "PrepareAbort") open.push_back(t.id);
    abort_transactions(stack.kafka(), open);
    return "transactions of " + prefix + ": " + std::to_string(open.size()) + " open, aborted";
}

std::string drop_table(const stack_config& stack, const std::string& recorded) {
    const auto [ns, table] = table_name_of(stack, recorded);
    iceberg_catalog(stack.catalog()).drop_table(ns, table, true);
    const auto n = remove_table_files(stack, ns, table);
    return "table " + recorded + ": dropped with purge" +
           (n > 0 ? ", " + std::to_string(n) + " files the purge left removed" : std::string());
}

std::string delete_group(const stack_config& stack, const std::string& group, const removal_retry& retry) {
    kafka_admin admin(stack.kafka());
    const auto deadline = std::chrono::steady_clock::now() + retry.for_up_to;
    for (;;) {
        try {
            admin.delete_group(group);
            return "consumer group " + group + ": deleted";
        } catch (const std::exception& e) {
            const bool members_left = std::string(e.what()).find("not empty") != std::string::npos;
            if (!members_left || std::chrono::steady_clock::now() + retry.apart > deadline) throw;
            std::this_thread::sleep_for(retry.apart);
        }
    }
}

}  // namespace

table_name table_name_of(const stack_config& stack, const std::string& recorded) {
    const auto dot = recorded.find('.');
    if (dot == std::string::npos) throw live_error(stack.catalog(), "recorded table " + recorded + " has no namespace");
    return {recorded.substr(0, dot), recorded.substr(dot + 1)};
}

std::string remove_resource(const stack_config& stack, resource_kind kind, const std::string& name,
                            const removal_retry& retry) {
    switch (kind) {
        case resource_kind::connector:
            return "connector " + name +
                   (connect_rest(stack.connect()).remove(name) ? ": deleted"
                                                               : ": not known to the Connect worker (gone)");
        case resource_kind::job:
            return remove_job(stack, name);
        case resource_kind::transactional_id_prefix:
            return abort_open_transactions(stack, name);
        case resource_kind::table:
            return drop_table(stack, name);
        case resource_kind::consumer_group:
            return delete_group(stack, name, retry);
        case resource_kind::topic:
            kafka_admin(stack.kafka()).delete_topic(name);
            return "topic " + name + ": deleted";
    }
    throw live_error("removing " + name + ": resource kind " + std::to_string(static_cast<int>(kind)) +
                     " has no removal");
}

void remove_and_log(const stack_config& stack, resource_kind kind, const std::string& name) {
    try {
        progress("cleanup: " + remove_resource(stack, kind, name));
    } catch (const std::exception& e) {
        progress("cleanup: " + experiment::name_of(kind) + " " + name + ": " + e.what());
    }
}

}  // namespace rosterrig::live
