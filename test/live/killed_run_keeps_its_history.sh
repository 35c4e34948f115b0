#!/usr/bin/env bash
# Claims: a driver killed with SIGKILL mid-run leaves a history that reads
# "running" with the samples so far, the fault plan and every resource it
# recorded creating, and results/ untouched; a driver stopped with SIGTERM
# records "failed" with the reason, exits 1 and drops what it created.
#   killed_run_keeps_its_history.sh <rosterrig-e1> <stack script> <work dir>
set -uo pipefail
e1="$1"; stack="$2"; work="$3"
root="$(cd "$(dirname "$stack")/.." && pwd)"
# shellcheck disable=SC1091
. "$root/compose/ports.env"
. "$root/compose/lib.sh"
. "$root/compose/kafka/component.sh"
flink="http://$RR_HOST:$RR_FLINK_REST_PORT"
catalog="http://$RR_HOST:$RR_CATALOG_PORT"
fail() { echo "FAIL: $*"; exit 1; }
results_before="$(git -C "$root" status --porcelain -- results)"

# Starts a quick run; returns once its history shows the first kill.
start_run() {
  rm -rf "$work/$1"; mkdir -p "$work/$1"
  "$e1" --quick --runs "$work/$1" > "$work/$1.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    history="$(ls "$work/$1"/*.json 2>/dev/null | head -1)"
    if [ -n "$history" ] && python3 - "$history" <<'PY' 2>/dev/null; then return 0; fi
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["samples"]["configurations"] and d["samples"]["configurations"][0]["kills"] else 1)
PY
    kill -0 "$pid" 2>/dev/null || fail "the run ended before its first kill (see $work/$1.log)"
    sleep 0.5
  done
  fail "no kill recorded within 300 s (see $work/$1.log)"
}

# 1. SIGKILL: the history says running, with what was seen and created.
start_run killed
kill -KILL "$pid"; wait "$pid" 2>/dev/null
python3 - "$history" <<'PY' || fail "the killed run's history is not what it should be"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "running", d["status"]
assert d["fault_plan"]["steps"], "no fault plan"
assert len(d["samples"]["configurations"][0]["kills"]) >= 1
kinds = {c["kind"] for c in d["created"]}
assert {"topic", "table", "job"} <= kinds, kinds
print("killed run: status running,", len(d["samples"]["configurations"][0]["kills"]), "kill(s) saved,",
      len(d["created"]), "resources recorded")
PY
# Clean up exactly what the history recorded creating.
python3 - "$history" > "$work/killed.created" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["created"]:
    print(c["kind"], c["name"])
PY
while read -r kind name; do
  case "$kind" in
    job) curl -fsS -m 10 -X PATCH "$flink/jobs/$name?mode=cancel" >/dev/null || true ;;
    table) curl -fsS -m 10 -X DELETE "$catalog/v1/namespaces/${name%%.*}/tables/${name#*.}?purgeRequested=true" >/dev/null || true ;;
    topic) kafka_tool TopicCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" --delete --topic "$name" >/dev/null 2>&1 || true ;;
  esac
done < "$work/killed.created"

# 2. SIGTERM: recorded as failed with the reason, and everything dropped.
start_run stopped
kill -TERM "$pid"; wait "$pid"; rc=$?
[ "$rc" = 1 ] || fail "a stopped run exited $rc, not 1"
python3 - "$history" <<'PY' || fail "the stopped run's history is not what it should be"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "failed", d["status"]
assert "interrupted" in d["failure"], d["failure"]
print("stopped run: status failed:", d["failure"])
PY
for job in $(python3 -c 'import json,sys; [print(c["name"]) for c in json.load(open(sys.argv[1]))["created"] if c["kind"]=="job"]' "$history"); do
  state="$(curl -fsS -m 10 "$flink/jobs/$job" | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')"
  [ "$state" != RUNNING ] || fail "job $job is still RUNNING after the stopped run"
done
[ "$(git -C "$root" status --porcelain -- results)" = "$results_before" ] || fail "results/ changed"
echo "PASS: a killed run reads running, a stopped one failed, results/ untouched"
