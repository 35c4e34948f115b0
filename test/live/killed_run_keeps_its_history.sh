#!/usr/bin/env bash
# Claims: a driver killed with SIGKILL mid-run leaves a history that reads
# "running" with the samples so far, the fault plan and every resource it
# recorded creating, and results/ untouched; its job keeps running. The next
# run first removes exactly those leftovers (and marks the dead history
# failed, saying what it removed), then runs to completion. A driver stopped
# with SIGTERM records "failed" with the reason, exits 1 and drops what it
# created; afterwards rosterrig-clean finds nothing left.
#   killed_run_keeps_its_history.sh <rosterrig-e1> <rosterrig-clean> <stack script> <work dir>
set -uo pipefail
e1="$1"; clean="$2"; stack="$3"; work="$4"
root="$(cd "$(dirname "$stack")/.." && pwd)"
# shellcheck disable=SC1091
. "$root/compose/ports.env"
. "$root/compose/lib.sh"
. "$root/compose/kafka/component.sh"
flink="http://$RR_HOST:$RR_FLINK_REST_PORT"
catalog="http://$RR_HOST:$RR_CATALOG_PORT"
fail() { echo "FAIL: $*"; exit 1; }
results_before="$(git -C "$root" status --porcelain -- results)"
runs="$work/runs"
rm -rf "$work"; mkdir -p "$runs"

job_state() { curl -fsS -m 10 "$flink/jobs/$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])'; }
created() { python3 -c 'import json,sys; [print(c["kind"], c["name"]) for c in json.load(open(sys.argv[1]))["created"]]' "$1"; }

# Starts a quick run with its history in $runs; returns once it shows the first kill.
start_run() {
  "$e1" --quick --runs "$runs" > "$work/$1.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    history="$(ls "$runs"/*_"$pid".json 2>/dev/null | head -1)"
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

# 1. SIGKILL: the history says running, with what was seen and created; the job is left running.
start_run killed
killed="$history"
kill -KILL "$pid"; wait "$pid" 2>/dev/null
python3 - "$killed" <<'PY' || fail "the killed run's history is not what it should be"
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
created "$killed" > "$work/killed.created"
left_job="$(awk '$1=="job"{print $2; exit}' "$work/killed.created")"
left_table="$(awk '$1=="table"{print $2; exit}' "$work/killed.created")"
left_topic="$(awk '$1=="topic"{print $2; exit}' "$work/killed.created")"
[ "$(job_state "$left_job")" != CANCELED ] || fail "the killed run's job $left_job was cancelled by nobody"

# 2. A dry run lists exactly what the killed run recorded, and removes nothing.
"$clean" --runs "$runs" --dry-run 2> "$work/dry.log" || fail "rosterrig-clean --dry-run failed (see $work/dry.log)"
sed -n 's/^rosterrig-clean: would remove \([^ ]*\) \([^ ]*\) .*/\1 \2/p' "$work/dry.log" | sort > "$work/dry.names"
sort "$work/killed.created" > "$work/killed.sorted"
diff "$work/dry.names" "$work/killed.sorted" > /dev/null || fail "the dry run's names differ from the recorded ones: $(diff "$work/dry.names" "$work/killed.sorted")"
[ "$(job_state "$left_job")" != CANCELED ] || fail "the dry run cancelled $left_job"

# 3. The next run removes the leftovers first, then completes.
"$e1" --quick --runs "$runs" > "$work/next.log" 2>&1; rc=$?
grep -q "leftover of a dead run: job $left_job: cancelled" "$work/next.log" || fail "the next run did not cancel the dead run's job $left_job (see $work/next.log)"
grep -q "leftover of a dead run: table $left_table: dropped" "$work/next.log" || fail "the next run did not drop $left_table"
grep -q "leftover of a dead run: topic $left_topic: deleted" "$work/next.log" || fail "the next run did not delete $left_topic"
[ "$(grep -c "leftover of a dead run:" "$work/next.log")" = "$(wc -l < "$work/killed.created")" ] || fail "the next run removed something the dead run did not record"
[ "$(job_state "$left_job")" = CANCELED ] || fail "job $left_job is not CANCELED"
curl -s -m 10 -o /dev/null -w '%{http_code}' "$catalog/v1/namespaces/${left_table%%.*}/tables/${left_table#*.}" | grep -q 404 || fail "table $left_table still exists"
kafka_tool TopicCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" --list 2>/dev/null | grep -qx "$left_topic" && fail "topic $left_topic still exists"
python3 - "$killed" <<'PY' || fail "the dead run's history was not marked failed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "failed" and "rosterrig-clean removed" in d["failure"], d.get("failure")
print("dead run marked failed:", d["failure"][:160])
PY
next="$(ls -t "$runs"/*.json | head -1)"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"]=="complete", d["status"]' "$next" \
  || fail "the next run did not complete (exit $rc, see $work/next.log)"
echo "next run: removed $(wc -l < "$work/killed.created") leftovers, then completed (exit $rc)"

# 4. SIGTERM: recorded as failed with the reason, and everything dropped.
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
  [ "$(job_state "$job")" != RUNNING ] || fail "job $job is still RUNNING after the stopped run"
done
"$clean" --runs "$runs" 2> "$work/clean.log" || fail "rosterrig-clean failed (see $work/clean.log)"
grep -q "no dead run left anything" "$work/clean.log" || fail "rosterrig-clean found leftovers: $(cat "$work/clean.log")"
[ "$(git -C "$root" status --porcelain -- results)" = "$results_before" ] || fail "results/ changed"
echo "PASS: a killed run reads running and its leftovers go first in the next run, which completes; a stopped one reads failed; nothing left; results/ untouched"
