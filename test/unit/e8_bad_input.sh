#!/bin/sh
# rosterrig-e8 refuses bad input with exit 2 and says why, before it creates
# anything. The first two come before it reads the stack description (given one
# that does not exist, so a refusal for the wrong reason shows: it would name
# --stack instead); each refusal's words are checked, not only its exit code.
# Mutation: return 1 for an unknown --repro in runner.hpp and this fails.
e8=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$e8" --repro no-such-thing --stack /nonexistent.json 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "unknown reproduction: exit $rc: $out"
echo "$out" | grep -q "no reproduction named 'no-such-thing'" || fail "unknown reproduction not named: $out"
out=$("$e8" --repro sinkv2-zombie-409 --quick --stack /nonexistent.json 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "--repro with --quick: exit $rc: $out"
echo "$out" | grep -q "drop --quick" || fail "--repro with --quick not explained: $out"
# A described cluster: refused before anything is created (the proxy is on this machine's loopback).
# Mutation: drop the local_stack_only check in runner.hpp: the run goes on to the stack and this fails.
desc=$(dirname "$0")/../../docs/examples/local-stack.json
out=$(RR_KAFKA_SASL_PASSWORD=unused RR_S3_SECRET_KEY=unused "$e8" --quick --stack "$desc" 2>&1); rc=$?
[ "$rc" -eq 2 ] || fail "a described stack: exit $rc: $out"
echo "$out" | grep -q "runs only on the local stack" || fail "a described stack not explained: $out"
echo "all three refused with exit 2"
