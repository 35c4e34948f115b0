-- Upsert on the natural key: the primary key and write.upsert.enabled together
-- make the sink write an equality delete for the NPI before each row.
CREATE TABLE lake.${namespace}.${table} (
${roster_columns},
  PRIMARY KEY (npi) NOT ENFORCED
) WITH (
  'format-version' = '2',
  'write.upsert.enabled' = 'true',
  'location' = '${location}'${table_properties}
);
