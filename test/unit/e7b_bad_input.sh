#!/bin/sh
# rosterrig-e7b refuses a cell it does not know, and an empty name in --cells,
# with exit 2 and says why, before it reads the stack description (given one
# that does not exist, so a refusal for the wrong reason shows: it would name
# --stack instead).
# Mutation: drop the known_cells() check from e7b's usage_problem and the first fails.
e7b=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$e7b" --cells worker-join,no-such-cell --stack /nonexistent.json 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "unknown cell: exit $rc: $out"
echo "$out" | grep -q "no cell 'no-such-cell' (coordinator-kill, .*, worker-join, .*task-restart-in-commit)" || fail "unknown cell not named: $out"
out=$("$e7b" --cells worker-join,,tasks-4 --stack /nonexistent.json 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "an empty cell name: exit $rc: $out"
echo "$out" | grep -q "expected names separated by commas" || fail "an empty cell name not explained: $out"
echo "both refused with exit 2"
