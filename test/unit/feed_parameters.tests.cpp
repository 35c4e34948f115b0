// The parameters experiments share (rosterrig/experiment/feed_parameters.hpp):
// an experiment's parameters derive seed, events, providers, partitions and
// quick from experiment::feed_parameters, and its results keep recording them
// under the keys they had before the fields were shared.
#include <catch2/catch.hpp>

#include <string>

#include <rosterrig/experiment/feed_parameters.hpp>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/strict_reader.hpp>

#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>
#include <rosterrig/experiments/e3_file_size/e3_file_size.hpp>
#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>
#include <rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp>
#include <rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp>
#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>
#include <rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp>

using namespace rosterrig;

namespace {
// The shipped result's parameters read into the derived struct and written
// back: every key the result recorded is written again, with its value.
template <class D>
void shipped_parameters_round_trip() {
    static_assert(std::is_base_of_v<experiment::feed_parameters, typename D::parameters>);
    const std::string file = std::string(ROSTERRIG_SOURCE_DIR) + "/" + D::results_file;
    INFO(file);
    const auto env = result::read_result(file);
    const auto params = result::parameters_as<typename D::parameters>(env, file);
    const auto written = result::to_json_object(params);
    for (const auto& kv : env.parameters) {
        INFO(std::string(kv.key()));
        REQUIRE(written.contains(kv.key()));
        CHECK(written.at(kv.key()) == kv.value());
    }
    // A new run writes the same keys as the run that was shipped.
    const auto fresh = result::to_json_object(D::parameters::full());
    CHECK(fresh.size() == written.size());
    for (const auto* key : {"seed", "events", "providers", "partitions", "quick"}) CHECK(fresh.contains(key));
}
}  // namespace

// Mutation: describe the members without mod_inherited in strict_reader.hpp:
// "seed" reads as an unknown field and every shipped result fails to read.
TEST_CASE(
    "feed_parameters: every shipped result of an experiment on the shared parameters reads and writes back the same keys and values",
    "[parameters]") {
    shipped_parameters_round_trip<e1::definition>();
    shipped_parameters_round_trip<e3::definition>();
    shipped_parameters_round_trip<e4::definition>();
    shipped_parameters_round_trip<e5::definition>();
    shipped_parameters_round_trip<e6::definition>();
    shipped_parameters_round_trip<e7::definition>();
    shipped_parameters_round_trip<e7b::definition>();
}

TEST_CASE("feed_parameters: each experiment keeps its own defaults, and the feed is the one they name",
          "[parameters]") {
    const auto a = e1::parameters::full();
    CHECK(a.seed == 1);
    CHECK(a.events == 12000);
    CHECK(a.providers == 2000);
    CHECK(a.partitions == 4);
    CHECK_FALSE(a.quick);
    CHECK(a.feed() == roster_feed(1, 12000, 2000, 4));
    const auto b = e3::parameters::full();
    CHECK(b.seed == 3);
    CHECK(b.providers == 20000);
    CHECK(e1::parameters::quick_run().quick);
}

TEST_CASE("feed_parameters: a shared field missing from a result is named, and a misspelt one is refused",
          "[parameters]") {
    auto json = result::to_json_object(e1::parameters::full());
    json.erase("partitions");
    CHECK_THROWS_WITH(result::strict_value_to<e1::parameters>(boost::json::value(json), "f.json", "$.parameters"),
                      Catch::Contains("$.parameters.partitions: missing field"));
    json = result::to_json_object(e1::parameters::full());
    json["sead"] = 1;
    CHECK_THROWS_WITH(result::strict_value_to<e1::parameters>(boost::json::value(json), "f.json", "$.parameters"),
                      Catch::Contains("$.parameters.sead: unknown field"));
}
