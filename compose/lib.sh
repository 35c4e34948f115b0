# Shared helpers for the Docker-free stack. Sourced, never executed.
# Each component lives in compose/<name>/ with a pom.xml (its pinned jars) and a
# component.sh that defines <name>_fetch, <name>_up, <name>_health, <name>_version.

RR_COMPOSE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RR_ROOT="$(cd "$RR_COMPOSE/.." && pwd)"
# shellcheck source=ports.env
. "$RR_COMPOSE/ports.env"

# Runtime state (logs, pids, data) of this checkout's stack.
RR_STATE="${ROSTERRIG_STATE:-$RR_ROOT/.stack}"
RR_LOGS="$RR_STATE/logs"
RR_PIDS="$RR_STATE/pids"
RR_DATA="$RR_STATE/data"
# Jars resolved by Maven: a cache the project controls, shared between checkouts
# so a second clone does not download a gigabyte again.
RR_CACHE="${ROSTERRIG_CACHE:-$HOME/.cache/rosterrig}"
RR_M2="$RR_CACHE/m2"
RR_LIBS="$RR_CACHE/libs"

RR_JAVA17="${ROSTERRIG_JAVA17:-/usr/lib/jvm/java-17-openjdk-amd64}"
# Trino's Java (24+): compose/trino/java.sh finds or installs it.

mkdir -p "$RR_LOGS" "$RR_PIDS" "$RR_DATA" "$RR_LIBS"

rr_log() { printf '[stack %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
rr_die() { printf '[stack] ERROR: %s\n' "$*" >&2; exit 1; }

# rr_resolve <component> [pom] [dest]: copy the runtime jars named by
# compose/<component>/pom.xml (or the given pom) into $RR_LIBS/<component> (or
# dest), with strict checksum checking, once per pom content. Its Maven log is
# $RR_LOGS/<component>-resolve.log.
rr_resolve() {
  local comp="$1" pom="${2:-$RR_COMPOSE/$1/pom.xml}" dest="${3:-$RR_LIBS/$1}"
  local stamp; stamp="$(sha256sum "$pom" | cut -c1-16)"
  if [ -f "$dest/.resolved-$stamp" ]; then return 0; fi
  rr_log "$comp: resolving jars with Maven (first time only)"
  rm -rf "$dest"; mkdir -p "$dest"
  if ! mvn -B -q --strict-checksums -Dmaven.repo.local="$RR_M2" -f "$pom" \
        dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$dest" >"$RR_LOGS/$comp-resolve.log" 2>&1; then
    rr_die "$comp: Maven could not resolve its jars; read $RR_LOGS/$comp-resolve.log"
  fi
  (cd "$dest" && sha256sum ./*.jar > SHA256SUMS 2>/dev/null || true)
  touch "$dest/.resolved-$stamp"
}

rr_pidfile() { echo "$RR_PIDS/$1.pid"; }

# rr_running <name>: true when the pid in <name>'s pid file is alive.
rr_running() {
  local f; f="$(rr_pidfile "$1")"
  [ -f "$f" ] && rr_alive "$(cat "$f")"
}

# rr_alive <pid>: the process exists and is not a zombie. A process killed but
# not yet reaped is a zombie, which kill -0 still finds: it runs nothing. (A
# detached process's parent is init, and the init of these machines reaps
# seconds late: the down test saw a SIGKILLed supervisor "running".)
rr_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  [ "$(sed -n 's/^[0-9]* (.*) \([A-Z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

# rr_start <name> <command...>: start detached in its own session, log to
# $RR_LOGS/<name>.log, record the pid.
rr_start() {
  local name="$1"; shift
  local log="$RR_LOGS/$name.log"
  setsid "$@" >>"$log" 2>&1 < /dev/null &
  echo $! > "$(rr_pidfile "$name")"
}

# rr_port_open <port>: true when something listens on 127.0.0.1:<port> (asked
# of the kernel with ss, so a listener that never accepts cannot hang us);
# without ss, a connect with a 2 s deadline.
rr_port_open() {
  if command -v ss >/dev/null 2>&1; then
    [ -n "$(ss -ltnH "( sport = :$1 )" 2>/dev/null)" ]
  else
    timeout 2 bash -c "exec 3<>/dev/tcp/$RR_HOST/$1" 2>/dev/null
  fi
}

# rr_wait <name> <seconds> <probe command...>: wait until the probe succeeds,
# failing early if the process died; the error names the component and its log,
# and its port when the caller sets RR_WAIT_PORT (RR_WAIT_PORT=29092 rr_wait ...).
rr_wait() {
  local name="$1" limit="$2"; shift 2
  local waited=0 where="${RR_WAIT_PORT:+ ($RR_HOST:$RR_WAIT_PORT)}"
  while ! "$@" >/dev/null 2>&1; do
    if ! rr_running "$name"; then
      rr_die "$name$where exited during start-up; read $RR_LOGS/$name.log"
    fi
    if [ "$waited" -ge "$limit" ]; then
      rr_die "$name$where not healthy after ${limit}s; read $RR_LOGS/$name.log"
    fi
    sleep 1; waited=$((waited + 1))
  done
}

# rr_stop <name>: TERM, then KILL after 20 s, only for the pid we recorded.
rr_stop() {
  local name="$1" f; f="$(rr_pidfile "$1")"
  [ -f "$f" ] || return 0
  local pid; pid="$(cat "$f")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    local i=0
    while rr_alive "$pid" && [ $i -lt 20 ]; do sleep 1; i=$((i + 1)); done
    # || true: the pid usually exited after TERM; under set -e a failed last kill would abort the caller.
    kill -KILL "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

# rr_http <url> [curl args...]: one HTTP call with a timeout.
rr_http() { curl -fsS --max-time 5 "$@"; }
