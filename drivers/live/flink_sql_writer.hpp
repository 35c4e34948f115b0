// The writer role implemented by a Flink SQL job (Kafka source, Iceberg sink)
// submitted through the SQL Gateway. Every table and job it starts is recorded
// in `created`, so the run drops them however it ends.
#pragma once
#include "session.hpp"
#include "writer.hpp"

namespace rosterrig::live {

class flink_sql_writer : public writer {
public:
    flink_sql_writer(session& s, created_resources& created) : s_(s), created_(created) {}
    std::string start(const pipeline_spec& spec, bool create_table) override;
    void stop(const std::string& job) override;
    std::string savepoint(const std::string& job) override;
    writer_in_force in_force(const std::string& job, const pipeline_spec& spec) override;

private:
    session& s_;
    created_resources& created_;
};

}  // namespace rosterrig::live
