#include "roles/engine_checks.hpp"

#include <utility>

#include <rosterrig/check/check_agreement.hpp>
#include <rosterrig/check/engine_check_sql.hpp>
#include <rosterrig/experiment/resource_kind.hpp>

namespace rosterrig::live {

namespace json = boost::json;
namespace sql = engine_check;

namespace {
constexpr auto long_query = std::chrono::seconds(600);

// A count or seq; null (a non-numeric NPI's try_cast) reads as 0.
std::uint64_t u64(const json::value& v) { return v.is_null() ? 0 : trino_integer(v); }

json::array one_row(const trino_client& trino, const std::string& query) {
    auto r = trino.query(query, long_query);
    if (r.rows.size() != 1) throw live_error(trino.where(), "engine check: expected one row from: " + query);
    return r.rows.front();
}

template <class Each>
void each_row(const trino_client& trino, const std::string& query, Each each) {
    trino.for_each_row(query, [&](const json::array& row) { each(row); }, long_query);
}

}  // namespace

append_result engine_append_check(const trino_client& trino, const std::string& ns, const std::string& table,
                                  std::uint64_t events, std::uint64_t bucket_width) {
    const auto t = trino_table(ns, table);
    append_result r;
    const auto counts = one_row(trino, sql::append_counts(t, events));
    r.rows = u64(counts[0]);
    const auto in_range = u64(counts[1]);
    r.distinct_seq = u64(counts[2]);
    r.out_of_range_rows = r.rows - in_range;
    r.duplicate_rows = in_range - r.distinct_seq;
    r.missing_seq = events - r.distinct_seq;
    if (r.duplicate_rows > 0)
        each_row(trino, sql::append_duplicates(t, events),
                 [&](const json::array& row) { r.duplicates.push_back({u64(row[0]), u64(row[1])}); });
    if (r.out_of_range_rows > 0)
        each_row(trino, sql::append_out_of_range(t, events, append_result::out_of_range_cap),
                 [&](const json::array& row) { r.out_of_range_seq.push_back(u64(row[0])); });
    if (r.missing_seq > 0) {
        std::vector<seq_range> fragments;
        const auto width = bucket_width ? bucket_width : sql::bucket_width(events);
        each_row(trino, sql::append_missing_fragments(t, events, width),
                 [&](const json::array& row) { fragments.push_back({u64(row[0]), u64(row[1])}); });
        r.missing_runs = sql::merge_adjacent(std::move(fragments));
    }
    return r;
}

upsert_model::upsert_model(const trino_client& trino, const std::string& ns, const std::string& model_table,
                           const upsert_expectation& x)
    : trino_(trino), name_(trino_table(ns, model_table)) {
    trino_.query("CREATE TABLE " + name_ + " (" + sql::model_columns() + ")", long_query);
    created_ = true;
    // Each INSERT is one Iceberg commit. Three arrays UNNESTed plan about ten
    // times faster in Trino than the same rows as VALUES; 24,000 rows (at most
    // 35 characters each) stay under its 1,000,000-character query limit.
    constexpr std::size_t per_insert = 24'000;
    std::string npis, latest, newest;
    std::size_t pending = 0;
    const auto flush = [&] {
        if (pending == 0) return;
        trino_.query("INSERT INTO " + name_ + " SELECT * FROM UNNEST(ARRAY[" + npis + "], ARRAY[" + latest +
                         "], ARRAY[" + newest + "])",
                     long_query);
        npis.clear(), latest.clear(), newest.clear(), pending = 0;
    };
    try {
        for (const auto& [npi, e] : x.by_npi) {
            if (pending) npis += ',', latest += ',', newest += ',';
            npis += std::to_string(npi), latest += std::to_string(e.latest_by_arrival.seq),
                newest += std::to_string(e.newest_by_revision.seq);
            if (++pending == per_insert) flush();
        }
        flush();
    } catch (...) {
        drop();  // a constructor that throws runs no destructor: drop what was created
        throw;
    }
}

upsert_model::~upsert_model() { drop(); }

void upsert_model::drop() noexcept {
    if (!std::exchange(created_, false)) return;
    try {
        trino_.query("DROP TABLE IF EXISTS " + name_, std::chrono::seconds(120));
    } catch (...) {  // left in the checked table's namespace under its own name; the failed check says why
    }
}

upsert_result engine_upsert_check(const trino_client& trino, const std::string& ns, const std::string& table,
                                  const upsert_model& model, std::size_t stale_cap) {
    const auto t = trino_table(ns, table);
    const auto& m = model.name();
    upsert_result r;
    const auto counts = one_row(trino, sql::upsert_counts(t, m));
    r.rows = u64(counts[0]);
    r.distinct_npis = u64(counts[1]);
    r.unexpected_rows = u64(counts[2]);
    r.stale_rows = u64(counts[3]);
    r.behind_newest_revision = u64(counts[4]);
    r.rows_sharing_npi = r.rows - r.distinct_npis;
    r.npis_without_latest = u64(one_row(trino, sql::upsert_without_latest(t, m))[0]);
    each_row(trino, sql::upsert_missing(t, m), [&](const json::array& row) { r.missing_npis.push_back(u64(row[0])); });
    if (r.rows_sharing_npi > 0)
        each_row(trino, sql::upsert_shared(t),
                 [&](const json::array& row) { r.shared_npis.push_back({u64(row[0]), u64(row[1])}); });
    if (r.unexpected_rows > 0)
        each_row(trino, sql::upsert_unexpected(t, m),
                 [&](const json::array& row) { r.unexpected_npis.push_back(u64(row[0])); });
    r.stale_cap = stale_cap;
    if (r.stale_rows > 0)
        each_row(trino, sql::upsert_stale(t, m, stale_cap),
                 [&](const json::array& row) { r.stale.push_back({u64(row[0]), u64(row[1]), u64(row[2])}); });
    r.stale_capped = r.stale_rows > r.stale.size();
    return r;
}

upsert_models::upsert_models(const trino_client& trino, std::string run_id, recorder record)
    : trino_(trino), run_id_(std::move(run_id)), record_(std::move(record)) {}

const upsert_model& upsert_models::of(const std::string& ns, const roster_spec& spec) {
    for (const auto& m : models_)
        if (m.ns == ns && m.spec == spec) return *m.model;
    const auto name = "rr_model_" + run_id_ + "_" + std::to_string(models_.size() + 1);
    if (record_) record_(experiment::name_of(experiment::resource_kind::table), ns + "." + name);
    models_.push_back({ns, spec, std::make_unique<upsert_model>(trino_, ns, name, expect_upsert(spec))});
    return *models_.back().model;
}

experiment::table_observation engine_observe_table(const trino_client& trino, const std::string& ns,
                                                   const std::string& table, const roster_spec& spec,
                                                   const upsert_model& model) {
    experiment::table_observation o;
    o.by_seq = engine_append_check(trino, ns, table, spec.events);
    o.by_npi = engine_upsert_check(trino, ns, table, model);
    return o;
}

void require_checks_agree(const trino_client& trino, const std::string& table,
                          const experiment::table_observation& streamed, const experiment::table_observation& engine) {
    auto differences = append_disagreements(streamed.by_seq, engine.by_seq);
    for (auto& d : upsert_disagreements(streamed.by_npi, engine.by_npi)) differences.push_back("upsert check, " + d);
    if (differences.empty()) return;
    std::string text;
    for (const auto& d : differences) text += "\n  " + d;
    throw live_error(trino.where(), "table " + table + ": the streaming check and the engine's check disagree:" + text);
}

}  // namespace rosterrig::live
