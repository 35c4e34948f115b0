#!/usr/bin/env bash
# Smoke test of the running Flink session cluster (start it with flink_up first):
#   a) 1 TaskManager with 2 slots on /overview
#   b) datagen -> blackhole INSERT through the SQL Gateway runs on the JM
#   c) SIGKILL the TaskManager JVM: the supervisor restarts it, the same job id
#      is RUNNING again, with the failure in /exceptions and numRestarts > 0
#   d) Iceberg hadoop catalog on a temp warehouse: CREATE, INSERT, SELECT (batch)
#   e) the 'kafka' connector factory is found (EXPLAIN); a real read when the
#      broker answers on $RR_KAFKA_PORT and topic $SMOKE_TOPIC exists
# usage: compose/flink/smoke.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"; . "$here/component.sh"
R="$(flink_rest)"
say() { printf '[flink smoke] %s\n' "$*"; }
field() { python3 -c 'import json,sys; d=json.load(sys.stdin)
for k in sys.argv[1].split("."): d=d[int(k)] if k.isdigit() else d[k]
print(d)' "$1"; }

o="$(rr_http "$R/overview")"; say "a) overview $o"
[ "$(field taskmanagers <<<"$o")" -ge 1 ] && [ "$(field slots-total <<<"$o")" -ge 2 ] || rr_die "a) no TM with 2 slots"

tmp="$(mktemp -d "$RR_STATE/tmp/flink-smoke.XXXX")"
cat > "$tmp/job.sql" <<'EOF'
CREATE TABLE src (id BIGINT, v STRING) WITH ('connector'='datagen','rows-per-second'='100');
CREATE TABLE snk (id BIGINT, v STRING) WITH ('connector'='blackhole');
INSERT INTO snk SELECT * FROM src;
EOF
job="$(flink_sql_file "$tmp/job.sql" | sed -n 's/^  job id: //p')"
[ -n "$job" ] || rr_die "b) no job id from the gateway"
for _ in $(seq 30); do [ "$(rr_http "$R/jobs/$job" | field state)" = RUNNING ] && break; sleep 1; done
say "b) job $job $(rr_http "$R/jobs/$job" | field state)"

old="$(flink_tm_pid "$job")"; kill -9 "$old"; t0=$(date +%s)
say "c) killed TaskManager JVM $old"
state=""; for _ in $(seq 60); do
  sleep 1; new="$(flink_tm_pid "$job" || true)"
  state="$(rr_http "$R/jobs/$job" | field state || true)"
  restarts="$(rr_http "$R/jobs/$job/metrics?get=numRestarts" | field 0.value 2>/dev/null || echo 0)"
  [ -n "$new" ] && [ "$new" != "$old" ] && [ "$state" = RUNNING ] && [ "${restarts:-0}" -gt 0 ] && break
done
say "c) after $(( $(date +%s) - t0 )) s: TM pid $new, job $state, numRestarts $restarts, supervisor restarts $(cat "$RR_STATE/flink-taskmanager.restarts")"
say "c) exception: $(rr_http "$R/jobs/$job/exceptions?maxExceptions=1" | field exceptionHistory.entries.0.exceptionName)"
[ "$state" = RUNNING ] || rr_die "c) job not RUNNING after the TM kill"
rr_http -X PATCH "$R/jobs/$job?mode=cancel" >/dev/null; sleep 2

cat > "$tmp/ice.sql" <<EOF
CREATE CATALOG c WITH ('type'='iceberg','catalog-type'='hadoop','warehouse'='file://$tmp/wh');
CREATE DATABASE IF NOT EXISTS c.db;
CREATE TABLE c.db.t (id BIGINT, name STRING);
SET 'execution.runtime-mode'='batch';
SET 'table.dml-sync'='true';
INSERT INTO c.db.t VALUES (1,'a'),(2,'b'),(3,'c');
SELECT count(*) AS n FROM c.db.t;
EOF
out="$(flink_sql_file "$tmp/ice.sql")"; echo "$out" | tail -3
[ "$(echo "$out" | tail -1 | tr -d ' ')" = 3 ] || rr_die "d) Iceberg round trip did not return 3 rows"
say "d) Iceberg hadoop catalog: INSERT + SELECT ok"

SMOKE_TOPIC="${SMOKE_TOPIC:-rr-flink-smoke}"
cat > "$tmp/kafka.sql" <<EOF
CREATE TABLE k (id BIGINT, v STRING) WITH ('connector'='kafka','topic'='$SMOKE_TOPIC','properties.bootstrap.servers'='$RR_HOST:$RR_KAFKA_PORT','properties.group.id'='rr-flink-smoke','scan.startup.mode'='earliest-offset','scan.bounded.mode'='latest-offset','format'='json');
EXPLAIN SELECT * FROM k;
EOF
flink_sql_file "$tmp/kafka.sql" >/dev/null && say "e) kafka connector factory found (EXPLAIN ok)"
if rr_port_open "$RR_KAFKA_PORT"; then
  printf '%s\n' "SET 'execution.runtime-mode'='batch';" "SELECT count(*) AS n FROM k;" >> "$tmp/kafka.sql"
  sed -i '/^EXPLAIN/d' "$tmp/kafka.sql"
  # The topic must exist (the broker does not auto-create): create it with kafka_tool.
  # A missing topic makes the bounded job fail and restart (1000 attempts): bound the wait.
  if res="$(FLINK_SQL_TIMEOUT=60 flink_sql_file "$tmp/kafka.sql" 2>&1)"; then
    say "e) broker up: bounded read of $SMOKE_TOPIC -> $(tail -1 <<<"$res") rows"
  else
    say "e) broker up but reading $SMOKE_TOPIC failed (does the topic exist?): $(tail -1 <<<"$res")"
  fi
fi
rm -rf "$tmp"
say "all checks passed"
