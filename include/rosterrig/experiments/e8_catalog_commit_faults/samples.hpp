// rosterrig/experiments/e8_catalog_commit_faults/samples.hpp: experiment 8's sample schema (a trial, a writer run, the samples) over the shared catalog-request records.
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_SAMPLES_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_SAMPLES_HPP

#include "rosterrig/experiments/e8_catalog_commit_faults/parameters.hpp"

namespace rosterrig::e8 {

// A commit POST's body and a request on the table's path are shared records
// (experiment/catalog_request.hpp).
using experiment::commit_body;
using experiment::commit_body_of;
using experiment::table_request;

/// One fault on one commit.
struct trial {
    std::uint64_t index = 0;  ///< 1-based within its writer run
    cell kind = cell::lose_reply;
    std::uint64_t k = 0;      ///< drawn: the k-th commit POST after the table settled is hit
    unsigned status = 0;      ///< status_unforwarded: what the proxy answered
    std::uint64_t hit_rule = 0, b_rule = 0, get_rule = 0;  ///< the proxy rules armed (0: none)
    std::int64_t armed_at_ms = 0;
    std::int64_t healed_at_ms = 0;   ///< the proxy's rules removed and holds released
    std::int64_t settled_at_ms = 0;  ///< job running and an unruled commit answered 200 after the heal (0: never)
    std::optional<experiment::kill_record> kill;  ///< the committer's TaskManager SIGKILLed (zombie cells)
    std::int64_t exceptions_before = 0, exceptions_after = 0;  ///< Flink's exception history, entries
    std::vector<std::string> new_exceptions;  ///< first lines of the entries the trial added, oldest first
    std::vector<table_request> requests;      ///< every request to the table path from arming to settling
    std::string failure;                      ///< why the trial stopped early, "" when it did not
};
BOOST_DESCRIBE_STRUCT(trial, (),
                      (index, kind, k, status, hit_rule, b_rule, get_rule, armed_at_ms, healed_at_ms, settled_at_ms, kill,
                       exceptions_before, exceptions_after, new_exceptions, requests, failure))

/// One writer's job, its trials and the table at the end.
struct writer_run {
    std::string writer;  ///< sinkv2, flinksink
    std::string job;
    std::string table;
    std::string mode_in_force;             ///< Flink's checkpointing mode (/jobs/<id>/checkpoints/config)
    std::int64_t interval_in_force_ms = 0;  ///< and interval
    std::string sink_in_force;             ///< the sink implementation the job plan shows
    std::map<std::string, std::string> catalog_properties;  ///< what the writer's CREATE CATALOG set beyond the stack's
    std::string proxy_address;  ///< where the writer's catalog client went
    std::string feed_sha256;
    std::uint64_t events = 0;
    std::vector<trial> trials;
    bool observed = false;  ///< the end below was read
    std::uint64_t rows = 0, duplicate_rows = 0, missing_seq = 0;
    std::vector<seq_range> missing_runs;
    std::vector<check::snapshot_entry> snapshots;  ///< the table's snapshots, oldest first, from the catalog
};
BOOST_DESCRIBE_STRUCT(writer_run, (),
                      (writer, job, table, mode_in_force, interval_in_force_ms, sink_in_force, catalog_properties, proxy_address, feed_sha256, events, trials, observed,
                       rows, duplicate_rows, missing_seq, missing_runs, snapshots))

/// A trial saved as it stands: added the first time, replaced after.
inline void keep_trial(writer_run& r, const trial& t) {
    if (r.trials.empty() || r.trials.back().index != t.index) r.trials.push_back(t);
    else r.trials.back() = t;
}

struct samples {
    std::vector<writer_run> runs;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (runs, predictions))

}  // namespace rosterrig::e8

#endif
