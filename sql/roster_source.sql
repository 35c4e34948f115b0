-- The roster feed as a Kafka source. The message's `partition` field is not
-- read: Kafka's own partition is where the record is. Offsets are committed to
-- the group on every completed checkpoint, which makes them monitoring, not the
-- position the job recovers from.
CREATE TEMPORARY TABLE roster_feed (
  seq BIGINT,
  npi STRING,
  source STRING,
  revision INT,
  asserted_at STRING,
  name STRING,
  taxonomy STRING,
  address STRING,
  city STRING,
  state STRING,
  zip STRING,
  phone STRING,
  status STRING
) WITH (
  'connector' = 'kafka',
  'topic' = '${topic}',
  'properties.bootstrap.servers' = '${bootstrap}',
  'properties.group.id' = '${group}',
  'scan.startup.mode' = '${startup_mode}',
  'format' = 'json',
  'json.fail-on-missing-field' = 'true'
);
