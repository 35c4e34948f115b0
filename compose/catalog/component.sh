# Iceberg REST catalog: the 1.10.1 REST fixture (iceberg-open-api) backed by a
# JdbcCatalog on SQLite, started through our launcher so it binds to 127.0.0.1.
# Sourced after compose/lib.sh. Defines catalog_fetch, catalog_up, catalog_down,
# catalog_health, catalog_version, catalog_curl.
#
# RR_WAREHOUSE=s3 (default): warehouse s3://$RR_S3_BUCKET/warehouse (needs s3_up first)
# RR_WAREHOUSE=local:        warehouse file://$RR_DATA/warehouse
# The server's FileIO is ResolvingFileIO, so tables may also carry an explicit
# s3:// or file:// location whatever the default warehouse is.

CATALOG_HEAP="${RR_CATALOG_HEAP:-384m}"
CATALOG_JAR="$RR_LIBS/catalog/iceberg-open-api-1.10.1.jar"
CATALOG_URL="http://$RR_HOST:$RR_CATALOG_PORT"
CATALOG_LAUNCHER_SRC="$RR_COMPOSE/catalog/launcher/org/apache/iceberg/rest/RosterrigCatalogServer.java"

# Where the compiled launcher lives: keyed by the source's hash.
_catalog_launcher_dir() {
  echo "$RR_LIBS/catalog-launcher/$(sha256sum "$CATALOG_LAUNCHER_SRC" | cut -c1-16)"
}

catalog_fetch() {
  rr_resolve catalog
  local dir; dir="$(_catalog_launcher_dir)"
  if [ ! -f "$dir/org/apache/iceberg/rest/RosterrigCatalogServer.class" ]; then
    rr_log "catalog: compiling the launcher"
    rm -rf "$RR_LIBS/catalog-launcher"; mkdir -p "$dir"
    "$RR_JAVA17/bin/javac" -nowarn -d "$dir" -cp "$CATALOG_JAR" "$CATALOG_LAUNCHER_SRC" \
      >"$RR_LOGS/catalog-launcher-javac.log" 2>&1 \
      || rr_die "catalog: launcher did not compile; read $RR_LOGS/catalog-launcher-javac.log"
  fi
}

catalog_warehouse() {
  case "${RR_WAREHOUSE:-s3}" in
    s3) echo "s3://$RR_S3_BUCKET/warehouse" ;;
    local) echo "file://$RR_DATA/warehouse" ;;
    *) rr_die "catalog: RR_WAREHOUSE must be s3 or local, not '$RR_WAREHOUSE'" ;;
  esac
}

# catalog_curl <method> <path> [curl args...]: one JSON call to the catalog.
catalog_curl() {
  local method="$1" path="$2"; shift 2
  curl -sS --max-time 10 -X "$method" -H 'Content-Type: application/json' "$@" "$CATALOG_URL$path"
}

# Protocol-level probe: GET /v1/config must answer 200 with a JSON body that has
# the "endpoints" or "defaults" field of a ConfigResponse.
catalog_health() {
  local body
  body="$(rr_http "$CATALOG_URL/v1/config" 2>/dev/null)" || return 1
  case "$body" in *'"defaults"'*|*'"endpoints"'*) return 0 ;; *) return 1 ;; esac
}

catalog_up() {
  local wh; wh="$(catalog_warehouse)" || return 1
  local marker="$RR_STATE/conf/catalog/warehouse"
  if rr_running catalog && catalog_health; then
    if [ "$(cat "$marker" 2>/dev/null)" = "$wh" ]; then
      rr_log "catalog: already running on $CATALOG_URL, warehouse $wh (log $RR_LOGS/catalog.log)"
      return 0
    fi
    rr_log "catalog: running with warehouse $(cat "$marker" 2>/dev/null); restarting for $wh"
  fi
  rr_running catalog && rr_stop catalog
  catalog_fetch
  rr_port_open "$RR_CATALOG_PORT" && rr_die "catalog: port $RR_CATALOG_PORT is taken by a process that is not ours"
  if [ "${RR_WAREHOUSE:-s3}" = s3 ] && ! { declare -F s3_health >/dev/null && s3_health; }; then
    rr_die "catalog: RR_WAREHOUSE=s3 needs the S3 store on $RR_HOST:$RR_S3_PORT (run s3_up first, or RR_WAREHOUSE=local)"
  fi
  mkdir -p "$RR_DATA/catalog" "$RR_DATA/warehouse" "$(dirname "$marker")"
  echo "$wh" > "$marker"
  local s3ep="http://$RR_HOST:$RR_S3_PORT"
  rr_log "catalog: starting (heap $CATALOG_HEAP, warehouse $wh, db $RR_DATA/catalog/catalog.db)"
  # SQLite allows one writer: with the default pool of two connections, a table
  # drop and a create racing each other failed with SQLITE_BUSY. One pooled
  # connection serializes the catalog's own access; busy_timeout covers the rest.
  # CATALOG_* become catalog properties: prefix stripped, __ -> -, _ -> ., lowercased
  # (RCKUtils.environmentCatalogConfig). env -u drops stray CATALOG_* of the caller.
  local -a unset_stray=()
  local v; for v in $(compgen -e | grep '^CATALOG_' || true); do unset_stray+=(-u "$v"); done
  rr_start catalog env "${unset_stray[@]}" \
    CATALOG_CATALOG__IMPL=org.apache.iceberg.jdbc.JdbcCatalog \
    CATALOG_URI="jdbc:sqlite:$RR_DATA/catalog/catalog.db?busy_timeout=30000" \
    CATALOG_CLIENTS=1 \
    CATALOG_JDBC_SCHEMA__VERSION=V1 \
    CATALOG_WAREHOUSE="$wh" \
    CATALOG_REST_PORT="$RR_CATALOG_PORT" \
    CATALOG_IO__IMPL=org.apache.iceberg.io.ResolvingFileIO \
    CATALOG_S3_ENDPOINT="$s3ep" \
    CATALOG_S3_PATH__STYLE__ACCESS=true \
    CATALOG_S3_ACCESS__KEY__ID="$RR_S3_ACCESS_KEY" \
    CATALOG_S3_SECRET__ACCESS__KEY="$RR_S3_SECRET_KEY" \
    CATALOG_CLIENT_REGION="$RR_S3_REGION" \
    CATALOG_INCLUDE__CREDENTIALS=true \
    CATALOG_CLIENT__DEFAULT_IO__IMPL=org.apache.iceberg.io.ResolvingFileIO \
    CATALOG_CLIENT__DEFAULT_S3_ENDPOINT="$s3ep" \
    CATALOG_CLIENT__DEFAULT_S3_PATH__STYLE__ACCESS=true \
    CATALOG_CLIENT__DEFAULT_S3_ACCESS__KEY__ID="$RR_S3_ACCESS_KEY" \
    CATALOG_CLIENT__DEFAULT_S3_SECRET__ACCESS__KEY="$RR_S3_SECRET_KEY" \
    CATALOG_CLIENT__DEFAULT_CLIENT_REGION="$RR_S3_REGION" \
    AWS_REGION="$RR_S3_REGION" \
    "$RR_JAVA17/bin/java" -Xms"$CATALOG_HEAP" -Xmx"$CATALOG_HEAP" -XX:+UseSerialGC \
    -Djava.awt.headless=true -Drosterrig.bind-host="$RR_HOST" \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=info \
    -Dorg.slf4j.simpleLogger.showDateTime=true \
    -cp "$(_catalog_launcher_dir):$CATALOG_JAR" org.apache.iceberg.rest.RosterrigCatalogServer
  RR_WAIT_PORT="$RR_CATALOG_PORT" rr_wait catalog 90 catalog_health
  rr_log "catalog: listening on $CATALOG_URL, warehouse $wh, log $RR_LOGS/catalog.log"
}

catalog_down() { rr_stop catalog; }

# The running server's own word: the launcher logs IcebergBuild.fullVersion() (read
# from iceberg-build.properties inside the fixture jar it runs) at start-up.
# Neither /v1/config nor any response header carries a version.
catalog_version() {
  catalog_health || { echo "catalog: not running" >&2; return 1; }
  local v
  v="$(grep -o 'rosterrig catalog: Apache Iceberg .*' "$RR_LOGS/catalog.log" 2>/dev/null | tail -1)"
  echo "${v#rosterrig catalog: } (logged by the running server at start-up)"
}
