#!/usr/bin/env bash
# Smoke test of Kafka -> Kafka Connect (Iceberg sink) -> Iceberg -> Trino against
# the running stack (compose/stack up; the connect component included):
#   1. a 3-partition topic and a 1-partition control topic (Kafka's TopicCommand)
#   2. an Iceberg table rosterrig.connect_smoke_<pid> created through Trino
#   3. an IcebergSinkConnector created through the worker's REST API (PUT .../config)
#   4. 1,000 JSON records produced with kcat (Kafka's console producer without it)
#   5. Trino's count(*) and count(DISTINCT seq) polled until both are 1000 (deadline
#      $SMOKE_DEADLINE s, default 120)
# then removes everything it created: the connector, both topics, the table and
# the consumer groups the connector used. Exit 0 only when every step passed.
# usage: compose/connect/smoke.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
. "$RR_COMPOSE/kafka/component.sh"
. "$RR_COMPOSE/trino/component.sh"
. "$here/component.sh"

id=$$
topic="rr_connect_smoke_$id"
control="rr_connect_control_$id"
table="connect_smoke_$id"
connector="rr-connect-smoke-$id"
# The worker's Iceberg control-topic consumers are named <prefix><uuid>: a prefix
# of our own lets clean-up find them.
cg_prefix="rr_connect_cg_${id}-"
records=1000
deadline="${SMOKE_DEADLINE:-120}"
bootstrap="$RR_HOST:$RR_KAFKA_PORT"
say() { printf '[connect smoke %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
fail() { printf '[connect smoke] FAIL: %s\n' "$*" >&2; exit 1; }
kafka_fail() { fail "kafka ($bootstrap): $*; read $RR_LOGS/kafka.log"; }
connect_fail() { fail "connect ($CONNECT_URL): $*; read $RR_LOGS/connect.log"; }
trino_fail() { fail "trino ($TRINO_URL): $*; read $RR_LOGS/trino.log"; }

# --- clean-up, whatever happened ------------------------------------------------
created_connector=0 created_table=0 created_topics=()
# The consumer groups of our connector (see cleanup).
_smoke_groups() {
  kafka_tool ConsumerGroupCommand --bootstrap-server "$bootstrap" --list 2>/dev/null \
    | grep -E "^(connect-$connector(-coord)?|$cg_prefix.*)\$" || true
}
cleanup() {
  local rc=$? g i groups
  set +e
  if [ "$created_connector" = 1 ]; then
    connect_curl DELETE "/connectors/$connector" >/dev/null 2>&1
    # Wait until its task stopped, so its consumers left their groups.
    for i in $(seq 30); do
      [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$CONNECT_URL/connectors/$connector")" = 404 ] && break
      sleep 1
    done
  fi
  [ ${#created_topics[@]} = 0 ] || kafka_tool TopicCommand --bootstrap-server "$bootstrap" --delete \
    --topic "$(IFS=,; echo "${created_topics[*]}")" >/dev/null 2>&1 \
    || say "clean-up: could not delete topics ${created_topics[*]}"
  [ "$created_table" = 1 ] && { TRINO_QUERY_TIMEOUT=60 trino_query "DROP TABLE IF EXISTS iceberg.rosterrig.$table" >/dev/null \
    || say "clean-up: could not drop iceberg.rosterrig.$table"; }
  if [ "$created_connector" = 1 ]; then
    # connect-<name>: the sink task's consumer group (the Iceberg sink commits its
    # offsets there); connect-<name>-coord: the commit coordinator's; <prefix><uuid>:
    # each task's control-topic consumer. A group whose members only just left
    # may refuse deletion for a moment: retry.
    for i in 1 2 3 4 5; do
      groups="$(_smoke_groups)"
      [ -n "$groups" ] || break
      local -a args=()
      for g in $groups; do args+=(--group "$g"); done
      kafka_tool ConsumerGroupCommand --bootstrap-server "$bootstrap" --delete "${args[@]}" >/dev/null 2>&1
      sleep 2
    done
    groups="$(_smoke_groups)"
    [ -z "$groups" ] || say "clean-up: consumer groups left: $(echo $groups)"
  fi
  rm -f "${data:-}"
  [ $rc = 0 ] && say "cleaned up (connector, topics ${created_topics[*]}, table, consumer groups)"
  exit $rc
}
trap cleanup EXIT

# --- 0. the stack answers ----------------------------------------------------------
kafka_health || kafka_fail "the broker does not answer (compose/stack up kafka)"
connect_health || connect_fail "the worker does not answer (compose/stack up connect)"
[ -n "$(_connect_iceberg_plugin)" ] || connect_fail "the worker does not list $CONNECT_ICEBERG_CLASS in /connector-plugins"
trino_health || trino_fail "Trino does not answer (compose/stack up trino)"
curl -fsS --max-time 5 "http://$RR_HOST:$RR_CATALOG_PORT/v1/config" >/dev/null 2>&1 \
  || fail "catalog (http://$RR_HOST:$RR_CATALOG_PORT): does not answer; read $RR_LOGS/catalog.log"
say "stack answers: $(connect_version | head -n1)"

# --- 1. topics ----------------------------------------------------------------------
kafka_tool TopicCommand --bootstrap-server "$bootstrap" --create --topic "$topic" \
  --partitions 3 --replication-factor 1 >/dev/null || kafka_fail "could not create topic $topic"
created_topics+=("$topic")
kafka_tool TopicCommand --bootstrap-server "$bootstrap" --create --topic "$control" \
  --partitions 1 --replication-factor 1 >/dev/null || kafka_fail "could not create topic $control"
created_topics+=("$control")
say "1. topics $topic (3 partitions), $control (1 partition)"

# --- 2. table -----------------------------------------------------------------------
trino_query "CREATE SCHEMA IF NOT EXISTS iceberg.rosterrig" >/dev/null || trino_fail "could not create schema iceberg.rosterrig"
created_table=1
trino_query "CREATE TABLE iceberg.rosterrig.$table (seq BIGINT, npi VARCHAR, name VARCHAR, status VARCHAR) WITH (format_version = 2)" >/dev/null \
  || trino_fail "could not create table iceberg.rosterrig.$table"
say "2. table iceberg.rosterrig.$table"

# --- 3. connector ---------------------------------------------------------------------
config="$(python3 - <<EOF
import json
print(json.dumps({
  "connector.class": "$CONNECT_ICEBERG_CLASS",
  "tasks.max": "1",
  "topics": "$topic",
  "key.converter": "org.apache.kafka.connect.json.JsonConverter",
  "key.converter.schemas.enable": "false",
  "value.converter": "org.apache.kafka.connect.json.JsonConverter",
  "value.converter.schemas.enable": "false",
  "iceberg.tables": "rosterrig.$table",
  "iceberg.catalog.type": "rest",
  "iceberg.catalog.uri": "http://$RR_HOST:$RR_CATALOG_PORT",
  "iceberg.catalog.io-impl": "org.apache.iceberg.aws.s3.S3FileIO",
  "iceberg.catalog.s3.endpoint": "http://$RR_HOST:$RR_S3_PORT",
  "iceberg.catalog.s3.path-style-access": "true",
  "iceberg.catalog.s3.access-key-id": "$RR_S3_ACCESS_KEY",
  "iceberg.catalog.s3.secret-access-key": "$RR_S3_SECRET_KEY",
  "iceberg.catalog.client.region": "$RR_S3_REGION",
  "iceberg.control.topic": "$control",
  "iceberg.control.group-id-prefix": "$cg_prefix",
  "iceberg.control.commit.interval-ms": "2000",
}))
EOF
)"
created_connector=1
t_connector=$(date +%s)
resp="$(connect_curl PUT "/connectors/$connector/config" -w '\n%{http_code}' --data-binary "$config")" \
  || connect_fail "PUT /connectors/$connector/config failed"
code="$(tail -n1 <<<"$resp")"
case "$code" in 200|201) ;; *) connect_fail "PUT /connectors/$connector/config answered $code: $(sed '$d' <<<"$resp")";; esac
state=""
for _ in $(seq 60); do
  st="$(connect_curl GET "/connectors/$connector/status" 2>/dev/null || true)"
  state="$(python3 -c 'import json,sys
d=json.load(sys.stdin); t=d.get("tasks") or []
print(d["connector"]["state"] + "/" + (t[0]["state"] if t else "NONE"))' <<<"$st" 2>/dev/null || true)"
  case "$state" in
    RUNNING/RUNNING) break ;;
    *FAILED*) connect_fail "connector $connector is $state: $(cut -c1-600 <<<"$st")" ;;
  esac
  sleep 1
done
[ "$state" = RUNNING/RUNNING ] || connect_fail "connector $connector not RUNNING after 60 s (state $state)"
say "3. connector $connector RUNNING (connector/task) after $(( $(date +%s) - t_connector )) s"

# --- 4. records -----------------------------------------------------------------------
# All 1,000 at once. On an idle topic the sink answers the coordinator's commit
# requests only from put(), which Connect calls after each consumer poll: the
# worker's offset.flush.interval.ms (1 s, compose/connect/component.sh) bounds that
# poll, so answers keep coming after the last record (see compose/connect/README.md).
data="$(mktemp "${TMPDIR:-/tmp}/connect-smoke.XXXXXX")"
python3 - "$records" > "$data" <<'EOF'
import json, sys
for n in range(1, int(sys.argv[1]) + 1):
    print(json.dumps({"seq": n, "npi": "%010d" % (1000000000 + n), "name": "Provider %d" % n,
                      "status": "active"}, separators=(",", ":")))
EOF
t_produce=$(date +%s)
if command -v kcat >/dev/null 2>&1; then
  # On stdin: one record per line (a file argument would be one record per file).
  kcat -P -b "$bootstrap" -t "$topic" -X acks=all < "$data" || kafka_fail "kcat could not produce to $topic"
else
  kafka_tool ConsoleProducer --bootstrap-server "$bootstrap" --topic "$topic" < "$data" \
    || kafka_fail "the console producer could not produce to $topic"
fi
say "4. produced $records records to $topic"

# --- 5. Trino sees every record once ----------------------------------------------------
groups_shown=0 got=""
while :; do
  got="$(TRINO_QUERY_TIMEOUT=30 trino_query "SELECT count(*), count(DISTINCT seq) FROM iceberg.rosterrig.$table" 2>/dev/null | tr '\t' /)" || got=""
  [ "$got" = "$records/$records" ] && break
  if [ "$groups_shown" = 0 ] && [ $(( $(date +%s) - t_produce )) -ge 3 ]; then
    say "   consumer groups now: $(_smoke_groups | tr '\n' ' ')"
    groups_shown=1
  fi
  [ $(( $(date +%s) - t_produce )) -lt "$deadline" ] \
    || fail "connect ($CONNECT_URL) -> iceberg.rosterrig.$table: Trino counts ${got:-nothing} (count/distinct seq), not $records/$records, ${deadline} s after producing; read $RR_LOGS/connect.log"
  sleep 1
done
say "5. Trino: count(*)/count(DISTINCT seq) = $got, $(( $(date +%s) - t_produce )) s after producing"
snap="$(trino_query "SELECT count(*) FROM iceberg.rosterrig.\"$table\$snapshots\"" 2>/dev/null || echo '?')"
say "   table snapshots: $snap"
say "PASS"
