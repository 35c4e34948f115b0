#!/bin/sh
# docs/ARCHITECTURE.md says what a test may include from drivers/: the live
# layer's pure pieces it unit-tests (the SigV4 signer, the fault proxy and its
# control, the pause table), and nothing else; what a test needs beyond them
# is in the library.
# Usage: tests_include_from_drivers_only_what_they_test.sh SOURCE_DIR
# Mutation: add `#include "roles/session.hpp"` to a test under test/unit/: this fails.
set -eu
src="$1"
allowed=" s3_signature.hpp process_pause.hpp fault_proxy.hpp loopback.hpp proxy_control.hpp proxy_faults.hpp "
headers="$(find "$src/drivers" -name '*.hpp' -exec basename {} \; | sort -u)"
found=0
for f in $(find "$src/test" -name '*.cpp' -o -name '*.hpp' | sort); do
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        base="$(basename "$inc")"
        case "$allowed" in *" $base "*) continue;; esac
        if printf '%s\n' "$headers" | grep -qx "$base" && [ ! -e "$(dirname "$f")/$inc" ]; then
            echo "${f#$src/}: includes $inc from drivers/" >&2
            found=1
        fi
    done
done
[ "$found" -eq 0 ] || { echo "a test includes a drivers/ header outside the list in this script and docs/ARCHITECTURE.md" >&2; exit 1; }
echo "tests include from drivers/ only: $allowed"
