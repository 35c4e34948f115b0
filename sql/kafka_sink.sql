-- The roster feed written to a second topic by Flink's Kafka sink. At
-- exactly-once each subtask writes a checkpoint's records in one Kafka
-- transaction and commits it once the checkpoint completes; the broker aborts
-- a transaction left open longer than the timeout it registered for the id.
-- The partitioner is Kafka's ('default') unless a run asks each subtask to
-- write one partition ('fixed').
CREATE TEMPORARY TABLE roster_out (
${roster_columns}
) WITH (
  'connector' = 'kafka',
  'topic' = '${out_topic}',
  'properties.bootstrap.servers' = '${bootstrap}',
${kafka_properties}
  'format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${transactional_id_prefix}',
  'sink.partitioner' = '${sink_partitioner}',
  'properties.transaction.timeout.ms' = '${transaction_timeout_ms}'
);
