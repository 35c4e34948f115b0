-- The roster feed as a Kafka source. Offsets are committed to
-- the group on every completed checkpoint, which makes them monitoring, not the
-- position the job recovers from.
CREATE TEMPORARY TABLE roster_feed (
${roster_columns}
) WITH (
  'connector' = 'kafka',
  'topic' = '${topic}',
  'properties.bootstrap.servers' = '${bootstrap}',
  'properties.group.id' = '${group}',
  'scan.startup.mode' = '${startup_mode}',
${kafka_properties}
  'format' = 'json',
  'json.fail-on-missing-field' = 'true'
);
