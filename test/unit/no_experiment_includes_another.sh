#!/bin/sh
# An experiment's header never includes another experiment's: what two share
# lives in include/rosterrig/experiment/, and rows set beside several
# experiments' results live above them (experiments/side_by_side.hpp).
# Usage: no_experiment_includes_another.sh SOURCE_DIR
# Mutation: add `#include "rosterrig/experiments/e1_restart_replay.hpp"` to
# e7_connect_writer.hpp (as it was before the kill run moved down): this fails.
set -eu
dir="$1/include/rosterrig/experiments"
found=0
for h in "$dir"/e[0-9]*.hpp; do
    [ -e "$h" ] || { echo "no experiment headers under $dir" >&2; exit 1; }
    if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]rosterrig/experiments/' "$h" >/tmp/rr_includes.$$; then
        sed "s|^|$(basename "$h"):|" /tmp/rr_includes.$$ >&2
        found=1
    fi
done
rm -f /tmp/rr_includes.$$
if [ "$found" -ne 0 ]; then
    echo "an experiment header includes another experiment's (above); move what they share into include/rosterrig/experiment/" >&2
    exit 1
fi
echo "$(ls "$dir"/e[0-9]*.hpp | wc -l) experiment headers, none includes another"
