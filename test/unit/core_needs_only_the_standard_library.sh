#!/bin/sh
# rosterrig::core (include/rosterrig/{random,generate,check,stats,prediction},
# docs/ARCHITECTURE.md) needs only the standard library: its headers, and the
# detail/ headers they include, include standard headers and each other and
# nothing else, and the CMake target links nothing. The one exception the
# architecture names is generate/feed_digest.hpp (OpenSSL's EVP), which only
# rosterrig::experiments includes.
# Usage: core_needs_only_the_standard_library.sh SOURCE_DIR
# Mutation: put `#include <boost/describe.hpp>` back into check/commit_replay.hpp
# (where it was until the describe moved to result/check_json.hpp), include
# "rosterrig/result/envelope.hpp" from stats/binomial_bounds.hpp, or add
# `target_link_libraries(rosterrig_core INTERFACE fmt::fmt)`: each fails.
set -eu
root="$1"
inc="$root/include"
core='rosterrig/(random|generate|check|stats|prediction|detail)/'
exception='rosterrig/generate/feed_digest.hpp'
queue="$(cd "$inc" && ls rosterrig/random/*.hpp rosterrig/generate/*.hpp rosterrig/check/*.hpp \
    rosterrig/stats/*.hpp rosterrig/prediction/*.hpp | grep -v "^$exception\$")"
seen=""
found=0
headers=0
while [ -n "$queue" ]; do
    h="$(printf '%s\n' "$queue" | head -n 1)"
    queue="$(printf '%s\n' "$queue" | tail -n +2)"
    case " $seen " in *" $h "*) continue ;; esac
    seen="$seen $h"
    headers=$((headers + 1))
    [ -f "$inc/$h" ] || { echo "$h: included by the core, not found under include/" >&2; found=1; continue; }
    includes="$(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"][^>"]*[>"]).*/\1/p' "$inc/$h")"
    for i in $includes; do
        name="$(printf '%s' "$i" | sed -E 's/^[<"]//; s/[>"]$//')"
        if printf '%s' "$name" | grep -qE '^[a-z_0-9]+$'; then
            continue  # a standard header: no folder, no extension
        elif printf '%s' "$name" | grep -qE "^$core" && [ "$name" != "$exception" ]; then
            queue="$(printf '%s\n%s' "$queue" "$name" | sed '/^$/d')"
        else
            echo "$h: includes $i, which is not a standard header nor one of the core's" >&2
            found=1
        fi
    done
done
if grep -nE 'target_link_libraries[[:space:]]*\([[:space:]]*rosterrig_core[[:space:]]' "$root/CMakeLists.txt" >&2; then
    echo "CMakeLists.txt: rosterrig_core links a library (above)" >&2
    found=1
fi
[ "$headers" -gt 20 ] || { echo "only $headers core headers found under $inc: wrong folder?" >&2; exit 1; }
if [ "$found" -ne 0 ]; then
    echo "rosterrig::core needs more than the standard library (above); what needs a library belongs in result/ or experiment/" >&2
    exit 1
fi
echo "$headers core headers, each including only standard headers and the core's own"
