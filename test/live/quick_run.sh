#!/bin/sh
# One experiment's quick live test: the driver's --quick run must exit 0 and
# its judged result must say complete, with every prediction judged by a rule
# (check_quick_result.py).
#   quick_run.sh RESULT.json DRIVER [ARGS...]   (ARGS without --out: it is given RESULT.json)
set -eu
out="$1"; shift
here="$(cd "$(dirname "$0")" && pwd)"
rm -f "$out"
"$@" --out "$out"
exec python3 "$here/check_quick_result.py" "$out"
