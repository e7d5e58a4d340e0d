#!/usr/bin/env python3
"""Markdown table of the large direct factors (run-supernodal-pinv-device.sh sets chol, ex56chol=NE, nd): per matrix
and variant of ours, L then U: rows, entries of L, the factorization's time (the matsolve row's setup: the host
factorization plus the factor's own solver setup), our solve and cuSPARSE SpSV's, the speed-up, the fraction of the
memory-bandwidth bound, both setups (our analysis + device setup; cuSPARSE's SpSV analysis of L and U) and the
break-even solve count (bench's column: solves after which ours, setup included, is ahead).

    python3 examples/benchmarks/large-factor-table.py docs/perf-data/large-factors-h200.csv [--variants a,b]

bench's error rule (bench_rule.py, the CSV's tol column): a variant above its tol shows FAILED (err > tol) in place of its
speed-up and break-even count; the rule, the warm-up and the pointer update are stated under the table.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_rule  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--variants", default="supernodal-auto,pinv-fill4")
    a = ap.parse_args()
    rows = bench_rule.annotate(list(csv.DictReader(open(a.csv))))
    want = a.variants.split(",")
    print("| matrix | rows | nnz(L) | factorization s | variant | ours ms | cuSPARSE ms | speed-up | % of bound | setup s (ours / cuSPARSE) | break-even solves |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for lab in dict.fromkeys(r["label"] for r in rows):
        lu = {r["variant"]: r for r in rows if r["label"] == lab and r["kind"] == "LU"}
        cus = lu.get("cusparse-spsv")
        fac = next((r for v, r in lu.items() if v.startswith("matsolve")), None)
        for v in want:
            r = lu.get(v)
            if not r or not cus:
                continue
            bad = bench_rule.failed(r)
            print("| %s | %s | %.3g M | %s | %s | %.3f | %.2f | %s | %s%% | %.1f / %.1f | %s |" % (
                lab, r["n"], float(r["nnz_L"]) / 1e6, "%.1f" % (float(fac["setup_ms"]) / 1e3) if fac else "-", v,
                float(r["median_ms"]), float(cus["median_ms"]), bench_rule.fail_cell(r) if bad else "%.2fx" % float(r["vs_cusparse"]),
                r["bound_pct"] or "-", float(r["setup_ms"]) / 1e3, float(cus["setup_ms"]) / 1e3, "-" if bad else r["breakeven_solves"] or "-"))
    print()
    print("  \n".join(bench_rule.header_lines(rows)))


if __name__ == "__main__":
    main()
