#!/usr/bin/env bash
# Claims: with Trino stopped, the smoke test fails within a minute with a message
# that names Trino and its log file (mutation: make rosterrig-smoke skip the
# version check and wait on Trino instead, and this fails on time or text);
# and rosterrig doctor, on the hand-written description of the same stack,
# exits non-zero naming Trino as the first failing component (mutation: let
# the doctor skip the Trino check, and this fails).
set -uo pipefail
smoke="$1"; stack="$2"; doctor="$3"; src="$4"
"$stack" down trino
t0=$(date +%s)
out=$(timeout 120 "$smoke" --warehouse local 2>&1); rc=$?
elapsed=$(( $(date +%s) - t0 ))
. "$src/compose/ports.env"
doctor_out=$(RR_KAFKA_SASL_PASSWORD="$RR_KAFKA_SASL_PASSWORD" RR_S3_SECRET_KEY="$RR_S3_SECRET_KEY" \
             timeout 300 "$doctor" --stack "$src/docs/examples/local-stack.json" 2>&1); doctor_rc=$?
"$stack" up trino >/dev/null 2>&1 || echo "warning: could not restart trino" >&2
echo "$out" | tail -n 3
echo "exit $rc after ${elapsed}s"
[ "$rc" -ne 0 ] || { echo "FAIL: the smoke test passed with Trino stopped"; exit 1; }
[ "$elapsed" -le 60 ] || { echo "FAIL: took ${elapsed}s, more than a minute"; exit 1; }
echo "$out" | grep -qi 'trino' || { echo "FAIL: the message does not name Trino"; exit 1; }
echo "$out" | grep -q 'trino.log' || { echo "FAIL: the message does not name Trino's log file"; exit 1; }
echo "$doctor_out" | tail -n 3
[ "$doctor_rc" = 1 ] || { echo "FAIL: doctor exited $doctor_rc with Trino stopped"; exit 1; }
echo "$doctor_out" | grep -q 'first failing component: trino$' || { echo "FAIL: doctor did not name Trino first"; exit 1; }
echo "PASS"
