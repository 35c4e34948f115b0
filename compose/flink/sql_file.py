#!/usr/bin/env python3
"""Run the statements of a SQL file through the Flink SQL Gateway REST API.

usage: sql_file.py <gateway-url> <file.sql>

One session for the whole file. Statements end with ';' at the end of a line;
lines starting with '--' are comments. Each statement is submitted, its
operation polled until it is FINISHED (or ERROR), and its result rows printed
(an INSERT prints its job id). The first error stops the run: the gateway's
error text goes to stderr and the exit status is 1. Standard library only.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

TIMEOUT_S = int(os.environ.get("FLINK_SQL_TIMEOUT", "300"))  # per statement, seconds


def call(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
    except urllib.error.HTTPError as e:
        text = e.read().decode(errors="replace")
        try:
            errs = json.loads(text).get("errors", [text])
        except ValueError:
            errs = [text]
        raise RuntimeError("%s %s -> HTTP %d\n%s" % (method, url, e.code, summarize("\n".join(errs))))
    return json.loads(text) if text else {}


def summarize(text):
    """The gateway returns a whole server-side stack trace; keep its cause chain
    (set FLINK_SQL_VERBOSE=1 for everything)."""
    if os.environ.get("FLINK_SQL_VERBOSE"):
        return text
    lines = text.splitlines()
    causes = [l for l in lines if l.startswith("Caused by:")]
    head = [l for l in lines if l.strip() and not l.lstrip().startswith(("at ", "..."))][:2]
    return "\n".join(head + causes) if causes else text


def split_statements(text):
    stmts, cur = [], []
    for line in text.splitlines():
        if not cur and (not line.strip() or line.strip().startswith("--")):
            continue
        cur.append(line)
        if line.rstrip().endswith(";"):
            s = "\n".join(cur).rstrip().rstrip(";").strip()
            if s:
                stmts.append(s)
            cur = []
    rest = "\n".join(cur).strip()
    if rest and not all(l.strip().startswith("--") or not l.strip() for l in cur):
        stmts.append(rest)
    return stmts


def run(gw, stmt, sh):
    op = call("POST", "%s/v1/sessions/%s/statements" % (gw, sh), {"statement": stmt})["operationHandle"]
    base = "%s/v1/sessions/%s/operations/%s" % (gw, sh, op)
    deadline = time.time() + TIMEOUT_S
    uri, rows, cols, job = "/v1/sessions/%s/operations/%s/result/0" % (sh, op), [], None, None
    while uri:
        if time.time() > deadline:
            # Cancelling the operation also cancels a job it is waiting for.
            try:
                call("POST", base + "/cancel")
            except RuntimeError:
                pass
            raise RuntimeError("statement did not finish in %d s (FLINK_SQL_TIMEOUT); operation cancelled" % TIMEOUT_S)
        res = call("GET", gw + uri)
        kind = res.get("resultType")
        if kind == "NOT_READY":
            time.sleep(0.3)
            continue
        job = res.get("jobID", job)
        r = res.get("results") or {}
        if r.get("columns"):
            cols = [c["name"] for c in r["columns"]]
        rows += [d.get("fields") for d in r.get("data", [])]
        if kind == "EOS":
            break
        uri = res.get("nextResultUri")
        if not r.get("data"):
            time.sleep(0.2)
    call("DELETE", base + "/close")
    return cols, rows, job


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gw, path = sys.argv[1].rstrip("/"), sys.argv[2]
    stmts = split_statements(open(path).read())
    sh = call("POST", gw + "/v1/sessions", {"sessionName": "flink_sql_file", "properties": {}})["sessionHandle"]
    try:
        for i, s in enumerate(stmts, 1):
            head = " ".join(s.split())[:100]
            print("[%d/%d] %s" % (i, len(stmts), head), flush=True)
            try:
                cols, rows, job = run(gw, s, sh)
            except RuntimeError as e:
                print("flink_sql_file: statement %d failed:\n%s\n%s" % (i, s, e), file=sys.stderr)
                return 1
            if cols == ["job id"] and rows:
                print("  job id: %s" % rows[0][0])
                continue
            if cols and cols != ["result"]:
                print("  " + " | ".join(cols))
            for row in rows:
                print("  " + " | ".join("NULL" if v is None else str(v) for v in row))
    finally:
        try:
            call("DELETE", "%s/v1/sessions/%s" % (gw, sh))
        except RuntimeError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
