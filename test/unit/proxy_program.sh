#!/usr/bin/env bash
# rosterrig-proxy as a program: it prints its ports as one JSON line, serves
# the control API on 127.0.0.1, applies a rule armed through it, reports an
# upstream it cannot reach as a 502 with the reason in its log, refuses a bad
# flag with exit 2, and exits 0 on SIGTERM. Its upstream is a free port
# nothing listens on, so nothing but this test is touched.
# Mutation: return 0 instead of 2 for a usage_error in
# drivers/live/proxy/proxy_main.cpp and the bad-flag checks fail (checked).
set -euo pipefail
proxy="$1"; work="$(mktemp -d)"; pid=""
free_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
if "$proxy" --upstream 127.0.0.1:9 --mode udp 2>/dev/null; then echo "a bad --mode was accepted" >&2; exit 1; fi
"$proxy" --upstream 127.0.0.1:9 --mode udp 2>/dev/null || [ $? -eq 2 ] || { echo "a bad flag did not exit 2" >&2; exit 1; }
# A bad number names its flag (it once said only "stoul").
rc=0; "$proxy" --upstream 127.0.0.1:9 --listen abc 2>"$work/bad" || rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--listen: expected a whole number' "$work/bad" \
  || { echo "a bad --listen exited $rc: $(head -1 "$work/bad")" >&2; exit 1; }
"$proxy" --upstream "127.0.0.1:$free_port" --upstream-timeout-ms 2000 >"$work/out" 2>"$work/err" & pid=$!
for _ in $(seq 100); do [ -s "$work/out" ] && break; sleep 0.1; done
[ -s "$work/out" ] || { echo "no JSON line with the ports" >&2; cat "$work/err" >&2; exit 1; }
python3 - "$work/out" <<'PY'
import http.client, json, sys
ports = json.load(open(sys.argv[1]))
def call(port, method, path, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request(method, path, body=body)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data
control, proxy = ports["control_port"], ports["proxy_port"]
status, body = call(control, "POST", "/rules", json.dumps({"kind": "http_status", "status": 503, "path": "/v1/.*"}))
assert status == 201, (status, body)
assert call(proxy, "GET", "/v1/config")[0] == 503
assert json.loads(call(control, "DELETE", "/rules")[1]) == {"removed": 1}
assert call(proxy, "GET", "/v1/config")[0] == 502  # nothing listens upstream
events = json.loads(call(control, "GET", "/log")[1])["events"]
assert [e["action"] for e in events] == ["http_status", "forward"], events
assert "cannot connect upstream" in events[1]["note"], events[1]
assert call(control, "GET", "/nothing")[0] == 404
PY
kill -TERM "$pid"; rc=0; wait "$pid" || rc=$?; pid=""
[ "$rc" -eq 0 ] || { echo "SIGTERM ended it with $rc" >&2; exit 1; }
echo "rosterrig-proxy: ports printed, rule applied, 502 logged, bad flag refused, SIGTERM exits 0"
