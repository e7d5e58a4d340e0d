#!/usr/bin/env python3
"""The PCMG smoother table of docs/PERFORMANCE.md from the CSV of examples/benchmarks/run-gs-mg-device.sh:
iterations, KSPSolve, PCSetUp and their sum (and SNESSolve for snes ex19) per problem and smoother, each against
Chebyshev/Jacobi of the same problem in the same run.

    python3 examples/benchmarks/gs-mg-table.py docs/perf-data/gs-mg-run1.csv

The CSV has one row per problem and smoother: run-gs-mg-device.sh already keeps, of its GS_MG_REPEAT runs of a case,
the one with the smallest KSPSolve + PCSetUp (its runs and totals_s columns list them all). Should a CSV hold several
rows of one problem and smoother (CSVs of two runs concatenated), this script keeps the one with the smallest
KSPSolve + PCSetUp too. A CSV without a problem column (run 1, docs/perf-data/gs-mg-run1.csv) is ex45-mg and renders
as before (no problem, SNESSolve or runs column). The hypre and AmgX rows (ex45-hypre, ex19-amgx, ...), which have no
Chebyshev/Jacobi row of their own, are compared with the chebyshev-jacobi row of the same program's mg problem.
"""
import csv
import sys

REF = "chebyshev-jacobi"


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def main(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames or []
        rows = list(reader)
    has_problem = "problem" in fields
    for r in rows:
        r["problem"] = r.get("problem") or "ex45-mg"
        r["_ks"], r["_ps"] = num(r.get("kspsolve_s")), num(r.get("pcsetup_s"))
        r["_tot"] = r["_ks"] + r["_ps"] if r["_ks"] is not None and r["_ps"] is not None else None
    # one row per (problem, smoother): the smallest KSPSolve + PCSetUp, in the order of first appearance
    best, order = {}, []
    for r in rows:
        k = (r["problem"], r["smoother"])
        if k not in best:
            order.append(k)
            best[k] = r
        elif r["_tot"] is not None and (best[k]["_tot"] is None or r["_tot"] < best[k]["_tot"]):
            best[k] = r
    rows = [best[k] for k in order]
    has_snes = any(num(r.get("snessolve_s")) is not None for r in rows)
    has_runs = "runs" in fields

    def ref_of(problem):
        r = best.get((problem, REF))
        if r is None:  # ex45-hypre -> ex45-mg's Chebyshev/Jacobi
            r = best.get((problem.split("-")[0] + "-mg", REF))
        return r if r is not None and r["_tot"] is not None and r["_ks"] else None

    head = (["problem"] if has_problem else []) + ["smoother", "grid", "levels", "CG its" if not has_problem else "linear its"]
    head += ["KSPSolve s", "PCSetUp s", "KSPSolve+PCSetUp s"] + (["SNESSolve s"] if has_snes else [])
    head += ["finest colours"] + (["runs"] if has_runs else []) + ["KSPSolve vs Chebyshev/Jacobi", "total vs Chebyshev/Jacobi"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        ks, ps, tot = r["_ks"], r["_ps"], r["_tot"]
        ref = ref_of(r["problem"])
        rk = rt = "-"
        if ref and ks and tot:
            rk, rt = "%.2fx" % (ref["_ks"] / ks), "%.2fx" % (ref["_tot"] / tot)
        dim = 2 if r["problem"].startswith("ex19") else 3
        f4 = lambda x: "-" if x is None else "%.4f" % x
        cells = ([r["problem"]] if has_problem else []) + [r["smoother"], "%s^%d" % (r["grid"], dim), r.get("levels") or "-",
                                                             r.get("iterations") or "-"]
        cells += [f4(ks), f4(ps), f4(tot)] + ([f4(num(r.get("snessolve_s")))] if has_snes else [])
        cells += [r.get("finest_colours") or "-"] + ([r.get("runs") or "-"] if has_runs else []) + [rk, rt]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "gs-mg.csv")
