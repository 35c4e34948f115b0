#!/usr/bin/env bash
# Claim: an e5 run stopped mid-way (SIGTERM while its job writes inside an
# open transaction) records failed, cancels its job, deletes its topics and
# leaves no transaction of its prefix open, as the broker reports it.
#   e5_failure_leaves_no_open_transaction.sh <rosterrig-e5> <stack script> <work dir>
set -uo pipefail
e5="$1"; stack="$2"; work="$3"
root="$(cd "$(dirname "$stack")/.." && pwd)"
. "$root/compose/ports.env"
. "$root/compose/lib.sh"
. "$root/compose/kafka/component.sh"
flink="http://$RR_HOST:$RR_FLINK_REST_PORT"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"
txns() { kafka_tool TransactionsCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" list 2>/dev/null | grep -F -- "$1" || true; }

"$e5" --quick --runs "$work" > "$work/run.log" 2>&1 &
pid=$!
prefix=""; listing=""
for _ in $(seq 1 240); do
  history="$(ls "$work"/*_"$pid".json 2>/dev/null | head -1)"
  [ -n "$history" ] && prefix="$(python3 -c 'import json,sys; print(next((c["name"] for c in json.load(open(sys.argv[1])).get("created") or [] if c["kind"]=="transactional-id-prefix"), ""))' "$history" 2>/dev/null)"
  listing=""; [ -z "$prefix" ] || listing="$(txns "$prefix")"
  if grep -q Ongoing <<<"$listing"; then break; fi
  kill -0 "$pid" 2>/dev/null || fail "the run ended before a transaction was open (see $work/run.log)"
  sleep 0.5
done
grep -q Ongoing <<<"$listing" || fail "no transaction of $prefix was open within 120 s"
kill -TERM "$pid"
echo "open when the stop was sent: $(grep -c Ongoing <<<"$listing") transaction(s) of $prefix"
wait "$pid"; rc=$?
[ "$rc" = 1 ] || fail "the stopped run exited $rc, not 1 (see $work/run.log)"
python3 - "$history" <<'PY' || fail "the history does not read failed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "failed" and "interrupted" in d["failure"], (d["status"], d.get("failure"))
PY
open="$(txns "$prefix" | grep -E 'Ongoing|PrepareCommit|PrepareAbort' || true)"
[ -z "$open" ] || fail "transactions of $prefix still open: $open"
for job in $(python3 -c 'import json,sys; [print(c["name"]) for c in json.load(open(sys.argv[1]))["created"] if c["kind"]=="job"]' "$history"); do
  state="$(curl -fsS -m 10 "$flink/jobs/$job" | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')"
  [ "$state" != RUNNING ] || fail "job $job is still RUNNING"
done
topics="$(kafka_tool TopicCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" --list 2>/dev/null)"
for t in $(python3 -c 'import json,sys; [print(c["name"]) for c in json.load(open(sys.argv[1]))["created"] if c["kind"]=="topic"]' "$history"); do
  grep -qx "$t" <<<"$topics" && fail "topic $t still exists"
done
echo "PASS: stopped mid-transaction: history failed, job not running, topics deleted, no transaction of $prefix open (broker)"
