// rosterrig/experiment/pipeline_config.hpp: the configuration of the pipeline
// under test, typed. Each enumerator's name is its JSON name in results files
// ("append", "s3", ...), so results written as strings before read back.
#ifndef ROSTERRIG_EXPERIMENT_PIPELINE_CONFIG_HPP
#define ROSTERRIG_EXPERIMENT_PIPELINE_CONFIG_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/describe.hpp>

#include "rosterrig/experiment/enum_names.hpp"

namespace rosterrig::experiment {

enum class table_kind { append, upsert };  // upsert: primary key npi, write.upsert.enabled
BOOST_DESCRIBE_ENUM(table_kind, append, upsert)

enum class checkpoint_mode { at_least_once, exactly_once };
BOOST_DESCRIBE_ENUM(checkpoint_mode, at_least_once, exactly_once)

// flink_sink: Iceberg's FlinkSink (IcebergFilesCommitter), what the SQL path
// builds by default; sink_v2: IcebergSink, table.exec.iceberg.use-v2-sink=true.
enum class iceberg_sink { flink_sink, sink_v2 };
BOOST_DESCRIBE_ENUM(iceberg_sink, flink_sink, sink_v2)

enum class warehouse { s3, local };  // object store, or a local filesystem that materializes partial files
BOOST_DESCRIBE_ENUM(warehouse, s3, local)

enum class startup_mode { earliest_offset, group_offsets };
BOOST_DESCRIBE_ENUM(startup_mode, earliest_offset, group_offsets)

/// What Flink's SQL option execution.checkpointing.mode takes.
constexpr std::string_view flink_option(checkpoint_mode m) {
    return m == checkpoint_mode::at_least_once ? "AT_LEAST_ONCE" : "EXACTLY_ONCE";
}
/// How Flink's REST API reports the mode in force (/jobs/:id/checkpoints/config).
constexpr std::string_view flink_reported(checkpoint_mode m) {
    return m == checkpoint_mode::at_least_once ? "at_least_once" : "exactly_once";
}
/// What the Kafka source's scan.startup.mode takes.
constexpr std::string_view flink_option(startup_mode m) {
    return m == startup_mode::earliest_offset ? "earliest-offset" : "group-offsets";
}
struct pipeline_config {
    table_kind table = table_kind::append;
    checkpoint_mode mode = checkpoint_mode::exactly_once;
    iceberg_sink sink = iceberg_sink::flink_sink;
    experiment::warehouse store = warehouse::s3;
    startup_mode startup = startup_mode::earliest_offset;
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t parallelism = 2;
    std::int64_t writer_parallelism = 0;     ///< the Iceberg writer's own ('write-parallelism'); 0: the job's
    bool unaligned_checkpoints = false;      ///< execution.checkpointing.unaligned.enabled (exactly-once only)
    std::int64_t checkpoint_timeout_ms = 0;  ///< execution.checkpointing.timeout; 0: Flink's default (10 min)
    std::int64_t tolerable_failed_checkpoints =
        -1;  ///< execution.checkpointing.tolerable-failed-checkpoints; -1: unset
};
BOOST_DESCRIBE_STRUCT(pipeline_config, (),
                      (table, mode, sink, store, startup, checkpoint_interval_ms, parallelism, writer_parallelism,
                       unaligned_checkpoints, checkpoint_timeout_ms, tolerable_failed_checkpoints))

}  // namespace rosterrig::experiment

#endif
