#!/usr/bin/env python3
"""The table (and figure) of the benchmark of record, time to solution (run-e2e-device.sh).

  e2e-table.py --csv e2e.csv [--machine TEXT] [--plot PNG]

e2e.csv is make-performance-md.py e2e's output over logs named e2e-<problem>-<solver>_r<k>.log. Per (problem, solver) the
least time over the repetitions counts. Time to solution: SNESSolve (or EPSSolve) where the run has one, else KSPSolve + PCSetUp
(PETSc's KSPSolve sets the PC up before its event begins). Ratios are cusparse / ours (> 1: ours faster).

The error rule: a run counts only when it converged (a CONVERGED_* reason; the direct cases run their 50 steps; a run
that stopped at the iteration cap counts as fixed work when cusparse's stopped there too, at the same count), took
the same iterations as PETSc's cusparse within 5% (at least 2), and its final true residual (-ksp_view_final_residual,
||b - A x||) is at most 10 times cusparse's (or below 1e-12); an eigensolve (SLEPc) printed its eigenvalues and each
equals cusparse's to 1e-8 relative (EIG_RTOL; the runs ask for 1e-10), as many as both converged. A run that breaks the rule is marked FAILED in its cell and
counts as no win: it is left out of the geometric mean, and the summary line counts it.
"""
import argparse
import csv
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_rule import fnum  # noqa: E402  (a CSV cell as a finite float or None)

EIG_RTOL = 1e-8  # eigensolves (SLEPc, -eps_tol 1e-10): the eigenvalues of a run against cusparse's




def load(path):
    runs = {}
    for r in csv.DictReader(open(path)):
        m = re.match(r"(.+)_r\d+$", r["solver"])
        key = (r["problem"], m.group(1) if m else r["solver"])
        runs.setdefault(key, []).append(r)
    best = {}
    for key, rs in runs.items():
        b = {"its": set(), "reasons": set(), "res": [], "status": set()}
        for r in rs:
            b["status"].add(r["status"])
            ksp, pcs = fnum(r["ksp_solve_s"]), fnum(r["pc_setup_s"])
            tts = fnum(r.get("snes_solve_s")) or fnum(r.get("eps_solve_s")) or (ksp + pcs if ksp is not None and pcs is not None else None)
            its = r.get("iterations_total") or r["iterations"]
            if its:
                b["its"].add(int(its))
            if r["reason"]:
                b["reasons"].add(r["reason"])
            res = fnum(r.get("final_residual"))
            if res is not None:
                b["res"].append(res)
            for f, v in (("tts", tts), ("setup", fnum(r["pc_setup_s"])), ("matsolve", fnum(r["matsolve_s"]))):
                if v is not None:
                    b[f] = min(b.get(f, v), v)
            eig = [fnum(v) for v in (r.get("eigenvalues") or "").split(";") if v]
            if eig:
                b.setdefault("eig", []).append(eig)
            if r.get("error"):
                b["error"] = r["error"]
        best[key] = b
    return best


def verdict(b, ref):
    """'' when the run counts, else why not"""
    if "tts" not in b:
        return "no result" + (": " + b["error"] if b.get("error") else "")
    fixed_work = ref and b["reasons"] == {"DIVERGED_ITS"} and ref["reasons"] == {"DIVERGED_ITS"} and b["its"] == ref["its"]
    if (any(not x.startswith("CONVERGED") for x in b["reasons"]) or not b["reasons"]) and not fixed_work:
        return "did not converge (%s)" % "/".join(sorted(b["reasons"]) or ["?"])
    if ref and ref["its"] and b["its"]:
        r, o = max(ref["its"]), max(b["its"])
        if abs(o - r) > max(2, 0.05 * r):
            return "iterations %d vs cusparse %d" % (o, r)
    if ref and ref.get("eig"):
        # an eigensolve: every repetition's eigenvalues equal cusparse's first repetition's to EIG_RTOL relative, the
        # smallest in magnitude first, as many as both converged (a converged run has at least the requested number;
        # beyond it, which of a double eigenvalue's pair converged may differ)
        want = sorted((x for x in ref["eig"][0] if x is not None), key=abs)
        for got in b.get("eig") or [[]]:
            got = sorted((x for x in got if x is not None), key=abs)
            if not got:
                return "no eigenvalues printed"
            d = max(abs(g - w) / max(abs(w), 1e-300) for g, w in zip(got, want))
            if not d <= EIG_RTOL:
                return "eigenvalues differ from cusparse's by %.1e relative" % d
    if ref and ref["res"] and b["res"]:
        r, o = max(ref["res"]), max(b["res"])
        if o > 10 * r and o > 1e-12:
            return "final residual %.2e vs cusparse %.2e" % (o, r)
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--machine", default="")
    ap.add_argument("--plot", default="")
    a = ap.parse_args()
    best = load(a.csv)
    problems = list(dict.fromkeys(p for p, _ in best))  # in first-seen order
    solvers = list(dict.fromkeys(s for _, s in best if s not in ("cusparse", "sptrsv")))
    out = []
    if a.machine:
        out.append("Machine: " + a.machine + "\n")
    hdr = ["problem", "its (cusparse / sptrsv)", "cusparse s", "sptrsv s", "sptrsv vs cusparse", "PCSetUp sptrsv / cusparse s"]
    hdr += [s + " vs cusparse" for s in solvers] + ["sptrsv vs best fixed", ""]
    out.append("| " + " | ".join(hdr) + " |")
    out.append("|" + "---|" * len(hdr))
    gm, gm_n, failed, slower, off10 = 0.0, 0, 0, [], []
    fig = []
    for p in problems:
        ref = best.get((p, "cusparse"))
        ours = best.get((p, "sptrsv"))
        cells = [p]
        its = lambda b: "/".join(str(i) for i in sorted(b["its"])) if b and b["its"] else "-"
        cells.append("%s / %s" % (its(ref), its(ours)))
        cells.append("%.4g" % ref["tts"] if ref and "tts" in ref else "-")
        note = []
        v = verdict(ours, ref) if ours else "not run"
        cells.append(("%.4g" % ours["tts"]) if ours and "tts" in ours else "-")
        if ours and ref and "tts" in ours and "tts" in ref and not v:
            ratio = ref["tts"] / ours["tts"]
            cells.append("**%.2fx**" % ratio)
            gm += math.log(ratio)
            gm_n += 1
            fig.append((p, ratio))
            if ratio < 1:
                slower.append(p)
        else:
            cells.append("FAILED (%s)" % v)
            failed += 1
        cells.append("%.4g / %.4g" % (ours["setup"], ref["setup"]) if ours and ref and "setup" in ours and "setup" in ref else "-")
        bestfix = None
        for s in solvers:
            b = best.get((p, s))
            if not b:
                cells.append("")
                continue
            vs = verdict(b, ref)
            if vs or not ref or "tts" not in ref:
                cells.append("FAILED (%s)" % vs if vs else "-")
                failed += 1 if vs else 0
                continue
            cells.append("%.2fx" % (ref["tts"] / b["tts"]))
            if bestfix is None or b["tts"] < bestfix[1]:
                bestfix = (s, b["tts"])
        if bestfix and ours and "tts" in ours and not v:
            rel = ours["tts"] / bestfix[1]
            cells.append("%.2f of %s" % (rel, bestfix[0]))
            if rel > 1.10:
                off10.append(p)
                note.append("more than 10% behind " + bestfix[0])
        else:
            cells.append("-")
        cells.append("; ".join(note))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("sptrsv (defaults) vs PETSc's cusparse, time to solution: geometric mean %s over %d problems; slower than cusparse on %d (%s); more than 10%% behind our best fixed path on %d (%s); runs that broke the error rule: %d" % (
        "%.2fx" % math.exp(gm / gm_n) if gm_n else "-", gm_n, len(slower), ", ".join(slower) or "none", len(off10), ", ".join(off10) or "none", failed))
    # the solves alone (issue 32's target on LU/Cholesky: at least 4x): MatSolve over the run, least over the repetitions
    ms = []
    for p in problems:
        ref, ours = best.get((p, "cusparse")), best.get((p, "sptrsv"))
        if ref and ours and ref.get("matsolve") and ours.get("matsolve") and not verdict(ours, ref):
            ms.append("%s %.2fx" % (p, ref["matsolve"] / ours["matsolve"]))
    if ms:
        out.append("")
        out.append("MatSolve (all calls of the run), PETSc's cusparse / sptrsv: " + ", ".join(ms))
    sys.stdout.write("\n".join(out) + "\n")
    if a.plot and fig:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            sys.stderr.write("e2e-table.py: matplotlib is not importable: no figure\n")
            return 0
        f, ax = plt.subplots(figsize=(7, 0.35 * len(fig) + 1.2))
        names = [x[0] for x in fig][::-1]
        vals = [x[1] for x in fig][::-1]
        ax.barh(names, vals, color=["#3b7dd8" if v >= 1 else "#d8553b" for v in vals])
        ax.axvline(1.0, color="k", lw=0.8)
        ax.set_xlabel("time to solution, PETSc cusparse / sptrsv (> 1: sptrsv faster)")
        ax.set_title("sptrsv at its defaults on PETSc's tutorials" + (" (%s)" % a.machine.split(";")[0] if a.machine else ""), fontsize=9)
        f.savefig(a.plot, dpi=110, bbox_inches="tight", metadata={"Software": None})
    return 0


if __name__ == "__main__":
    sys.exit(main())
