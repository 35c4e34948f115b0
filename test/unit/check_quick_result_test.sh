#!/bin/sh
# The quick live tests' result check refuses what it must: a run that did not
# complete, a prediction no rule judged, a rule that threw, an empty judgement,
# a full run's result, a setting in force other than the request, an
# unfaulted commit cell that lost or doubled a row; and accepts a complete
# quick run judged by rules.
# Mutation: drop the "no rule in the code" test in check_quick_result.py and
# the second case passes: this fails.
#   check_quick_result_test.sh SOURCE_DIR WORK_DIR
set -eu
check="$1/test/live/check_quick_result.py"; work="$2"
rm -rf "$work"; mkdir -p "$work"
result() {  # result FILE STATUS QUICK REASON
    cat > "$1" <<JSON
{"status": "$2", "failure": "", "parameters": {"quick": $3},
 "samples": {"predictions": [{"id": "e0.a", "verdict": "held", "reason": "held: 0 of 10"},
                             {"id": "e0.b", "verdict": "inconclusive", "reason": "$4"}]}}
JSON
}
expect() {  # expect CODE FILE WHAT
    set +e; python3 "$check" "$2" > "$work/out" 2>&1; rc=$?; set -e
    [ "$rc" = "$1" ] || { echo "FAIL: $3: exit $rc, not $1"; cat "$work/out"; exit 1; }
    echo "ok: $3 (exit $rc)"
}
result "$work/good.json" complete true "the prompt restore did not run"
expect 0 "$work/good.json" "a complete quick run judged by rules"
result "$work/norule.json" complete true "no rule in the code judges this prediction"
expect 1 "$work/norule.json" "a prediction no rule judged"
result "$work/threw.json" complete true "the rule could not decide: vector::at"
expect 1 "$work/threw.json" "a rule that threw"
result "$work/failed.json" failed true "the prompt restore did not run"
expect 1 "$work/failed.json" "a run that did not complete"
result "$work/full.json" complete false "the prompt restore did not run"
expect 1 "$work/full.json" "a full run's result"
echo '{"status": "complete", "parameters": {"quick": true}, "samples": {"predictions": []}}' > "$work/none.json"
expect 1 "$work/none.json" "no prediction judged"
cat > "$work/settings.json" <<'JSON'
{"experiment": "e1_restart_replay", "status": "complete", "parameters": {"quick": true},
 "samples": {"predictions": [{"id": "e1.a", "verdict": "held", "reason": "ok"}],
             "configurations": [{"checkpoint_mode_requested": "EXACTLY_ONCE", "checkpoint_mode_in_force": "exactly_once",
                                 "checkpoint_interval_requested_ms": 2000, "checkpoint_interval_in_force_ms": 2000}]}}
JSON
expect 0 "$work/settings.json" "settings in force as requested (the mode's case aside)"
sed 's/"checkpoint_interval_in_force_ms": 2000/"checkpoint_interval_in_force_ms": 5000/' "$work/settings.json" > "$work/interval.json"
# Mutation: return [] from settings_not_in_force, and this case passes: the test fails.
expect 1 "$work/interval.json" "a checkpoint interval in force other than the request"
cat > "$work/cell.json" <<'JSON'
{"experiment": "e3_file_size", "status": "complete", "parameters": {"quick": true},
 "samples": {"predictions": [{"id": "e3.a", "verdict": "held", "reason": "ok"}],
             "cells": [{"cell": "5s-p1", "repeat": 1, "events": 600, "rows": 600, "duplicate_rows": 0, "missing_runs": []}]}}
JSON
expect 0 "$work/cell.json" "an unfaulted commit cell with every event once"
sed 's/"duplicate_rows": 0, "missing_runs": \[\]/"duplicate_rows": 1, "missing_runs": [{"first": 5, "last": 5}]/' "$work/cell.json" > "$work/cell_dup.json"
# Mutation: compare only rows with events in unfaulted_cells_not_exact, and this case (a doubled seq
# hiding a lost one: 600 rows for 600 events) passes: the test fails.
expect 1 "$work/cell_dup.json" "an unfaulted commit cell holding one seq twice and missing another"
echo 'not json' > "$work/bad.json"
expect 2 "$work/bad.json" "a file that is not JSON"
