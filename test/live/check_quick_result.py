#!/usr/bin/env python3
"""Checks a quick run's judged result: it completed, it judged at least one
prediction, and every prediction was judged by a rule of the code (none reads
"no rule in the code judges this prediction", nor "the rule could not decide": a rule that threw).
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
    return out, len(preds)


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
