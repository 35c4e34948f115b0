#!/usr/bin/env bash
# Supervisor of the Flink TaskManager JVM: a container "restart: always" without
# a container. Started detached by flink_up (compose/flink/component.sh) as
#   tm-supervisor.sh <pidfile> <restarts-file> <stop-flag> <jvm-log> <tmp-dir> -- <java command...>
# It starts the JVM, writes the JVM's pid to <pidfile> on every start, and when
# the JVM dies (SIGKILL by an experiment, crash, OOM) starts it again after
# $TM_RESTART_PAUSE seconds (default 1; the recovery profile sets it),
# counting restarts in <restarts-file>. It stops restarting once <stop-flag>
# exists, or when it receives SIGTERM/SIGINT (it forwards TERM to the JVM).
set -u
pidfile="$1" restarts="$2" stopflag="$3" jvmlog="$4" tmpdir="$5"; shift 5
[ "${1:-}" = "--" ] && shift

say() { printf '[tm-supervisor %s] %s\n' "$(date '+%F %T')" "$*"; }

jpid=""
stopping=0
on_term() {
  stopping=1
  say "stop requested (signal); forwarding TERM to JVM ${jpid:-none}"
  [ -n "$jpid" ] && kill -TERM "$jpid" 2>/dev/null
}
trap on_term TERM INT

[ -f "$restarts" ] || echo 0 > "$restarts"
say "supervising: $*"
while :; do
  if [ "$stopping" = 1 ] || [ -f "$stopflag" ]; then break; fi
  # A killed JVM leaves its io.tmp.dirs content behind; only this TM uses tmpdir.
  rm -rf "$tmpdir"; mkdir -p "$tmpdir"
  echo "[tm-supervisor $(date '+%F %T')] starting TaskManager JVM" >> "$jvmlog"
  "$@" >> "$jvmlog" 2>&1 < /dev/null &
  jpid=$!
  echo "$jpid" > "$pidfile"
  say "TaskManager JVM started, pid $jpid"
  # `wait` returns early when a trapped signal arrives: wait again until the JVM is gone.
  rc=0
  while kill -0 "$jpid" 2>/dev/null; do wait "$jpid"; rc=$?; done
  say "TaskManager JVM $jpid exited with status $rc"
  echo "[tm-supervisor $(date '+%F %T')] TaskManager JVM $jpid exited with status $rc" >> "$jvmlog"
  jpid=""
  if [ "$stopping" = 1 ] || [ -f "$stopflag" ]; then break; fi
  echo $(( $(cat "$restarts" 2>/dev/null || echo 0) + 1 )) > "$restarts"
  say "restart #$(cat "$restarts") in ${TM_RESTART_PAUSE:-1} s"
  sleep "${TM_RESTART_PAUSE:-1}"
done
rm -f "$pidfile"
say "supervisor exiting"
