#!/usr/bin/env bash
# Claims: a connector config the Kafka Connect worker refuses is reported with
# the worker's own message and exit 2, and the failed run leaves no connector,
# topic or table of its own behind (mutation: catch connect_rejected as any
# failure in rosterrig-smoke, exit 1, and this fails on the exit code; drop
# the connector from created_resources, and it fails on what is left).
set -uo pipefail
smoke="$1"; src="$2"
. "$src/compose/ports.env"
out=$(timeout 300 "$smoke" --writer connect --connector-config tasks.max=zero 2>&1); rc=$?
echo "$out" | tail -n 4
[ "$rc" = 2 ] || { echo "FAIL: exit $rc, expected 2"; exit 1; }
# The worker's own words name the setting and the value it refused.
echo "$out" | grep -q 'tasks.max' || { echo "FAIL: the message does not quote the worker's complaint about tasks.max"; exit 1; }
echo "$out" | grep -q 'zero' || { echo "FAIL: the message does not name the refused value"; exit 1; }
echo "$out" | grep -q "kafka-connect at $RR_HOST:$RR_CONNECT_PORT" || { echo "FAIL: the message does not name the worker's address"; exit 1; }
# Nothing of the run is left: the run's names carry "smoke_connect".
connectors=$(curl -fsS --max-time 10 "http://$RR_HOST:$RR_CONNECT_PORT/connectors") || { echo "FAIL: the worker does not answer"; exit 1; }
case "$connectors" in *smoke_connect*) echo "FAIL: a connector was left: $connectors"; exit 1;; esac
. "$src/compose/lib.sh"; . "$src/compose/kafka/component.sh"
topics=$(kafka_tool TopicCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" --list 2>/dev/null) || { echo "FAIL: cannot list topics"; exit 1; }
if echo "$topics" | grep -q 'smoke_connect'; then echo "FAIL: topics left: $(echo "$topics" | grep smoke_connect)"; exit 1; fi
tables=$(curl -fsS --max-time 10 "http://$RR_HOST:$RR_CATALOG_PORT/v1/namespaces/rosterrig/tables") || tables=""
case "$tables" in *smoke_connect*) echo "FAIL: a table was left: $tables"; exit 1;; esac
echo "PASS"
