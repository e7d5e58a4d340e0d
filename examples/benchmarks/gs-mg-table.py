#!/usr/bin/env python3
"""The PCMG smoother table of docs/PERFORMANCE.md from the CSV of examples/benchmarks/run-gs-mg-device.sh:
iterations, KSPSolve, PCSetUp and their sum per smoother, each against Chebyshev/Jacobi of the same run.

    python3 examples/benchmarks/gs-mg-table.py docs/perf-data/gs-mg-run1.csv
"""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1] if len(sys.argv) > 1 else "gs-mg.csv")))
ref = next((r for r in rows if r["smoother"] == "chebyshev-jacobi"), None)
print("| smoother | grid | levels | CG its | KSPSolve s | PCSetUp s | KSPSolve+PCSetUp s | finest colours | KSPSolve vs Chebyshev/Jacobi | total vs Chebyshev/Jacobi |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    ks, ps = float(r["kspsolve_s"]), float(r["pcsetup_s"])
    rk = rt = "-"
    if ref:
        rks, rps = float(ref["kspsolve_s"]), float(ref["pcsetup_s"])
        rk, rt = "%.2fx" % (rks / ks), "%.2fx" % ((rks + rps) / (ks + ps))
    print("| %s | %s^3 | %s | %s | %.4f | %.4f | %.4f | %s | %s | %s |" % (r["smoother"], r["grid"], r["levels"], r["iterations"], ks, ps, ks + ps, r["finest_colours"] or "-", rk, rt))
