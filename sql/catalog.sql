-- The Iceberg REST catalog as Flink sees it. ResolvingFileIO picks S3FileIO for
-- s3:// locations and Hadoop's local file system for file:// ones, so one
-- catalog serves both warehouse modes; the S3 keys are the local store's fixtures.
CREATE CATALOG lake WITH (
  'type' = 'iceberg',
  'catalog-type' = 'rest',
  'uri' = '${catalog_uri}',
${catalog_options}
  's3.endpoint' = '${s3_endpoint}',
  's3.path-style-access' = 'true',
  's3.access-key-id' = '${s3_access_key}',
  's3.secret-access-key' = '${s3_secret_key}',
  'client.region' = '${s3_region}'
);
CREATE DATABASE IF NOT EXISTS lake.${namespace};
