-- A job template for --job on experiments 8 and 1b (test/live/e8_your_job.sh,
-- test/live/e1b_your_job.sh): the roster feed landed in an append table
-- partitioned by state and written as zstd-compressed Parquet, by Iceberg's
-- FlinkSink (the default sink), through the catalog the rig provides (which
-- experiment 8 puts behind its fault proxy), with the experiment's own INSERT
-- hint (experiment 1b sets the writer's parallelism there).
CREATE TABLE lake.${namespace}.${table} (
${roster_columns}
) PARTITIONED BY (state) WITH (
  'format-version' = '2',
  'write.parquet.compression-codec' = 'zstd',
  'location' = '${location}'
);

INSERT INTO lake.${namespace}.${table}${sink_hints}
SELECT seq, npi, source, revision, asserted_at, name, taxonomy, address, city, state, zip, phone, status
FROM roster_feed;
