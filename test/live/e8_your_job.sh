#!/usr/bin/env bash
# A user's job under experiment 8's commit faults (--job FILE): the template
# (an append table partitioned by state, FlinkSink) runs the quick cells in
# place of the rig's writers, its catalog client behind the fault proxy; the
# result holds one run, the writer "job", every trial valid by the proxy's
# log, and the table's partitioning and codec as the catalog holds them.
#   e8_your_job.sh E8 SOURCE_DIR WORK_DIR
set -euo pipefail
e8="$1" src="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
"$e8" --quick --job "$src/test/live/templates/append_partitioned_flinksink.sql" --runs "$work/runs" --out "$work/e8_job.json"
python3 "$src/test/live/check_quick_result.py" "$work/e8_job.json"
python3 - "$work/e8_job.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["samples"]["runs"]
problems = []
if len(runs) != 1: problems.append("%d runs, expected the job's one" % len(runs))
run = runs[0]
if run["writer"] != "job": problems.append("writer %r, expected 'job'" % run["writer"])
if run.get("on_table") not in (None, "append"): problems.append("table %r, expected append" % run.get("on_table"))
if not run["sink_in_force"].startswith("FlinkSink"): problems.append("sink in force (the running job's plan): %r" % run["sink_in_force"])
props = run.get("table_properties") or {}
if props.get("write.parquet.compression-codec") != "zstd": problems.append("codec as the catalog holds it: %r" % props.get("write.parquet.compression-codec"))
if not run["proxy_address"].startswith("127.0.0.1:"): problems.append("catalog client not behind the proxy: %r" % run["proxy_address"])
# The quick run's cells on the job's one table, as the run recorded them (the held cell made them 4).
expected = sum(c["trials"] for c in d["parameters"]["cells"])
if len(run["trials"]) != expected: problems.append("%d trials, expected the quick run's %d" % (len(run["trials"]), expected))
if not run["observed"] or run["missing_seq"] != 0: problems.append("table: observed %s, %d missing seqs" % (run["observed"], run["missing_seq"]))
for p in problems: print("e8 your job:", p, file=sys.stderr)
if problems: sys.exit(1)
print("e8 your job: %d trials, %d rows, %d duplicate seq rows, sink %s" % (len(run["trials"]), run["rows"], run["duplicate_rows"], run["sink_in_force"]))
PY
