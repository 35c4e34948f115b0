-- The roster record's columns, shared by the Kafka source and both table
-- shapes (filled in as ${roster_columns}); the feed's `partition` field is
-- not among them: Kafka's own partition is where the record is.
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
