#!/usr/bin/env bash
# Claims, on the local stack described by hand (docs/examples/local-stack.json:
# host spellings mixed per component, Kafka through the SASL/PLAIN listener,
# the TaskManager kill as a command):
#  - rosterrig doctor passes, one line per check;
#  - the smoke test passes through it;
#  - a wrong Kafka password fails within a minute, naming Kafka, printing no password;
#  - rosterrig-e1 --quick runs through it, every kill injected by the command
#    (no pid recorded) and seen back, and its result names the description.
# (Mutations: drop the client settings in kafka_admin.cpp and the doctor fails
# on Kafka; set pid in the command path of faults.cpp and the kill check fails.)
set -uo pipefail
doctor="$1"; smoke="$2"; e1="$3"; src="$4"; work="$5"
file="$src/docs/examples/local-stack.json"
. "$src/compose/ports.env"
export RR_KAFKA_SASL_PASSWORD RR_S3_SECRET_KEY
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

echo "== doctor"
"$doctor" --stack "$file" | tee "$work/doctor.txt"; rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || fail "doctor exited $rc on the described local stack"
[ "$(grep -c '^ok ' "$work/doctor.txt")" = 7 ] || fail "doctor did not print 7 passing checks"

echo "== smoke"
"$smoke" --stack "$file" --out "$work/smoke.json" >/dev/null || fail "the smoke test failed through the description"
grep -Eq '"passed": *true' "$work/smoke.json" || fail "smoke result not passed"

echo "== wrong password"
wrong="not-the-password-$$"
t0=$(date +%s)
out=$(RR_KAFKA_SASL_PASSWORD="$wrong" timeout 120 "$smoke" --stack "$file" 2>&1); rc=$?
elapsed=$(( $(date +%s) - t0 ))
echo "$out" | tail -n 2; echo "exit $rc after ${elapsed}s"
[ "$rc" -ne 0 ] || fail "the smoke test passed with a wrong password"
[ "$elapsed" -le 60 ] || fail "a wrong password took ${elapsed}s to fail"
echo "$out" | grep -q 'kafka' || fail "the message does not name Kafka"
! echo "$out" | grep -qF "$wrong" || fail "the wrong password was printed"
! echo "$out" | grep -qF "$RR_KAFKA_SASL_PASSWORD" || fail "the password was printed"

echo "== e1 --quick"
"$e1" --quick --stack "$file" --runs "$work/runs" --out "$work/e1.json" >/dev/null || fail "e1 --quick failed through the description"
# The plain quick run of the same label (live.rosterrig-e1_quick), when it ran first.
plain="$(dirname "$work")/rosterrig-e1_quick.json"
python3 - "$work/e1.json" "$file" "$plain" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
assert r["stack"] == json.load(open(sys.argv[2]))["name"], "the result does not name the description"
kills = [k for c in r["samples"]["configurations"] for k in c["kills"]]
assert kills, "no kills recorded"
for k in kills:
    assert k["killed_pid"] == 0, "a kill went through the pid path: %r" % k
    assert k["taskmanager_back_after_ms"] > 0, "a kill was not seen back: %r" % k
    assert k["restarting_at_ms"] >= k["killed_at_ms"], "Flink did not see a kill: %r" % k
    assert k["job_id_after"], "the job did not run again under its id: %r" % k
verdicts = {p["id"]: p["verdict"] for p in r["samples"]["predictions"]}
print("e1 --quick: %d kills, each by the command and seen back; verdicts: %s" % (len(kills), verdicts))
import os
if os.path.exists(sys.argv[3]):
    plain = {p["id"]: p["verdict"] for p in json.load(open(sys.argv[3]))["samples"]["predictions"]}
    assert plain == verdicts, "verdicts differ from the plain quick run: %r" % plain
    print("the same verdicts as the plain quick run")
PY
echo "PASS"
