-- A template the checks cannot read: its table has no seq column, so no
-- record can be told from another. `--job` must refuse it before anything
-- is created, naming the column.
CREATE TABLE lake.${namespace}.${table} (
  npi STRING,
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

INSERT INTO lake.${namespace}.${table}
SELECT npi, name, taxonomy, address, city, state, zip, phone, status
FROM roster_feed;
