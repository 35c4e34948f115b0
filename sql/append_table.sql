-- Append: every assertion is a row; seq is the record's identity.
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
  status STRING
) WITH (
  'format-version' = '2',
  'location' = '${location}'
);
