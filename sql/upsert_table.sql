-- Upsert on the natural key: the primary key and write.upsert.enabled together
-- make the sink write an equality delete for the NPI before each row.
CREATE TABLE lake.${namespace}.${table} (
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
  status STRING,
  PRIMARY KEY (npi) NOT ENFORCED
) WITH (
  'format-version' = '2',
  'write.upsert.enabled' = 'true',
  'location' = '${location}'
);
