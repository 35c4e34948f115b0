#!/usr/bin/env bash
# Claim: a stack process left paused (as a driver SIGKILLed during a pause
# leaves it: SIGSTOPped, in no live process's table) is resumed by
# rosterrig-clean while no run holds the stack, and answers again.
#   clean_resumes_a_paused_leftover.sh <rosterrig-clean> <stack script> <work dir>
# Mutation: drop the heal_paused_leftovers call from drivers/experiments/clean.cpp
# and the catalog stays in state T: this fails (and resumes it itself).
set -uo pipefail
clean="$1"; stack="$2"; work="$3"
root="$(cd "$(dirname "$stack")/.." && pwd)"
. "$root/compose/ports.env"
state_dir="${ROSTERRIG_STATE:-$root/.stack}"
catalog="http://$RR_HOST:$RR_CATALOG_PORT"
rm -rf "$work"; mkdir -p "$work"
catalog_pid="$(cat "$state_dir/pids/catalog.pid")"
# Whatever happens below, the catalog is not left stopped for the next test.
trap 'kill -CONT "$catalog_pid" 2>/dev/null' EXIT
fail() { echo "FAIL: $*"; exit 1; }
state_of() { ps -o stat= -p "$catalog_pid" | cut -c1; }

curl -fsS -m 5 "$catalog/v1/config" > /dev/null || fail "the catalog (pid $catalog_pid) does not answer before the test"
kill -STOP "$catalog_pid"
for _ in $(seq 1 50); do [ "$(state_of)" = T ] && break; sleep 0.1; done
[ "$(state_of)" = T ] || fail "the catalog (pid $catalog_pid) did not stop on SIGSTOP"
curl -fsS -m 2 "$catalog/v1/config" > /dev/null 2>&1 && fail "the paused catalog answered: the pause did not take"

"$clean" > "$work/out.txt" 2> "$work/clean.log"; rc=$?
[ "$rc" = 0 ] || fail "rosterrig-clean exited $rc (see $work/clean.log)"
grep -q "catalog (pid $catalog_pid) is paused (state T), a leftover: resumed" "$work/clean.log" \
  || fail "rosterrig-clean did not say it resumed the catalog (see $work/clean.log)"
for _ in $(seq 1 50); do [ "$(state_of)" != T ] && break; sleep 0.1; done
stat="$(state_of)"
[ "$stat" != T ] || fail "the catalog (pid $catalog_pid) is still stopped after rosterrig-clean"
curl -fsS -m 5 "$catalog/v1/config" > /dev/null || fail "the catalog does not answer within 5 s after rosterrig-clean"
echo "PASS: the paused catalog (pid $catalog_pid) was resumed by rosterrig-clean (state $stat) and answers"
