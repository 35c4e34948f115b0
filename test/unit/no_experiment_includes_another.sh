#!/bin/sh
# An experiment's headers (its folder, include/rosterrig/experiments/eN_name/)
# never include another experiment's: what two share lives in
# include/rosterrig/experiment/, and rows set beside several experiments'
# results live above them (experiments/side_by_side.hpp). No experiment is a
# lone header beside the folders.
# Usage: no_experiment_includes_another.sh SOURCE_DIR
# Mutation: add `#include "rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp"`
# to e7_connect_writer/rules.hpp, or put a header e9_x.hpp beside the folders: this fails.
set -eu
dir="$1/include/rosterrig/experiments"
found=0
for h in "$dir"/e[0-9]*.hpp; do
    [ -e "$h" ] || continue
    echo "$(basename "$h"): an experiment header outside its folder (eN_name/)" >&2
    found=1
done
folders=0
for d in "$dir"/e[0-9]*/; do
    [ -d "$d" ] || { echo "no experiment folders under $dir" >&2; exit 1; }
    folders=$((folders + 1))
    own="rosterrig/experiments/$(basename "$d")/"
    for h in "$d"*.hpp; do
        bad="$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]rosterrig/experiments/' "$h" | grep -v "$own" || true)"
        [ -z "$bad" ] || { printf '%s\n' "$bad" | sed "s|^|$(basename "$d")/$(basename "$h"):|" >&2; found=1; }
    done
done
if [ "$found" -ne 0 ]; then
    echo "an experiment includes another experiment's header, or sits outside its folder (above); move what they share into include/rosterrig/experiment/" >&2
    exit 1
fi
echo "$folders experiment folders, none includes another"
