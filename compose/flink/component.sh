# Flink 1.20.3 session cluster without flink-dist. Sourced after compose/lib.sh.
# Defines flink_fetch, flink_up, flink_down, flink_health, flink_version,
# flink_tm_pid and flink_sql_file. See compose/flink/README.md.
#
# Processes (all on 127.0.0.1, ports from compose/ports.env):
#   flink-jobmanager              StandaloneSessionClusterEntrypoint  REST $RR_FLINK_REST_PORT
#   flink-taskmanager-supervisor  tm-supervisor.sh, restarts the TM JVM when it dies
#   flink-taskmanager             TaskManagerRunner (pid file rewritten on every start)
#   flink-taskmanager-2(-supervisor)  a second TaskManager, the same way (recovery profile "fast")
#   flink-sql-gateway             SqlGateway, REST endpoint $RR_SQL_GATEWAY_PORT

FLINK_HOME_RR="$RR_COMPOSE/flink"
FLINK_CONF="$RR_STATE/conf/flink"
FLINK_TMP="$RR_STATE/tmp/flink"
FLINK_JAVA="$RR_JAVA17/bin/java"
FLINK_JM_PROCESS_SIZE="${RR_FLINK_JM_PROCESS_SIZE:-1024m}"
FLINK_TM_PROCESS_SIZE="${RR_FLINK_TM_PROCESS_SIZE:-1600m}"
FLINK_GATEWAY_HEAP="${RR_FLINK_GATEWAY_HEAP:-768m}"
FLINK_START_TIMEOUT="${RR_FLINK_START_TIMEOUT:-90}"

# The recovery profile (issue 13; compose/flink/README.md, "Recovery"):
#   fast      three supervised TaskManagers, so a killed one's job redeploys at
#             once onto another's free slots while its own JVM restarts, and one
#             is still spare for the next kill before that JVM is back; the JVM
#             restarts 3.5 s after the kill, once the job has left the CPUs to
#             it (2 cores: both at once slow each other down); failures noticed
#             within ~0.5-1 s; the job restarted 100 ms after one; class data
#             sharing for the TaskManager JVMs (below).
#   baseline  the settings experiment 1's first full run used: one TaskManager,
#             heartbeats every 1 s, a 2 s restart delay, the supervisor's 1 s pause.
# Neither touches what the experiments measure: checkpointing mode, sinks and
# restarting from the latest checkpoint are the same in both.
# A running stack keeps the profile it was started with ($FLINK_RECOVERY_FILE,
# written by flink_up, removed by flink_down), so status and the drivers judge
# it by its own profile.
FLINK_RECOVERY_FILE="$RR_STATE/flink.recovery-profile"
FLINK_RECOVERY="${RR_FLINK_RECOVERY:-$(cat "$FLINK_RECOVERY_FILE" 2>/dev/null || echo fast)}"
case "$FLINK_RECOVERY" in
  fast)     FLINK_TASKMANAGERS=3 FLINK_HEARTBEAT_MS=500 FLINK_RESTART_DELAY="100 ms" FLINK_TM_RESTART_PAUSE=3.5
            FLINK_REST_REFRESH_MS=500 ;;
  baseline) FLINK_TASKMANAGERS=1 FLINK_HEARTBEAT_MS=1000 FLINK_RESTART_DELAY="2 s" FLINK_TM_RESTART_PAUSE=1
            FLINK_REST_REFRESH_MS=3000 ;;
  *) echo "RR_FLINK_RECOVERY must be fast or baseline, not '$FLINK_RECOVERY'" >&2; exit 2 ;;
esac

# Class data sharing for the TaskManagers (profile "fast"): a new TaskManager
# JVM loads most of its ~15,000 classes from $FLINK_TM_CDS instead of searching
# ~80 jars, which shortens its start and its first task's initialisation. The
# archive is written by a TaskManager as it stops (flink_down) after it ran a
# job, so it exists from the second `stack up` of a checkout on; until then the
# JVMs record it. A JVM that finds it stale (other jars, other JDK) ignores it.
FLINK_TM_CDS="$RR_STATE/flink-taskmanager.jsa"
_flink_tm_cds_opts() {
  [ "$FLINK_RECOVERY" = fast ] || return 0
  if [ -s "$FLINK_TM_CDS" ]; then echo "-XX:SharedArchiveFile=$FLINK_TM_CDS"
  else echo "-XX:ArchiveClassesAtExit=$RR_STATE/$1.jsa.new"; fi
}
# _flink_keep_cds: after the TaskManagers stopped, keep the largest archive one recorded.
_flink_keep_cds() {
  local best
  best="$(ls -S "$RR_STATE"/flink-taskmanager*.jsa.new 2>/dev/null | head -n 1)"
  [ -n "$best" ] && [ ! -s "$FLINK_TM_CDS" ] && mv "$best" "$FLINK_TM_CDS"
  rm -f "$RR_STATE"/flink-taskmanager*.jsa.new
}

# _flink_tms: the TaskManagers' process names; _flink_tm_ports <name>: "rpc data metrics".
_flink_tms() {
  echo flink-taskmanager
  local i; for ((i = 2; i <= FLINK_TASKMANAGERS; i++)); do echo "flink-taskmanager-$i"; done
}
_flink_tm_ports() {
  case "$1" in
    flink-taskmanager)   echo "$RR_FLINK_TM_RPC_PORT $RR_FLINK_TM_DATA_PORT $RR_FLINK_TM_METRICS_PORT" ;;
    flink-taskmanager-2) echo "$RR_FLINK_TM2_RPC_PORT $RR_FLINK_TM2_DATA_PORT $RR_FLINK_TM2_METRICS_PORT" ;;
    flink-taskmanager-3) echo "$RR_FLINK_TM3_RPC_PORT $RR_FLINK_TM3_DATA_PORT $RR_FLINK_TM3_METRICS_PORT" ;;
  esac
}

# From flink-dist's default config.yaml (env.java.opts.all): "required for Java 17".
# A hand launch has to put them on each JVM's command line itself.
FLINK_JAVA17_OPTS=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

# No plugins: an empty directory keeps "plugins directory does not exist" out of the logs.
FLINK_PLUGINS="$RR_STATE/conf/flink-plugins"

flink_cp() { echo "$RR_LIBS/flink/*"; }
flink_rest() { echo "http://$RR_HOST:$RR_FLINK_REST_PORT"; }
flink_gateway_url() { echo "http://$RR_HOST:$RR_SQL_GATEWAY_PORT"; }

flink_fetch() { rr_resolve flink; }

# Config written on every flink_up, so an edit here applies on the next start.
_flink_write_config() {
  mkdir -p "$FLINK_CONF" "$FLINK_TMP" "$FLINK_PLUGINS" "$RR_DATA/flink/checkpoints" "$RR_DATA/flink/savepoints"
  # Flink 1.20's GlobalConfiguration reads conf/flink-conf.yaml (legacy, flat
  # keys) when it exists, else conf/config.yaml (standard YAML). Keep only the latter.
  rm -f "$FLINK_CONF/flink-conf.yaml"
  cat > "$FLINK_CONF/config.yaml" <<EOF
# Written by compose/flink/component.sh; edits here are overwritten on flink_up.
# Standard YAML (Flink 1.19+ config.yaml). Per-process keys (io.tmp.dirs,
# metrics.internal.query-service.port, memory) are passed as -D on each command line.

# --- addresses and ports: everything on $RR_HOST, nothing random -------------
jobmanager.rpc.address: $RR_HOST
jobmanager.rpc.port: $RR_FLINK_RPC_PORT
jobmanager.bind-host: $RR_HOST
blob.server.port: "$RR_FLINK_BLOB_PORT"
rest.address: $RR_HOST
rest.bind-address: $RR_HOST
rest.port: $RR_FLINK_REST_PORT
taskmanager.host: $RR_HOST
taskmanager.bind-host: $RR_HOST
# taskmanager.rpc.port / taskmanager.data.port: per TaskManager, as -D on its command line.
rest.flamegraph.enabled: false

# --- SQL Gateway (ignored by JM/TM) -------------------------------------------
sql-gateway.endpoint.type: rest
sql-gateway.endpoint.rest.address: $RR_HOST
sql-gateway.endpoint.rest.bind-address: $RR_HOST
sql-gateway.endpoint.rest.port: $RR_SQL_GATEWAY_PORT

# --- slots and parallelism ----------------------------------------------------
# Four slots for parallelism-2 jobs: a job left behind by a crashed run cannot
# starve the next one of slots.
taskmanager.numberOfTaskSlots: 4
parallelism.default: 2

# --- memory -------------------------------------------------------------------
jobmanager.memory.process.size: $FLINK_JM_PROCESS_SIZE
taskmanager.memory.process.size: $FLINK_TM_PROCESS_SIZE
# Less managed memory than the default 0.4, more task heap for Iceberg/Parquet writers.
taskmanager.memory.managed.fraction: 0.25

# --- fault tolerance ----------------------------------------------------------
restart-strategy.type: fixed-delay
restart-strategy.fixed-delay.attempts: 1000
# Recovery profile "$FLINK_RECOVERY" (see the top of compose/flink/component.sh).
restart-strategy.fixed-delay.delay: $FLINK_RESTART_DELAY
jobmanager.execution.failover-strategy: region
# A SIGKILLed TaskManager is noticed within two heartbeat intervals: two failed
# heartbeat RPCs (rpc-failure-threshold) mark it lost long before the 10 s timeout.
heartbeat.interval: $FLINK_HEARTBEAT_MS
heartbeat.timeout: 10000
heartbeat.rpc-failure-threshold: 2
# A TM that starts before the JM answers retries after 2 s, not the default 10 s.
cluster.registration.error-delay: 2000
# Keep every failure in the exception history (default 16): one entry per kill
# is the evidence that each kill was seen.
web.exception-history-size: 1000
# How long the REST API serves a cached view of a job (default 3 s): the
# driver sees RUNNING, RESTARTING and task states this late at most.
web.refresh-interval: $FLINK_REST_REFRESH_MS
# The REST metrics (numRestarts) refresh every second, not every ten.
metrics.fetcher.update-interval: 1000

# --- checkpoints (1.20 names; state.checkpoints.dir / state.savepoints.dir are
#     the deprecated fallbacks) ------------------------------------------------
state.backend.type: hashmap
execution.checkpointing.dir: file://$RR_DATA/flink/checkpoints
execution.checkpointing.savepoint-dir: file://$RR_DATA/flink/savepoints
execution.checkpointing.externalized-checkpoint-retention: RETAIN_ON_CANCELLATION
execution.checkpointing.mode: EXACTLY_ONCE
# Default for every job (Iceberg commits only on checkpoints); a job may SET its own.
execution.checkpointing.interval: 10 s
execution.checkpointing.num-retained: 3

# --- misc ---------------------------------------------------------------------
io.tmp.dirs: $FLINK_TMP/misc
EOF
  local p
  for p in jobmanager taskmanager taskmanager-2 taskmanager-3 sql-gateway; do
    cat > "$FLINK_CONF/log4j-$p.properties" <<'EOF'
# Written by compose/flink/component.sh. Console appender: the launcher redirects
# stdout to $RR_LOGS/flink-<process>.log (append), so JVM crash output lands there too.
monitorInterval = 30
rootLogger.level = INFO
rootLogger.appenderRef.console.ref = ConsoleAppender
logger.pekko.name = org.apache.pekko
logger.pekko.level = INFO
logger.kafka.name = org.apache.kafka
logger.kafka.level = INFO
logger.hadoop.name = org.apache.hadoop
logger.hadoop.level = WARN
logger.zookeeper.name = org.apache.zookeeper
logger.zookeeper.level = INFO
logger.shaded_zookeeper.name = org.apache.flink.shaded.zookeeper3
logger.shaded_zookeeper.level = INFO
logger.netty.name = org.jboss.netty.channel.DefaultChannelPipeline
logger.netty.level = OFF
# The REST server's metric fetcher logs why a metric query failed only at
# DEBUG; experiments read backpressure and numRestarts through it, and both
# went missing for minutes after TaskManager kills (e1c): keep its reasons.
logger.metricfetcher.name = org.apache.flink.runtime.rest.handler.legacy.metrics
logger.metricfetcher.level = DEBUG
appender.console.name = ConsoleAppender
appender.console.type = CONSOLE
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n
EOF
  done
}

# _flink_jvm_common <process>: JVM options every Flink JVM gets.
_flink_jvm_common() {
  local p="$1"
  printf '%s\n' "${FLINK_JAVA17_OPTS[@]}" \
    -XX:+UseG1GC \
    "-Djava.io.tmpdir=$FLINK_TMP/$p" \
    "-Dlog.file=$RR_LOGS/flink-$p.log" \
    "-Dlog4j.configuration=file:$FLINK_CONF/log4j-$p.properties" \
    "-Dlog4j.configurationFile=file:$FLINK_CONF/log4j-$p.properties" \
    "-Dlogback.configurationFile=file:$FLINK_CONF/logback-$p.xml"
}

# _flink_resource_params JM|TM: run BashJavaUtils (flink-runtime) as bin/jobmanager.sh
# and bin/taskmanager.sh do; prints line 1 = JVM args, line 2 = dynamic -D args.
_flink_resource_params() {
  local what="$1" out
  out="$("$FLINK_JAVA" -Xmx128m -Djava.io.tmpdir="$FLINK_TMP" -classpath "$(flink_cp)" \
          -Dlog4j.configurationFile=file:/dev/null \
          org.apache.flink.runtime.util.bash.BashJavaUtils "GET_${what}_RESOURCE_PARAMS" \
          --configDir "$FLINK_CONF" 2>&1)" \
    || { printf '%s\n' "$out" >&2; rr_die "flink: BashJavaUtils GET_${what}_RESOURCE_PARAMS failed"; }
  printf '%s\n' "$out" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2
}

# --- health probes ------------------------------------------------------------
_flink_jm_ok() { rr_http "$(flink_rest)/overview" >/dev/null; }
# TM healthy = every TaskManager of the profile registered, with its slots.
_flink_tm_ok() {
  local o n; o="$(rr_http "$(flink_rest)/overview")" || return 1
  n="$(sed -n 's/.*"taskmanagers":\([0-9]*\).*/\1/p' <<<"$o")"
  [ "${n:-0}" -ge "$FLINK_TASKMANAGERS" ] && echo "$o" | grep -Eq '"slots-total":[1-9]'
}
_flink_gw_ok() { rr_http "$(flink_gateway_url)/v1/info" >/dev/null; }

_flink_start_jm() {
  local params jvm dyn
  params="$(_flink_resource_params JM)"
  jvm="$(sed -n 1p <<<"$params")"; dyn="$(sed -n 2p <<<"$params")"
  rm -rf "$FLINK_TMP/jobmanager"; mkdir -p "$FLINK_TMP/jobmanager"
  local -a common; mapfile -t common < <(_flink_jvm_common jobmanager)
  # shellcheck disable=SC2086  # $jvm and $dyn are word lists from BashJavaUtils
  rr_start flink-jobmanager env "FLINK_PLUGINS_DIR=$FLINK_PLUGINS" "$FLINK_JAVA" $jvm "${common[@]}" -classpath "$(flink_cp)" \
    org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
    --configDir "$FLINK_CONF" --executionMode cluster \
    -D "io.tmp.dirs=$FLINK_TMP/jobmanager" \
    -D "metrics.internal.query-service.port=$RR_FLINK_JM_METRICS_PORT" $dyn
}

# _flink_start_tm <name>: a supervised TaskManager with its own ports, pid file,
# restart count (<state>/<name>.restarts), stop flag and temp directory.
_flink_start_tm() {
  local name="$1" params jvm dyn rpc data metrics
  read -r rpc data metrics <<<"$(_flink_tm_ports "$name")"
  params="$(_flink_resource_params TM)"
  jvm="$(sed -n 1p <<<"$params")"; dyn="$(sed -n 2p <<<"$params")"
  [ -n "$jvm" ] && [ -n "$dyn" ] || rr_die "flink: BashJavaUtils gave no TaskManager memory parameters"
  local -a common; mapfile -t common < <(_flink_jvm_common "${name#flink-}")
  rm -f "$RR_STATE/$name.stop"
  echo 0 > "$RR_STATE/$name.restarts"
  # shellcheck disable=SC2086
  rr_start "$name-supervisor" env "FLINK_PLUGINS_DIR=$FLINK_PLUGINS" "TM_RESTART_PAUSE=$FLINK_TM_RESTART_PAUSE" \
    bash "$FLINK_HOME_RR/tm-supervisor.sh" \
    "$RR_PIDS/$name.pid" "$RR_STATE/$name.restarts" "$RR_STATE/$name.stop" \
    "$RR_LOGS/$name.log" "$FLINK_TMP/${name#flink-}" -- \
    "$FLINK_JAVA" $jvm $(_flink_tm_cds_opts "$name") "${common[@]}" -classpath "$(flink_cp)" \
    org.apache.flink.runtime.taskexecutor.TaskManagerRunner --configDir "$FLINK_CONF" \
    -D "io.tmp.dirs=$FLINK_TMP/${name#flink-}" \
    -D "taskmanager.rpc.port=$rpc" -D "taskmanager.data.port=$data" \
    -D "metrics.internal.query-service.port=$metrics" $dyn
}

_flink_start_gw() {
  rm -rf "$FLINK_TMP/sql-gateway"; mkdir -p "$FLINK_TMP/sql-gateway"
  local -a common; mapfile -t common < <(_flink_jvm_common sql-gateway)
  # SqlGateway finds its config through FLINK_CONF_DIR (no --configDir option).
  rr_start flink-sql-gateway env "FLINK_CONF_DIR=$FLINK_CONF" "FLINK_PLUGINS_DIR=$FLINK_PLUGINS" \
    "$FLINK_JAVA" "-Xms256m" "-Xmx$FLINK_GATEWAY_HEAP" -XX:MaxMetaspaceSize=512m "${common[@]}" \
    -classpath "$(flink_cp)" \
    org.apache.flink.table.gateway.SqlGateway \
    "-Dexecution.target=remote" \
    "-Dio.tmp.dirs=$FLINK_TMP/sql-gateway"
}

# Like rr_wait, but the error names the TaskManager JVMs' logs, not the supervisors'.
_flink_wait_tm() {
  local waited=0 name where
  while ! _flink_tm_ok; do
    for name in $(_flink_tms); do
      where="$name ($RR_HOST:$(_flink_tm_ports "$name" | cut -d' ' -f1))"
      rr_running "$name-supervisor" \
        || rr_die "$where: its supervisor exited; read $RR_LOGS/$name-supervisor.log and $RR_LOGS/$name.log"
    done
    [ "$waited" -lt "$FLINK_START_TIMEOUT" ] \
      || rr_die "flink: not all $FLINK_TASKMANAGERS TaskManagers registered with the JobManager after ${FLINK_START_TIMEOUT}s; read $RR_LOGS/flink-taskmanager*.log"
    sleep 1; waited=$((waited + 1))
  done
}

# flink_up: start what is not running (JM, supervised TM, SQL Gateway), then wait
# for each. The three JVMs start together: the TM retries registering until the
# JM answers, and the gateway needs the JM only when a job is submitted.
flink_up() {
  flink_fetch
  [ -x "$FLINK_JAVA" ] || rr_die "flink: no Java 17 at $FLINK_JAVA"
  _flink_write_config
  echo "$FLINK_RECOVERY" > "$FLINK_RECOVERY_FILE"
  local t0 start_jm=0 start_gw=0 name; t0=$(date +%s)
  if rr_running flink-jobmanager && _flink_jm_ok; then
    rr_log "flink: JobManager already running (pid $(cat "$(rr_pidfile flink-jobmanager)"))"
  else
    rr_stop flink-jobmanager; start_jm=1
  fi
  local -a start_tms=()
  for name in $(_flink_tms); do
    if rr_running "$name-supervisor"; then
      rr_log "flink: $name's supervisor already running (pid $(cat "$(rr_pidfile "$name-supervisor")"))"
    else
      rr_stop "$name"; start_tms+=("$name")
    fi
  done
  if rr_running flink-sql-gateway && _flink_gw_ok; then
    rr_log "flink: SQL Gateway already running (pid $(cat "$(rr_pidfile flink-sql-gateway)"))"
  else
    rr_stop flink-sql-gateway; start_gw=1
  fi
  if [ $start_jm = 1 ]; then
    rr_log "flink: starting JobManager (REST $RR_HOST:$RR_FLINK_REST_PORT, RPC $RR_FLINK_RPC_PORT)"
    _flink_start_jm
  fi
  for name in "${start_tms[@]}"; do
    rr_log "flink: starting supervised $name (RPC, data, metrics ports $(_flink_tm_ports "$name"); recovery profile $FLINK_RECOVERY)"
    _flink_start_tm "$name"
  done
  if [ $start_gw = 1 ]; then
    rr_log "flink: starting SQL Gateway (REST $RR_HOST:$RR_SQL_GATEWAY_PORT)"
    _flink_start_gw
  fi
  RR_WAIT_PORT=$RR_FLINK_REST_PORT rr_wait flink-jobmanager "$FLINK_START_TIMEOUT" _flink_jm_ok
  _flink_wait_tm
  RR_WAIT_PORT=$RR_SQL_GATEWAY_PORT rr_wait flink-sql-gateway "$FLINK_START_TIMEOUT" _flink_gw_ok
  rr_log "flink: up in $(( $(date +%s) - t0 )) s ($(flink_version)); logs $RR_LOGS/flink-{jobmanager,taskmanager*,sql-gateway}.log"
}

# flink_down: stop the gateway, the TM (supervisor first told not to restart), the JM.
flink_down() {
  local name
  mkdir -p "$RR_STATE"
  rr_stop flink-sql-gateway
  # Both possible TaskManagers, whatever the profile now: one may be left from a run under the other.
  for name in flink-taskmanager flink-taskmanager-2 flink-taskmanager-3; do
    touch "$RR_STATE/$name.stop"
    rr_stop "$name-supervisor"     # TERM to its process group: supervisor + JVM
    rr_stop "$name"                # a JVM that outlived its supervisor
  done
  _flink_keep_cds
  rm -f "$FLINK_RECOVERY_FILE"
  rr_stop flink-jobmanager
  rr_log "flink: stopped"
}

flink_health() { _flink_jm_ok && _flink_tm_ok && _flink_gw_ok; }

# flink_problems: what is wrong with a Flink that answers, one line each: a
# TaskManager whose supervisor is gone (a killed TaskManager would not come
# back), and no free slot (a new job would not run).
flink_problems() {
  local name o free total
  for name in $(_flink_tms); do
    rr_running "$name-supervisor" \
      || echo "the TaskManager's supervisor is not running (pid file $(rr_pidfile "$name-supervisor")): a killed $name would not come back; read $RR_LOGS/$name-supervisor.log"
  done
  o="$(rr_http "$(flink_rest)/overview")" || return 0
  free="$(sed -n 's/.*"slots-available":\([0-9]*\).*/\1/p' <<<"$o")"
  total="$(sed -n 's/.*"slots-total":\([0-9]*\).*/\1/p' <<<"$o")"
  if [ "${free:-0}" = 0 ]; then
    echo "no free slot of ${total:-0}: a new job would not run (running jobs hold them: $(flink_rest)/jobs/overview)"
  fi
}

# flink_processes / flink_ports: the pid-file names and the ports it needs.
flink_processes() {
  echo flink-jobmanager flink-sql-gateway
  local name; for name in $(_flink_tms); do echo "$name-supervisor $name"; done
}
flink_ports() {
  echo "$RR_FLINK_REST_PORT $RR_FLINK_RPC_PORT $RR_FLINK_BLOB_PORT $RR_FLINK_JM_METRICS_PORT $RR_SQL_GATEWAY_PORT"
  local name; for name in $(_flink_tms); do _flink_tm_ports "$name"; done
}

# flink_version: what the running JobManager reports on /config.
flink_version() {
  local c v r
  c="$(rr_http "$(flink_rest)/config")" || return 1
  v="$(sed -n 's/.*"flink-version":"\([^"]*\)".*/\1/p' <<<"$c")"
  r="$(sed -n 's/.*"flink-revision":"\([^"]*\)".*/\1/p' <<<"$c")"
  echo "$v (revision $r)"
}

# flink_tm_pid [job]: pid of the TaskManager JVM running the job's first vertex
# (without a job: flink-taskmanager's); it changes after every restart.
flink_tm_pid() {
  local name=flink-taskmanager vertex port n
  if [ -n "${1:-}" ]; then
    vertex="$(rr_http "$(flink_rest)/jobs/$1" | sed -n 's/.*"vertices":\[{"id":"\([0-9a-f]*\)".*/\1/p')"
    port="$(rr_http "$(flink_rest)/jobs/$1/vertices/$vertex/taskmanagers" | sed -n 's/.*"endpoint":"[^"]*:\([0-9]*\)".*/\1/p')"
    for n in $(_flink_tms); do
      [ "$(_flink_tm_ports "$n" | cut -d' ' -f2)" = "$port" ] && name="$n"
    done
  fi
  rr_running "$name" || return 1
  cat "$(rr_pidfile "$name")"
}

# flink_sql_file <file.sql>: run the statements of a file in one SQL Gateway
# session; prints each statement's result (job id for INSERTs); stops at the
# first error with the gateway's error text.
flink_sql_file() {
  [ -f "${1:-}" ] || rr_die "usage: flink_sql_file <file.sql>"
  python3 "$FLINK_HOME_RR/sql_file.py" "$(flink_gateway_url)" "$1"
}
