# Kafka Connect 4.3.1, one distributed-mode worker with the Iceberg sink plugin,
# as a supervised plain JVM on 127.0.0.1. Sourced after compose/lib.sh (and
# after compose/kafka/component.sh: it needs the broker). Defines connect_fetch,
# connect_up, connect_down, connect_health, connect_version, connect_problems,
# connect_processes, connect_ports, connect_curl, and connect_worker_up/down N
# for the extra workers 2 and 3 of the same group (not started by `stack up`:
# an experiment that needs a multi-worker group starts them, and connect_down
# stops them). See compose/connect/README.md.
#
# Processes (pid files in $RR_PIDS):
#   connect-supervisor  compose/flink/tm-supervisor.sh (generic: restarts the JVM
#                       when it dies, e.g. after SIGKILL); log $RR_LOGS/connect-supervisor.log
#   connect             the worker JVM (ConnectDistributed), pid file rewritten on
#                       every (re)start; log $RR_LOGS/connect.log
#   connect-wN-supervisor, connect-wN   an extra worker N (2, 3), the same way;
#                       REST on $RR_CONNECT_WORKER<N>_PORT, log $RR_LOGS/connect-wN.log
# Layout:
#   $RR_LIBS/connect/                  the worker's classpath (compose/connect/pom.xml)
#   $RR_LIBS/connect-plugins/          plugin.path; one subfolder:
#   $RR_LIBS/connect-plugins/iceberg/  the Iceberg sink (compose/connect/plugin-pom.xml)
#   $RR_STATE/conf/connect/            worker config, written by connect_up on every start
#   $RR_STATE/connect.restarts         how often the supervisor restarted the JVM

CONNECT_HEAP="${RR_CONNECT_HEAP:-512m}"
CONNECT_CONF_DIR="$RR_STATE/conf/connect"
CONNECT_TMP="$RR_STATE/tmp/connect"
CONNECT_URL="http://$RR_HOST:$RR_CONNECT_PORT"
CONNECT_PLUGIN_PATH="$RR_LIBS/connect-plugins"
CONNECT_ICEBERG_CLASS=org.apache.iceberg.connect.IcebergSinkConnector
CONNECT_START_TIMEOUT="${RR_CONNECT_START_TIMEOUT:-90}"
# Pause between the JVM's death and its restart (the supervisor's TM_RESTART_PAUSE).
CONNECT_RESTART_PAUSE="${RR_CONNECT_RESTART_PAUSE:-1}"

connect_cp() { echo "$RR_LIBS/connect/*"; }

connect_fetch() {
  rr_resolve connect
  rr_resolve connect-plugins "$RR_COMPOSE/connect/plugin-pom.xml" "$CONNECT_PLUGIN_PATH/iceberg"
  # The worker provides Kafka's own classes: a copy in the plugin folder would
  # shadow them inside the plugin's classloader.
  if ls "$CONNECT_PLUGIN_PATH/iceberg" | grep -Eq '^(kafka-clients|connect-api|connect-json|connect-runtime)-'; then
    rr_die "connect: $CONNECT_PLUGIN_PATH/iceberg contains Kafka's own jars; the plugin set (compose/connect/plugin-pom.xml) is wrong"
  fi
}

# _connect_worker N: the names of worker N (1 is the stack's own) as globals
# CW_NAME (pid file and log), CW_SUP (its supervisor), CW_PORT (REST), CW_CONF
# (its properties file), CW_TMP, CW_STOP (the supervisor's stop flag), CW_RESTARTS.
_connect_worker() {
  case "$1" in
    1) CW_NAME=connect; CW_PORT="$RR_CONNECT_PORT"; CW_CONF="$CONNECT_CONF_DIR/connect-distributed.properties"
       CW_TMP="$CONNECT_TMP";;
    2|3) CW_NAME="connect-w$1"; local v="RR_CONNECT_WORKER$1_PORT"; CW_PORT="${!v}"
       CW_CONF="$CONNECT_CONF_DIR/connect-distributed-w$1.properties"; CW_TMP="$RR_STATE/tmp/connect-w$1";;
    *) rr_die "connect: no worker '$1' (1, 2 or 3)";;
  esac
  CW_SUP="$CW_NAME-supervisor"; CW_STOP="$RR_STATE/$CW_NAME.stop"; CW_RESTARTS="$RR_STATE/$CW_NAME.restarts"
}

# Config written on every start of a worker (the names _connect_worker set), so
# an edit here applies on the next start.
_connect_write_config() {
  mkdir -p "$CONNECT_CONF_DIR" "$CW_TMP"
  cat > "$CW_CONF" <<EOF
# Written by compose/connect/component.sh; edits here are overwritten on connect_up.
# The Iceberg sink reads this file too: it finds it on the JVM's command line
# (ConnectDistributed <this file>) and takes its Kafka client settings from it.
bootstrap.servers=$RR_HOST:$RR_KAFKA_PORT
group.id=rosterrig-connect

listeners=http://$RR_HOST:$CW_PORT
rest.advertised.host.name=$RR_HOST
rest.advertised.port=$CW_PORT
rest.advertised.listener=http

key.converter=org.apache.kafka.connect.json.JsonConverter
value.converter=org.apache.kafka.connect.json.JsonConverter
key.converter.schemas.enable=false
value.converter.schemas.enable=false

# The worker's internal topics (the worker creates them; one broker: RF 1).
config.storage.topic=rr_connect_configs
config.storage.replication.factor=1
offset.storage.topic=rr_connect_offsets
offset.storage.replication.factor=1
offset.storage.partitions=5
status.storage.topic=rr_connect_status
status.storage.replication.factor=1
status.storage.partitions=1

# A sink task's consumer polls at most until the next offset flush, and Connect
# calls the task's put() after every poll, records or not. The Iceberg sink
# answers its commit coordinator only from put(): with the default 60 s, an idle
# task answered a commit request after the coordinator's 30 s timeout, and the
# round committed zero tables. 1 s keeps the answers prompt. (Sink offsets are
# the Iceberg sink's own business: it commits them with its Iceberg commit, so
# the flush itself commits nothing.)
offset.flush.interval.ms=1000

# A lone worker restarted after SIGKILL is a new group member: the old one's
# tasks wait for scheduled.rebalance.max.delay.ms (default 5 min) before they
# are reassigned. 10 s: the restarted worker runs them again soon after.
scheduled.rebalance.max.delay.ms=10000

# exactly.once.source.support: left at its default (disabled); the sink's exactly-once
# comes from its own transactional commit of offsets with each Iceberg commit.

plugin.path=$CONNECT_PLUGIN_PATH
# Every plugin here has a ServiceLoader manifest (the worker's own jars and the
# Iceberg sink): no reflective scan of every jar at start-up.
plugin.discovery=service_load
EOF
  cat > "$CONNECT_CONF_DIR/log4j2.properties" <<'EOF'
# Written by compose/connect/component.sh. To stdout, which the supervisor
# appends to $RR_LOGS/connect.log (JVM crash output lands there too).
status = warn
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
logger.reflections.name = org.reflections
logger.reflections.level = ERROR
logger.clients.name = org.apache.kafka.clients
logger.clients.level = WARN
logger.hadoop.name = org.apache.hadoop
logger.hadoop.level = WARN
EOF
}

# connect_curl <method> <path> [curl args...]: one call to the worker's REST API.
connect_curl() {
  local method="$1" path="$2"; shift 2
  curl -sS --max-time 30 -X "$method" -H 'Content-Type: application/json' "$@" "$CONNECT_URL$path"
}

# _connect_json_field <field>: a top-level string field of the JSON on stdin.
_connect_json_field() {
  python3 -c 'import json,sys
try: print(json.load(sys.stdin).get(sys.argv[1], ""))
except Exception: sys.exit(1)' "$1"
}

# Protocol probe: GET / answers JSON with the worker's "version" (worker 1, or
# the one on port $1).
connect_health() {
  local body v
  body="$(rr_http "http://$RR_HOST:${1:-$RR_CONNECT_PORT}/" 2>/dev/null)" || return 1
  v="$(_connect_json_field version <<<"$body")" || return 1
  [ -n "$v" ]
}

# _connect_ready PORT: the worker joined its group and serves requests (GET
# /health, KIP-1017: 200 once the herder runs, 503 while it starts).
_connect_ready() {
  connect_health "$1" && [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$RR_HOST:$1/health")" = 200 ]
}

# _connect_wait: like rr_wait for the worker _connect_worker named, naming its JVM's log.
_connect_wait() {
  local waited=0
  while ! _connect_ready "$CW_PORT"; do
    rr_running "$CW_SUP" \
      || rr_die "$CW_NAME ($RR_HOST:$CW_PORT): its supervisor exited; read $RR_LOGS/$CW_SUP.log and $RR_LOGS/$CW_NAME.log"
    [ "$waited" -lt "$CONNECT_START_TIMEOUT" ] \
      || rr_die "$CW_NAME ($RR_HOST:$CW_PORT): not ready after ${CONNECT_START_TIMEOUT}s; read $RR_LOGS/$CW_NAME.log"
    sleep 1; waited=$((waited + 1))
  done
}

connect_up() { _connect_start 1; }

# connect_worker_up N / connect_worker_down N: an extra worker (2 or 3) of the
# same group, for experiments that need tasks to move between workers.
connect_worker_up() {
  [ "${1:-}" = 2 ] || [ "${1:-}" = 3 ] || rr_die "connect: connect_worker_up takes 2 or 3, not '${1:-}'"
  connect_health || rr_die "connect: worker 1 ($CONNECT_URL) is not running; compose/stack up connect first"
  _connect_start "$1"
}
connect_worker_down() {
  [ "${1:-}" = 2 ] || [ "${1:-}" = 3 ] || rr_die "connect: connect_worker_down takes 2 or 3, not '${1:-}'"
  _connect_stop "$1"
}

_connect_start() {
  _connect_worker "$1"
  if rr_running "$CW_SUP"; then
    rr_log "$CW_NAME: supervisor already running (pid $(cat "$(rr_pidfile "$CW_SUP")"))"
    _connect_wait
    return 0
  fi
  rr_stop "$CW_NAME"   # a JVM that outlived its supervisor
  connect_fetch
  [ -x "$RR_JAVA17/bin/java" ] || rr_die "connect: no Java 17 at $RR_JAVA17/bin/java"
  rr_port_open "$CW_PORT" && rr_die "$CW_NAME: port $CW_PORT is taken by a process that is not ours"
  declare -F kafka_health >/dev/null && ! kafka_health \
    && rr_die "connect: needs Kafka on $RR_HOST:$RR_KAFKA_PORT (compose/stack up kafka)"
  _connect_write_config
  local t0; t0=$(date +%s)
  rm -f "$CW_STOP"
  echo 0 > "$CW_RESTARTS"
  rr_log "$CW_NAME: starting supervised worker (heap $CONNECT_HEAP, REST http://$RR_HOST:$CW_PORT, plugin.path $CONNECT_PLUGIN_PATH)"
  # The main class and the properties file must be the command's first two words:
  # the Iceberg sink finds the worker config through them (sun.java.command).
  rr_start "$CW_SUP" env "TM_RESTART_PAUSE=$CONNECT_RESTART_PAUSE" \
    bash "$RR_COMPOSE/flink/tm-supervisor.sh" \
    "$RR_PIDS/$CW_NAME.pid" "$CW_RESTARTS" "$CW_STOP" \
    "$RR_LOGS/$CW_NAME.log" "$CW_TMP" -- \
    "$RR_JAVA17/bin/java" -Xms"$CONNECT_HEAP" -Xmx"$CONNECT_HEAP" -server -XX:+UseG1GC \
    -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
    -Djava.io.tmpdir="$CW_TMP" \
    -Dlog4j2.configurationFile="$CONNECT_CONF_DIR/log4j2.properties" \
    -Dkafka.logs.dir="$RR_LOGS" \
    -Daws.region="$RR_S3_REGION" \
    -cp "$(connect_cp)" \
    org.apache.kafka.connect.cli.ConnectDistributed "$CW_CONF"
  _connect_wait
  rr_log "$CW_NAME: up in $(( $(date +%s) - t0 )) s ($(connect_version "$CW_PORT" | tr '\n' ';' | sed 's/;$//; s/;/; /g')); logs $RR_LOGS/$CW_NAME.log, $RR_LOGS/$CW_SUP.log"
}

# _connect_stop N: tell worker N's supervisor not to restart, TERM it (it
# forwards TERM to the JVM and waits for it), then make sure no JVM is left.
_connect_stop() {
  _connect_worker "$1"
  mkdir -p "$RR_STATE"
  touch "$CW_STOP"
  rr_stop "$CW_SUP"   # TERM to its process group: supervisor + JVM
  rr_stop "$CW_NAME"  # a JVM that outlived its supervisor
  rr_log "$CW_NAME: stopped"
}

# connect_down: the extra workers first, then the stack's own.
connect_down() {
  local n
  for n in 3 2; do
    _connect_worker "$n"
    [ -f "$(rr_pidfile "$CW_SUP")" ] || [ -f "$(rr_pidfile "$CW_NAME")" ] && _connect_stop "$n"
  done
  _connect_stop 1
}

connect_processes() { echo connect-supervisor connect; }
connect_ports() { echo "$RR_CONNECT_PORT"; }

# _connect_iceberg_plugin [PORT]: the Iceberg sink's version as the worker lists it
# (GET /connector-plugins); empty when it is not loaded.
_connect_iceberg_plugin() {
  rr_http "http://$RR_HOST:${1:-$RR_CONNECT_PORT}/connector-plugins" 2>/dev/null | python3 -c 'import json,sys
for p in json.load(sys.stdin):
    if p.get("class") == sys.argv[1]: print(p.get("version") or "?")' "$CONNECT_ICEBERG_CLASS" 2>/dev/null | head -n1
}

# connect_version [PORT]: the running worker's own word (GET /: version and
# commit), then whether it loaded the Iceberg sink (GET /connector-plugins).
connect_version() {
  local body v c p
  body="$(rr_http "http://$RR_HOST:${1:-$RR_CONNECT_PORT}/" 2>/dev/null)" || { echo "connect: not running" >&2; return 1; }
  v="$(_connect_json_field version <<<"$body")"; c="$(_connect_json_field commit <<<"$body")"
  echo "connect ${v:-unknown} (commit ${c:-unknown}, from the worker's REST API)"
  p="$(_connect_iceberg_plugin "${1:-}")"
  if [ -n "$p" ]; then echo "connect plugin $CONNECT_ICEBERG_CLASS $p loaded (GET /connector-plugins)"
  else echo "connect plugin $CONNECT_ICEBERG_CLASS not loaded"; fi
}

# connect_problems: what is wrong with a worker that answers, one line each.
connect_problems() {
  rr_running connect-supervisor \
    || echo "the worker's supervisor is not running (pid file $(rr_pidfile connect-supervisor)): a killed worker would not come back; read $RR_LOGS/connect-supervisor.log"
  [ -n "$(_connect_iceberg_plugin)" ] \
    || echo "the Iceberg sink ($CONNECT_ICEBERG_CLASS) is not in $CONNECT_URL/connector-plugins; plugin.path $CONNECT_PLUGIN_PATH; read $RR_LOGS/connect.log"
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$CONNECT_URL/health")" = 200 ] \
    || echo "the worker is not ready ($CONNECT_URL/health does not answer 200); read $RR_LOGS/connect.log"
}
