// What small files and equality deletes cost a reader, measured through
// Trino (experiment 3's reader part): a table's files and content recorded,
// an append copy made with CTAS, the same queries timed over several tables
// in interleaved rounds, and Iceberg's optimize run on a table.
#ifndef ROSTERRIG_LIVE_READER_COST_HPP
#define ROSTERRIG_LIVE_READER_COST_HPP
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <rosterrig/experiment/table_check.hpp>
#include <rosterrig/experiments/e3_file_size/e3_file_size.hpp>

#include "adapters/kafka_producer.hpp"
#include "adapters/trino_client.hpp"
#include "roles/session.hpp"

namespace rosterrig::live {

// A table's data and delete files (Iceberg's $entries) and whether its
// content is exactly the latest row per NPI of the feed.
e3::reader_table read_reader_table(trino_client& trino, run_table_checks& checks, const std::string& ns,
                                   const std::string& table, const std::string& name, const std::string& phase,
                                   experiment::table_kind kind, std::int64_t interval_ms, const roster_spec& spec);

// CREATE TABLE <ns>.<to> AS SELECT * FROM <ns>.<from>: an append table with the same rows.
void copy_as_append(trino_client& trino, const std::string& ns, const std::string& from, const std::string& to);

// `rounds` + 1 rounds (round 0 warms up) of the count and the lookup over
// every table of `physical` ((name, table), in this order at first), the order rotated each round so
// no table always goes first; each timing and whether its answer was right
// goes into `rc`.
void time_query_rounds(trino_client& trino, const std::string& ns,
                       const std::vector<std::pair<std::string, std::string>>& physical, std::uint64_t rounds,
                       const std::string& phase, e3::reader_cost& rc);

// One run of the reader part (`run` from 1): two upsert jobs on one feed (the
// short and the long interval), an append copy of the first, each table
// checked, the queries timed, both upsert tables optimized, all timed again;
// handed to `keep` before its jobs, topic and tables are removed (a clean-up
// that fails loses nothing measured).
void run_reader_part(session& s, const e3::parameters& params, const std::vector<kafka_record>& records,
                     const std::vector<roster_event>& events, const roster_spec& spec, std::uint64_t run,
                     const std::function<void(e3::reader_cost&&)>& keep);

// ALTER TABLE ... EXECUTE optimize; an error is recorded, not thrown.
void optimize(trino_client& trino, const std::string& ns, const std::string& table, const std::string& name,
              e3::reader_cost& rc);

}  // namespace rosterrig::live

#endif
