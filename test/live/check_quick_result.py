#!/usr/bin/env python3
"""Checks a quick run's judged result: it completed, it judged at least one
prediction, and every prediction was judged by a rule of the code (none reads
"no rule in the code judges this prediction", nor "the rule could not decide": a rule that threw).
And what a quick run decides whatever its verdicts: every setting read back
from the component that holds it equals the request (each `*requested*` field
beside its `*in_force*` twin), and every commit cell, whose writer runs with no
fault (experiment 3's cells, experiment 7's dial), holds each event once.
Usage: check_quick_result.py RESULT.json
Exit 0 when it holds, 1 when it does not (saying why), 2 when the file cannot be read."""
import json
import sys


def problems(d):
    out = []
    if d.get("status") != "complete":
        out.append("status is %r, not 'complete' (failure: %s)" % (d.get("status"), d.get("failure")))
    if not d.get("parameters", {}).get("quick"):
        out.append("the result is not a quick run's (parameters.quick is not true)")
    preds = d.get("samples", {}).get("predictions") or []
    if not preds:
        out.append("no prediction was judged")
    for p in preds:
        reason = p.get("reason", "")
        if reason.startswith("no rule in the code") or reason.startswith("the rule could not decide"):
            out.append("%s: %s" % (p.get("id"), reason))
        if p.get("verdict") not in ("held", "refuted", "inconclusive"):
            out.append("%s: verdict %r" % (p.get("id"), p.get("verdict")))
    out += settings_not_in_force(d.get("samples", {}))
    out += unfaulted_cells_not_exact(d)
    return out, len(preds)


def settings_not_in_force(samples, where="samples"):
    """Every `X_requested...` field whose `X_in_force...` twin is recorded beside it
    must read the same (case aside: Flink reports the mode in lower case)."""
    out = []
    if isinstance(samples, dict):
        for key, asked in samples.items():
            twin = key.replace("requested", "in_force")
            if "requested" in key and twin in samples and asked is not None and samples[twin] is not None:
                if str(asked).lower() != str(samples[twin]).lower():
                    out.append("%s: %s is %r but %s reads %r" % (where, key, asked, twin, samples[twin]))
        for key, value in samples.items():
            out += settings_not_in_force(value, "%s.%s" % (where, key))
    elif isinstance(samples, list):
        for i, value in enumerate(samples):
            out += settings_not_in_force(value, "%s[%d]" % (where, i))
    return out


# The commit cells: a writer run with no fault, read back after it drained.
UNFAULTED_CELLS = {"e3_file_size": "cells", "e7_connect_writer": "dial"}


def unfaulted_cells_not_exact(d):
    out = []
    field = UNFAULTED_CELLS.get(d.get("experiment"))
    for cell in (d.get("samples", {}).get(field) or []) if field else []:
        name = "%s %s #%s" % (field, cell.get("cell"), cell.get("repeat"))
        if cell.get("rows") != cell.get("events") or cell.get("duplicate_rows") or cell.get("missing_runs"):
            out.append("%s: %s rows for %s events, %s duplicate rows, missing runs %s (no fault was applied)"
                       % (name, cell.get("rows"), cell.get("events"), cell.get("duplicate_rows"), cell.get("missing_runs")))
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        print("check_quick_result: cannot read %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2
    found, n = problems(d)
    for p in found:
        print("check_quick_result: %s: %s" % (sys.argv[1], p), file=sys.stderr)
    if found:
        return 1
    verdicts = [p["verdict"] for p in d["samples"]["predictions"]]
    print("quick run complete; %d predictions judged by rules (%d held, %d refuted, %d inconclusive)"
          % (n, verdicts.count("held"), verdicts.count("refuted"), verdicts.count("inconclusive")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
