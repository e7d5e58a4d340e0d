#!/usr/bin/env python3
"""Markdown table of the speed-up over cuSPARSE SpSV (the bench CSV's vs_cusparse column: cuSPARSE time / ours) of
chosen variants, one row per matrix, with the geometric mean and the count of matrices where each variant is faster
than cuSPARSE.

  python3 examples/benchmarks/variant-table.py CSV [CSV ...] [--kind LU] [--variants A,B,...] [--prefix element-] [--bound]
                                               [--setup] [--path-us US]

Several CSVs: one table, a matrix's cell taken from the last CSV that timed that variant on it (a later run of the same
tree replacing an earlier one); rows in the order matrices first appear.

--variants: the columns (default: every variant whose name starts with --prefix, cuSPARSE and the host reference
excluded). Rows keep the CSV's order. A missing measurement is '-'. --bound adds, in each cell, the fraction of the
memory-bandwidth bound the variant reached (the CSV's bound_pct: bytes moved per solve / measured stream bandwidth,
over the solve time). --path-us US (issue 33's bound) adds instead the time over max(critical-path bound, bandwidth
bound): the path bound the triangles' levels (the CSV's levels_L, plus levels_U for LU) times US microseconds
(one dependency handed over through memory, measured by examples/benchmarks/trsv3d_breakdown.cu's chain: 0.217 on the
H200), the bandwidth bound the bytes of the solve over the measured bandwidth (median_ms x bound_pct / 100). --setup adds a second table: each variant's setup (the CSV's setup_ms: analysis and upload of the
--kind's triangles), beside cuSPARSE SpSV's and PETSc's cusparse MatSolve's where the CSV has them.

bench's error rule (bench_rule.py, the CSV's tol column): a cell whose row's max_rel_err is above its tol is
"FAILED (err X > tol Y)" and is left out of the geometric mean and the count of wins (its own count, "failed the error
rule", is the last row); the rule, the warm-up and the pointer update are stated under the table.
"""
import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_rule  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--kind", default="LU")
    ap.add_argument("--variants", default="")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--bound", action="store_true")
    ap.add_argument("--setup", action="store_true")
    ap.add_argument("--path-us", type=float, default=0.0)
    a = ap.parse_args()
    allrows = [r for path in a.csv for r in bench_rule.annotate(list(csv.DictReader(open(path, newline=""))))]
    rows = [r for r in allrows if r["kind"] == a.kind]
    table, bound, labels, fails, setup, over = {}, {}, [], {}, {}, {}
    for r in rows:
        if r["label"] not in table:
            table[r["label"]] = {}
            labels.append(r["label"])
        if r["vs_cusparse"]:
            table[r["label"]][r["variant"]] = float(r["vs_cusparse"])
            fails.pop((r["label"], r["variant"]), None)  # a later CSV's row replaces an earlier one
            if bench_rule.failed(r):
                fails[(r["label"], r["variant"])] = bench_rule.fail_cell(r)
        if r.get("setup_ms"):
            setup[(r["label"], r["variant"])] = float(r["setup_ms"])
        if r.get("bound_pct"):
            bound[(r["label"], r["variant"])] = float(r["bound_pct"])
            if a.path_us > 0 and r.get("median_ms") and r.get("levels_L"):
                ms = float(r["median_ms"])
                path_ms = (int(r["levels_L"]) + (int(r["levels_U"] or 0) if r["kind"] == "LU" else 0)) * a.path_us * 1e-3
                bw_ms = ms * float(r["bound_pct"]) / 100.0
                over[(r["label"], r["variant"])] = (ms / max(path_ms, bw_ms), "path" if path_ms >= bw_ms else "bandwidth")
    if a.variants:
        cols = a.variants.split(",")
    else:
        skip = ("cusparse-spsv", "host-reference", "matsolve-petsc-cusparse", "matsolve-sptrsv")
        cols = sorted({v for d in table.values() for v in d if v.startswith(a.prefix) and v not in skip})
    print("| matrix | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    logs = {c: [] for c in cols}
    wins = {c: 0 for c in cols}
    nfail = {c: 0 for c in cols}
    for lab in labels:
        cells = []
        for c in cols:
            v = table[lab].get(c)
            if (lab, c) in fails:  # the error rule: never a win, not in the mean
                nfail[c] += 1
                cells.append(fails[(lab, c)])
            elif v:
                logs[c].append(math.log(v))
                wins[c] += v > 1.0
                b = bound.get((lab, c)) if a.bound else None
                o = over.get((lab, c)) if a.path_us > 0 else None
                if o is not None:
                    cells.append("%.2fx (%.2fx its %s bound)" % (v, o[0], o[1]))
                else:
                    cells.append("%.2fx" % v + (" (%.1f%%)" % b if b is not None else ""))
            else:
                cells.append("-")
        print("| %s | %s |" % (lab, " | ".join(cells)))
    print("| geometric mean | " + " | ".join(("%.2fx" % math.exp(sum(logs[c]) / len(logs[c]))) if logs[c] else "-" for c in cols) + " |")
    print("| faster than cuSPARSE | " + " | ".join("%d of %d" % (wins[c], len(logs[c]) + nfail[c]) for c in cols) + " |")
    print("| failed the error rule | " + " | ".join("%d" % nfail[c] for c in cols) + " |")
    print()
    if a.path_us > 0:
        print("Cells: speed-up over cuSPARSE SpSV (the time over max(levels x %g us, bytes / measured bandwidth), and which one is larger).  " % a.path_us)
    elif a.bound:
        print("Cells: speed-up over cuSPARSE SpSV (fraction of the memory-bandwidth bound reached).  ")
    print("  \n".join(bench_rule.header_lines(allrows)))
    if a.setup:
        scols = [c for c in ("cusparse-spsv", "matsolve-petsc-cusparse") if any((lab, c) in setup for lab in labels)] + cols
        print()
        print("Setup, ms (%s):" % a.kind)
        print()
        print("| matrix | " + " | ".join(scols) + " |")
        print("|---|" + "---|" * len(scols))
        for lab in labels:
            print("| %s | %s |" % (lab, " | ".join(("%.4g" % setup[(lab, c)]) if (lab, c) in setup else "-" for c in scols)))


if __name__ == "__main__":
    main()
