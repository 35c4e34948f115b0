// The experiment layer's own pieces, offline: histories and their statuses,
// typed configuration names, the one table observation, snapshot chains and
// feed pacing.
#include <catch2/catch.hpp>

#include <filesystem>

#include <rosterrig/check/expected_state.hpp>
#include <rosterrig/experiment/feed_pacing.hpp>
#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiment/reported_settings.hpp>
#include <rosterrig/experiment/run_provenance.hpp>
#include <rosterrig/experiment/snapshot_chain.hpp>
#include <rosterrig/experiment/table_observation.hpp>
#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>
#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>
#include <rosterrig/generate/generator.hpp>

namespace fs = std::filesystem;
using namespace rosterrig;

namespace {
std::string scratch_file(const std::string& name) {
    auto dir = fs::temp_directory_path() / "rosterrig-experiment-layer";
    fs::create_directories(dir);
    return (dir / name).string();
}
result::result_envelope e1_envelope(const e1::samples& s) {
    result::result_envelope env;
    env.experiment = e1::definition::id;
    env.parameters = result::to_json_object(e1::parameters::quick_run());
    env.samples = result::to_json(s);
    return env;
}
}  // namespace

TEST_CASE("a results file without a status reads as complete, and a history says running or failed", "[history]") {
    e1::samples s;
    auto env = e1_envelope(s);
    auto v = result::to_json(env);
    v.as_object().erase("status");  // as every file written before statuses existed
    const auto file = scratch_file("old.json");
    result::write_json_file(file, v);
    CHECK(experiment::read_history<e1::definition>(file).envelope.status_or_complete() == result::run_status::complete);
    env.status = result::run_status::failed;
    env.failure = "flink at 127.0.0.1:8081: job x is FAILED";
    result::write_result(file, env);
    auto h = experiment::read_history<e1::definition>(file);
    CHECK(h.envelope.status == result::run_status::failed);
    CHECK(*h.envelope.failure == "flink at 127.0.0.1:8081: job x is FAILED");
}

TEST_CASE("a history of another experiment is refused, naming $.experiment", "[history]") {
    auto env = e1_envelope({});
    env.experiment = "e2_savepoint_restore";
    const auto file = scratch_file("other.json");
    result::write_result(file, env);
    CHECK_THROWS_WITH(experiment::read_history<e1::definition>(file), Catch::Contains("$.experiment"));
}

TEST_CASE("a history is judged against the predictions it recorded, and unjudged ones stay inconclusive", "[history]") {
    e1::samples s;
    s.predictions =
        experiment::unjudged({{"e1.fresh-job-replays-log", "text", "measure"}, {"e1.not-a-rule", "t", "m"}});
    CHECK(experiment::overall(s.predictions) == verdict_kind::inconclusive);
    s.offsets.events = 10;
    s.offsets.steps.push_back({"fresh_from_group_offsets", 10, 10, 20, 10, "j", 0, -1});
    experiment::history<e1::definition> h{e1_envelope(s), e1::parameters::quick_run(), s};
    const auto judged = experiment::rejudge(h);
    REQUIRE(judged.size() == 2);
    CHECK(judged[0].verdict == verdict_kind::held);
    CHECK(judged[0].text == "text");
    CHECK(judged[1].verdict == verdict_kind::inconclusive);
    CHECK(experiment::exit_code(experiment::overall(judged)) == 3);
    CHECK(experiment::exit_code(verdict_kind::held) == 0);
    CHECK(experiment::exit_code(verdict_kind::refuted) == 1);
}

// Mutation: drop the first line of set_verdict (the prediction text left as
// the runner wrote it before the run, every line unjudged) and the refuted
// prediction's line says "inconclusive" beside a "refuted" envelope: this fails.
TEST_CASE(
    "the envelope's published prediction names each prediction's verdict, and the envelope's verdict merges exactly those",
    "[history]") {
    const std::vector<result::prediction> predictions{{"e.first", "the first claim", "m"},
                                                      {"e.second", "the second claim", "m"}};
    result::result_envelope env;
    env.prediction.text = experiment::prediction_lines(experiment::unjudged(predictions));
    CHECK(env.prediction.text ==
          "e.first (inconclusive): the first claim\ne.second (inconclusive): the second claim\n");
    auto judged = experiment::unjudged(predictions);
    judged[0].verdict = verdict_kind::held, judged[0].reason = "fine";
    judged[1].verdict = verdict_kind::refuted, judged[1].reason = "not fine";
    experiment::set_verdict(env, judged);
    CHECK(env.verdict == verdict_kind::refuted);
    CHECK(env.prediction.text == "e.first (held): the first claim\ne.second (refuted): the second claim\n");
    // The verdicts the published text shows merge to the envelope's verdict.
    verdict_kind shown = verdict_kind::held;
    for (const auto v : {verdict_kind::held, verdict_kind::refuted, verdict_kind::inconclusive})
        if (env.prediction.text.find(" (" + std::string(to_string(v)) + "): ") != std::string::npos)
            shown = merge(shown, v);
    CHECK(shown == env.verdict);
}

TEST_CASE("configuration values keep the JSON names results were written with", "[config]") {
    CHECK(experiment::name_of(experiment::table_kind::upsert) == "upsert");
    CHECK(experiment::name_of(experiment::warehouse::local) == "local");
    CHECK(experiment::parse_name<experiment::warehouse>("s3") == experiment::warehouse::s3);
    CHECK_FALSE(experiment::parse_name<experiment::warehouse>("gcs"));
    CHECK(experiment::flink_option(experiment::checkpoint_mode::at_least_once) == "AT_LEAST_ONCE");
    CHECK(experiment::flink_reported(experiment::checkpoint_mode::exactly_once) == "exactly_once");
    CHECK(experiment::flink_option(experiment::startup_mode::group_offsets) == "group-offsets");
}

// Mutation: in restart_strategy_of, take the attempts from
// restart-strategy.fixed-delay.delay's key: this fails.
TEST_CASE("the restart strategy is read from Flink's configuration entries, and a non-number is no attempts",
          "[config]") {
    const auto r = experiment::restart_strategy_of({{"rest.port", "8081"},
                                                    {"restart-strategy.type", "fixed-delay"},
                                                    {"restart-strategy.fixed-delay.attempts", "1000"},
                                                    {"restart-strategy.fixed-delay.delay", "2 s"}},
                                                   "GET /jobmanager/config");
    CHECK(r.type == "fixed-delay");
    CHECK(r.attempts == 1000);
    CHECK(r.delay == "2 s");
    CHECK(r.reported_by == "GET /jobmanager/config");
    CHECK(experiment::reports_fixed_delay_of_at_least(r, 1000));
    CHECK_FALSE(experiment::reports_fixed_delay_of_at_least(r, 1001));
    CHECK_FALSE(experiment::reports_fixed_delay_of_at_least(std::nullopt, 0));  // nothing reported
    CHECK_FALSE(experiment::restart_strategy_of({{"restart-strategy.fixed-delay.attempts", "many"}}, "").attempts);
    CHECK(experiment::restart_strategy_of({}, "").type.empty());
}

// Mutation: read web.refresh-interval into heartbeat_interval in
// recovery_settings_of (a copy-paste slip between the keys): this fails.
TEST_CASE("the recovery settings are read from Flink's configuration entries, each from its own key", "[config]") {
    const auto r = experiment::recovery_settings_of({{"heartbeat.interval", "500"},
                                                     {"heartbeat.rpc-failure-threshold", "2"},
                                                     {"web.refresh-interval", "3000"},
                                                     {"heartbeat.timeout", "10000"}});
    CHECK(r.heartbeat_interval == "500");
    CHECK(r.heartbeat_rpc_failure_threshold == "2");
    CHECK(r.rest_refresh_interval == "3000");
    CHECK(r.taskmanagers_registered == 0);  // not Flink's configuration: the driver asks /overview
    CHECK(experiment::recovery_settings_of({}).heartbeat_interval.empty());
}

// Mutation: drop the identifier-field test from reports_upsert_on (the flag
// alone taken for an upsert table): this fails.
TEST_CASE("an upsert table needs the flag and the key as identifier, an append table has neither", "[config]") {
    experiment::table_settings upsert{"true", 2, {"npi"}}, append{std::nullopt, 2, {}};
    CHECK(experiment::reports_upsert_on(upsert, "npi"));
    CHECK_FALSE(experiment::reports_no_upsert(upsert));
    CHECK(experiment::reports_no_upsert(append));
    CHECK_FALSE(experiment::reports_upsert_on(append, "npi"));
    CHECK_FALSE(experiment::reports_upsert_on({"true", 2, {}}, "npi"));             // the flag without a key
    CHECK_FALSE(experiment::reports_upsert_on({std::nullopt, 2, {"npi"}}, "npi"));  // a key without the flag
    CHECK_FALSE(experiment::reports_no_upsert({"false", 2, {"npi"}}));
    using experiment::table_kind;
    CHECK(experiment::reports_table_kind(upsert, table_kind::upsert, "npi"));
    CHECK(experiment::reports_table_kind(append, table_kind::append, "npi"));
    CHECK_FALSE(experiment::reports_table_kind(upsert, table_kind::append, "npi"));
    CHECK_FALSE(
        experiment::reports_table_kind(experiment::table_settings{"true", 1, {"npi"}}, table_kind::upsert, "npi"));
    CHECK_FALSE(experiment::reports_table_kind(std::nullopt, table_kind::append, "npi"));  // nothing reported
}

// Mutation: `next += n` dropped from e2::batches (every batch starting at 1): this fails.
TEST_CASE("e2's batches split a repeat's feed in the order they are written, without a gap", "[config]") {
    auto p = e2::parameters::quick_run();
    CHECK(e2::batches(p) == std::vector<seq_range>{{1, 2000}, {2001, 3000}, {3001, 3500}});
    p.third_batch_events.reset();  // a run from before the third batch
    CHECK(e2::batches(p) == std::vector<seq_range>{{1, 2000}, {2001, 3000}});
}

// Mutation: drop the `if (p.quick)` erase in e2::variants (the quick run restores
// the upsert variant again, about a minute more in CI): this fails.
TEST_CASE("e2's quick run restores the two append variants, its full run all three, each repeat planned", "[config]") {
    const auto names = [](const e2::parameters& p) {
        std::vector<std::string> out;
        for (const auto& v : e2::variants(p)) out.push_back(v.name);
        return out;
    };
    CHECK(names(e2::parameters::quick_run()) == std::vector<std::string>{"append-flinksink", "append-sinkv2"});
    const auto full = e2::parameters::full();
    CHECK(names(full) == std::vector<std::string>{"append-flinksink", "upsert-flinksink", "append-sinkv2"});
    CHECK(e2::fault_plan(full).steps.size() == full.repeats * 3);
    CHECK(e2::fault_plan(e2::parameters::quick_run()).steps.size() == 2);
}

// Mutation: in strict_reader.hpp, drop `if constexpr (is_optional<member_t>::value) return;`
// (an absent optional field refused): the file without them no longer reads, and this fails.
TEST_CASE("the digests and reported settings round-trip, and results without them still read", "[result]") {
    e1::samples s;
    s.configurations.push_back({});
    auto old = e1_envelope(s);  // written before the fields existed: null, or absent below
    auto v = result::to_json(old);
    auto& run = v.as_object()["samples"].as_object()["configurations"].as_array()[0].as_object();
    for (const char* key : {"feed_sha256", "restart_strategy", "table_settings"}) CHECK(run.erase(key) == 1);
    CHECK(v.as_object()["samples"].as_object()["offsets"].as_object().erase("feed_sha256") == 1);
    const auto file = scratch_file("before-digests.json");
    result::write_json_file(file, v);
    const auto read_old = experiment::read_history<e1::definition>(file).samples;
    CHECK_FALSE(read_old.configurations[0].feed_sha256);
    CHECK_FALSE(read_old.configurations[0].restart_strategy);

    s.configurations[0].feed_sha256 = "ab";
    s.configurations[0].restart_strategy = experiment::restart_strategy{"fixed-delay", 1000, "2 s", "GET /x"};
    s.configurations[0].table_settings = experiment::table_settings{"true", 2, {"npi"}};
    s.offsets.feed_sha256 = "cd";
    result::write_result(file, e1_envelope(s));
    const auto back = experiment::read_history<e1::definition>(file).samples;
    CHECK(back.configurations[0].feed_sha256 == "ab");
    CHECK(back.configurations[0].restart_strategy->attempts == 1000);
    CHECK(back.configurations[0].table_settings->identifier_fields == std::vector<std::string>{"npi"});
    CHECK(back.offsets.feed_sha256 == "cd");
}

TEST_CASE("missing runs are written [first, last] and read back, and a backwards range is refused",
          "[result][ranges]") {
    std::vector<seq_range> runs{{3, 5}, {9, 9}};
    const auto v = boost::json::value_from(runs);
    CHECK(boost::json::serialize(v) == "[[3,5],[9,9]]");
    CHECK(result::strict_value_to<std::vector<seq_range>>(v) == runs);
    CHECK_THROWS_WITH(result::strict_value_to<std::vector<seq_range>>(boost::json::parse("[[5,3]]")),
                      Catch::Contains("$[0]"));
}

TEST_CASE("the table observation of the feed itself finds nothing wrong, by seq or by NPI", "[observation]") {
    roster_spec spec;
    spec.seed = 5, spec.events = 600, spec.providers = 100;
    std::vector<observed_row> rows;
    for (const auto& e : generate(spec)) rows.push_back(row_of(e));
    const auto o = experiment::observe_rows(rows, spec, {3, 0, 0, 2});
    CHECK(o.by_seq.matches());
    CHECK(o.by_npi.distinct_npis == 100);
    CHECK(o.by_npi.rows_sharing_npi == 500);  // an append table holds every assertion
    CHECK_FALSE(experiment::upsert_table_is_exact(o));
    CHECK(o.files.data_files == 3);
    std::vector<observed_row> latest;
    for (const auto& e : expected_latest_by_arrival(spec)) latest.push_back(row_of(e));
    const auto u = experiment::observe_rows(latest, spec, {});
    CHECK(experiment::upsert_table_is_exact(u));
    // Mutation (data): a row repeated is a duplicate seq and an NPI shared.
    latest.push_back(latest.front());
    const auto d = experiment::observe_rows(latest, spec, {});
    CHECK(d.by_seq.duplicate_rows == 1);
    CHECK(d.by_npi.rows_sharing_npi == 1);
    CHECK_FALSE(experiment::upsert_table_is_exact(d));
}

TEST_CASE("the snapshots since a known one follow parent links, oldest first", "[snapshots]") {
    struct snap {
        long long id, parent;
    };
    std::vector<snap> listed{{30, 20}, {10, -1}, {40, 30}, {20, 10}, {99, 10}};  // 99: a branch not on the chain
    auto id = [](const snap& s) { return s.id; };
    auto parent = [](const snap& s) { return s.parent; };
    auto chain = experiment::snapshots_since(listed, 40, 20, id, parent);
    REQUIRE(chain.size() == 2);
    CHECK(chain[0].id == 30);
    CHECK(chain[1].id == 40);
    CHECK(experiment::snapshots_since(listed, 20, 20, id, parent).empty());
    CHECK(experiment::snapshots_since(listed, 40, -7, id, parent).size() == 4);  // back to the root
}

TEST_CASE("the feed is paced to outlast the faults and re-paced from the cycles measured", "[pacing]") {
    const experiment::feed_pacing pacing;
    CHECK(pacing.initial_rate(12000, 30) == Approx(12000.0 / (20.0 + 16.0 * 30)));
    // After 10 of 30 kills in 300 s (30 s a cycle) with 4,000 sent, the rest
    // is spread over 20 more cycles at 1.25 times that, plus the tail.
    CHECK(pacing.rate_after(12000, 4000, 300.0, 10, 30) == Approx(8000.0 / (20.0 + 1.25 * 30.0 * 20)));
    CHECK(pacing.rate_after(12000, 12000, 300.0, 10, 30) == 1.0);  // never zero: the producer divides by it
}

namespace {
const std::string head_sha = "f691026aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const std::string other_sha = "d9fea70bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
}  // namespace

TEST_CASE("the compiled-in commit reads from git describe's forms, and anything else is unknown", "[provenance]") {
    CHECK(experiment::parse_binary_commit(head_sha).commit == head_sha);
    CHECK_FALSE(experiment::parse_binary_commit(head_sha).dirty);
    CHECK(experiment::parse_binary_commit(head_sha + "-dirty").commit == head_sha);
    CHECK(experiment::parse_binary_commit(head_sha + "-dirty").dirty);
    CHECK(experiment::parse_binary_commit("v0.1-12-g" + head_sha).commit == head_sha);
    CHECK(experiment::parse_binary_commit("v0.1-12-g" + head_sha + "-dirty").dirty);
    CHECK(experiment::parse_binary_commit("unknown").commit.empty());
    CHECK(experiment::parse_binary_commit("f691026").commit.empty());  // abbreviated: cannot be compared
    CHECK(experiment::recorded_commit(experiment::parse_binary_commit(head_sha + "-dirty")) == head_sha + "-dirty");
    CHECK(experiment::recorded_commit(experiment::parse_binary_commit("unknown")) == "unknown");
}

// Mutation: in may_run, return allowed for a full run whatever it found and
// every refusal below fails; drop the tree_dirty check and the dirty
// checkout's refusal (and its quick warning) fails.
TEST_CASE("a full run starts only from a clean binary built from the checkout's HEAD, and a quick run only warns",
          "[provenance]") {
    const auto clean = experiment::parse_binary_commit(head_sha);
    const auto built_dirty = experiment::parse_binary_commit(head_sha + "-dirty");
    const auto stale = experiment::parse_binary_commit(other_sha);
    const auto unknown = experiment::parse_binary_commit("unknown");
    // All agree: allowed, nothing to say, full or quick.
    CHECK(experiment::may_run(clean, head_sha, false, false).allowed);
    CHECK(experiment::may_run(clean, head_sha, false, false).reason.empty());
    CHECK(experiment::may_run(clean, head_sha, false, true).reason.empty());
    // Each disagreement refuses a full run and names itself.
    const auto tree = experiment::may_run(clean, head_sha, true, false);
    CHECK_FALSE(tree.allowed);
    CHECK_THAT(tree.reason, Catch::Contains("uncommitted changes in include drivers"));
    const auto old_binary = experiment::may_run(stale, head_sha, false, false);
    CHECK_FALSE(old_binary.allowed);
    CHECK_THAT(old_binary.reason, Catch::Contains("built from d9fea70bbbbb but the checkout is at f691026aaaaa"));
    const auto dirty_binary = experiment::may_run(built_dirty, head_sha, false, false);
    CHECK_FALSE(dirty_binary.allowed);
    CHECK_THAT(dirty_binary.reason, Catch::Contains("built from uncommitted code"));
    CHECK_FALSE(experiment::may_run(unknown, head_sha, false, false).allowed);
    CHECK_FALSE(experiment::may_run(clean, "", false, false).allowed);
    // A quick run goes on, warned of the same things.
    for (const auto& [b, dirty] :
         {std::pair{clean, true}, std::pair{stale, false}, std::pair{built_dirty, false}, std::pair{unknown, false}}) {
        const auto quick = experiment::may_run(b, head_sha, dirty, true);
        CHECK(quick.allowed);
        CHECK_THAT(quick.reason, Catch::StartsWith("warning: "));
    }
}
