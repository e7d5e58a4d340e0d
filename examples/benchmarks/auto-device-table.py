#!/usr/bin/env python3
"""auto-device-table.py: the automatic choice's own MatSolve on the GPU (bench -bench_matsolve_type sptrsv, rows
matsolve-sptrsv_auto) against cuSPARSE SpSV, PETSc's cusparse MatSolve and the best path timed in the same process, over
the CSVs of examples/benchmarks/run-auto-device.sh (the last run of a matrix wins). With --choices FILE (lines "LABEL: ..."
written by this script's --extract from bench logs) each row also names the paths taken for L and U and the measured
check's outcome.

Usage:
  python3 examples/benchmarks/auto-device-table.py CSV... [--choices FILE]
  python3 examples/benchmarks/auto-device-table.py --extract LOG... > FILE    (the choice lines of bench logs)

bench's error rule (bench_rule.py, the CSV's tol column): a path above its tol is not the best path of the run; an
automatic choice above it is shown FAILED (err > tol), is not within 10% of anything and counts as slower than cuSPARSE.
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_rule  # noqa: E402


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
    rows, allrows = {}, []
    for p in argv:
        for r in bench_rule.annotate(list(csv.DictReader(open(p)))):
            allrows.append(r)
            if r["kind"] == "LU" and r["median_ms"]:
                rows.setdefault(r["label"], {})[r["variant"]] = r
    print("| matrix | auto ms | cuSPARSE SpSV / auto | PETSc cusparse MatSolve / auto | best path of the run (ms) | auto / best | auto % of bandwidth bound | auto setup ms | choice (L, U; measured check per triangle) |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = slow = n = nfail = 0
    slowl = []
    for lab, g in rows.items():
        a = g.get("matsolve-sptrsv_auto")
        c = g.get("cusparse-spsv")
        if not a or not c:
            continue
        p = g.get("matsolve-petsc-cusparse")
        # the best path of the run among those that passed the error rule
        paths = {v: float(r["median_ms"]) for v, r in g.items() if not v.startswith(("matsolve", "host", "cusparse")) and bench_rule.ok(r)}
        best = min(paths, key=paths.get) if paths else None
        ta, tc = float(a["median_ms"]), float(c["median_ms"])
        # PETSc's cusparse factor is its own (no shift; without pivoting on these LU factors): reported only when it passed the rule
        pv = "%.2f" % (float(p["median_ms"]) / ta) if p and p["max_rel_err"] and bench_rule.ok(p) else "-"
        n += 1
        bcell = "%s (%.4g)" % (best, paths[best]) if best else "- (every path FAILED)"
        if bench_rule.failed(a):  # never within 10% of the best, always behind cuSPARSE
            nfail += 1
            slow += 1
            slowl.append("%s (FAILED)" % lab)
            print("| %s | %.4g | %s | %s | %s | - | %s | %s | %s |" % (lab, ta, bench_rule.fail_cell(a), pv, bcell, a["bound_pct"] or "-", a["setup_ms"], choices.get(lab, "-")))
            continue
        ok += bool(best) and ta <= 1.10 * paths[best]
        if ta > tc:
            slow += 1
            slowl.append("%s (%.3f)" % (lab, tc / ta))
        print("| %s | %.4g | %.3f | %s | %s | %s | %s | %s | %s |" % (lab, ta, tc / ta, pv, bcell, "%.2f" % (ta / paths[best]) if best else "-", a["bound_pct"] or "-", a["setup_ms"], choices.get(lab, "-")))
    print()
    print("%d matrices (%s): within 10%% of the best path of the run on %d (%.0f%%); slower than cuSPARSE SpSV on %d%s; the automatic choice FAILED the error rule on %d" % (n, rows[next(iter(rows))][next(iter(rows[next(iter(rows))]))]["device"], ok, 100.0 * ok / max(1, n), slow, (": " + ", ".join(slowl)) if slowl else "", nfail))
    print()
    print("  \n".join(bench_rule.header_lines(allrows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
