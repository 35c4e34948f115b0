#!/bin/sh
# The quick live tests' result check refuses what it must: a run that did not
# complete, a prediction no rule judged, a rule that threw, an empty judgement,
# a full run's result; and accepts a complete quick run judged by rules.
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
echo 'not json' > "$work/bad.json"
expect 2 "$work/bad.json" "a file that is not JSON"
