#!/bin/sh
# rosterrig-e8 refuses bad input with exit 2 and says why, before it reads the
# stack description (given one that does not exist, so a refusal for the wrong
# reason shows: it would name --stack instead).
# Mutation: return 1 for an unknown --repro in runner.hpp and this fails.
e8=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$e8" --repro no-such-thing --stack /nonexistent.json 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "unknown reproduction: exit $rc: $out"
echo "$out" | grep -q "no reproduction named 'no-such-thing'" || fail "unknown reproduction not named: $out"
out=$("$e8" --repro sinkv2-zombie-409 --quick --stack /nonexistent.json 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "--repro with --quick: exit $rc: $out"
echo "$out" | grep -q "drop --quick" || fail "--repro with --quick not explained: $out"
echo "both refused with exit 2"
