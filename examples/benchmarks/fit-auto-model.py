#!/usr/bin/env python3
"""fit-auto-model.py: the cost model of the automatic path choice (MatSolverType sptrsv), fitted on benchmark CSVs.

Per candidate path p (its default variant) and per triangle T:
    solve_ms(p, T) = s0 + s1 * levels + s2 * nnz/1e6 + s3 * n/1e6 + s4 * levels * min(1, n/levels/1024) + s5 * levels * nnz/n
    setup_ms(p, T) = u0 + u1 * levels + u2 * nnz/1e6 + u3 * n/1e6
with nonnegative constants, fitted by least squares in relative error (every equation divided by the measured time).
Each matrix gives two equations per path: kind L (the lower triangle: x(L) . c = t_L) and kind LU (L then U:
(x(L) + x(U)) . c = t_LU), so nothing is subtracted. A matrix timed in several runs (CSVs) is put on one clock first
(combine): each run's times scaled by that run's cuSPARSE SpSV time of the same matrix and kind, a path's times averaged
over the runs (geometric mean), so each matrix counts once per path whatever the number of runs that timed it. The
features (n, strict nonzeros, levels, widest level, longest row) come from the CSV's own columns when a run recorded them
(bench writes nnz_L, nnz_U, maxlev_*, maxrow_*), else from --features (examples/benchmarks/auto-features.sh: bench's host analysis of the same matrices).

Leave-one-out validation: every matrix is chosen by a model fitted without any row of that matrix (in any CSV). The
choice is made per triangle (L and U separately), as the factor does; the matrix's time is the measured LU time when both
triangles get the same path, else t_pL(L) + t_pU(LU) - t_pU(L) (marked "mixed"). The matrices validated are those of the
reference CSVs (--ref); the candidates and the best (the fastest of them) come from every CSV given (combined times).
Also: the fallback rule (no model) and its own score.

Usage:
  python3 examples/benchmarks/fit-auto-model.py --gpu h100 --features docs/perf-data/auto-features.csv \\
      --ref A.csv --ref B.csv ... A.csv B.csv ... [--write src/mat/paths/auto_models/h100.h]
  (the H100 model's command, with every CSV, is on its first lines)
The output is Markdown (the "Automatic path choice" sections in docs/perf-data/history/auto-*.md are that output).

bench's error rule (bench_rule.py, the CSV's tol column): a row whose max_rel_err is above its tol is left out (never a
candidate, never the best, no solve or setup time to fit); the output says how many were.
"""
import argparse
import csv
import itertools
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_rule  # noqa: E402

# the model's entries: a path, or a path with the options of a variant ("pinv:fill4" = sptrsv_pinv with -mat_sptrsv_pinv_fill 4,
# written as SPTRSV_AUTO_MODEL(pinv, "fill4", ...)), each fitted on the bench rows of one variant. The chooser picks per
# triangle the entry with the smallest prediction, so a path's variants compete as paths do.
# "cusparse" is the path sptrsv_cusparse (cusparseSpSV behind the plugin's factors), fitted on bench's cusparse-spsv rows: the
# same cuSPARSE calls on the same triangles. With it among the candidates the chooser takes cuSPARSE where it predicts
# that none of the plugin's schedules beats it.
PATHS = ["level", "element", "syncfree", "locality", "supernodal", "pinv", "pinv:fill4", "cusparse"]
VARIANT = {"level": "level-csr-graph", "element": "element-csr-graph", "syncfree": "syncfree-asap-csr", "locality": "locality-csr-graph",
           "supernodal": "supernodal-auto", "pinv": "pinv-fill1", "pinv:fill4": "pinv-fill4", "cusparse": "cusparse-spsv"}
# terms each entry may use (indices into SOLVE_TERMS, SETUP_TERMS; an entry not listed: all). supernodal and pinv were
# timed on 27 matrices (supernodal-pinv-run1, -run2); the sets were chosen by the leave-one-out score of this script
# (docs/perf-data/history/auto-refit-supernodal-pinv-run2.md): supernodal and pinv (fill 1) take every term (the same
# score as (const, levels, nnz) / (const, nnz)); pinv fill 4 keeps (const, levels, nnz) for the solve (with every term
# lap3d7_64_ilu0 gets pinv fill 1, 2.5x the best) and (const, nnz) for the setup (with every term setup + 100 solves
# picks fill 4 on lap2d5_256x16384, 2.5x the best)
TERMS = {"pinv:fill4": ([0, 1, 2], [0, 2])}
# entries that predict only near the triangles they were fitted on (rows and levels within RANGE_MARGIN of their data,
# SPTRSV_AUTO_RANGE); the others were fitted on every matrix and are unbounded
RANGED = ["supernodal", "pinv", "pinv:fill4"]
RANGE_MARGIN = 2.0
CUSPARSE = "cusparse-spsv"
SOLVE_TERMS = ["const", "levels", "nnz_M", "n_M", "levels_x_fill", "levels_x_rowlen"]
SETUP_TERMS = ["const", "levels", "nnz_M", "n_M"]
TOL = 1.10  # "within 10% of the best path"
SOLVE_COUNTS = [10, 100, 1000]


def solve_x(f):
    """the solve features of one triangle f = dict(n, nnz, levels, ...): a constant (launch, graph replay), a cost per
    level (one dependent step), per nonzero and per row (bandwidth), per level scaled by how much of a 1024-thread block
    its mean level fills (a wide level is a launch of its own in the level path, a narrow one a fused step) and per level
    scaled by the mean row length (a step's latency grows with the row it reads); the same in C: SpTrsvAutoSolveTerms"""
    lev, n = max(1, f["levels"]), max(1, f["n"])
    return [1.0, f["levels"], f["nnz"] / 1e6, f["n"] / 1e6, f["levels"] * min(1.0, n / lev / 1024.0), f["levels"] * f["nnz"] / n]


def setup_x(f):
    return [1.0, f["levels"], f["nnz"] / 1e6, f["n"] / 1e6]


# ---- small dense linear algebra (no numpy on the CI machine) ------------------------------------------------------------


def lstsq(A, b):
    """least squares by the normal equations (a few columns), Gaussian elimination with partial pivoting; None if singular"""
    k = len(A[0])
    M = [[sum(r[i] * r[j] for r in A) for j in range(k)] + [sum(r[i] * y for r, y in zip(A, b))] for i in range(k)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(M[r][c]))
        if abs(M[p][c]) < 1e-300:
            return None
        M[c], M[p] = M[p], M[c]
        for r in range(k):
            if r != c:
                f = M[r][c] / M[c][c]
                M[r] = [a - f * b_ for a, b_ in zip(M[r], M[c])]
    return [M[i][k] / M[i][i] for i in range(k)]


def nnls(A, b):
    """nonnegative least squares by enumeration of the supports (at most 6 columns: 63 solves)"""
    k = len(A[0])
    best, bestres = [0.0] * k, sum(y * y for y in b)
    for size in range(1, k + 1):
        for S in itertools.combinations(range(k), size):
            sol = lstsq([[r[j] for j in S] for r in A], b)
            if sol is None or min(sol) < 0:
                continue
            c = [0.0] * k
            for j, v in zip(S, sol):
                c[j] = v
            res = sum((sum(ci * xi for ci, xi in zip(c, r)) - y) ** 2 for r, y in zip(A, b))
            if res < bestres - 1e-15:
                best, bestres = c, res
    return best


def dot(c, x):
    return sum(a * b for a, b in zip(c, x))


# ---- data -----------------------------------------------------------------------------------------------------------------


def read_features(paths):
    """label -> {'L': f, 'U': f}, from rows that carry the feature columns"""
    feats = {}
    for p in paths:
        for r in csv.DictReader(open(p)):
            if r.get("maxrow_L") in (None, ""):
                continue
            n = int(r["n"])
            feats[r["label"]] = {
                "L": dict(n=n, nnz=int(r["nnz_L"]), levels=int(r["levels_L"]) if r["kind"] == "L" else int(r["levels_L"]), maxlev=int(r["maxlev_L"]), maxrow=int(r["maxrow_L"])),
                "U": dict(n=n, nnz=int(r["nnz_U"]), levels=None, maxlev=int(r["maxlev_U"]), maxrow=int(r["maxrow_U"])),
            }
            if r["kind"] == "LU":
                feats[r["label"]]["U"]["levels"] = int(r["levels_U"])
    for lab, d in feats.items():
        if d["U"]["levels"] is None:
            sys.exit(f"features of {lab}: no LU row (levels of U unknown)")
    return feats


FAILED_ROWS = []  # (csv, label, kind, variant) left out by read_times for the error rule


def read_times(paths):
    """(csv, label) -> {(path or 'cusparse', kind): (median_ms, setup_ms)}: each run's own rows, and the labels in order; a
    row that failed bench's error rule (bench_rule.py) is left out (FAILED_ROWS lists them)"""
    times, order = {}, []
    for p in paths:
        for r in bench_rule.annotate(list(csv.DictReader(open(p)))):
            key = None
            if r["variant"] == CUSPARSE:
                key = "cusparse"
            for path, v in VARIANT.items():
                if r["variant"] == v:
                    key = path
            if key is None or r["median_ms"] in ("", None):
                continue
            if bench_rule.failed(r):
                FAILED_ROWS.append((p, r["label"], r["kind"], r["variant"]))
                continue
            d = times.setdefault((p, r["label"]), {})
            d[(key, r["kind"])] = (float(r["median_ms"]), float(r["setup_ms"]) if r["setup_ms"] not in ("", None) else None)
            if r["label"] not in order:
                order.append(r["label"])
    return times, order


def gmean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v))


def combine(runs):
    """label -> {(path or 'cusparse', kind): (ms, setup_ms)}: the runs of a matrix on one clock. Each run's solve times of
    the matrix are scaled by C / c_run, c_run that run's cuSPARSE SpSV time of the same matrix and kind, C the geometric
    mean of c_run over the runs that timed the matrix: a run's speed-ups over cuSPARSE are kept, the runs' clocks (absolute
    times differ by a few % between sessions) no longer decide between paths timed in different runs. A path timed in
    several runs gets the geometric mean of its scaled times; setups (host analysis and upload, not the GPU's solve clock)
    the geometric mean of the measured ones. A run without cuSPARSE rows for the matrix is taken unscaled.
    Also returns the spreads: (label, path, kind) -> (lowest, highest speed-up over cuSPARSE among the runs)"""
    per = {}
    for (src, lab), d in runs.items():
        per.setdefault(lab, []).append(d)
    out, spread = {}, {}
    for lab, ds in per.items():
        scaled = {}
        for kind in ("L", "LU"):
            cus = [d[("cusparse", kind)][0] for d in ds if ("cusparse", kind) in d]
            C = gmean(cus) if cus else None
            for d in ds:
                s = C / d[("cusparse", kind)][0] if C and ("cusparse", kind) in d else 1.0
                for (key, k), (t, su) in d.items():
                    if k == kind:
                        scaled.setdefault((key, k), []).append((t * s, su, C / (t * s) if C else None))
        comb = {}
        for key, v in scaled.items():
            sus = [su for _, su, _ in v if su is not None and su > 0]
            comb[key] = (gmean([t for t, _, _ in v]), gmean(sus) if sus else None)
            sp = [x for _, _, x in v if x is not None]
            if len(sp) > 1:
                spread[(lab,) + key] = (min(sp), max(sp))
        out[lab] = comb
    return out, spread


def ref_labels(runs, ref):
    """the labels of the reference CSVs, in the order they first appear there"""
    labs = []
    for r in ref:
        for (src, lab) in runs:
            if src == r and lab not in labs:
                labs.append(lab)
    return labs


# ---- the model --------------------------------------------------------------------------------------------------------------


def fit(times, feats, exclude=None):
    """constants per path: {'solve': [...], 'setup': [...]} fitted on the combined times (combine: one equation per
    matrix, path and kind, whatever the number of runs that timed it) of every matrix except exclude"""
    model = {}
    for path in PATHS:
        A, b, As, bs = [], [], [], []
        for lab, d in times.items():
            if lab == exclude or lab not in feats:
                continue
            fL, fU = feats[lab]["L"], feats[lab]["U"]
            xL = solve_x(fL)
            xLU = [a + c for a, c in zip(xL, solve_x(fU))]
            sL = setup_x(fL)
            sLU = [a + c for a, c in zip(sL, setup_x(fU))]
            for kind, x, s in (("L", xL, sL), ("LU", xLU, sLU)):
                if (path, kind) not in d:
                    continue
                t, su = d[(path, kind)]
                A.append([v / t for v in x])
                b.append(1.0)
                if su is not None and su > 0:
                    As.append([v / su for v in s])
                    bs.append(1.0)
        if not A:
            continue
        rng = [0.0, 0.0, 0.0, 0.0]
        if path in RANGED:  # predicts only near the triangles it was fitted on (rows, levels within RANGE_MARGIN)
            fs = [feats[lab][t] for lab, d in times.items() if lab != exclude and lab in feats and (path, "L") in d for t in ("L", "U")]
            rng = [min(f["n"] for f in fs) / RANGE_MARGIN, max(f["n"] for f in fs) * RANGE_MARGIN, min(f["levels"] for f in fs) / RANGE_MARGIN, max(f["levels"] for f in fs) * RANGE_MARGIN]
        model[path] = {"range": rng, "solve": nnls_terms(A, b, TERMS.get(path, (None, None))[0]), "setup": nnls_terms(As, bs, TERMS.get(path, (None, None))[1]) if As else [0.0] * len(SETUP_TERMS)}
    return model


def nnls_terms(A, b, use):
    """nnls on the columns use (None: all), zeros elsewhere"""
    if use is None:
        return nnls(A, b)
    sol = nnls([[r[j] for j in use] for r in A], b)
    c = [0.0] * len(A[0])
    for j, v in zip(use, sol):
        c[j] = v
    return c


def in_range(model, path, f):
    r = model[path].get("range", [0, 0, 0, 0])
    return not (r[0] > 0 and f["n"] < r[0] or r[1] > 0 and f["n"] > r[1] or r[2] > 0 and f["levels"] < r[2] or r[3] > 0 and f["levels"] > r[3])


def predict(model, path, f, solves=None):
    """predicted ms of one triangle: the solve, or setup + solves x solve (infinite outside the entry's range)"""
    if not in_range(model, path, f):
        return float("inf")
    t = dot(model[path]["solve"], solve_x(f))
    if solves:
        t = dot(model[path]["setup"], setup_x(f)) + solves * t
    return t


def choose(model, f, cands, solves=None):
    return min(cands, key=lambda p: predict(model, p, f, solves))


LOCALITY_ONE_SUBGRAPH = 29056  # rows whose x fit in one block's shared memory on sm_90 (double): one sub-graph, one launch
RULE = (4, "locality")  # the fallback rule of auto.c (SPTRSV_AUTO_CHAIN_ROWS): the best of search_rules() on the H100 data


def fallback_rule(f, cands, rule=None):
    """the rule without a model (the same in C, SpTrsvAutoRulePlace): sync-free, unless the triangle is close to a chain
    (fewer than rule[0] rows per level on average), then rule[1] (locality only while the triangle fits one sub-graph,
    else level)"""
    th, alt = rule or RULE
    mean = f["n"] / max(1, f["levels"])
    if alt == "locality" and f["n"] > LOCALITY_ONE_SUBGRAPH:
        alt = "level"
    pref = ([alt] + [p for p in ["syncfree", "level", "element", "locality"] if p != alt]) if mean < th else ["syncfree", "level", "element", "locality"]
    for p in pref:
        if p in cands:
            return p
    return cands[0]


def search_rules(times, feats, ref):
    """score every rule (threshold, path for near chains): matrices within 10% of the best, then the mean log ratio"""
    out = []
    for th in (1, 2, 4, 8, 16, 32):
        for alt in ("level", "locality", "element"):
            rows = validate(times, feats, ref, rule=(th, alt))
            ok, n, slow = summary(rows)
            out.append((ok, -sum(math.log(r["ratio"]) for r in rows) / n, -th, th, alt, n, len(slow)))
    out.sort(reverse=True)
    return out


def matrix_time(d, pL, pU, solves=None):
    """measured (or composed) LU time of a per-triangle choice; None if a needed time is missing"""
    def total(p, kind):
        if (p, kind) not in d:
            return None
        t, su = d[(p, kind)]
        if solves:
            if su is None:
                return None
            return su + solves * t
        return t

    if pL == pU:
        return total(pL, "LU"), False
    a, b, c = total(pL, "L"), total(pU, "LU"), total(pU, "L")
    if None in (a, b, c):
        return None, True
    return a + b - c, True


def timed_candidates(d, solves=None):
    """the entries timed on L and LU of a matrix (with a setup time when solves are counted)"""
    return [p for p in PATHS if (p, "LU") in d and (p, "L") in d and (not solves or d[(p, "LU")][1] is not None)]


def score_choice(d, lab, cands, pL, pU, solves=None):
    """one row of a validation table: the measured time of the choice (pL for L, pU for U), the best of the candidates,
    the ratio to it and the speed-up over cuSPARSE SpSV (solve time, or setup + solves solves)"""
    t, mixed = matrix_time(d, pL, pU, solves)
    return score_time(d, lab, cands, pL, pU, t, mixed, solves)


def score_time(d, lab, cands, pL, pU, t, mixed, solves=None):
    """score_choice's row for a choice whose time t is already known"""
    tb = {p: matrix_time(d, p, p, solves)[0] for p in cands}
    best = min(tb, key=tb.get)
    cus = d.get(("cusparse", "LU"))
    vs = None
    if cus and t:
        tc = cus[0] if not solves else (cus[1] + solves * cus[0] if cus[1] is not None else None)
        vs = tc / t if tc else None
    return dict(label=lab, cands=cands, pL=pL, pU=pU, mixed=mixed, t=t, best=best, tbest=tb[best], ratio=t / tb[best], vs=vs)


def validate(times, feats, ref, solves=None, rule=None):
    """leave-one-out over the matrices ref (labels of the reference CSVs), each with every candidate timed in any CSV
    (combined times): rows (label, cands, chosen L/U, best, ratio, vs cusparse)"""
    rows = []
    for lab in ref:
        d = times[lab]
        if lab not in feats:
            continue
        cands = timed_candidates(d, solves)
        if not cands:
            continue
        model = None if rule else fit(times, feats, exclude=lab)
        fL, fU = feats[lab]["L"], feats[lab]["U"]
        if rule:
            pL, pU = fallback_rule(fL, cands, rule), fallback_rule(fU, cands, rule)
        else:
            cm = [p for p in cands if p in model]
            pL, pU = choose(model, fL, cm, solves), choose(model, fU, cm, solves)
        rows.append(score_choice(d, lab, cands, pL, pU, solves))
    return rows


MEASURE_ROUNDS, MEASURE_ROUND_MS, MEASURE_MAX_REPS, MEASURE_CLEAR = 3, 1.0, 5, 2.0  # automeasure.c
MEASURE_RUNNER_UP = 4.0  # automeasure.c: SPTRSV_AUTO_MEASURE_RUNNER_UP


def runner_up(model, f, cands, p, solves=None):
    """the candidate the measured check times before cuSPARSE (MatSpTrsvAutoRunnerUp): the next of the model's ranking
    after p that is not cusparse (nor predicted infinite, out of its entry's range: the C chooser's refusals), when its
    predicted solve time is within MEASURE_RUNNER_UP times p's; None otherwise"""
    ranked = sorted(cands, key=lambda c: predict(model, c, f, solves))
    tp = predict(model, p, f)
    if p not in ranked or not tp > 0:
        return None
    for c in ranked[ranked.index(p) + 1:]:
        if c == "cusparse" or predict(model, c, f, solves) == float("inf"):
            continue
        tc = predict(model, c, f)
        return c if 0 < tc <= MEASURE_RUNNER_UP * tp else None
    return None


def measure_cost(model, p, f, t, tc):
    """setup ms of one timing of p (t ms per solve) against another solver (tc) by automeasure.c: 1 warm-up solve each
    and ROUNDS rounds of R solves each (one round when a clear winner shows), R from p's predicted time"""
    pred = predict(model, p, f)
    reps = max(2, min(MEASURE_MAX_REPS, int(MEASURE_ROUND_MS / pred))) if pred > 0 else MEASURE_MAX_REPS
    rounds = 1 if max(t, tc) > MEASURE_CLEAR * min(t, tc) else MEASURE_ROUNDS
    return (1 + rounds * reps) * (t + tc)


def tri_times(d, p, solves=None):
    """measured (solve, setup) of path p on L and on U (U = LU - L); None when missing"""
    if (p, "L") not in d or (p, "LU") not in d:
        return None
    (tL, sL), (tLU, sLU) = d[(p, "L")], d[(p, "LU")]
    if solves and (sL is None or sLU is None):
        return None
    return {"L": (tL, sL), "U": (tLU - tL, (sLU - sL) if solves else None)}


def validate_measured(times, feats, ref, solves=None):
    """leave-one-out with the measured check of the factor (automeasure.c): per triangle the model's choice p, then, when
    the check runs (by default with solve time only; the setup + solves rows show what forcing it on costs), the model's
    runner-up (runner_up(): when its predicted solve is within MEASURE_RUNNER_UP times p's) timed against p and the faster
    kept, then that one and cusparse timed and the faster kept. Each timing costs the challenger's setup and (1 + ROUNDS x
    R) solves of each (R from the kept path's predicted time: about ROUND_MS ms of solves per round, 2 to MAX_REPS), added
    to the setup. Rows as validate()'s"""
    rows = []
    for lab in ref:
        d = times[lab]
        if lab not in feats:
            continue
        cands = timed_candidates(d, solves)
        if "cusparse" not in cands:
            continue
        model = fit(times, feats, exclude=lab)
        cm = [p for p in cands if p in model]
        cus = tri_times(d, "cusparse", solves)
        total, chosen, setup = 0.0, {}, 0.0
        for tri in ("L", "U"):
            f = feats[lab][tri]
            p = choose(model, f, cm, solves)
            tp = tri_times(d, p, solves)
            t, su = tp[tri]
            if solves:
                setup += su
            r = runner_up(model, f, cm, p, solves) if p != "cusparse" else None
            tr = tri_times(d, r, solves) if r else None
            if tr:
                t2, s2 = tr[tri]
                if solves:
                    setup += s2 + measure_cost(model, p, f, t, t2)
                if t2 < t:
                    p, t = r, t2
            if p != "cusparse":
                tc, sc = cus[tri]
                if solves:
                    setup += sc + measure_cost(model, p, f, t, tc)
                if tc < t:
                    p, t = "cusparse", tc
            chosen[tri] = p
            total += t
        t = setup + solves * total if solves else total
        rows.append(score_time(d, lab, cands, chosen["L"], chosen["U"], t, chosen["L"] != chosen["U"], solves))
    return rows


def validate_lower(times, feats, ref):
    """leave-one-out on the lower triangle alone (bench's kind L): the choice for L, its measured time, the best, cuSPARSE"""
    rows = []
    for lab in ref:
        d = times[lab]
        if lab not in feats:
            continue
        cands = [p for p in PATHS if (p, "L") in d]
        if not cands:
            continue
        model = fit(times, feats, exclude=lab)
        p = choose(model, feats[lab]["L"], [c for c in cands if c in model])
        best = min(cands, key=lambda c: d[(c, "L")][0])
        t, tb = d[(p, "L")][0], d[(best, "L")][0]
        cus = d.get(("cusparse", "L"))
        rows.append(dict(label=lab, cands=cands, pL=p, pU=p, t=t, best=best, ratio=t / tb, vs=cus[0] / t if cus else None, vsbest=cus[0] / tb if cus else None))
    return rows


def summary(rows):
    ok = sum(1 for r in rows if r["ratio"] <= TOL + 1e-12)
    slow = [r["label"] for r in rows if r["vs"] is not None and r["vs"] < 1.0]
    return ok, len(rows), slow


def table(rows, title):
    out = [f"**{title}**", "", "| matrix | candidates | chosen L / U | best | chosen / best | speed-up vs cuSPARSE |", "|---|---|---|---|---|---|"]
    for r in rows:
        ch = r["pL"] if r["pL"] == r["pU"] else f"{r['pL']} / {r['pU']} (mixed)"
        vs = f"{r['vs']:.2f}" if r["vs"] is not None else "-"
        c = f"all {len(PATHS)}" if len(r["cands"]) == len(PATHS) else ",".join(r["cands"])
        out.append(f"| {r['label']} | {c} | {ch} | {r['best']} | {r['ratio']:.3f} | {vs} |")
    ok, n, slow = summary(rows)
    out += ["", f"within 10% of the best: {ok} of {n} ({100.0 * ok / n:.0f}%); slower than cuSPARSE: {len(slow)}" + (f" ({', '.join(slow)})" if slow else ""), ""]
    return "\n".join(out)


def write_header(model, gpu, path, command):
    lines = [
        f"/* Cost model of the automatic path choice for the {gpu.upper()} (generated by examples/benchmarks/fit-auto-model.py; do not edit).",
        f"   Refit: {command}",
        "   solve_ms = sum_k solve[k] * x_k, x = (1, levels, nnz/1e6, n/1e6, levels * min(1, n/levels/1024), levels * nnz/n)",
        "   setup_ms = sum_k setup[k] * y_k, y = (1, levels, nnz/1e6, n/1e6)   (nnz: strict entries of the triangle)",
        "   -mat_sptrsv_auto_model FILE reads a file of this format (the leave-one-out of auto-loo-c.py writes one per matrix) */",
        f"/* SPTRSV_AUTO_MODEL(path, variant (\"\": the path's defaults; \"fillF\": pinv with -mat_sptrsv_pinv_fill F), solve constants, setup constants,",
        "   rows min, max, levels min, max where the entry predicts (0: unbounded; thinly sampled entries: 2x around their data)) */",
    ]
    for p in PATHS:
        if p not in model:
            continue
        s = ", ".join(f"{v:.6e}" for v in model[p]["solve"])
        u = ", ".join(f"{v:.6e}" for v in model[p]["setup"])
        pname, _, variant = p.partition(":")
        r = ", ".join(f"{v:.6g}" for v in model[p]["range"])
        lines.append(f"SPTRSV_AUTO_MODEL({pname}, \"{variant}\", SPTRSV_AUTO_SOLVE({s}), SPTRSV_AUTO_SETUP({u}), SPTRSV_AUTO_RANGE({r}))")
    open(path, "w").write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="benchmark CSVs of one GPU model (bench -csv)")
    ap.add_argument("--gpu", default="h100", help="GPU model name of the model file")
    ap.add_argument("--features", action="append", default=[], help="CSV with the feature columns (auto-features.sh)")
    ap.add_argument("--ref", action="append", default=[], help="CSV(s) whose matrices are validated (default: the first CSV)")
    ap.add_argument("--write", help="write the model constants (fitted on every row) to this header")
    a = ap.parse_args()
    runs, _ = read_times(a.csv)
    times, spread = combine(runs)
    feats = read_features(a.features + a.csv)
    ref = ref_labels(runs, a.ref or [a.csv[0]])
    missing = sorted({lab for lab in times if lab not in feats})
    if missing:
        print(f"no features for {', '.join(missing)}: their rows are not used", file=sys.stderr)
    command = "python3 examples/benchmarks/fit-auto-model.py " + " ".join(sys.argv[1:])
    model = fit(times, feats)
    print(f"# Automatic path choice: leave-one-out validation ({a.gpu})\n")
    print(f"Command: `{command}`\n")
    print(f"{bench_rule.RULE} Rows left out for it: {len(FAILED_ROWS)}" + (" (" + "; ".join(f"{lab} {kind} {v}" for _, lab, kind, v in FAILED_ROWS[:12]) + ("; ..." if len(FAILED_ROWS) > 12 else "") + ")" if FAILED_ROWS else "") + "\n")
    multi = {lab for (src, lab) in runs if sum(1 for (_, l) in runs if l == lab) > 1}
    wide = max(((k, v) for k, v in spread.items() if k[1] != "cusparse" and k[2] == "LU"), key=lambda kv: kv[1][1] / kv[1][0], default=None)
    print(f"Runs combined (`combine`: each run's times scaled by its cuSPARSE SpSV time of the same matrix, geometric mean over the runs): {len(multi)} of {len(times)} matrices timed in more than one run" + (f"; the widest spread of a path's speed-up over cuSPARSE between runs (L then U): {wide[0][0]} {wide[0][1]} {wide[1][0]:.2f}x to {wide[1][1]:.2f}x" if wide else "") + "\n")
    print("Constants fitted on every matrix (ms; solve terms " + ", ".join(SOLVE_TERMS) + "; setup terms " + ", ".join(SETUP_TERMS) + "):\n")
    for p in PATHS:
        if p in model:
            print(f"- {p}: solve " + " ".join(f"{v:.3e}" for v in model[p]["solve"]) + "; setup " + " ".join(f"{v:.3e}" for v in model[p]["setup"]))
    print()
    rows = validate(times, feats, ref)
    print(table(rows, "Solve time (the default: expected solves unknown), L then U"))
    full = [r for r in rows if len(r["cands"]) == len(PATHS)]
    ok, n, slow = summary(full)
    print(f"Matrices timed on every entry ({len(PATHS)}): {ok} of {n} within 10% of the best ({100.0 * ok / max(1, n):.0f}%), slower than cuSPARSE: {len(slow)}" + (f" ({', '.join(slow)})" if slow else "") + "\n")
    rl = validate_lower(times, feats, ref)
    ok, n, slow = summary(rl)
    detail = "".join(f"; {r['label']}: {r['pL']} {r['vs']:.2f}x cuSPARSE, the best path ({r['best']}) {r['vsbest']:.2f}x" for r in rl if r["vs"] is not None and r["vs"] < 1.0)
    print(f"The lower triangle alone (kind L): {ok} of {n} within 10% of the best, slower than cuSPARSE: {len(slow)}{detail}\n")
    rr = validate(times, feats, ref, rule=RULE)
    ok, n, slow = summary(rr)
    print(f"Fallback rule (no model: sync-free, unless fewer than {RULE[0]} rows per level: then {RULE[1]} up to {LOCALITY_ONE_SUBGRAPH} rows, level above): {ok} of {n} within 10% of the best, slower than cuSPARSE: {len(slow)}" + (f" ({', '.join(slow)})" if slow else "") + "\n")
    print("Rules searched (sync-free unless fewer than T rows per level, then P), best first: " + "; ".join(f"T={th} {alt}: {ok}/{n}, mean ratio {math.exp(-g):.3f}" for ok, g, _, th, alt, n, _s in search_rules(times, feats, ref)[:6]) + "\n")
    for k in SOLVE_COUNTS:
        rk = validate(times, feats, ref, solves=k)
        ok, n, slow = summary(rk)
        worst = max(rk, key=lambda r: r["ratio"])
        print(f"Setup + {k} solves: {ok} of {n} within 10% of the best, slower than cuSPARSE (setup + {k} solves): {len(slow)}" + (f" ({', '.join(slow)})" if slow else "") + f"; worst {worst['label']} {worst['ratio']:.2f} ({worst['pL']}/{worst['pU']} vs {worst['best']})\n")
    print("## With the measured check (the factor times its choice against cuSPARSE at the first numeric factorization)\n")
    rm = validate_measured(times, feats, ref)
    print(table(rm, "Solve time, L then U, with the measured check"))
    for k in SOLVE_COUNTS:
        rk = validate_measured(times, feats, ref, solves=k)
        ok, n, slow = summary(rk)
        worst = max(rk, key=lambda r: r["ratio"])
        print(f"Setup + {k} solves, with the measured check forced on (-mat_sptrsv_auto_measure 1; off by default with -mat_sptrsv_expected_solves): {ok} of {n} within 10% of the best, slower than cuSPARSE (setup + {k} solves): {len(slow)}" + (f" ({', '.join(slow)})" if slow else "") + f"; worst {worst['label']} {worst['ratio']:.2f} ({worst['pL']}/{worst['pU']} vs {worst['best']})\n")
    if a.write:
        write_header(model, a.gpu, a.write, command)
        print(f"wrote {a.write}", file=sys.stderr)


if __name__ == "__main__":
    main()
