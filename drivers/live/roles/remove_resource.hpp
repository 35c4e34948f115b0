// The one way anything a run created is removed from the stack: by a run's
// own clean-up (created_resources) and by rosterrig-clean for a dead run
// (leftover_cleanup), so the two never differ in what "removed" means.
#ifndef ROSTERRIG_LIVE_REMOVE_RESOURCE_HPP
#define ROSTERRIG_LIVE_REMOVE_RESOURCE_HPP
#include <chrono>
#include <string>

#include <rosterrig/experiment/resource_kind.hpp>

#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// How long a removal the stack refuses for a while is tried again. A consumer
// group stays "not empty" until its last member leaves, and that comes a few
// seconds after what removed the member: a deleted connector's tasks stop
// after the Connect worker has answered, a dead run's member process stops
// on its own timeout.
struct removal_retry {
    std::chrono::milliseconds for_up_to{std::chrono::seconds(30)};
    std::chrono::milliseconds apart{std::chrono::seconds(1)};
};

// A recorded table name, <namespace>.<table>, in its two parts; throws naming
// the catalog when it has no namespace.
struct table_name {
    std::string ns;
    std::string table;
};
table_name table_name_of(const stack_config& stack, const std::string& recorded);

// Removes one resource and says what was done, or throws naming the component:
// - connector: deleted from the Connect worker;
// - job: cancelled and awaited until it ends (60 s), then its checkpoint and
//   savepoint folders removed (remove_job_folders);
// - transactional-id prefix: every transaction of it still open aborted;
// - table (<namespace>.<table>): dropped with purge, then the files the purge
//   left removed (remove_table_files);
// - consumer group: deleted, tried again while "not empty" per `retry`;
// - topic: deleted.
// One that is already gone is not a failure.
std::string remove_resource(const stack_config& stack, experiment::resource_kind kind, const std::string& name,
                            const removal_retry& retry = {});

// A run's own clean-up of one resource: removed, and the line of what was
// done, or the failure, logged; never throws, so the rest is still removed.
void remove_and_log(const stack_config& stack, experiment::resource_kind kind, const std::string& name);

}  // namespace rosterrig::live

#endif
