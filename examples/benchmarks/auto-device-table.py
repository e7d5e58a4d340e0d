#!/usr/bin/env python3
"""auto-device-table.py: the automatic choice's own MatSolve on the GPU (bench -bench_matsolve_type sptrsv, rows
matsolve-sptrsv_auto) against cuSPARSE SpSV, PETSc's cusparse MatSolve and the best path timed in the same process, over
the CSVs of examples/benchmarks/run-auto-device.sh (the last run of a matrix wins). With --choices FILE (lines "LABEL: ..."
written by this script's --extract from bench logs) each row also names the paths taken for L and U and the measured
check's outcome.

Usage:
  python3 examples/benchmarks/auto-device-table.py CSV... [--choices FILE]
  python3 examples/benchmarks/auto-device-table.py --extract LOG... > FILE    (the choice lines of bench logs)
"""
import csv
import re
import sys


def extract(logs):
    for path in logs:
        lab, lines = None, []
        for line in open(path, errors="replace"):
            m = re.match(r"bench (\S+): n = ", line)  # bench's first line names the case as its CSV rows do
            if m:
                lab = m.group(1)
            m = re.search(r"path sptrsv \(automatic: L (\S+), U (\S+)\)", line)
            if m:
                lines.append("L %s, U %s" % (m.group(1), m.group(2)))
            m = re.search(r"measured at the first numeric factorization: (\S+) (\S+) ms per solve, cusparse (\S+) ms: (.*)", line)
            if m:
                lines.append("%s %s / cusparse %s: %s" % (m.group(1), m.group(2), m.group(3), "cusparse" if "faster" in m.group(4) else "kept"))
        if lab is None:
            lab = re.sub(r"\.log$", "", path.split("/")[-1])
        print("%s: %s" % (lab, "; ".join(lines[:3])))


def main(argv):
    if argv and argv[0] == "--extract":
        extract(argv[1:])
        return 0
    choices = {}
    if "--choices" in argv:
        k = argv.index("--choices")
        for line in open(argv[k + 1]):
            lab, _, rest = line.partition(": ")
            choices[lab] = rest.strip()
        argv = argv[:k] + argv[k + 2:]
    rows = {}
    for p in argv:
        for r in csv.DictReader(open(p)):
            if r["kind"] == "LU" and r["median_ms"]:
                rows.setdefault(r["label"], {})[r["variant"]] = r
    print("| matrix | auto ms | cuSPARSE SpSV / auto | PETSc cusparse MatSolve / auto | best path of the run (ms) | auto / best | auto % of bandwidth bound | auto setup ms | choice (L, U; measured check per triangle) |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = slow = n = 0
    slowl = []
    for lab, g in rows.items():
        a = g.get("matsolve-sptrsv_auto")
        c = g.get("cusparse-spsv")
        if not a or not c:
            continue
        p = g.get("matsolve-petsc-cusparse")
        paths = {v: float(r["median_ms"]) for v, r in g.items() if not v.startswith(("matsolve", "host", "cusparse"))}
        best = min(paths, key=paths.get)
        ta, tc = float(a["median_ms"]), float(c["median_ms"])
        # PETSc's cusparse factor is its own (no shift; without pivoting on these LU factors): reported only when its error is small
        pv = "%.2f" % (float(p["median_ms"]) / ta) if p and p["max_rel_err"] and float(p["max_rel_err"]) < 1e-6 else "-"
        n += 1
        ok += ta <= 1.10 * paths[best]
        if ta > tc:
            slow += 1
            slowl.append("%s (%.3f)" % (lab, tc / ta))
        print("| %s | %.4g | %.3f | %s | %s (%.4g) | %.2f | %s | %s | %s |" % (lab, ta, tc / ta, pv, best, paths[best], ta / paths[best], a["bound_pct"] or "-", a["setup_ms"], choices.get(lab, "-")))
    print()
    print("%d matrices (%s): within 10%% of the best path of the run on %d (%.0f%%); slower than cuSPARSE SpSV on %d%s" % (n, rows[next(iter(rows))][next(iter(rows[next(iter(rows))]))]["device"], ok, 100.0 * ok / max(1, n), slow, (": " + ", ".join(slowl)) if slowl else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
