// The append and upsert checks run by the reader engine itself (Trino), as
// the SQL of rosterrig/check/engine_check_sql.hpp: only counts and anomalies
// come back, so a table too large to stream to the rig is still checked
// exactly. The upsert check writes the feed's model (one row per NPI) to a
// table of its own in the checked table's namespace: once per run and feed
// (upsert_models), dropped when the run ends, also when it fails.
#ifndef ROSTERRIG_LIVE_ENGINE_CHECKS_HPP
#define ROSTERRIG_LIVE_ENGINE_CHECKS_HPP
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <rosterrig/check/append_check.hpp>
#include <rosterrig/check/expected_state.hpp>
#include <rosterrig/check/upsert_check.hpp>
#include <rosterrig/experiment/table_observation.hpp>
#include <rosterrig/generate/roster_spec.hpp>

#include "adapters/trino_client.hpp"

namespace rosterrig::live {

// Duplicates, missing runs and out-of-range rows of seq 1..events in
// iceberg.<ns>.<table>, computed by Trino; `bucket_width` 0 takes
// engine_check::bucket_width(events).
append_result engine_append_check(const trino_client& trino, const std::string& ns, const std::string& table,
                                  std::uint64_t events, std::uint64_t bucket_width = 0);

// The feed's model for the engine's upsert check: the table
// iceberg.<ns>.<model_table>, one row per NPI of the expectation (npi,
// last-arrived seq, newest revision's seq), written once and dropped by the
// destructor (it drops only what it created).
class upsert_model {
public:
    upsert_model(const trino_client& trino, const std::string& ns, const std::string& model_table,
                 const upsert_expectation& x);
    ~upsert_model();
    upsert_model(const upsert_model&) = delete;
    upsert_model& operator=(const upsert_model&) = delete;
    const std::string& name() const { return name_; }  // qualified, quoted

private:
    void drop() noexcept;

    const trino_client& trino_;
    std::string name_;
    bool created_ = false;
};

// The upsert check of iceberg.<ns>.<table> against the model, computed by Trino.
upsert_result engine_upsert_check(const trino_client& trino, const std::string& ns, const std::string& table,
                                  const upsert_model& model, std::size_t stale_cap = upsert_result::default_stale_cap);

// A run's upsert models: the model of a feed in a namespace is written at the
// first check that needs it and read by every later one (a large feed's model
// costs as much to write as a check costs to run: docs/BENCHMARKS.md). Each is
// told to `record` before it is created (a run's history lists it, so a run
// killed mid-way leaves nothing rosterrig-clean cannot find) and dropped with
// this object.
class upsert_models {
public:
    using recorder = std::function<void(const std::string& kind, const std::string& name)>;
    // Models are named rr_model_<run_id>_<k>, k counting from 1.
    upsert_models(const trino_client& trino, std::string run_id, recorder record);

    // The model of the feed `spec` describes, in namespace `ns`.
    const upsert_model& of(const std::string& ns, const roster_spec& spec);

private:
    struct model_of_feed {
        std::string ns;
        roster_spec spec;
        std::unique_ptr<upsert_model> model;
    };
    const trino_client& trino_;
    std::string run_id_;
    recorder record_;
    std::vector<model_of_feed> models_;
};

// Both engine checks against the feed `spec` describes, the upsert check
// against `model` (files not read).
experiment::table_observation engine_observe_table(const trino_client& trino, const std::string& ns,
                                                   const std::string& table, const roster_spec& spec,
                                                   const upsert_model& model);

// Throws live_error naming Trino, the table and every difference when the
// streamed observation and the engine's disagree.
void require_checks_agree(const trino_client& trino, const std::string& table,
                          const experiment::table_observation& streamed, const experiment::table_observation& engine);

}  // namespace rosterrig::live

#endif
