#!/usr/bin/env bash
# Claim: after `stack down`, no process of ours is left. A process is ours when
# its command line mentions this checkout's state directory or jar cache.
set -uo pipefail
stack="$1"
root="$(cd "$(dirname "$stack")/.." && pwd)"
"$stack" down
sleep 2
state="${ROSTERRIG_STATE:-$root/.stack}"
cache="${ROSTERRIG_CACHE:-$HOME/.cache/rosterrig}"
left=$( (pgrep -af -- "$state"; pgrep -af -- "$cache/libs") | sort -u | grep -v -e pgrep -e down_leaves_nothing || true)
if [ -n "$left" ]; then echo "FAIL: still running:"; echo "$left"; exit 1; fi
echo "PASS: nothing of ours is running"
