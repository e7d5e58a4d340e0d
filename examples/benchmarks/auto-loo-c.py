#!/usr/bin/env python3
"""auto-loo-c.py: leave-one-out validation of the automatic path choice with the C chooser itself.

For every matrix of the reference CSVs (--ref), a model is fitted without any row of that matrix (fit-auto-model.py's fit,
written in the model file format by its write_header), and the real chooser runs on the host: bench builds the matrix's
factor as the device run did, with -bench_matsolve_type sptrsv -mat_sptrsv_auto_model <that file> [-mat_sptrsv_expected_solves
N], so the features are the plugin's own analysis; its -ksp_view lines ("automatic choice: PATH [VARIANT]" for L then U,
"features: rows .., nnz .., levels ..") are read back. The choice is scored on the CSVs' timings as fit-auto-model.py scores
its own (the runs of a matrix combined by its combine(): each run scaled by its cuSPARSE SpSV time of the matrix; measured
LU time of the choice, or the mixed composition; best = fastest candidate measured in any run; within 10% of the best;
slower than cuSPARSE SpSV). Features of the C analysis that differ from the CSV's are listed. No GPU needed.

Usage (the same CSVs as the fit):
  python3 examples/benchmarks/auto-loo-c.py --features docs/perf-data/auto-features.csv --ref A.csv --ref B.csv A.csv B.csv ...
      [--solves 0,100] [--only REGEX] [--bench examples/benchmarks/bench]
Labels it can rebuild: lapDS_GRID[_ex2], lap3d7_N_nd_lu (ILU(100000), nd), lap3d7_N_ilu0, chain_N, bandedW_N, blockdiagB_N, and
the matrices of tests/data/matrices (SPTRSV_MATDIR), NAME_nd_lu for the exact LU (ILU(100000), nd) of one of them; others
are skipped with a note.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location("fitauto", os.path.join(HERE, "fit-auto-model.py"))
fa = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fa)


def bench_args(label, matdir):
    m = re.fullmatch(r"lap3d7_(\d+)_nd_lu", label)
    if m:
        g = m.group(1)
        return ["-lap3d", f"{g}x{g}x{g}", "-stencil", "7", "-bench_levels", "100000", "-bench_ordering", "nd"]
    m = re.fullmatch(r"lap3d7_(\d+)_ilu0", label)
    if m:
        g = m.group(1)
        return ["-lap3d", f"{g}x{g}x{g}", "-stencil", "7"]
    m = re.fullmatch(r"lap([23])d(\d+)_([0-9x]+)(_ex2)?", label)
    if m:
        return [f"-lap{m.group(1)}d", m.group(3), "-stencil", m.group(2)]
    m = re.fullmatch(r"chain_(\d+)", label)
    if m:
        return ["-lap2d", f"{m.group(1)}x1", "-stencil", "5"]
    m = re.fullmatch(r"(banded|blockdiag)(\d+)_(\d+)", label)
    if m:
        return [f"-{m.group(1)}", f"{m.group(3)}x{m.group(2)}"]
    m = re.fullmatch(r"(.+)_nd_lu", label)  # the exact LU of a shared matrix under nested dissection (supernodal run 4)
    if m and os.path.exists(os.path.join(matdir, m.group(1) + ".mtx.gz")):
        # without pivoting some are ill-conditioned (bp_1200: residual 1.6e-3; nnc1374: two methods of backward error 1e-13
        # differ by more than 1e-2): bench's MatSolve smoke check only prints its difference, the choice is what this reads
        return ["-mtx", os.path.join(matdir, m.group(1) + ".mtx.gz"), "-bench_levels", "100000", "-bench_ordering", "nd", "-bench_host_tol", "0"]
    f = os.path.join(matdir, label + ".mtx.gz")
    return ["-mtx", f] if os.path.exists(f) else None


def run_chooser(bench, args, label, modelfile, solves):
    cmd = [bench] + args + ["-label", label, "-bench_matsolve_type", "sptrsv", "-mat_sptrsv_auto_model", modelfile, "-host_time", "1e-6", "-reps", "1", "-min_reps", "1", "-warmup", "1", "-petsc_cusparse", "0"]
    if solves:
        cmd += ["-mat_sptrsv_expected_solves", str(solves)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, PETSC_OPTIONS=""))
    if out.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: exit {out.returncode}\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    ch = re.findall(r"automatic choice: (\w+)(?: (fill[0-9.]+))? \(", out.stdout)
    ft = re.findall(r"features: rows (\d+), nnz (\d+), levels \(critical path\) (\d+)", out.stdout)
    if len(ch) < 2 or len(ft) < 2:
        raise RuntimeError(f"{label}: no choice/features lines for L and U in bench's output")
    keys = [p + (":" + v if v else "") for p, v in ch[:2]]
    return keys, [dict(n=int(a), nnz=int(b), levels=int(c)) for a, b, c in ft[:2]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--features", action="append", default=[])
    ap.add_argument("--ref", action="append", default=[])
    ap.add_argument("--solves", default="0", help="expected solves, comma-separated (0: unknown, by solve time)")
    ap.add_argument("--only", default="", help="only the labels matching this regular expression")
    ap.add_argument("--bench", default=os.path.join(HERE, "bench"))
    ap.add_argument("--gpu", default="h100")
    a = ap.parse_args()
    matdir = os.environ.get("SPTRSV_MATDIR", os.path.join(ROOT, "tests", "data", "matrices"))
    runs, _ = fa.read_times(a.csv)
    times, _ = fa.combine(runs)  # every run of a matrix on one clock, as the fit and its validation use them
    feats = fa.read_features(a.features + a.csv)
    ref = fa.ref_labels(runs, a.ref or [a.csv[0]])
    print(f"# Automatic path choice: leave-one-out with the C chooser ({a.gpu})\n")
    print("Command: `python3 examples/benchmarks/auto-loo-c.py " + " ".join(sys.argv[1:]) + "`\n")
    tmp = tempfile.mkdtemp(prefix="auto-loo-c-")
    diffs, skipped = [], []
    for solves in [int(s) for s in a.solves.split(",")]:
        rows = []
        for lab in ref:
            d = times[lab]
            if lab not in feats or (a.only and not re.search(a.only, lab)):
                continue
            cands = [p for p in fa.PATHS if (p, "LU") in d and (p, "L") in d and (not solves or d[(p, "LU")][1] is not None)]
            args = bench_args(lab, matdir)
            if not cands or args is None:
                if args is None and lab not in skipped:
                    skipped.append(lab)
                continue
            model = fa.fit(times, feats, exclude=lab)
            mf = os.path.join(tmp, f"model-{lab}.h")
            fa.write_header(model, a.gpu, mf, f"leave-one-out without {lab}")
            # the candidates the run timed: the chooser picks among them only (-mat_sptrsv_auto_candidates)
            pnames = sorted({p.partition(":")[0] for p in cands}, key=lambda p: fa.PATHS.index(p))
            (pL, pU), cf = run_chooser(a.bench, args + ["-mat_sptrsv_auto_candidates", ",".join("sptrsv_" + p for p in pnames)], lab, mf, solves)
            for t, name in ((0, "L"), (1, "U")):
                csvf = feats[lab][name]
                for k in ("n", "nnz", "levels"):
                    if solves == int(a.solves.split(",")[0]) and csvf[k] != cf[t][k]:
                        diffs.append(f"{lab} {name}: {k} {cf[t][k]} (C analysis) vs {csvf[k]} (CSV)")
            if pL not in cands or pU not in cands:
                print(f"note: {lab}: the chooser took {pL}/{pU}, not all timed in the CSV ({', '.join(cands)})", file=sys.stderr)
                continue
            rows.append(fa.score_choice(d, lab, cands, pL, pU, solves or None))
        print(fa.table(rows, "Solve time (expected solves unknown), L then U" if not solves else f"Setup + {solves} solves, L then U"))
    print("Features of the C analysis that differ from the CSV's: " + ("; ".join(diffs) if diffs else "none") + "\n")
    if skipped:
        print("Not rebuilt (no bench arguments for the label): " + ", ".join(skipped) + "\n")


if __name__ == "__main__":
    main()
