#!/bin/sh
# An experiment's driver is the wiring of its experiment, at most 120 lines:
# what it decides belongs in its header under include/rosterrig/experiments/,
# a live step a single experiment needs in drivers/live/jobs/.
# Usage: experiment_drivers_stay_thin.sh SOURCE_DIR
# Mutation: append 121 comment lines to drivers/experiments/e4_maintenance.cpp: this fails.
set -eu
dir="$1/drivers/experiments"
limit=120
found=0 count=0
# A driver is a file that calls the runner (rosterrig-e6-member, a process
# experiment 6 starts, is not one).
for d in $(grep -l 'run_experiment<' "$dir"/*.cpp); do
    count=$((count + 1))
    lines=$(wc -l < "$d")
    if [ "$lines" -gt "$limit" ]; then
        echo "$(basename "$d"): $lines lines, more than $limit" >&2
        found=1
    fi
done
[ "$count" -gt 0 ] || { echo "no experiment drivers under $dir" >&2; exit 1; }
if [ "$found" -ne 0 ]; then
    echo "an experiment driver is over $limit lines (above): move what it decides into its header, a live step into drivers/live/jobs/" >&2
    exit 1
fi
echo "$count experiment drivers, each at most $limit lines"
