#!/usr/bin/env bash
# `compose/stack down` is refused while a driver holds the stack's run lock
# (shared, as drivers/live/runner/run_lock.hpp takes it), and goes ahead once the run
# has ended or with --force. Runs against a scratch state directory, so no
# component of a real stack is touched.
# Mutation: drop the lock check from compose/stack's down and the first
# `down` exits 0, so this fails.
set -euo pipefail
stack="$1"; state="$(mktemp -d)"; trap 'rm -rf "$state"' EXIT
export ROSTERRIG_STATE="$state"
exec 9>"$state/runs.lock"; flock -s 9   # this shell plays the running driver
if "$stack" down 9>&- 2>"$state/err"; then echo "down went ahead while a run held the lock" >&2; exit 1; fi
grep -q "an experiment is running" "$state/err" || { cat "$state/err" >&2; exit 1; }
"$stack" down --force 9>&- >/dev/null 2>&1 || { echo "down --force was refused" >&2; exit 1; }
exec 9>&-                              # the run ends
"$stack" down >/dev/null 2>&1 || { echo "down refused after the run ended" >&2; exit 1; }
echo "down refused during a run, allowed after it and with --force"
