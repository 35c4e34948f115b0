#!/usr/bin/env bash
# Claim: with Trino stopped, the smoke test fails within a minute with a message
# that names Trino and its log file. (Mutation: make rosterrig-smoke skip the
# version check and wait on Trino instead, and this fails on time or text.)
set -uo pipefail
smoke="$1"; stack="$2"
"$stack" down trino
t0=$(date +%s)
out=$(timeout 120 "$smoke" --warehouse local 2>&1); rc=$?
elapsed=$(( $(date +%s) - t0 ))
"$stack" up trino >/dev/null 2>&1 || echo "warning: could not restart trino" >&2
echo "$out" | tail -n 3
echo "exit $rc after ${elapsed}s"
[ "$rc" -ne 0 ] || { echo "FAIL: the smoke test passed with Trino stopped"; exit 1; }
[ "$elapsed" -le 60 ] || { echo "FAIL: took ${elapsed}s, more than a minute"; exit 1; }
echo "$out" | grep -qi 'trino' || { echo "FAIL: the message does not name Trino"; exit 1; }
echo "$out" | grep -q 'trino.log' || { echo "FAIL: the message does not name Trino's log file"; exit 1; }
echo "PASS"
