#include "jobs/orphan_files.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "roles/feeder.hpp"
#include "roles/observe_table.hpp"
#include "jobs/table_maintenance.hpp"
#include "adapters/table_store.hpp"
#include "runner/progress.hpp"

using std::chrono::seconds;

namespace rosterrig::live {

void run_orphans(session& s, const e4::parameters& params, const e4::run_plan& plan,
                 const std::vector<kafka_record>& records, const roster_spec& spec, history_writer<e4::definition>& h) {
    const bool small = plan.variant == "small-row-group";
    job_on_table j(s, params, plan, small ? e4::row_group_property : "", std::to_string(params.small_row_group_bytes));
    auto run = j.run_of<e4::orphan_run>(plan);
    const auto table = s.catalog.load(j.p.ns, j.p.table);
    if (auto it = table.properties.find(e4::row_group_property); it != table.properties.end())
        run.row_group_bytes = std::stoll(it->second);
    // The first part of the feed committed; the rest fed right after that commit and held in flight at the call.
    const auto first = static_cast<long long>(params.events - params.orphan_in_flight_events);
    feeder(s.stack.kafka(), j.p.topic, {records.begin(), records.begin() + first}, 0).finish();
    wait_table_counts(s.catalog, j.p.ns, j.p.table, first, seconds(j.interval_ms * 3 / 1000 + 60));
    const long long committed_at = now_ms();
    feeder(s.stack.kafka(), j.p.topic, {records.begin() + first, records.end()}, 0).finish();
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::max<long long>(0, committed_at + params.orphan_call_after_ms - now_ms())));
    run.acknowledged_at_call = params.events;
    run.committed_records_at_call = committed_records(s.catalog, j.p.ns, j.p.table);
    run.in_flight_records = static_cast<std::int64_t>(params.events) - run.committed_records_at_call;
    run.call_after_checkpoint_ms = now_ms() - committed_at;
    run.before =
        listing_of(list_location(s, table.location), table.location, referenced_paths(s.trino, j.p.ns, j.p.table));
    run.call = j.call(e4::orphan_call);
    const auto after = list_location(s, table.location);
    run.after = listing_of(after, table.location, referenced_paths(s.trino, j.p.ns, j.p.table));
    run.deleted_data_files = experiment::deleted_between(run.before, after.files);
    progress(run.name + ": " + e4::orphan_text(run));
    j.finish(run, spec, "append");
    h.record([&](e4::samples& x) { x.orphans.push_back(run); });
}

}  // namespace rosterrig::live
