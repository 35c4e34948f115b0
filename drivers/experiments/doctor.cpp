// rosterrig-doctor (also `rosterrig doctor`): can the rig run against this
// stack? One line per check: every endpoint answers, with the version it
// reports; Kafka takes a topic create and delete with the described client
// settings; Flink's SQL Gateway can plan a Kafka source and open the Iceberg
// catalog (the connector and Iceberg jars are there); the catalog takes a
// table create and drop in the rig's namespace; Trino sees that namespace;
// the object store lists the bucket; each fault command is executable.
// With --job FILE, a user's job template is planned the way `--job` plans it
// before a run (docs/YOUR_JOB.md): what it creates, what it runs.
// Exit 0 when all pass, 1 naming the first failing component, 2 for bad input
// (a template the checks cannot read among it).
// Everything a check creates carries the topic prefix or namespace and this
// run's id, and only that is dropped.
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <unistd.h>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/engine/flink_sql_text.hpp>

#include "roles/fault_commands.hpp"
#include "adapters/flink_rest.hpp"
#include "adapters/iceberg_catalog.hpp"
#include "roles/job_template_plan.hpp"
#include "adapters/kafka_admin.hpp"
#include "roles/pipeline.hpp"
#include "adapters/process_fault.hpp"
#include "adapters/s3_client.hpp"
#include "adapters/sql_gateway.hpp"
#include "adapters/stack_config.hpp"
#include "adapters/trino_client.hpp"

using namespace rosterrig;
using namespace rosterrig::live;

namespace {

struct check {
    std::string component;
    std::function<std::string()> run;  // what it found; throws what went wrong
};

// Whether argv[0] of a fault command can be run: an executable file, or a name found in PATH.
std::string executable(const stack_config& stack, const std::vector<std::string>& argv) {
    const auto program = fault_program(stack, argv.front());
    namespace fs = std::filesystem;
    if (program.find('/') != std::string::npos) {
        if (::access(program.c_str(), X_OK) != 0) throw std::runtime_error(program + " is not an executable file");
        return program;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (std::size_t start = 0; start <= dirs.size();) {
        const auto end = std::min(dirs.find(':', start), dirs.size());
        const auto candidate = fs::path(dirs.substr(start, end - start)) / program;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
        start = end + 1;
    }
    throw std::runtime_error(program + " is not found in PATH");
}

std::vector<check> checks(const stack_config& stack, const std::string& run_id) {
    const auto& d = stack.described;
    const std::string topic = d.topic_prefix + "doctor_" + run_id, table = "doctor_" + run_id;
    std::vector<check> out;
    out.push_back({"kafka", [&stack, topic] {
                       kafka_admin admin(stack.kafka());
                       admin.create_topic(topic, 1);
                       admin.delete_topic(topic);
                       const auto protocol = stack.described.kafka_client.count("security.protocol")
                                                 ? stack.described.kafka_client.at("security.protocol")
                                                 : std::string("PLAINTEXT");
                       return "created and deleted topic " + topic + " at " + stack.kafka().where() + " (" + protocol +
                              "); the broker reports no version over the network";
                   }});
    out.push_back({"flink-jobmanager", [&stack] {
                       const flink_rest flink(stack.flink());
                       return "Flink " + flink.version() + ", " + std::to_string(flink.registered_taskmanagers()) +
                              " TaskManagers, " + std::to_string(flink.total_slots()) + " slots";
                   }});
    out.push_back({"flink-sql-gateway", [&stack, topic] {
                       sql_gateway gateway(stack.sql_gateway());
                       const auto version = gateway.version();
                       gateway.open();
                       // Planning a Kafka source needs the Kafka connector; opening the catalog needs Iceberg's jars.
                       gateway.execute_script(fill_template(read_sql(stack, "catalog.sql"),
                                                            catalog_template_values(stack, stack.described.ns)));
                       gateway.execute(
                           "CREATE TEMPORARY TABLE doctor_probe (x BIGINT) WITH ('connector' = 'kafka', "
                           "'topic' = '" +
                           topic + "', 'properties.bootstrap.servers' = '" +
                           engine::sql_string_body(stack.described.kafka_bootstrap_from_flink) + "',\n" +
                           flink_kafka_properties(stack) +
                           "'scan.startup.mode' = 'earliest-offset', 'format' = 'json')");
                       gateway.execute("EXPLAIN SELECT x FROM doctor_probe");
                       gateway.execute("SHOW TABLES IN lake." + stack.described.ns);
                       gateway.close();
                       return "SQL Gateway " + version + " planned a Kafka source and opened catalog namespace " +
                              stack.described.ns + " (connector and Iceberg jars present)";
                   }});
    out.push_back(
        {"iceberg-rest-catalog", [&stack, table] {
             const iceberg_catalog catalog(stack.catalog());
             const auto& ns = stack.described.ns;
             catalog.create_namespace(ns);
             catalog.create_probe_table(ns, table, "s3://" + stack.described.bucket + "/warehouse/" + ns + "/" + table);
             const auto listed = catalog.list_tables(ns);
             catalog.drop_table(ns, table);  // the one this check created, by its recorded name
             if (std::find(listed.begin(), listed.end(), table) == listed.end())
                 throw std::runtime_error("created " + ns + "." + table + " but the catalog does not list it");
             return "created, listed and dropped " + ns + "." + table;
         }});
    out.push_back({"trino", [&stack] {
                       const trino_client trino(stack.trino(), stack.described.trino_user);
                       const auto version = trino.version();
                       bool seen = false;
                       for (const auto& row : trino.query("SHOW SCHEMAS FROM iceberg").rows)
                           seen =
                               seen || (!row.empty() && row[0].is_string() && row[0].as_string() == stack.described.ns);
                       if (!seen)
                           throw std::runtime_error("Trino " + version + " does not see namespace " +
                                                    stack.described.ns + " in its catalog iceberg");
                       return "Trino " + version + " sees iceberg." + stack.described.ns + " as user " +
                              stack.described.trino_user;
                   }});
    out.push_back({"s3", [&stack] {
                       const s3_client store(stack.s3(), stack.described.region, stack.described.access_key,
                                             stack.described.secret_key);
                       const auto objects =
                           store.list_objects(stack.described.bucket, "warehouse/" + stack.described.ns + "/");
                       return "listed s3://" + stack.described.bucket + "/warehouse/" + stack.described.ns + "/ (" +
                              std::to_string(objects.size()) + " objects)";
                   }});
    out.push_back({"faults", [&stack] {
                       std::string found;
                       for (const auto& kind : stack::known_fault_kinds()) {
                           const auto* c = fault_commands_for(stack, kind);
                           found += (found.empty() ? "" : "; ") + kind + ": ";
                           if (!c) {
                               found += stack.local()
                                            ? "built in (SIGKILL by the stack's pid file)"
                                            : "no command given: only this checkout's own stack can be killed";
                               continue;
                           }
                           found += executable(stack, c->command);
                           if (!c->came_back.empty()) found += ", came_back " + executable(stack, c->came_back);
                       }
                       // Each component target's process faults (kill, pause, resume, start).
                       for (const auto& [target, actions] : stack.described.process_faults)
                           for (const auto& [action, c] : actions) {
                               found += "; " + target + "." + action + ": " + executable(stack, c.command);
                               if (!c.came_back.empty()) found += ", came_back " + executable(stack, c.came_back);
                           }
                       return found;
                   }});
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::string stack_file;
    cli::arg_parser args{"rosterrig doctor",
                         "Checks that the rig can run against a stack: every endpoint, the jars, "
                         "the catalog, Trino, the store and the fault commands."};
    args.option("--stack", stack_file, "FILE",
                "the stack, described in a file (docs/STACK.md; default: the local stack)");
    std::string job_file;
    args.option("--job", job_file, "FILE", "also plan this job template as `--job FILE` would (docs/YOUR_JOB.md)");
    try {
        if (!args.parse(argc, argv)) return 0;
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig doctor: " << e.what() << "\n" << args.usage();
        return 2;
    }
    stack_config stack;
    try {
        stack = stack_config::load(stack_file);
    } catch (const std::exception& e) {
        std::cerr << "rosterrig doctor: --stack: " << e.what() << "\n";
        return 2;
    }
    std::optional<experiment::job_template> job;
    if (!job_file.empty()) {
        try {
            job = read_job_template(job_file);
        } catch (const template_refused& e) {
            std::cerr << "rosterrig doctor: " << e.what() << "\n";
            return 2;
        }
    }
    std::cout << "stack: " << stack.described.name << "\n";
    const std::string run_id = std::to_string(::getpid()) + "_" + std::to_string(now_ms() % 100000000);
    std::string first_failing;
    for (const auto& c : checks(stack, run_id)) {
        std::string line;
        try {
            line = "ok    " + c.component + ": " + c.run();
        } catch (const std::exception& e) {
            line = "FAIL  " + c.component + ": " + e.what();
            if (first_failing.empty()) first_failing = c.component;
        }
        std::cout << stack.described.redact(line) << std::endl;
    }
    if (job) {
        // Planned with the session experiment 1 gives it: exactly-once every 2 s, parallelism 2.
        try {
            const auto plan = plan_job_template(stack, *job, experiment::pipeline_config{});
            std::string columns;
            for (const auto& c : plan.columns) columns += (columns.empty() ? "" : ", ") + c.name + " " + c.type;
            std::cout << "ok    job template " << job->name << ": " << experiment::name_of(plan.kind) << " table ("
                      << columns << "), " << plan.sink << ", writer input "
                      << experiment::fan_in_text(experiment::fan_in_of(plan.edges))
                      << "\n      as Flink holds the table:\n"
                      << plan.create_table << std::endl;
        } catch (const template_refused& e) {
            std::cout << "FAIL  job template: " << e.what() << std::endl;
            std::cerr << "rosterrig doctor: the job template cannot run under the rig\n";
            return 2;
        } catch (const std::exception& e) {
            std::cout << stack.described.redact("FAIL  job template: " + std::string(e.what())) << std::endl;
            if (first_failing.empty()) first_failing = "job template";
        }
    }
    if (first_failing.empty()) return 0;
    std::cerr << "rosterrig doctor: the first failing component: " << first_failing << "\n";
    return 1;
}
