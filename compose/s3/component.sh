# S3-compatible object store: S3Proxy 4.1.0 on the filesystem-nio2 backend.
# Sourced after compose/lib.sh. Defines s3_fetch, s3_up, s3_down, s3_health,
# s3_version, and s3_curl (one SigV4-signed request with curl).

S3_HEAP="${RR_S3_HEAP:-256m}"
S3_CONF_DIR="$RR_STATE/conf/s3"
S3_BASEDIR="$RR_DATA/s3"
S3_ENDPOINT="http://$RR_HOST:$RR_S3_PORT"

s3_fetch() { rr_resolve s3; }

_s3_write_config() {
  mkdir -p "$S3_CONF_DIR" "$S3_BASEDIR"
  cat > "$S3_CONF_DIR/s3proxy.properties" <<EOF
# Written by compose/s3/component.sh; edits here are overwritten.
s3proxy.endpoint=$S3_ENDPOINT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$RR_S3_ACCESS_KEY
s3proxy.credential=$RR_S3_SECRET_KEY
s3proxy.jetty.max-threads=32
# Trino 476 always sends x-amz-optional-object-attributes when listing; S3Proxy
# answers 501 to headers it does not know unless told to ignore them.
s3proxy.ignore-unknown-headers=true
jclouds.provider=filesystem-nio2
jclouds.identity=$RR_S3_ACCESS_KEY
jclouds.credential=$RR_S3_SECRET_KEY
jclouds.filesystem.basedir=$S3_BASEDIR
EOF
  cat > "$S3_CONF_DIR/logback.xml" <<'EOF'
<configuration>
  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>[%d{HH:mm:ss.SSS}] %-5level %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <logger name="org.gaul.s3proxy" level="INFO"/>
  <root level="WARN"><appender-ref ref="OUT"/></root>
</configuration>
EOF
}

# s3_curl <method> <path> [curl args...]: one SigV4-signed S3 request (path style).
# curl 7.88 does not send x-amz-content-sha256 on its own and S3Proxy then answers
# 400 XAmzContentSHA256Mismatch, so we send (and sign) UNSIGNED-PAYLOAD. The
# explicit Content-Type stops curl's form-urlencoded default, which makes the
# server read the body as form data (signature mismatch on PUT).
s3_curl() {
  local method="$1" path="$2"; shift 2
  curl -sS --max-time 10 -X "$method" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' \
    -H 'Content-Type: application/octet-stream' \
    --aws-sigv4 "aws:amz:$RR_S3_REGION:s3" --user "$RR_S3_ACCESS_KEY:$RR_S3_SECRET_KEY" \
    "$@" "$S3_ENDPOINT$path"
}

# Protocol-level probe: a signed HeadBucket on our bucket must answer 200
# (proves the HTTP server, SigV4 auth and the backend); before the bucket exists
# (first start) a signed ListBuckets answering 200 counts as healthy.
s3_health() {
  local code
  code="$(s3_curl HEAD "/$RR_S3_BUCKET" -o /dev/null -w '%{http_code}' 2>/dev/null)" || return 1
  [ "$code" = 200 ] && return 0
  [ "${1:-}" = --no-bucket ] || return 1
  code="$(s3_curl GET / -o /dev/null -w '%{http_code}' 2>/dev/null)" || return 1
  [ "$code" = 200 ]
}

s3_up() {
  if rr_running s3 && s3_health; then
    rr_log "s3: already running on $S3_ENDPOINT, bucket $RR_S3_BUCKET (log $RR_LOGS/s3.log)"
    return 0
  fi
  rr_running s3 && rr_stop s3
  [ -f "$RR_LIBS/s3/s3proxy-4.1.0.jar" ] || s3_fetch
  rr_port_open "$RR_S3_PORT" && rr_die "s3: port $RR_S3_PORT is taken by a process that is not ours"
  _s3_write_config
  rr_log "s3: starting S3Proxy (heap $S3_HEAP, data $S3_BASEDIR)"
  rr_start s3 "$RR_JAVA17/bin/java" -Xms"$S3_HEAP" -Xmx"$S3_HEAP" -XX:+UseSerialGC \
    -Djava.awt.headless=true -Dlogback.configurationFile="$S3_CONF_DIR/logback.xml" \
    -cp "$RR_LIBS/s3/*" org.gaul.s3proxy.Main --properties "$S3_CONF_DIR/s3proxy.properties"
  RR_WAIT_PORT="$RR_S3_PORT" rr_wait s3 90 s3_health --no-bucket
  if ! s3_health; then
    rr_log "s3: creating bucket $RR_S3_BUCKET"
    s3_curl PUT "/$RR_S3_BUCKET" -f -o /dev/null \
      || rr_die "s3 ($RR_HOST:$RR_S3_PORT): could not create bucket $RR_S3_BUCKET; read $RR_LOGS/s3.log"
    s3_health || rr_die "s3 ($RR_HOST:$RR_S3_PORT): bucket $RR_S3_BUCKET missing; read $RR_LOGS/s3.log"
  fi
  rr_log "s3: listening on $S3_ENDPOINT, bucket $RR_S3_BUCKET, log $RR_LOGS/s3.log"
}

s3_down() { rr_stop s3; }

# S3Proxy has no version endpoint and sends no Server header with its version, so
# this reads Implementation-Version from the manifest of the s3proxy jar on the
# running process's own classpath (found through /proc/<pid>/cmdline).
s3_version() {
  rr_running s3 && s3_health || { echo "s3: not running" >&2; return 1; }
  local pid cp jar
  pid="$(cat "$(rr_pidfile s3)")"
  cp="$(tr '\0' '\n' < "/proc/$pid/cmdline" | sed -n '/^-cp$/{n;p;}')"
  for jar in ${cp%\*}*.jar; do
    if unzip -p "$jar" META-INF/MANIFEST.MF 2>/dev/null | grep -q '^Implementation-Title: S3Proxy'; then
      echo "s3proxy $(unzip -p "$jar" META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: //p' | tr -d '\r') (manifest of $(basename "$jar") on the running classpath)"
      return 0
    fi
  done
  echo "s3proxy unknown"
}

# s3_check_fetch / s3_check [when_required]: the end-to-end check with the AWS SDK v2
# that Iceberg 1.10.1 bundles (compose/s3/check/S3Check.java): put, get, list,
# multipart (open upload not listed, complete, abort), delete. Its jars live in
# $RR_LIBS/s3-check, resolved like rr_resolve does from compose/s3/check/pom.xml.
s3_check_fetch() {
  local pom="$RR_COMPOSE/s3/check/pom.xml" dest="$RR_LIBS/s3-check"
  local stamp; stamp="$(sha256sum "$pom" | cut -c1-16)"
  [ -f "$dest/.resolved-$stamp" ] && return 0
  rr_log "s3: resolving the SDK check's jars with Maven (first time only)"
  rm -rf "$dest"; mkdir -p "$dest"
  mvn -B -q --strict-checksums -Dmaven.repo.local="$RR_M2" -f "$pom" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$dest" \
    >"$RR_LOGS/s3-check-resolve.log" 2>&1 \
    || rr_die "s3: Maven could not resolve the check's jars; read $RR_LOGS/s3-check-resolve.log"
  touch "$dest/.resolved-$stamp"
}

s3_check() {
  s3_check_fetch
  # S3CHECK_WIRE=1 logs each request's headers (shows aws-chunked bodies and x-amz-trailer checksums).
  "$RR_JAVA17/bin/java" -Xmx256m -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    ${S3CHECK_WIRE:+-Dorg.slf4j.simpleLogger.log.software.amazon.awssdk.request=debug} \
    -cp "$RR_LIBS/s3-check/*" "$RR_COMPOSE/s3/check/S3Check.java" \
    "$S3_ENDPOINT" "$RR_S3_REGION" "$RR_S3_BUCKET" "$RR_S3_ACCESS_KEY" "$RR_S3_SECRET_KEY" "$@"
}
