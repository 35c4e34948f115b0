#!/usr/bin/env bash
# A user's job under experiment 1b's kills (rosterrig-e1 --multi-input --job):
#  1. the worked example makes an upsert table: refused with exit 2, naming
#     it, before a run starts (no history folder);
#  2. an append template (partitioned by state, zstd Parquet, FlinkSink) under
#     the quick run: it completes, every configuration ran the template's
#     sink behind an exchange, and the table's partitioning is the
#     template's as the catalog holds it.
#   e1b_your_job.sh E1 SOURCE_DIR WORK_DIR
set -euo pipefail
e1="$1" src="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"

set +e
out="$("$e1" --multi-input --quick --job "$src/docs/examples/upsert_partitioned_hash_sinkv2.sql" --runs "$work/refused" 2>&1)"; rc=$?
set -e
echo "$out"
[ "$rc" = 2 ] || { echo "e1b your job: an upsert template exited $rc, not 2" >&2; exit 1; }
grep -q "upsert table" <<<"$out" || { echo "e1b your job: the refusal does not name the upsert table" >&2; exit 1; }
[ ! -e "$work/refused" ] || { echo "e1b your job: a refused template still started a run ($work/refused exists)" >&2; exit 1; }

"$e1" --multi-input --quick --job "$src/test/live/templates/append_partitioned_flinksink.sql" --runs "$work/runs" --out "$work/e1b_job.json"
python3 "$src/test/live/check_quick_result.py" "$work/e1b_job.json"
python3 - "$work/e1b_job.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
configurations = d["samples"]["configurations"]
problems = []
if not configurations: problems.append("no configuration ran")
for c in configurations:
    run = c["run"]
    name = run["name"]
    if not run["sink"].startswith("FlinkSink"): problems.append("%s: sink in force %r" % (name, run["sink"]))
    if c["fan_in"]["chained"] or c["fan_in"]["input_channels"] < 2: problems.append("%s: writer input %r" % (name, c["fan_in"]))
    partitioning = (run.get("table_settings") or {}).get("partition_fields")
    if partitioning != ["identity(state)"]: problems.append("%s: partitioning as the catalog holds it %r" % (name, partitioning))
    if run["rows"] == 0: problems.append("%s: the table read back no rows" % name)
for p in problems: print("e1b your job:", p, file=sys.stderr)
if problems: sys.exit(1)
print("e1b your job: %d configurations, sink %s, writer input %s" % (len(configurations), configurations[0]["run"]["sink"],
      configurations[0]["fan_in"]["ship_strategy"]))
PY
