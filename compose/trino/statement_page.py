"""One page of Trino's client protocol (a /v1/statement response) -> rows.

Used by trino_query in component.sh: curl fetches each page, this prints its
rows and tells the caller where the next page is. Python rather than jq because
jq 1.6 turns 64-bit integers (snapshot ids) into doubles.

usage: statement_page.py FORMAT HEADER STATEFILE < page.json
  FORMAT   tsv (\\N for NULL; tab, newline and backslash escaped) or json (one
           JSON array per row)
  HEADER   1: print the column names before the first rows
  STATEFILE  rewritten with two lines: nextUri (empty when done) and
           whether the header has been printed (0/1)
exit 0, or 1 with Trino's error (and its causes) on stderr.
"""
import json
import sys


def tsv_cell(v):
    if v is None:
        return "\\N"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        v = json.dumps(v, separators=(",", ":"))
    s = str(v)
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def main():
    fmt, header, statefile = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
    page = json.load(sys.stdin)
    out = sys.stdout
    err = page.get("error")
    if err:
        print("Trino error %s (%s): %s" % (err.get("errorName", "?"), err.get("errorType", "?"),
                                           err.get("message", "")), file=sys.stderr)
        cause = (err.get("failureInfo") or {}).get("cause")
        while cause:
            print("  caused by %s: %s" % (cause.get("type", "?"), cause.get("message", "")), file=sys.stderr)
            cause = cause.get("cause")
        with open(statefile, "w") as f:
            f.write("\n%d\n" % (0 if header else 1))
        return 1
    if header and page.get("columns"):
        out.write("\t".join(c["name"] for c in page["columns"]) + "\n")
        header = False
    for row in page.get("data") or []:
        if fmt == "json":
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
        else:
            out.write("\t".join(tsv_cell(v) for v in row) + "\n")
    with open(statefile, "w") as f:
        f.write("%s\n%d\n" % (page.get("nextUri") or "", 0 if header else 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
