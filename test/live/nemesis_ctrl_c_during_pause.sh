#!/usr/bin/env bash
# Claim: a nemesis check stopped with Ctrl-C while the catalog is paused
# resumes the catalog (its process is not stopped, and it answers), and
# removes its job, table and topic.
#   nemesis_ctrl_c_during_pause.sh <rosterrig-nemesis-check> <stack script> <work dir>
# Mutation: drop resume_all_paused() from the interrupt handler in
# drivers/live/runner/progress.hpp and the heal_paused_on_exit guard in the check:
# the catalog stays in state T and this fails.
set -uo pipefail
check="$1"; stack="$2"; work="$3"
root="$(cd "$(dirname "$stack")/.." && pwd)"
. "$root/compose/ports.env"
. "$root/compose/lib.sh"
. "$root/compose/kafka/component.sh"
state_dir="${ROSTERRIG_STATE:-$root/.stack}"
catalog="http://$RR_HOST:$RR_CATALOG_PORT"
flink="http://$RR_HOST:$RR_FLINK_REST_PORT"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"

"$check" --pause-ms 600000 > "$work/out.json" 2> "$work/run.log" &
pid=$!
for _ in $(seq 1 360); do
  grep -q 'catalog paused' "$work/run.log" && break
  kill -0 "$pid" 2>/dev/null || fail "the check ended before it paused the catalog (see $work/run.log)"
  sleep 0.5
done
grep -q 'catalog paused' "$work/run.log" || fail "the catalog was not paused within 180 s (see $work/run.log)"
catalog_pid="$(cat "$state_dir/pids/catalog.pid")"
[ "$(ps -o stat= -p "$catalog_pid" | cut -c1)" = T ] || fail "the catalog (pid $catalog_pid) is not stopped while the check says it paused it"
sleep 2
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" = 130 ] || fail "the interrupted check exited $rc, not 130 (see $work/run.log)"
stat="$(ps -o stat= -p "$catalog_pid" | cut -c1)"
[ "$stat" != T ] || fail "the catalog (pid $catalog_pid) is still stopped after the interrupt"
curl -fsS -m 5 "$catalog/v1/config" > /dev/null || fail "the catalog does not answer within 5 s after the interrupt"
line="$(grep -m1 'nemesis: job ' "$work/run.log")"
job="$(sed -E 's/.*nemesis: job ([0-9a-f]+) .*/\1/' <<<"$line")"
table="$(sed -E 's/.*, table ([^,]+), topic .*/\1/' <<<"$line")"
topic="$(sed -E 's/.*, topic ([^,]+), catalog .*/\1/' <<<"$line")"
[ -n "$job" ] && [ -n "$table" ] && [ -n "$topic" ] || fail "no job, table and topic in: $line"
state="$(curl -fsS -m 10 "$flink/jobs/$job" | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')"
[ "$state" != RUNNING ] || fail "job $job is still RUNNING"
code="$(curl -s -o /dev/null -w '%{http_code}' -m 10 "$catalog/v1/namespaces/${table%%.*}/tables/${table#*.}")"
[ "$code" = 404 ] || fail "table $table still answers $code in the catalog"
kafka_tool TopicCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" --list 2>/dev/null | grep -qx "$topic" && fail "topic $topic still exists"
echo "PASS: interrupted during a pause: catalog pid $catalog_pid resumed (state $stat) and answering, job $job $state, table $table and topic $topic gone"
