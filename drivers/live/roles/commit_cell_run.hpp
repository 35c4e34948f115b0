// A commit cell once its writer runs (experiments 3 and 7): the paced feed,
// the wait until the table holds every record, the writer stopped, then the
// table read from its metadata (commits, files, the snapshot that made each
// row visible) and its rows read back. Any writer: which snapshots are the
// writer's own is the caller's to say.
#ifndef ROSTERRIG_LIVE_COMMIT_CELL_RUN_HPP
#define ROSTERRIG_LIVE_COMMIT_CELL_RUN_HPP
#include <functional>
#include <string>
#include <vector>

#include <rosterrig/experiment/commit_cell.hpp>
#include <rosterrig/generate/roster_spec.hpp>

#include "roles/feeder.hpp"
#include "adapters/iceberg_catalog.hpp"
#include "roles/session.hpp"
#include "roles/writer.hpp"

namespace rosterrig::live {

// A paced feed whose progress line says how far the table has got.
produce_report feed_watching_table(session& s, const std::string& label, const pipeline_spec& p,
                                   const std::vector<kafka_record>& records, double rate);

// The id of the writer that made a snapshot, from its summary; "" for a snapshot another writer made.
using snapshot_writer = std::function<std::string(const iceberg_snapshot&)>;

// Feeds `records` at `rate`, waits (the interval plus 180 s) until the table
// holds run.events records, stops run.job_id, and fills the run's feed,
// snapshot, file, freshness and read-back fields.
void measure_commit_cell(session& s, writer& w, const pipeline_spec& p, const std::string& label,
                         const std::vector<kafka_record>& records, const roster_spec& spec, double rate,
                         std::int64_t freshness_bucket_ms, const snapshot_writer& writer_of, experiment::cell_run& run);

}  // namespace rosterrig::live

#endif
