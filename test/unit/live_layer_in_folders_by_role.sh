#!/bin/sh
# docs/ARCHITECTURE.md: drivers/live/ is folders by role (adapters, roles,
# jobs, runner, proxy), so a file's folder says what it is; no source file
# sits in drivers/live/ itself, and no other folder appears unannounced.
# Usage: live_layer_in_folders_by_role.sh SOURCE_DIR
# Mutation: `git mv drivers/live/roles/feeder.hpp drivers/live/`, or add a
# folder drivers/live/misc/ with a file in it: this fails.
set -eu
live="$1/drivers/live"
found=0
for f in $(find "$live" -maxdepth 1 -type f \( -name '*.cpp' -o -name '*.hpp' \) | sort); do
    echo "${f#$1/}: a source file outside drivers/live/'s role folders" >&2
    found=1
done
for d in $(find "$live" -mindepth 1 -maxdepth 1 -type d | sort); do
    case "$(basename "$d")" in adapters|roles|jobs|runner|proxy) ;; *)
        echo "${d#$1/}: a folder docs/ARCHITECTURE.md does not name" >&2; found=1;; esac
done
[ "$found" -eq 0 ] || exit 1
echo "drivers/live/ holds adapters/ roles/ jobs/ runner/ proxy/ and nothing else"
