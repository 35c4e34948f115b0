INSERT INTO lake.${namespace}.${table}${sink_hints}
SELECT seq, npi, source, revision, asserted_at, name, taxonomy, address, city, state, zip, phone, status
FROM roster_feed;
