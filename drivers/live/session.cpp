#include "session.hpp"

#include <cctype>
#include <unistd.h>

#include "process_fault.hpp"

namespace rosterrig::live {

session::session(stack_config s, std::string experiment_tag)
    : stack(std::move(s)),
      flink(stack.flink()),
      trino(stack.trino()),
      admin(stack.kafka()),
      catalog(stack.catalog()),
      run_id(std::to_string(::getpid()) + "_" + std::to_string(now_ms() % 100000000)),
      tag_(std::move(experiment_tag)) {}

pipeline_spec session::pipeline(const std::string& label, const experiment::pipeline_config& config) const {
    std::string safe;
    for (char c : label) {
        const auto u = static_cast<unsigned char>(c);
        safe += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
    }
    pipeline_spec p;
    p.topic = "rr_" + tag_ + "_" + safe + "_" + run_id;
    p.group = p.topic;
    p.table = tag_ + "_" + safe + "_" + run_id;
    p.config = config;
    return p;
}

component_address session::taskmanager() const {
    return {"flink-taskmanager", stack.get("RR_HOST"),
            static_cast<unsigned short>(std::stoi(stack.get("RR_FLINK_TM_RPC_PORT"))),
            stack.log_file("flink-taskmanager")};
}

}  // namespace rosterrig::live
