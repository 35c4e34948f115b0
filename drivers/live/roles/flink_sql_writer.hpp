// The writer role implemented by a Flink SQL job (Kafka source, Iceberg sink)
// submitted through the SQL Gateway. Every table and job it starts is recorded
// in `created`, so the run drops them however it ends.
#ifndef ROSTERRIG_LIVE_FLINK_SQL_WRITER_HPP
#define ROSTERRIG_LIVE_FLINK_SQL_WRITER_HPP
#include "roles/session.hpp"
#include "roles/writer.hpp"

namespace rosterrig::live {

class flink_sql_writer : public writer {
public:
    flink_sql_writer(session& s, created_resources& created) : s_(s), created_(created) {}
    std::string start(const pipeline_spec& spec, bool create_table) override;
    void stop(const std::string& job) override;
    savepoint_taken savepoint(const std::string& job) override;
    writer_in_force in_force(const std::string& job, const pipeline_spec& spec) override;

private:
    session& s_;
    created_resources& created_;
};

// One variant's pipeline and everything it creates (topic, table, jobs),
// dropped when the scope ends, however it ends.
class pipeline_scope {
public:
    explicit pipeline_scope(session& s) : created(s.stack, s.on_created, s.keep_tables), writer(s, created), s_(s) {}
    // Creates the topic and the table, submits the job, waits until it runs.
    std::string launch(const pipeline_spec& p, int partitions);

    created_resources created;
    flink_sql_writer writer;

private:
    session& s_;
};

}  // namespace rosterrig::live

#endif
