#!/usr/bin/env bash
# Claims: `stack status` fails, naming it, when the TaskManager's supervisor (or
# the Kafka Connect worker's) is dead; an extra Connect worker starts and joins;
# after `stack down`, no process of ours is left, that worker included (a
# process is ours when its command line mentions this checkout's state
# directory or jar cache); and
# `stack up` with a port taken by another process fails naming the port and
# the process, before starting anything.
set -uo pipefail
stack="$1"
root="$(cd "$(dirname "$stack")/.." && pwd)"
. "$root/compose/ports.env"
state="${ROSTERRIG_STATE:-$root/.stack}"
cache="${ROSTERRIG_CACHE:-$HOME/.cache/rosterrig}"
# A failed check must not leave the stack running: the next run (or the next
# checkout's CI) would find its ports taken.
fail() { echo "FAIL: $*"; "$stack" down --force >/dev/null 2>&1; exit 1; }
ours() { (pgrep -af -- "$state"; pgrep -af -- "$cache/libs") | sort -u | grep -v -e pgrep -e down_leaves_nothing || true; }

# This test kills supervisors and takes the stack down: beside a running
# experiment (it holds runs.lock) it would break that run, so it refuses first,
# touching nothing.
if [ -e "$state/runs.lock" ] && ! flock -n -x "$state/runs.lock" true 2>/dev/null; then
  echo "FAIL: an experiment holds $state/runs.lock (pids$(fuser "$state/runs.lock" 2>/dev/null || true)); nothing was touched"
  exit 1
fi

# 1. A dead supervisor: Flink still answers, status must not call it healthy.
sup="$state/pids/flink-taskmanager-supervisor.pid"
if [ -f "$sup" ] && kill -0 "$(cat "$sup")" 2>/dev/null; then
  kill -KILL "$(cat "$sup")"   # the supervisor alone; its TaskManager JVM stays
  sleep 1
  out="$("$stack" status 2>&1)"; rc=$?
  [ "$rc" = 1 ] || fail "status exited $rc with the TaskManager's supervisor dead: $out"
  grep -q "supervisor is not running" <<<"$out" || fail "status did not name the dead supervisor: $out"
  echo "status with a dead supervisor: exit 1, $(grep -m1 problem: <<<"$out" | cut -c1-120)"
fi

# 1b. The same for the Kafka Connect worker's supervisor (compose/connect): its
# JVM stays, and step 2 must stop it too.
sup="$state/pids/connect-supervisor.pid"
if [ -f "$sup" ] && kill -0 "$(cat "$sup")" 2>/dev/null; then
  kill -KILL "$(cat "$sup")"
  sleep 1
  out="$("$stack" status connect 2>&1)"; rc=$?
  [ "$rc" = 1 ] || fail "status exited $rc with the Connect worker's supervisor dead: $out"
  grep -q "supervisor is not running" <<<"$out" || fail "status did not name the Connect worker's dead supervisor: $out"
  echo "status with the Connect worker's supervisor dead: exit 1, $(grep -m1 problem: <<<"$out" | cut -c1-120)"
fi

# 1c. An extra Connect worker of the same group (compose/stack connect-worker):
# it starts, joins (its /health answers 200 once its herder runs in the group),
# and step 2's down must stop it too. Mutation: connect_down without the extra
# workers leaves its JVM running and step 2 fails.
if [ -f "$state/pids/connect.pid" ]; then
  "$stack" connect-worker up 2 >/dev/null 2>&1 || fail "connect-worker up 2 failed; read $state/logs/connect-w2.log"
  code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$RR_HOST:$RR_CONNECT_WORKER2_PORT/health")"
  [ "$code" = 200 ] || fail "the second Connect worker's /health answered $code"
  echo "a second Connect worker joined on $RR_HOST:$RR_CONNECT_WORKER2_PORT"
fi
out="$("$stack" connect-worker up 4 2>&1)"; rc=$?
[ "$rc" = 2 ] || fail "connect-worker up 4 exited $rc: $out"

# 2. Down leaves nothing.
"$stack" down
sleep 2
left="$(ours)"
[ -z "$left" ] || { echo "FAIL: still running:"; echo "$left"; exit 1; }
echo "down: nothing of ours is running"

# 3. A taken port: up fails naming it, and nothing starts.
# A listener that accepts and closes, for at most two minutes; its output
# goes nowhere, so it cannot hold this test's output open.
python3 -c 'import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("'"$RR_HOST"'", '"$RR_TRINO_PORT"')); s.listen(64); s.settimeout(1)
end = time.time() + 120
while time.time() < end:
    try:
        s.accept()[0].close()
    except OSError:
        pass' > /dev/null 2>&1 &
holder=$!
for _ in $(seq 1 50); do [ -n "$(ss -ltnH "( sport = :$RR_TRINO_PORT )")" ] && break; sleep 0.1; done
out="$(timeout 120 "$stack" up 2>&1)"; rc=$?
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
[ "$rc" != 0 ] || { "$stack" down; fail "stack up succeeded with port $RR_TRINO_PORT taken"; }
grep -q "trino needs $RR_HOST:$RR_TRINO_PORT, which another process holds" <<<"$out" || fail "up did not name the taken port: $out"
grep -q "python3" <<<"$out" || fail "up did not name the process holding the port: $out"
left="$(ours)"
[ -z "$left" ] || { "$stack" down; echo "FAIL: up started processes before failing:"; echo "$left"; exit 1; }
echo "up with port $RR_TRINO_PORT taken: exit $rc, $(grep -m1 'needs' <<<"$out" | cut -c1-160)"
echo "PASS: a dead supervisor fails status; nothing of ours left after down; a taken port stops up before anything starts"
