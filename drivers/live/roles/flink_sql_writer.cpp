#include "roles/flink_sql_writer.hpp"

#include "roles/job_waits.hpp"
#include "adapters/poll.hpp"
#include "runner/progress.hpp"

namespace rosterrig::live {

std::string flink_sql_writer::start(const pipeline_spec& spec, bool create_table) {
    if (create_table) created_.table(spec.ns, spec.table);  // recorded first: a failed submit may have made it
    const std::string job = submit_pipeline(s_.stack, spec, create_table);
    created_.job(job);
    return job;
}

void flink_sql_writer::stop(const std::string& job) {
    s_.flink.cancel(job);
    s_.flink.wait_for_state(job, {"CANCELED"}, std::chrono::seconds(60));
}

savepoint_taken flink_sql_writer::savepoint(const std::string& job) {
    return take_savepoint(s_.flink, job, savepoint_dir_of(s_.stack, job));
}

writer_in_force flink_sql_writer::in_force(const std::string& job, const pipeline_spec& spec) {
    writer_in_force w;
    auto c = s_.flink.checkpoint_config(job);
    w.mode = c.mode;
    w.interval_ms = c.interval_ms;
    w.edges = s_.flink.plan_edges(job);
    w.writer_input = experiment::writer_input(w.edges);
    w.unaligned = c.unaligned;
    w.aligned_checkpoint_timeout_ms = c.aligned_checkpoint_timeout_ms;
    w.checkpoint_timeout_ms = c.timeout_ms;
    w.tolerable_failed_checkpoints = c.tolerable_failed_checkpoints;
    // Iceberg 1.10's SQL path builds FlinkSink unless use-v2-sink is set; a
    // user's template may set it itself, so its sink is read from the plan.
    if (spec.job)
        w.sink = experiment::sink_in_plan(w.edges);
    else
        w.sink = spec.config.sink == experiment::iceberg_sink::sink_v2
                     ? "IcebergSink (SinkV2), table.exec.iceberg.use-v2-sink=true"
                     : "FlinkSink (IcebergFilesCommitter), table.exec.iceberg.use-v2-sink=false";
    // What decides whether a kill ends the job, and whether a replay is
    // hidden, as the components report them (the files are held offline).
    const auto [path, entries] = s_.flink.jobmanager_config(job);
    w.restart = experiment::restart_strategy_of(entries, "GET " + path);
    w.recovery = s_.recovery_in_force(entries);
    const auto table = s_.catalog.load(spec.ns, spec.table);
    if (!table.exists)
        throw live_error(s_.catalog.where(),
                         "table " + spec.ns + "." + spec.table + " of job " + job + " is not in the catalog");
    w.table = experiment::table_settings{};
    if (auto it = table.properties.find("write.upsert.enabled"); it != table.properties.end())
        w.table->write_upsert_enabled = it->second;
    w.table->format_version = table.format_version;
    w.table->identifier_fields = table.identifier_fields;
    const auto distribution = table.properties.find("write.distribution-mode");
    w.table->distribution_mode = distribution == table.properties.end() ? "(unset)" : distribution->second;
    w.table->partition_fields = table.partition_fields;
    // A user's template decides its own settings (its SETs and hints): what
    // runs is recorded as read back, never held to the rig's request.
    if (spec.job) return w;
    const std::string want_mode(flink_reported(spec.config.mode));
    if (spec.config.unaligned_checkpoints && !c.unaligned)
        throw live_error(s_.flink.where(),
                         "job " + job + " runs with aligned checkpoints; unaligned ones were requested");
    if (spec.config.checkpoint_timeout_ms > 0 && c.timeout_ms != spec.config.checkpoint_timeout_ms)
        throw live_error(s_.flink.where(), "job " + job + " runs with a checkpoint timeout of " +
                                               std::to_string(c.timeout_ms) + " ms, not the requested " +
                                               std::to_string(spec.config.checkpoint_timeout_ms) + " ms");
    if (spec.config.tolerable_failed_checkpoints >= 0 &&
        c.tolerable_failed_checkpoints != spec.config.tolerable_failed_checkpoints)
        throw live_error(s_.flink.where(), "job " + job + " tolerates " +
                                               std::to_string(c.tolerable_failed_checkpoints) +
                                               " failed checkpoints, not the requested " +
                                               std::to_string(spec.config.tolerable_failed_checkpoints));
    if (spec.config.writer_parallelism > 0) {
        const auto f = experiment::fan_in_of(w.edges);
        if (f.writer_parallelism != spec.config.writer_parallelism)
            throw live_error(s_.flink.where(), "job " + job + "'s writer runs at parallelism " +
                                                   std::to_string(f.writer_parallelism) + ", not the requested " +
                                                   std::to_string(spec.config.writer_parallelism) +
                                                   " (plan: " + w.writer_input + ")");
    }
    if (w.mode != want_mode || w.interval_ms != spec.config.checkpoint_interval_ms)
        throw live_error(s_.flink.where(), "job " + job + " runs with mode " + w.mode + " and interval " +
                                               std::to_string(w.interval_ms) + " ms, not the requested " + want_mode +
                                               " / " + std::to_string(spec.config.checkpoint_interval_ms) + " ms");
    return w;
}

std::string pipeline_scope::launch(const pipeline_spec& p, int partitions) {
    created.topic(p.topic);
    s_.admin.create_topic(p.topic, partitions);
    const std::string job = writer.start(p, true);
    wait_all_running(s_.flink, job, std::chrono::seconds(120));
    return job;
}

}  // namespace rosterrig::live
