#!/usr/bin/env python3
"""Before/after table of the end-to-end runs of run-compare-device.sh (KSPSolve, PCSetUp and MatSolve per solver type).

  e2e-compare.py --before e2e-before.csv --after e2e-after.csv [--tol 0.03]

Each CSV is make-performance-md.py e2e's output over logs named e2e-<problem>-<solver>_r<k>.log: every (problem, solver)
ran several times in alternation, and the table keeps the smallest time of each event per tree (the least disturbed run).
A row whose KSPSolve + PCSetUp moved by more than --tol (relative) is flagged; a row whose iteration counts differ is
flagged too. Every number comes from the CSVs.
"""
import argparse
import csv
import re
import sys


def load(path):
    best = {}
    for r in csv.DictReader(open(path)):
        m = re.match(r"(.+)_r\d+$", r["solver"])
        key = (r["problem"], m.group(1) if m else r["solver"])
        cur = best.setdefault(key, {"its": set()})
        cur["its"].add(r["iterations"])
        for f in ("ksp_solve_s", "pc_setup_s", "matsolve_s"):
            try:
                v = float(r[f])
            except (TypeError, ValueError):
                continue
            cur[f] = min(cur.get(f, v), v)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--tol", type=float, default=0.03)
    a = ap.parse_args()
    b, c = load(a.before), load(a.after)
    rows = ["| problem | solver | its before / after | PCSetUp s before -> after | KSPSolve s before -> after | MatSolve s before -> after | solve+setup change | |",
            "|---|---|---|---|---|---|---|---|"]
    flagged = 0
    for key in sorted(set(b) & set(c)):
        x, y = b[key], c[key]
        cells = [key[0], key[1], "%s / %s" % ("/".join(sorted(x["its"])), "/".join(sorted(y["its"])))]
        for f in ("pc_setup_s", "ksp_solve_s", "matsolve_s"):
            cells.append("%.4g -> %.4g" % (x[f], y[f]) if f in x and f in y else "-")
        note = ""
        if all(f in x and f in y for f in ("pc_setup_s", "ksp_solve_s")):
            t0, t1 = x["pc_setup_s"] + x["ksp_solve_s"], y["pc_setup_s"] + y["ksp_solve_s"]
            ch = (t1 - t0) / t0 if t0 > 0 else 0.0
            cells.append("%+.1f%%" % (100 * ch))
            if abs(ch) > a.tol:
                note = "outside %.0f%%" % (100 * a.tol)
        else:
            cells.append("-")
            note = "missing"
        if x["its"] != y["its"]:
            note = (note + "; " if note else "") + "iterations differ"
        flagged += bool(note)
        cells.append(note)
        rows.append("| " + " | ".join(cells) + " |")
    sys.stdout.write("\n".join(rows) + "\n\n%d of %d rows flagged\n" % (flagged, len(rows) - 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
