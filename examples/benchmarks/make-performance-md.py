#!/usr/bin/env python3
"""Tables of docs/PERFORMANCE.md from the benchmark harness output (examples/benchmarks/run-device.sh).

  make-performance-md.py e2e --csv e2e.csv LOG...
      parse the -log_view logs of the end-to-end runs (files named e2e-<problem>-<solver>.log) into a CSV
  make-performance-md.py tables --bench bench.csv --e2e e2e.csv [--machine TEXT] [--command TEXT]
      print the markdown tables (stdout)

Every number in the output comes from the CSV files; nothing is typed in. Standard library only.
"""
import argparse
import csv
import math
import os
import re
import sys

E2E_FIELDS = ["problem", "solver", "status", "iterations", "reason", "ksp_solve_s", "pc_setup_s", "matsolve_count", "matsolve_s",
              "matsolve_gpu_s", "matmult_s", "pcapply_s", "total_s", "factor_backend", "error"]
EVENTS = {"KSPSolve": "ksp_solve_s", "PCSetUp": "pc_setup_s", "MatSolve": "matsolve_s", "MatMult": "matmult_s", "PCApply": "pcapply_s"}


def fnum(s):
    try:
        v = float(s)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


# ---- end-to-end logs --------------------------------------------------------------------------------

def parse_log(path):
    base = os.path.basename(path)
    m = re.match(r"e2e-([^-]+)-(.+)\.log$", base)
    row = {k: "" for k in E2E_FIELDS}
    row["problem"], row["solver"] = (m.group(1), m.group(2)) if m else (base, "?")
    with open(path, errors="replace") as f:
        text = f.read()
    its = re.findall(r"Linear solve (converged|did not converge) due to (\S+) iterations (\d+)", text)
    if its:
        row["reason"], row["iterations"] = its[-1][1], its[-1][2]
    t = re.search(r"^Time \(sec\):\s+(\S+)", text, re.M)
    if t:
        row["total_s"] = t.group(1)
    for line in text.splitlines():
        tok = line.split()
        if len(tok) < 21 or tok[0] not in EVENTS or not tok[1].isdigit():
            continue
        key = EVENTS[tok[0]]
        row[key] = tok[3]
        if tok[0] == "MatSolve":
            row["matsolve_count"] = tok[1]
            # GPU time = flops / (GPU Mflop/s): only when the event logged GPU time (-log_view_gpu_time)
            flops, gpu_mflops = fnum(tok[5]), fnum(tok[21]) if len(tok) > 21 else None
            if flops and gpu_mflops:
                row["matsolve_gpu_s"] = "%.6g" % (flops / (gpu_mflops * 1e6))
    b = re.search(r"backend (\w+) \(([^)]*)\)(; vectors copied to and from the device)?", text)
    if b:
        row["factor_backend"] = "sptrsv/" + b.group(1) + (" (vectors copied)" if b.group(3) else "")
    else:
        p = re.search(r"package used to perform factorization:\s*(\S+)", text)
        if p:
            row["factor_backend"] = p.group(1)
    if row["ksp_solve_s"] and row["iterations"]:
        row["status"] = "ok"
    else:
        row["status"] = "failed"
        err = re.findall(r"\[0\]PETSC ERROR: (.*)", text)
        msg = [e for e in err if e.strip() and not e.startswith("#") and "----" not in e]
        if len(text.strip().splitlines()) <= 1:
            msg = ["no output (timeout or crash)"]
        row["error"] = (msg[0] if msg else "no -log_view in the log (timeout or crash?)")[:200]
    return row


def cmd_e2e(args):
    rows = [parse_log(p) for p in sorted(args.logs) if os.path.isfile(p)]
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=E2E_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    for r in rows:
        print(",".join(str(r[k]) for k in E2E_FIELDS))
    return 0


# ---- tables -----------------------------------------------------------------------------------------

def read_csv(path):
    if not path or not os.path.isfile(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fmt(v, spec="%.3g", missing="-"):
    return missing if v is None else spec % v


def ms(v):
    if v is None:
        return "-"
    return "%.4f" % v if v < 1 else ("%.3f" % v if v < 10 else "%.1f" % v)


def ratio(a, b):
    """a / b, or None"""
    return a / b if a is not None and b is not None and b > 0 else None


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


OURS = ["level-csr-graph", "level-csr-nograph", "level-csc-graph", "level-csc-nograph"]


def case_order(label):
    """ex2 matrix first, then 2-D 5/9, 3-D 7/27 in the paper's order, then files"""
    m = re.match(r"lap(\d)d(\d+)_(\d+)x(\d+)(?:x(\d+))?", label)
    if "_ex2" in label:
        return (0, 0, 0, 0, label)
    if m:
        dim, pts, nx, ny = int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4))
        return (1, dim * 100 + pts, -nx, -ny, label)
    return (2, 0, 0, 0, label)


def cmd_tables(args):
    rows = read_csv(args.bench)
    e2e = read_csv(args.e2e)
    cases = {}
    for r in rows:
        cases.setdefault(r["label"], {})[(r["kind"], r["variant"])] = r
    labels = sorted(cases, key=case_order)
    out = []
    p = out.append

    def get(label, kind, variant, field):
        r = cases.get(label, {}).get((kind, variant))
        return fnum(r[field]) if r else None

    def best(label, kind):
        cand = [(get(label, kind, v, "median_ms"), v) for v in OURS if get(label, kind, v, "median_ms") is not None]
        return min(cand) if cand else (None, None)

    devices = sorted({r["device"] for r in rows if r.get("device") and r["device"] != "none"})
    bws = sorted({fnum(r["bw_gbs"]) for r in rows if fnum(r["bw_gbs"])})
    timings = sorted({r["timing"] for r in rows if r["timing"] not in ("host-clock",)})
    p("<!-- generated by examples/benchmarks/make-performance-md.py from bench.csv and e2e.csv: do not edit by hand -->")
    p("")
    if args.machine:
        p("Machine: %s  " % args.machine)
    if args.command:
        p("Command: `%s` (device run, carrying `.petsc-cuda` and `.carry`)  " % args.command)
    p("Device: %s; bandwidth bound: %s GB/s (cudaMemcpy device-to-device, read + write bytes); GPU timing: %s." % (
        ", ".join(devices) or "none (host reference only)", ", ".join("%.0f" % b for b in bws) or "-", ", ".join(timings) or "-"))
    p("")
    if not rows:
        p("**No benchmark rows** (bench.csv missing or empty: see logs.tar.gz).")
    # ---- table 1: L then U ----
    p("### Triangular solves of the ILU(0) factors: L then U (one preconditioner application)")
    p("")
    p("Times are medians per solve in ms. `ours` = `-mat_sptrsv_format csr` with CUDA graphs (the default); `best` = fastest of "
      "csr/csc x graph on/off. `x cuSP` = cuSPARSE SpSV time / our time (> 1: we are faster). `%bound` = model bytes / time / "
      "bandwidth. `setup` = our analysis + upload (+ graph capture) vs cuSPARSE's conversion + upload + analysis, ms; `break-even` = "
      "solves after which our extra setup is paid back (0: never behind; `never`: slower per solve). MatSolve columns: through "
      "`sptrsv_level` vs PETSc's own `-pc_factor_mat_solver_type cusparse`, VECCUDA vectors.")
    p("")
    hdr = ["matrix", "n", "nnz(L+U)", "levels L/U", "cuSPARSE", "ours", "x cuSP", "%bound", "best (variant)", "x cuSP", "%bound cuSP",
           "setup ours/cuSP", "break-even", "MatSolve ours", "MatSolve PETSc-cuSP", "x PETSc", "max err"]
    t = []
    for lab in labels:
        c = cases[lab]
        anyr = next(iter(c.values()))
        cus = get(lab, "LU", "cusparse-spsv", "median_ms")
        our = get(lab, "LU", "level-csr-graph", "median_ms")
        bt, bv = best(lab, "LU")
        msu = get(lab, "LU", "matsolve-sptrsv", "median_ms")
        mpc = get(lab, "LU", "matsolve-petsc-cusparse", "median_ms")
        errs = [fnum(r["max_rel_err"]) for (k, v), r in c.items() if fnum(r["max_rel_err"]) is not None and not v.startswith("host")]
        lu = c.get(("LU", "level-csr-graph")) or c.get(("LU", "host-reference")) or anyr
        t.append([lab, anyr["n"], lu["nnz"], "%s/%s" % (lu["levels_L"], lu["levels_U"]), ms(cus), ms(our), fmt(ratio(cus, our), "%.2f"),
                  fmt(get(lab, "LU", "level-csr-graph", "bound_pct"), "%.1f"),
                  "%s (%s)" % (ms(bt), bv.replace("level-", "") if bv else "-"), fmt(ratio(cus, bt), "%.2f"),
                  fmt(get(lab, "LU", "cusparse-spsv", "bound_pct"), "%.1f"),
                  "%s/%s" % (fmt(get(lab, "LU", "level-csr-graph", "setup_ms"), "%.1f"), fmt(get(lab, "LU", "cusparse-spsv", "setup_ms"), "%.1f")),
                  (c.get(("LU", "level-csr-graph")) or {}).get("breakeven_solves") or "-",
                  ms(msu), ms(mpc), fmt(ratio(mpc, msu), "%.2f"), fmt(max(errs) if errs else None, "%.1e")])
    p(md_table(hdr, t))
    p("")
    # ---- table 2: L alone ----
    p("### The lower triangle alone (unit diagonal)")
    p("")
    hdr = ["matrix", "levels", "cuSPARSE ms", "csr+graph", "csr", "csc+graph", "csc", "best x cuSP", "%bound (best)", "GFLOP/s (best)"]
    t = []
    for lab in labels:
        cus = get(lab, "L", "cusparse-spsv", "median_ms")
        bt, bv = best(lab, "L")
        anyr = cases[lab].get(("L", "host-reference")) or next(iter(cases[lab].values()))
        t.append([lab, anyr["levels_L"], ms(cus)] + [ms(get(lab, "L", v, "median_ms")) for v in OURS] +
                 [fmt(ratio(cus, bt), "%.2f"), fmt(get(lab, "L", bv, "bound_pct") if bv else None, "%.1f"),
                  fmt(get(lab, "L", bv, "gflops") if bv else None, "%.2f")])
    p(md_table(hdr, t))
    p("")
    # ---- table 3: all variants vs cuSPARSE, L then U ----
    p("### Every variant of ours vs cuSPARSE SpSV, L then U (cuSPARSE time / ours; setup ms in parentheses)")
    p("")
    hdr = ["matrix", "cuSPARSE setup ms"] + [v.replace("level-", "") for v in OURS] + ["host ms (1 core)"]
    t = []
    for lab in labels:
        cus = get(lab, "LU", "cusparse-spsv", "median_ms")
        t.append([lab, fmt(get(lab, "LU", "cusparse-spsv", "setup_ms"), "%.1f")] +
                 ["%s (%s)" % (fmt(ratio(cus, get(lab, "LU", v, "median_ms")), "%.2f"), fmt(get(lab, "LU", v, "setup_ms"), "%.1f")) for v in OURS] +
                 [ms(get(lab, "LU", "host-reference", "median_ms"))])
    p(md_table(hdr, t))
    p("")
    # ---- table 4: end to end ----
    p("### End to end: GMRES(30) + ILU(0), PETSc's cusparse ILU vs sptrsv_level (two processes, identical options otherwise)")
    p("")
    p("From `-log_view` (`-log_view_gpu_time`): seconds. `MatSolve GPU` is the GPU time PETSc logged for the event (flops / GPU "
      "flop rate); `-` where the event logged none, in which case `MatSolve` is host-side time only (asynchronous launches) and "
      "KSPSolve is the fair comparison.")
    p("")
    hdr = ["problem", "solver", "factor", "iterations", "reason", "KSPSolve", "PCSetUp", "MatSolve (count)", "MatSolve GPU", "per MatSolve ms",
           "MatMult", "PCApply", "total"]
    t = []
    for r in e2e:
        if r["status"] != "ok":
            t.append([r["problem"], r["solver"], "FAILED: " + r["error"]] + ["-"] * (len(hdr) - 3))
            continue
        cnt = fnum(r["matsolve_count"])
        per = fnum(r["matsolve_gpu_s"]) or fnum(r["matsolve_s"])
        t.append([r["problem"], r["solver"], r["factor_backend"] or "-", r["iterations"], r["reason"], r["ksp_solve_s"], r["pc_setup_s"] or "-",
                  "%s (%s)" % (r["matsolve_s"] or "-", r["matsolve_count"] or "-"), r["matsolve_gpu_s"] or "-",
                  fmt(1e3 * per / cnt if per and cnt else None, "%.3f") + ("" if r["matsolve_gpu_s"] else " (host)"),
                  r["matmult_s"] or "-", r["pcapply_s"] or "-", r["total_s"] or "-"])
    p(md_table(hdr, t) if e2e else "**No end-to-end results** (e2e.csv missing: see logs.tar.gz).")
    p("")
    by = {}
    for r in e2e:
        if r["status"] == "ok":
            by.setdefault(r["problem"], {})[r["solver"]] = r
    ratios = []
    for prob, s in sorted(by.items()):
        ours = s.get("sptrsv_level")
        for ref_name, ref in sorted(s.items()):
            if ref_name == "sptrsv_level" or not ours:
                continue
            ks = ratio(fnum(ref["ksp_solve_s"]), fnum(ours["ksp_solve_s"]))
            mg = ratio(fnum(ref["matsolve_gpu_s"]), fnum(ours["matsolve_gpu_s"]))
            ratios.append([prob, "%s / sptrsv_level" % ref_name, fmt(ks, "%.2f"), fmt(mg, "%.2f"),
                           "same" if ref["iterations"] == ours["iterations"] else "%s vs %s" % (ref["iterations"], ours["iterations"])])
    if ratios:
        p(md_table(["problem", "time ratio", "KSPSolve", "MatSolve (GPU time)", "iterations"], ratios))
        p("")
    # ---- targets ----
    p("### Targets of the issue, checked on these numbers")
    p("")
    tg = []

    def verdict(v, thr, strict=False):
        return "-" if v is None else ("met" if (v > thr if strict else v >= thr) else "NOT met")

    ex2 = [lab for lab in labels if "_ex2" in lab]
    for lab in ex2:
        v = ratio(get(lab, "LU", "matsolve-petsc-cusparse", "median_ms"), get(lab, "LU", "matsolve-sptrsv", "median_ms"))
        tg.append(["MatSolve >= 2x PETSc's cusparse MatSolve (%s, bench, CUDA events)" % lab, fmt(v, "%.2fx"), verdict(v, 2.0)])
    for prob, s in sorted(by.items()):
        if prob.startswith("ex2") and "sptrsv_level" in s and REF in s:
            v = ratio(fnum(s[REF]["matsolve_gpu_s"]), fnum(s["sptrsv_level"]["matsolve_gpu_s"]))
            tg.append(["MatSolve >= 2x PETSc's cusparse MatSolve (%s, -log_view GPU time)" % prob, fmt(v, "%.2fx"), verdict(v, 2.0)])
    for lab in labels:
        if lab.startswith("lap3d"):
            cus = get(lab, "LU", "cusparse-spsv", "median_ms")
            v = ratio(cus, get(lab, "LU", "level-csr-graph", "median_ms"))
            vb = ratio(cus, best(lab, "LU")[0])
            tg.append(["at least as fast as cuSPARSE SpSV, L+U (%s): default / best variant" % lab, "%s / %s" % (fmt(v, "%.2fx"), fmt(vb, "%.2fx")),
                       "%s / %s" % (verdict(v, 1.0), verdict(vb, 1.0))])
    for lab in labels:
        if lab.startswith("lap3d7_128x128x128"):
            v = get(lab, "LU", "level-csr-graph", "bound_pct")
            bt, bv = best(lab, "LU")
            vb = get(lab, "LU", bv, "bound_pct") if bv else None
            tg.append(["ILU(0) solve >= 30%% of the bandwidth bound (%s): default / best" % lab, "%s / %s %%" % (fmt(v, "%.1f"), fmt(vb, "%.1f")),
                       "%s / %s" % (verdict(v, 30.0), verdict(vb, 30.0))])
    for prob, s in sorted(by.items()):
        if "sptrsv_level" in s and REF in s:
            v = ratio(fnum(s[REF]["ksp_solve_s"]), fnum(s["sptrsv_level"]["ksp_solve_s"]))
            tg.append(["GMRES(30)+ILU(0) faster end to end than PETSc's cusparse ILU (%s, KSPSolve)" % prob, fmt(v, "%.2fx"), verdict(v, 1.0, True)])
    p(md_table(["target", "measured", "verdict"], tg) if tg else "No target could be checked (no GPU rows).")
    p("")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


REF = "cusparse"


def cmd_ratios(args):
    """Median, range and geometric mean of cuSPARSE time / our time (L then U), per group of matrices."""
    import csv
    import math
    import statistics

    rows = [r for r in csv.DictReader(open(args.bench)) if r["kind"] == "LU" and r["vs_cusparse"] not in ("", None)]
    groups = {"2-D Laplacians": lambda l: l.startswith("lap2d"), "3-D Laplacians": lambda l: l.startswith("lap3d"),
              "shared matrices": lambda l: not l.startswith("lap")}
    out = ["| matrices | variant | cases | median | min | max | geometric mean | faster than cuSPARSE in |",
           "|---|---|---|---|---|---|---|---|"]
    for gname, member in groups.items():
        labels = sorted({r["label"] for r in rows if member(r["label"])})
        for vname in ("level-csr-graph", "best of ours"):
            vals = []
            for lab in labels:
                rr = [float(r["vs_cusparse"]) for r in rows if r["label"] == lab and r["variant"].startswith("level-")]
                if vname != "best of ours":
                    rr = [float(r["vs_cusparse"]) for r in rows if r["label"] == lab and r["variant"] == vname]
                if rr:
                    vals.append(max(rr))
            if not vals:
                continue
            gm = math.exp(sum(math.log(v) for v in vals) / len(vals))
            wins = sum(v > 1.0 for v in vals)
            out.append(f"| {gname} | {vname} | {len(vals)} | {statistics.median(vals):.2f} | {min(vals):.2f} | {max(vals):.2f} | {gm:.2f} | {wins} of {len(vals)} |")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def cmd_compare(args):
    """Per matrix, L then U median ms of each variant in two runs (before -> after) and the ratio."""
    import csv

    def load(path):
        d = {}
        for r in csv.DictReader(open(path)):
            if r["kind"] == "LU" and r["variant"] in ("level-csr-graph", "level-csc-graph", "cusparse-spsv"):
                d[(r["label"], r["variant"])] = float(r["median_ms"])
        return d

    a, b = load(args.before), load(args.after)
    labels = sorted({k[0] for k in a} & {k[0] for k in b}, key=lambda l: (not l.startswith("lap"), l))
    out = ["| matrix | csr+graph before -> after ms | speedup | csc+graph before -> after ms | speedup | cuSPARSE before -> after ms |",
           "|---|---|---|---|---|---|"]
    for lab in labels:
        cells = [lab]
        for v in ("level-csr-graph", "level-csc-graph"):
            x, y = a.get((lab, v)), b.get((lab, v))
            cells += [f"{x:.4g} -> {y:.4g}", f"{x / y:.2f}"] if x and y else ["-", "-"]
        x, y = a.get((lab, "cusparse-spsv")), b.get((lab, "cusparse-spsv"))
        cells.append(f"{x:.4g} -> {y:.4g}" if x and y else "-")
        out.append("| " + " | ".join(cells) + " |")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("e2e")
    a.add_argument("--csv", required=True)
    a.add_argument("logs", nargs="*")
    b = sub.add_parser("tables")
    b.add_argument("--bench", default="bench.csv")
    b.add_argument("--e2e", default="e2e.csv")
    b.add_argument("--machine", default="")
    b.add_argument("--command", default="")
    c = sub.add_parser("ratios")
    c.add_argument("--bench", default="bench.csv")
    d = sub.add_parser("compare")
    d.add_argument("--before", required=True)
    d.add_argument("--after", required=True)
    args = ap.parse_args()
    if args.cmd == "ratios":
        return cmd_ratios(args)
    if args.cmd == "compare":
        return cmd_compare(args)
    return cmd_e2e(args) if args.cmd == "e2e" else cmd_tables(args)


if __name__ == "__main__":
    sys.exit(main())
