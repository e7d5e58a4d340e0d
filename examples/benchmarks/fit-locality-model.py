#!/usr/bin/env python3
"""Fit the locality cost model's constants (src/mat/analysis/partition_model.c) to measured solve times.

Inputs: the lines `locality-estimate LABEL L|U paper|regions: ... launches A, ... slot-waves B, work C, ...` that
`bench -bench_locality_estimate` prints (the model's three factors of one triangle and partition), and a bench CSV
with the variants locality-csr-graph-paper and locality-csr-graph-regions (rows kind L and LU; U = LU - L).
The estimates must describe the partitions that were timed (same tree, same options: e.g. -mat_sptrsv_locality_pack 0
for a CSV of locality run 2).

The model of one triangle is  t = alpha * A + beta * B + gamma * C + c0  (c0: the solve's fixed cost, the same for
both partitions of a triangle). alpha, beta, gamma >= 0 minimise the squared relative error over every (matrix,
partition) timed, on L then U (the LU rows: the L rows alone are noise-dominated on the small matrices); c0 is
fitted too and reported. Then, per matrix and triangle, the partition the model picks (regions when predicted below
0.9 x the paper's, as SpTrsvPartitionChoose) against the faster one measured. A timing whose row failed bench's error
rule (bench_rule.py: max_rel_err above the CSV's tol) is left out of the fit and of "the faster one measured".

usage: fit-locality-model.py ESTIMATES.txt BENCH.csv [--variant-suffix SUFFIX]

Staged fit (the kernel with staging, a slot cost per stage):
    fit-locality-model.py --stages EST-STAGE2.txt EST-STAGE1.txt BENCH.csv [BENCH2.csv ...]
reads the estimates of `bench -bench_locality_estimate` at the default stage (EST-STAGE2) and with
-mat_sptrsv_locality_stage 1 (EST-STAGE1), whose lines give the slot-waves by stage ("(stage 0/1/2: a/b/c)") and an
"auto" line (the partition auto chose), and the variants locality-csr-graph (auto, stage 2), locality-csr-graph-auto-s1
(auto, stage 1) and locality-csr-graph-paper (the paper's partition, stage 2) of the CSV. The model of one triangle is
    t = alpha * launches + beta_0 * sw_0 + beta_1 * sw_1 + beta_2 * sw_2 + gamma * work + c0
(sw_s: the slot-waves of the launches at stage s); the six constants >= 0 minimise the squared relative error of L
then U over every (matrix, variant) timed. It prints the constants (for src/mat/analysis/partition_model.c) and, per
matrix, each variant's measured and modelled time.
"""
import csv
import itertools
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_rule  # noqa: E402  (a timing whose row failed bench's error rule is not fitted)
from collections import defaultdict

MARGIN = 0.9  # SPTRSV_MODEL_MARGIN


def read_estimates(path):
    est = {}
    pat = re.compile(r"locality-estimate (\S+) ([LU]) (paper|regions): R (\d+), launches (\d+),.*slot-waves ([0-9.e+]+), work ([0-9.e+]+)")
    for line in open(path):
        m = pat.search(line)
        if m:
            est[(m.group(1), m.group(2), m.group(3))] = (float(m.group(5)), float(m.group(6)), float(m.group(7)), int(m.group(4)))
    return est


def read_times(path, suffix):
    """LU times (L then U, microseconds) by (label, partition): the L rows alone are too noisy on small matrices"""
    t = {}
    for r in bench_rule.annotate(list(csv.DictReader(open(path)))):
        if bench_rule.failed(r):
            continue
        for part in ("paper", "regions"):
            if r["variant"] == "locality-csr-graph-%s%s" % (part, suffix) and r["kind"] == "LU":
                t[(r["label"], part)] = float(r["median_ms"]) * 1e3
    return t


def solve(rows, cols):
    """least squares of the relative error over the columns cols (indices into the 4 factors), by normal equations"""
    n = len(cols)
    M = [[0.0] * n for _ in range(n)]
    v = [0.0] * n
    for f, t in rows:
        x = [f[c] / t for c in cols]
        for i in range(n):
            v[i] += x[i]
            for j in range(n):
                M[i][j] += x[i] * x[j]
    # Gaussian elimination
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(M[r][i]))
        M[i], M[p], v[i], v[p] = M[p], M[i], v[p], v[i]
        if abs(M[i][i]) < 1e-30:
            return None
        for r in range(i + 1, n):
            q = M[r][i] / M[i][i]
            for c in range(i, n):
                M[r][c] -= q * M[i][c]
            v[r] -= q * v[i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (v[i] - sum(M[i][c] * x[c] for c in range(i + 1, n))) / M[i][i]
    return x


def fit(rows):
    best = None
    for k in range(1, 5):
        for cols in itertools.combinations(range(4), k):
            x = solve(rows, cols)
            if x is None or min(x) < 0:
                continue
            coef = [0.0] * 4
            for c, val in zip(cols, x):
                coef[c] = val
            err = sum(((sum(a * b for a, b in zip(coef, f)) - t) / t) ** 2 for f, t in rows)
            if best is None or err < best[0]:
                best = (err, coef)
    return best


STAGED_VARIANTS = (("locality-csr-graph", 0, "auto"), ("locality-csr-graph-auto-s1", 1, "auto"), ("locality-csr-graph-paper", 0, "paper"))


def read_staged_estimates(path):
    """(label, L|U, partitioner) -> (launches, sw0, sw1, sw2, work)"""
    est = {}
    pat = re.compile(r"locality-estimate (\S+) ([LU]) (auto|paper|regions): R (\d+), launches (\d+),.*slot-waves [0-9.e+]+ "
                     r"\(stage 0/1/2: ([0-9.e+]+)/([0-9.e+]+)/([0-9.e+]+)\), work ([0-9.e+]+)")
    for line in open(path):
        m = pat.search(line)
        if m:
            est[(m.group(1), m.group(2), m.group(3))] = tuple(float(m.group(i)) for i in range(5, 10))
    return est


def fit_cols(rows, ncols):
    """nonnegative least squares of the relative error over every subset of the columns (the best subset wins)"""
    best = None
    for k in range(1, ncols + 1):
        for cols in itertools.combinations(range(ncols), k):
            x = solve(rows, cols)
            if x is None or min(x) < 0:
                continue
            coef = [0.0] * ncols
            for c, val in zip(cols, x):
                coef[c] = val
            err = sum(((sum(a * b for a, b in zip(coef, f)) - t) / t) ** 2 for f, t in rows)
            if best is None or err < best[0]:
                best = (err, coef)
    return best


def main_staged(est_paths, csv_paths):
    ests = [read_staged_estimates(p) for p in est_paths]
    times = {}
    for path in csv_paths:
        for r in bench_rule.annotate(list(csv.DictReader(open(path)))):
            if r["kind"] == "LU" and not bench_rule.failed(r):
                times[(r["label"], r["variant"])] = float(r["median_ms"]) * 1e3
    rows, keys = [], []
    for label in sorted({k[0] for k in times}):
        for variant, e, part in STAGED_VARIANTS:
            if (label, variant) in times and all((label, k, part) in ests[e] for k in "LU"):
                f = [sum(ests[e][(label, k, part)][i] for k in "LU") for i in range(5)] + [2.0]
                rows.append((f, times[(label, variant)]))
                keys.append((label, variant))
    if not rows:
        print("no (matrix, variant) with both estimates (L and U) and an LU time")
        return 1
    err, coef = fit_cols(rows, 6)
    names = ("alpha us/launch", "beta_0 us/slot-wave", "beta_1 us/slot-wave", "beta_2 us/slot-wave", "gamma us/unit", "c0 us/triangle")
    print("fitted on %d (matrix, variant) pairs, L then U: %s; rms relative error %.1f%%"
          % (len(rows), ", ".join("%s %.4g" % (n, c) for n, c in zip(names, coef)), 100 * (err / len(rows)) ** 0.5))
    print("\n| matrix | variant | measured us | model us | model / measured |")
    print("|---|---|---|---|---|")
    for (f, t), (label, variant) in zip(rows, keys):
        m = sum(a * b for a, b in zip(coef, f))
        print("| %s | %s | %.1f | %.1f | %.2f |" % (label, variant, t, m, m / t))
    return 0


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "--stages":
        return main_staged(sys.argv[2:4], sys.argv[4:])
    if len(sys.argv) < 3:
        print(__doc__)
        return 1
    suffix = ""
    if "--variant-suffix" in sys.argv:
        suffix = sys.argv[sys.argv.index("--variant-suffix") + 1]
    est = read_estimates(sys.argv[1])
    times = read_times(sys.argv[2], suffix)
    rows, keys = [], []
    for (label, part), t in sorted(times.items()):
        if all((label, k, part) in est for k in "LU"):
            f = [sum(est[(label, k, part)][i] for k in "LU") for i in range(3)] + [2.0]
            rows.append((f, t))
            keys.append((label, part))
    if not rows:
        print("no (matrix, partition) with both estimates (L and U) and an LU time")
        return 1
    err, coef = fit(rows)
    print("fitted on %d matrices x partitions (L then U): alpha %.3f us/launch, beta %.4f us/slot-wave, gamma %.5f us/unit, c0 %.2f us per triangle; rms relative error %.1f%%"
          % (len(rows), coef[0], coef[1], coef[2], coef[3], 100 * (err / len(rows)) ** 0.5))

    def model(label, k, part):
        A, B, C, _ = est[(label, k, part)]
        return coef[0] * A + coef[1] * B + coef[2] * C

    print("\n| matrix | paper us (model) | regions us (model) | measured faster | model picks L/U | right |")
    print("|---|---|---|---|---|---|")
    nright = ntot = 0
    for label in sorted({k[0] for k in keys}):
        if (label, "paper") not in times or (label, "regions") not in times:
            continue
        tp, tr = times[(label, "paper")], times[(label, "regions")]
        pick = []
        for k in "LU":
            if est[(label, k, "paper")][:3] == est[(label, k, "regions")][:3]:
                pick.append("=")  # the same figures: the same partition, either choice
            else:
                pick.append("r" if model(label, k, "regions") < MARGIN * model(label, k, "paper") else "p")
        letters = set(pick) - {"="}
        if len(letters) > 1:
            verdict = "mixed (not timed)"
        else:
            p = "paper" if letters == {"p"} or not letters else "regions"
            chosen = times[(label, p)]
            ok = chosen <= 1.05 * min(tp, tr)
            nright += ok
            ntot += 1
            verdict = "yes" if ok else "NO (%.2fx the best)" % (chosen / min(tp, tr))
        mp = sum(model(label, k, "paper") for k in "LU") + 2 * coef[3]
        mr = sum(model(label, k, "regions") for k in "LU") + 2 * coef[3]
        print("| %s | %.1f (%.1f) | %.1f (%.1f) | %s | %s | %s |" % (label, tp, mp, tr, mr, "paper" if tp < tr else "regions", "/".join(pick), verdict))
    print("\nchoice within 5%% of the faster measured partition (L then U): %d of %d matrices" % (nright, ntot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
