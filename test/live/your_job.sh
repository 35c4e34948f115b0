#!/usr/bin/env bash
# Your own job under experiment 1's kills (docs/YOUR_JOB.md):
#  1. a template whose table has no seq: rosterrig-e1 --job and rosterrig doctor
#     --job exit 2 naming the column, before a run starts (no history folder);
#  2. the worked example (partitioned upsert, hash distribution, SinkV2, writer
#     at 4) under e1 --quick: it completes, and its result holds the template's
#     settings as Flink's plan and the catalog report them.
#   your_job.sh E1 DOCTOR SOURCE_DIR WORK_DIR
set -euo pipefail
e1="$1" doctor="$2" src="$3" work="$4"
rm -rf "$work" && mkdir -p "$work"

set +e
out="$("$e1" --quick --job "$src/test/live/templates/no_seq.sql" --runs "$work/refused" 2>&1)"; rc=$?
set -e
echo "$out"
[ "$rc" = 2 ] || { echo "your_job: e1 --job without seq exited $rc, not 2" >&2; exit 1; }
grep -q "no column seq" <<<"$out" || { echo "your_job: the refusal does not name seq" >&2; exit 1; }
[ ! -e "$work/refused" ] || { echo "your_job: a refused template still started a run ($work/refused exists)" >&2; exit 1; }
set +e
out="$("$doctor" --job "$src/test/live/templates/no_seq.sql" 2>&1)"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "no column seq" <<<"$out" || { echo "$out"; echo "your_job: doctor --job without seq exited $rc" >&2; exit 1; }

"$e1" --quick --job "$src/docs/examples/upsert_partitioned_hash_sinkv2.sql" --runs "$work/runs" --out "$work/your_job.json"
python3 "$src/test/live/check_quick_result.py" "$work/your_job.json"
python3 - "$work/your_job.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
job = d["parameters"]["job"]
plan = job["plan"]
run = d["samples"]["configurations"]
problems = []
def want(what, got, expected):
    if got != expected: problems.append("%s: %r, expected %r" % (what, got, expected))
want("configurations", len(run), 1)
run = run[0]
want("planned kind", plan["kind"], "upsert")
want("planned key", plan["primary_key"], ["npi", "npi_shard"])
if not plan["sink"].startswith("IcebergSink (SinkV2"): problems.append("planned sink: " + plan["sink"])
if not run["sink"].startswith("IcebergSink (SinkV2"): problems.append("running sink: " + run["sink"])
writer = [e for e in run["edges"] if "Writer" in e["to"] and "Committer" not in e["to"]]
if not writer: problems.append("no writer vertex in the running job's plan")
else:
    want("writer input", writer[0]["ship_strategy"], "HASH")
    want("writer parallelism", writer[0]["to_parallelism"], 4)
t = run["table_settings"]
want("distribution mode", t.get("distribution_mode"), "hash")
want("partitioning", t.get("partition_fields"), ["identity(npi_shard)"])
want("identifier fields", t["identifier_fields"], ["npi", "npi_shard"])
want("write.upsert.enabled", t["write_upsert_enabled"], "true")
want("table kind checked", run["table_kind"], "upsert")
if run["rows"] == 0: problems.append("the table read back no rows")
for p in problems: print("your_job:", p, file=sys.stderr)
if problems: sys.exit(1)
print("your job: %s, %s, writer %s %d, %d rows, %d missing NPIs, %d stale rows" % (
    plan["sink"], t["partition_fields"], writer[0]["ship_strategy"], writer[0]["to_parallelism"], run["rows"],
    run["missing_npis"], run["stale_rows"]))
PY
