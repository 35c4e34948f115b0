#!/bin/sh
# The runner refuses bad input with exit 2, naming it, before anything is
# created: no history directory appears under --runs, and every case but the
# stack's own names a stack file that does not exist, so a refusal that came
# after reading it would name --stack instead. Offline: no stack is asked.
# Usage: runner_bad_input.sh RUNNER_E1 RUNNER_E3 WORK_DIR
# Mutation: in run_experiment (drivers/live/runner/runner.hpp) return 1 for
# experiment::bad_input: every case below fails on its exit code.
e1=$1 e3=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
runs="$work/runs"
fail() { echo "FAIL: $*"; exit 1; }
# refused WORDS DRIVER ARGS...: exit 2, WORDS in the message, nothing under --runs.
refused() {
    words=$1; shift
    out=$("$@" --runs "$runs" 2>&1); rc=$?
    [ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2: $out"
    echo "$out" | grep -qF -- "$words" || fail "$*: the refusal does not say '$words': $out"
    [ ! -e "$runs" ] || fail "$*: created $runs before refusing"
}
nostack="--stack $work/no-such-stack.json"
echo '{"experiment": "e3_file_size", "status": "complete"}' > "$work/complete.json"
refused "unknown flag --no-such-flag" "$e3" --no-such-flag $nostack
refused "usage: rosterrig-e3" "$e3" --warehouse gcs $nostack
refused "--kills: expected at least 1, got 0" "$e1" --kills 0 $nostack
refused "--intervals: a checkpoint interval of 0 ms cannot run" "$e3" --intervals 0 $nostack
refused "--resume: " "$e3" --resume "$work/no-such-history.json" $nostack
refused "drop --quick" "$e3" --resume "$work/complete.json" --quick $nostack
refused "--job: cannot read" "$e1" --job "$work/no-such-template.sql" $nostack
refused "--stack: " "$e3" $nostack
echo "every bad input refused with exit 2 before anything was created"
