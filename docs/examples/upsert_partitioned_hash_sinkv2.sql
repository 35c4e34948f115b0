-- A job template for `--job` (docs/YOUR_JOB.md): the roster feed landed in an
-- upsert table keyed on the NPI, partitioned by a shard derived from it
-- (Iceberg's upsert needs every partition column in the key), rows
-- hash-distributed to the writer by partition, written by Iceberg's SinkV2
-- with the writer at parallelism 4. The rig provides the catalog `lake` and
-- the feed `roster_feed`, and fills in each placeholder before Flink sees it.
SET 'table.exec.iceberg.use-v2-sink' = 'true';

CREATE TABLE lake.${namespace}.${table} (
${roster_columns},
  npi_shard STRING,
  PRIMARY KEY (npi, npi_shard) NOT ENFORCED
) PARTITIONED BY (npi_shard) WITH (
  'format-version' = '2',
  'write.upsert.enabled' = 'true',
  'write.distribution-mode' = 'hash',
  'location' = '${location}'
);

INSERT INTO lake.${namespace}.${table} /*+ OPTIONS('write-parallelism' = '4') */
SELECT seq, npi, source, revision, asserted_at, name, taxonomy, address, city, state, zip, phone, status,
       SUBSTRING(npi FROM 10 FOR 1)
FROM roster_feed;
