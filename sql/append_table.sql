-- Append: every assertion is a row; seq is the record's identity.
CREATE TABLE lake.${namespace}.${table} (
${roster_columns}
) WITH (
  'format-version' = '2',
  'location' = '${location}'${table_properties}
);
