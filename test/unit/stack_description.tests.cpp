// The stack description: read strictly, secrets from the environment and never
// printed, fault commands checked when the file is read.
#include <catch2/catch.hpp>

#include <rosterrig/stack/description.hpp>
#include <rosterrig/stack/fault_command.hpp>
#include <rosterrig/stack/local_process.hpp>

using namespace rosterrig;
using stack::description_error;

namespace {
const char* minimal = R"({
  "kafka": {"bootstrap": "localhost:29094",
            "client": {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "PLAIN",
                       "sasl.username": "rosterrig", "sasl.password": {"env": "RR_TEST_KAFKA_PASSWORD"}},
            "flink_client": {"sasl.jaas.config": "PlainLoginModule required username=\"rosterrig\" password=\"${env:RR_TEST_KAFKA_PASSWORD}\";"}},
  "flink": {"address": "127.0.0.1:28081"},
  "sql_gateway": {"address": "localhost:28083"},
  "catalog": {"address": "127.0.0.1:28181"},
  "trino": {"address": "localhost:28080", "user": "analyst"},
  "object_store": {"address": "127.0.0.1:29000", "region": "us-east-1", "bucket": "b",
                   "access_key": "rosterrig", "secret_key": {"env": "RR_TEST_S3_SECRET"}},
  "names": {"topic_prefix": "team_rr_", "ns": "team_lake"},
  "faults": {"kill_taskmanager": {"command": ["./kill-tm", "{taskmanager.data_port}"], "deadline_seconds": 30}}
})";

stack::environment_lookup env_with(std::map<std::string, std::string> vars) {
    return [vars](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
}

stack::description read(const std::string& text, stack::environment_lookup env) {
    return stack::resolve(result::strict_value_to<stack::description_file>(boost::json::parse(text), "t.json"),
                          "t.json", std::move(env));
}
}  // namespace

TEST_CASE("a description gives each component its own host spelling and takes secrets from the environment",
          "[stack]") {
    const auto d =
        read(minimal, env_with({{"RR_TEST_KAFKA_PASSWORD", "kafka-pw-1"}, {"RR_TEST_S3_SECRET", "s3-pw-2"}}));
    CHECK(d.kafka_bootstrap == "localhost:29094");
    CHECK(d.kafka_bootstrap_from_flink == "localhost:29094");
    CHECK(d.flink.where() == "127.0.0.1:28081");
    CHECK(d.sql_gateway.host == "localhost");
    CHECK(d.trino.where() == "localhost:28080");
    CHECK(d.trino_user == "analyst");
    CHECK(d.kafka_client.at("sasl.password") == "kafka-pw-1");
    CHECK(d.kafka_flink_client.at("sasl.jaas.config") ==
          "PlainLoginModule required username=\"rosterrig\" password=\"kafka-pw-1\";");
    CHECK(d.secret_key == "s3-pw-2");
    CHECK(d.topic_prefix == "team_rr_");
    CHECK(d.ns == "team_lake");
    CHECK(d.job_prefix == "rosterrig");
    CHECK(d.faults.at("kill_taskmanager").deadline_seconds == 30);
}

TEST_CASE("no secret survives redaction, whether from the environment or inline under a secret-looking key",
          "[stack]") {
    std::string text = minimal;
    text.replace(text.find("\"access_key\": \"rosterrig\""), 25, "\"access_key\": \"AKIDPLAIN\"");
    const auto d = read(text, env_with({{"RR_TEST_KAFKA_PASSWORD", "kafka-pw-1"}, {"RR_TEST_S3_SECRET", "s3-pw-2"}}));
    const auto printed = d.redact("auth failed for kafka-pw-1; s3 key s3-pw-2, id AKIDPLAIN");
    // Mutation: skip secrets.push_back for environment values and this fails.
    CHECK(printed.find("kafka-pw-1") == std::string::npos);
    CHECK(printed.find("s3-pw-2") == std::string::npos);
    CHECK(printed.find("AKIDPLAIN") != std::string::npos);  // an access key id is not a secret
    CHECK(stack::secret_looking("sasl.password"));
    CHECK(stack::secret_looking("sasl.jaas.config"));
    CHECK_FALSE(stack::secret_looking("sasl.username"));
}

TEST_CASE("an unset environment variable is named, and its would-be value is not needed to say so", "[stack]") {
    try {
        read(minimal, env_with({{"RR_TEST_S3_SECRET", "s3-pw-2"}}));
        FAIL("an unset variable was accepted");
    } catch (const description_error& e) {
        CHECK(std::string(e.what()) ==
              "t.json: $.kafka.client.sasl.password: environment variable RR_TEST_KAFKA_PASSWORD is not set");
    }
}

TEST_CASE(
    "a misspelt member, a bad address, an unknown fault kind or a name outside [a-z0-9_] is refused with its path",
    "[stack]") {
    const auto env = env_with({{"RR_TEST_KAFKA_PASSWORD", "p"}, {"RR_TEST_S3_SECRET", "s"}});
    auto refused = [&](std::string from, std::string to) {
        std::string text = minimal;
        const auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
        try {
            read(text, env);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refused("\"trino\": {\"address\"", "\"trino\": {\"adress\"").find("$.trino") != std::string::npos);
    CHECK(refused("127.0.0.1:28081", "127.0.0.1") == "t.json: $.flink.address: expected host:port, got \"127.0.0.1\"");
    CHECK(refused("localhost:28083", "localhost:8o83") ==
          "t.json: $.sql_gateway.address: \"8o83\" is not a port number");
    CHECK(refused("\"kill_taskmanager\"", "\"kill_broker\"") ==
          "t.json: $.faults.kill_broker: no such fault kind (known: kill_taskmanager)");
    CHECK(refused("team_lake", "team-lake") == "t.json: $.names.ns: \"team-lake\" may hold only a-z, 0-9 and _");
    CHECK(refused("\"security.protocol\"", "\"bootstrap.servers\"") ==
          "t.json: $.kafka.client.bootstrap.servers: the rig sets this itself");
}

TEST_CASE("a fault command's placeholders are filled from the target, and an unknown one fails when the file is read",
          "[stack]") {
    const auto d = read(minimal, env_with({{"RR_TEST_KAFKA_PASSWORD", "p"}, {"RR_TEST_S3_SECRET", "s"}}));
    const auto argv = stack::fill_placeholders(d.faults.at("kill_taskmanager").command,
                                               {{"taskmanager.data_port", "26130"}, {"taskmanager.id", "x"}});
    CHECK(argv == std::vector<std::string>{"./kill-tm", "26130"});
    CHECK_NOTHROW(stack::check_placeholders(d));
    auto typo = d;
    typo.faults["kill_taskmanager"].came_back = {"kubectl", "get", "pod", "{taskmanager.hostname}"};
    // Mutation: pass unknown placeholders through unchanged and this fails.
    CHECK_THROWS_WITH(stack::check_placeholders(typo), Catch::Contains("unknown placeholder {taskmanager.hostname}"));
    CHECK_THROWS_WITH(stack::fill_placeholders("{job.id", {{"job.id", "j"}}), Catch::Contains("unclosed {"));
}

namespace {
// The minimal description with a process_faults member added.
std::string with_process_faults(const std::string& process_faults) {
    std::string text = minimal;
    const auto end = text.rfind('}');
    return text.substr(0, end) + ",\n  \"process_faults\": " + process_faults + "\n}";
}
const char* catalog_and_jobmanager = R"({
    "iceberg_catalog": {"pause": {"command": ["docker", "pause", "catalog-{component.port}"]},
                        "resume": {"command": ["docker", "unpause", "catalog-{component.port}"]},
                        "kill": {"command": ["./kill", "{component.name}", "{component.host}"],
                                 "came_back": ["curl", "-fs", "http://{component.host}:{component.port}/v1/config"]}},
    "flink_jobmanager": {"kill": {"command": ["kubectl", "delete", "pod", "jm"]},
                         "start": {"command": ["kubectl", "apply", "-f", "jm.yaml"], "deadline_seconds": 120}}
  })";
std::string refusal(const std::string& text) {
    try {
        const auto d = read(text, env_with({{"RR_TEST_KAFKA_PASSWORD", "p"}, {"RR_TEST_S3_SECRET", "s"}}));
        stack::check_placeholders(d);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "accepted";
}
}  // namespace

TEST_CASE("a description gives a component target its own kill, pause, resume and start commands", "[stack]") {
    const auto d = read(with_process_faults(catalog_and_jobmanager),
                        env_with({{"RR_TEST_KAFKA_PASSWORD", "p"}, {"RR_TEST_S3_SECRET", "s"}}));
    CHECK_NOTHROW(stack::check_placeholders(d));
    using experiment::fault_target;
    const auto* pause = stack::commands_for(d, fault_target::iceberg_catalog, "pause");
    const auto* start = stack::commands_for(d, fault_target::flink_jobmanager, "start");
    REQUIRE(pause);
    REQUIRE(start);
    CHECK(pause->command == std::vector<std::string>{"docker", "pause", "catalog-{component.port}"});
    CHECK(start->deadline_seconds == 120);
    CHECK(stack::commands_for(d, fault_target::iceberg_catalog, "kill")->came_back.size() == 3);
    // Mutation: return nullptr from commands_for for any action but kill and this fails.
    CHECK(stack::commands_for(d, fault_target::iceberg_catalog, "resume") != nullptr);
    CHECK(stack::commands_for(d, fault_target::flink_jobmanager, "pause") == nullptr);
    CHECK(stack::commands_for(d, fault_target::trino, "kill") == nullptr);
}

TEST_CASE("the TaskManager's kill is still faults.kill_taskmanager, found under the one interface's name too",
          "[stack]") {
    const auto d = read(minimal, env_with({{"RR_TEST_KAFKA_PASSWORD", "p"}, {"RR_TEST_S3_SECRET", "s"}}));
    const auto* kill = stack::commands_for(d, experiment::fault_target::flink_taskmanager, "kill");
    // Mutation: drop the kill_taskmanager fallback in commands_for and this fails.
    REQUIRE(kill);
    CHECK(kill->command == std::vector<std::string>{"./kill-tm", "{taskmanager.data_port}"});
    CHECK(kill == &d.faults.at("kill_taskmanager"));
    CHECK(stack::commands_for(d, experiment::fault_target::flink_taskmanager, "pause") == nullptr);
    // Both at once would leave the rig to guess which one runs.
    CHECK(refusal(with_process_faults(R"({"flink_taskmanager": {"kill": {"command": ["./other-kill"]}}})")) ==
          "t.json: $.process_faults.flink_taskmanager.kill: the TaskManager's kill is given twice "
          "(faults.kill_taskmanager too): keep one");
}

TEST_CASE("an unknown target or action, a pause without its resume or a bad placeholder fails when read", "[stack]") {
    // Mutation: skip the parse_name check of the target in resolve and this fails.
    CHECK(refusal(with_process_faults(R"({"iceberg_catalogue": {"kill": {"command": ["k"]}}})")) ==
          "t.json: $.process_faults.iceberg_catalogue: no such fault target (known: flink_jobmanager, "
          "flink_taskmanager, sql_gateway, iceberg_catalog, object_store, kafka_broker, connect_worker, trino)");
    CHECK_THAT(refusal(with_process_faults(R"({"trino": {"restart": {"command": ["k"]}}})")),
               Catch::Contains("$.process_faults.trino") && Catch::Contains("restart"));
    // Mutation: drop the check that a pause has its resume and this fails.
    CHECK(refusal(with_process_faults(R"({"trino": {"pause": {"command": ["p"]}}})")) ==
          "t.json: $.process_faults.trino.pause: a pause needs its resume command (the heal)");
    CHECK(refusal(with_process_faults(R"({"trino": {}})")) ==
          "t.json: $.process_faults.trino: no command (give kill, pause, resume or start)");
    CHECK(refusal(with_process_faults(R"({"trino": {"kill": {"command": []}}})")) ==
          "t.json: $.process_faults.trino.kill.command: empty");
    // Mutation: check process_faults' commands against the TaskManager's placeholders and this fails.
    CHECK_THAT(
        refusal(with_process_faults(R"({"trino": {"kill": {"command": ["k", "{taskmanager.host}"]}}})")),
        Catch::Contains("process_faults.trino.kill") && Catch::Contains("unknown placeholder {taskmanager.host}"));
    // The Connect worker has no address in a description: its name only.
    CHECK_THAT(refusal(with_process_faults(R"({"connect_worker": {"kill": {"command": ["k", "{component.host}"]}}})")),
               Catch::Contains("unknown placeholder {component.host}"));
    CHECK(refusal(with_process_faults(R"({"connect_worker": {"kill": {"command": ["k", "{component.name}"]}}})")) ==
          "accepted");
    CHECK(refusal(with_process_faults(
              R"({"flink_taskmanager": {"pause": {"command": ["p", "{taskmanager.host}", "{component.name}"]},
                                        "resume": {"command": ["r", "{taskmanager.host}"]}}})")) == "accepted");
}

TEST_CASE("a process fault's component placeholders are filled from the description's address for that target",
          "[stack]") {
    const auto d = read(minimal, env_with({{"RR_TEST_KAFKA_PASSWORD", "p"}, {"RR_TEST_S3_SECRET", "s"}}));
    using experiment::fault_target;
    const std::vector<std::string> argv{"./fault", "{component.name}", "{component.host}:{component.port}"};
    // Mutation: fill {component.*} from the flink endpoint for every target and this fails.
    CHECK(stack::fill_placeholders(argv, stack::component_placeholders(d, fault_target::iceberg_catalog)) ==
          std::vector<std::string>{"./fault", "iceberg_catalog", "127.0.0.1:28181"});
    CHECK(stack::fill_placeholders(argv, stack::component_placeholders(d, fault_target::flink_jobmanager)) ==
          std::vector<std::string>{"./fault", "flink_jobmanager", "127.0.0.1:28081"});
    CHECK(stack::fill_placeholders(argv, stack::component_placeholders(d, fault_target::trino)) ==
          std::vector<std::string>{"./fault", "trino", "localhost:28080"});
    // The broker: the first of the bootstrap list.
    CHECK(stack::fill_placeholders(argv, stack::component_placeholders(d, fault_target::kafka_broker)) ==
          std::vector<std::string>{"./fault", "kafka_broker", "localhost:29094"});
    CHECK(stack::component_placeholders(d, fault_target::connect_worker).count("component.host") == 0);
}

TEST_CASE("a kill is healed by the supervisor only where the local stack supervises, else the experiment starts it",
          "[stack]") {
    using experiment::fault_target;
    using stack::kill_heal;
    // Mutation: mark the JobManager supervised in local_process_of and this fails.
    CHECK(stack::heal_of_kill(fault_target::flink_jobmanager, false, false) == kill_heal::experiment_starts);
    CHECK(stack::heal_of_kill(fault_target::flink_taskmanager, false, false) == kill_heal::supervisor_replaces);
    CHECK(stack::heal_of_kill(fault_target::connect_worker, false, false) == kill_heal::supervisor_replaces);
    for (auto t : {fault_target::sql_gateway, fault_target::iceberg_catalog, fault_target::object_store,
                   fault_target::kafka_broker, fault_target::trino})
        CHECK(stack::heal_of_kill(t, false, false) == kill_heal::experiment_starts);
    // Mutation: ignore `described` in heal_of_kill and this fails.
    CHECK(stack::heal_of_kill(fault_target::flink_taskmanager, true, false) == kill_heal::cluster_brings_back);
    CHECK(stack::heal_of_kill(fault_target::flink_jobmanager, true, true) == kill_heal::experiment_starts);
    // What compose/stack names: the pid file and the component `up` takes.
    CHECK(stack::local_process_of(fault_target::flink_jobmanager).pid_name == "flink-jobmanager");
    CHECK(stack::local_process_of(fault_target::flink_jobmanager).component == "flink");
    // Mutation: start every process with `up <component>` and the extra worker's case fails
    // (`compose/stack up connect` starts worker 1 only).
    CHECK(stack::start_arguments(fault_target::connect_worker, "connect-w2") ==
          std::vector<std::string>{"connect-worker", "up", "2"});
    CHECK(stack::start_arguments(fault_target::connect_worker, "connect") == std::vector<std::string>{"up", "connect"});
    CHECK(stack::start_arguments(fault_target::flink_taskmanager, "flink-taskmanager-2") ==
          std::vector<std::string>{"up", "flink"});
    CHECK(stack::supervisor_stop_flag("connect-w2") == "connect-w2.stop");
    CHECK(stack::local_process_of(fault_target::sql_gateway).pid_name == "flink-sql-gateway");
    CHECK(stack::local_process_of(fault_target::object_store).pid_name == "s3");
    CHECK(stack::local_process_of(fault_target::iceberg_catalog).component == "catalog");
}
