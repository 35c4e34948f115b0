// Faults as data (rosterrig/experiment/fault.hpp, fault_plan.hpp,
// applied_fault.hpp): every fault has a heal, a schedule is the seed's, and
// plan_kills still draws the plans the shipped results recorded.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include <rosterrig/experiment/applied_fault.hpp>
#include <rosterrig/experiment/fault.hpp>
#include <rosterrig/experiment/fault_plan.hpp>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/strict_reader.hpp>

#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>
#include <rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp>
#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>
#include <rosterrig/experiments/e4_maintenance/e4_maintenance.hpp>
#include <rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp>

using namespace rosterrig;
using namespace rosterrig::experiment;

namespace {
template <class D>
void shipped_plan_is_redrawn() {
    const std::string file = std::string(ROSTERRIG_SOURCE_DIR) + "/" + D::results_file;
    INFO(file);
    const auto env = result::read_result(file);
    REQUIRE(env.fault_plan);
    const auto params = result::parameters_as<typename D::parameters>(env, file);
    const auto drawn = D::fault_plan(params);
    REQUIRE_FALSE(drawn.steps.empty());
    // Byte for byte, as the runner writes it and --resume compares it.
    CHECK(boost::json::serialize(result::to_json(drawn)) == boost::json::serialize(*env.fault_plan));
}
}  // namespace

// Mutation: drop `case fault_kind::tcp_bandwidth:` from heal_of, so it falls
// through to "unknown": this fails for every target (checked).
TEST_CASE("every fault kind against every target has a heal in words", "[faults]") {
    const auto kinds = enumerators_of<fault_kind>();
    const auto targets = enumerators_of<fault_target>();
    CHECK(kinds.size() == 18);
    CHECK(targets.size() == 8);
    for (auto k : kinds)
        for (auto t : targets) {
            INFO(name_of(k) << " x " << name_of(t));
            const auto heal = heal_of(k, t);
            CHECK_FALSE(heal.empty());
            CHECK(heal != "unknown");
            CHECK(make_fault(k, t).heal == heal);
        }
}

TEST_CASE("a TaskManager kill heals in the words the shipped results record", "[faults]") {
    const std::string recorded =
        "the supervisor starts a new TaskManager; Flink restarts the job from its latest checkpoint";
    CHECK(heal_of(fault_kind::kill_taskmanager, fault_target::flink_taskmanager) == recorded);
    CHECK(heal_of(fault_kind::kill, fault_target::flink_taskmanager) == recorded);
}

TEST_CASE("the kinds shipped results name keep their names, and every kind reads back from its name", "[faults]") {
    CHECK(name_of(fault_kind::kill_taskmanager) == "kill_taskmanager");
    CHECK(name_of(fault_kind::restore_from_savepoint) == "restore_from_savepoint");
    CHECK(name_of(fault_kind::maintenance_procedure) == "maintenance_procedure");
    for (auto k : enumerators_of<fault_kind>()) CHECK(parse_name<fault_kind>(name_of(k)) == k);
    for (auto t : enumerators_of<fault_target>()) CHECK(parse_name<fault_target>(name_of(t)) == t);
    CHECK_FALSE(parse_name<fault_kind>("kill_jobmanager"));
    CHECK(result::strict_value_to<fault_kind>(boost::json::value("restore_from_savepoint")) ==
          fault_kind::restore_from_savepoint);
}

TEST_CASE("every kind belongs to the layer that applies it", "[faults]") {
    CHECK(layer_of(fault_kind::kill) == fault_layer::process);
    CHECK(layer_of(fault_kind::pause) == fault_layer::process);
    CHECK(layer_of(fault_kind::start) == fault_layer::process);
    CHECK(heal_of(fault_kind::start, fault_target::connect_worker).rfind("none: the Connect worker runs on", 0) == 0);
    CHECK(layer_of(fault_kind::http_hold_reply) == fault_layer::proxy_http);
    CHECK(layer_of(fault_kind::tcp_reset) == fault_layer::proxy_tcp);
    CHECK(layer_of(fault_kind::restore_from_savepoint) == fault_layer::flink_job);
    CHECK(layer_of(fault_kind::maintenance_procedure) == fault_layer::table);
    CHECK(layer_of(fault_kind::reconfigure) == fault_layer::admin_api);
    CHECK(layer_of(fault_kind::restart_task) == fault_layer::admin_api);
    CHECK(heal_of(fault_kind::reconfigure, fault_target::connect_worker).rfind("none: the Connect worker runs on", 0) ==
          0);
    std::size_t proxy_kinds = 0;
    for (auto k : enumerators_of<fault_kind>())
        if (layer_of(k) == fault_layer::proxy_http || layer_of(k) == fault_layer::proxy_tcp) ++proxy_kinds;
    CHECK(proxy_kinds == 9);
}

TEST_CASE("a fault that cannot be applied as given says why", "[faults]") {
    fault_parameters p;
    CHECK_FALSE(fault_problem(make_fault(fault_kind::kill, fault_target::kafka_broker, p)));
    CHECK(fault_problem(make_fault(fault_kind::pause, fault_target::kafka_broker, p)));  // no duration
    p.duration_ms = 5000;
    CHECK_FALSE(fault_problem(make_fault(fault_kind::pause, fault_target::kafka_broker, p)));
    CHECK(fault_problem(make_fault(fault_kind::http_lose_reply, fault_target::kafka_broker, p)));  // not HTTP
    CHECK_FALSE(fault_problem(make_fault(fault_kind::http_lose_reply, fault_target::iceberg_catalog, p)));
    p.status = 418;
    CHECK(fault_problem(make_fault(fault_kind::http_status, fault_target::iceberg_catalog, p)));
    p.status = 503;
    CHECK_FALSE(fault_problem(make_fault(fault_kind::http_status, fault_target::iceberg_catalog, p)));
    p.path = "([";
    CHECK(fault_problem(make_fault(fault_kind::http_delay, fault_target::iceberg_catalog, p)));
    CHECK(fault_problem(make_fault(fault_kind::tcp_bandwidth, fault_target::kafka_broker, {})));
    // Mutation: drop reconfigure's target check in fault_problem and the first line fails.
    CHECK(fault_problem(make_fault(fault_kind::reconfigure, fault_target::iceberg_catalog, {})));
    CHECK_FALSE(fault_problem(make_fault(fault_kind::reconfigure, fault_target::connect_worker, {})));
    auto healless = make_fault(fault_kind::kill, fault_target::trino);
    healless.heal.clear();
    CHECK(fault_problem(healless));
}

TEST_CASE("the same seed gives the same schedule over kinds and targets, and each delay lies in its bounds",
          "[faults]") {
    schedule_spec spec;
    spec.variants = {"a", "b"};
    spec.count = 50;
    spec.kinds = {fault_kind::kill, fault_kind::pause, fault_kind::http_lose_reply};
    spec.targets = {fault_target::iceberg_catalog, fault_target::kafka_broker};
    spec.parameters.duration_ms = 2000;
    spec.min_delay_ms = 100;
    spec.max_delay_ms = 900;
    spec.trigger = "the first checkpoint";
    const auto a = plan_faults(7, spec), b = plan_faults(7, spec);
    CHECK(a == b);
    REQUIRE(a.faults.size() == 100);
    CHECK(a.of("b").size() == 50);
    std::set<std::pair<fault_kind, fault_target>> seen;
    for (const auto& f : a.faults) {
        CHECK(f.fault.delay_ms >= 100);
        CHECK(f.fault.delay_ms <= 900);
        CHECK_FALSE(fault_problem(f.fault));
        CHECK(f.fault.heal == heal_of(f.fault.kind, f.fault.target));
        seen.insert({f.fault.kind, f.fault.target});
    }
    // Five usable pairs: the broker does not speak HTTP. In 100 draws each shows.
    CHECK(usable_pairs(spec).size() == 5);
    CHECK(seen.size() == 5);
    CHECK_FALSE(seen.count({fault_kind::http_lose_reply, fault_target::kafka_broker}));
    CHECK(plan_faults(8, spec) != a);
}

TEST_CASE("a schedule with no usable kind and target pair is refused", "[faults]") {
    schedule_spec spec;
    spec.variants = {"a"};
    spec.count = 1;
    spec.kinds = {fault_kind::http_status};  // status 0: no pair can be applied
    spec.targets = {fault_target::iceberg_catalog};
    CHECK_THROWS_AS(plan_faults(1, spec), std::invalid_argument);
}

// The same mutation as below (always draw the pair) fails this too (checked).
TEST_CASE("plan_kills draws the same plan as before it became a wrapper", "[faults]") {
    // Golden values: experiment 1's full plan as results/e1_restart_replay.json
    // records it (seed 1 ^ 0x6531, delays 0..4000).
    const auto plan = plan_kills(1u ^ 0x6531u, {"at-least-once + append"}, 2, 0, 4000, "t");
    REQUIRE(plan.steps.size() == 2);
    CHECK(plan.seed == 25904);
    CHECK(plan.steps[0].delay_ms == 682);
    CHECK(plan.steps[1].delay_ms == 431);
    CHECK(plan.steps[0].kind == fault_kind::kill_taskmanager);
    CHECK(plan.steps[1].index == 2);
}

// Mutation: in plan_faults, draw the pair even when there is one
// (`pairs[uniform_below(rng, pairs.size())]` always): every shipped kill plan
// differs from its redraw and this fails (checked).
TEST_CASE("every shipped result's fault plan is what its parameters draw today, byte for byte", "[faults]") {
    shipped_plan_is_redrawn<e1::definition>();
    shipped_plan_is_redrawn<e1b::definition>();
    shipped_plan_is_redrawn<e7::definition>();
    shipped_plan_is_redrawn<e2::definition>();
    shipped_plan_is_redrawn<e4::definition>();
}

TEST_CASE("an applied fault keeps its plan, its times and each component's notes, and reads back strictly",
          "[faults]") {
    applied_fault a;
    a.planned = {1, "v",
                 make_fault(fault_kind::http_hold_reply, fault_target::iceberg_catalog, {30000, 0, "POST", "/v1/.*"})};
    CHECK_FALSE(a.applied());
    CHECK(a.fault_lasted_ms() == -1);
    a.applied_at_ms = 1000;
    a.healed_at_ms = 4500;
    a.done = "proxy rule 1: http_hold_reply POST /v1/.*";
    a.note("flink_jobmanager", "job RESTARTING");
    a.note("flink_jobmanager", "job RUNNING");
    a.note("iceberg_catalog", "commit applied");
    CHECK(a.fault_lasted_ms() == 3500);
    CHECK(a.notes["flink_jobmanager"].size() == 2);
    const auto back = result::strict_value_to<applied_fault>(result::to_json(a));
    CHECK(back == a);
    CHECK(back.planned.step().kind == fault_kind::http_hold_reply);
}
