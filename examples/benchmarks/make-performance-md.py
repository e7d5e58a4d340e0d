#!/usr/bin/env python3
"""Tables of docs/PERFORMANCE.md from the benchmark harness output (examples/benchmarks/run-device.sh).

  make-performance-md.py e2e --csv e2e.csv LOG...
      parse the -log_view logs of the end-to-end runs (files named e2e-<problem>-<solver>.log) into a CSV
  make-performance-md.py tables --bench bench.csv --e2e e2e.csv [--machine TEXT] [--command TEXT]
      print the markdown tables (stdout)
  make-performance-md.py gs --csv gs.csv --e2e gs-e2e.csv [--machine TEXT] [--command TEXT]
      the Gauss-Seidel tables (paper 000's Tables 1, 2 and 5, bench_gs / run-gs-device.sh) with the paper's V100 figures
  make-performance-md.py isai --csv isai.csv [--machine TEXT] [--command TEXT]
      the PC isai tables (paper 003's Tables 1-4, run-isai-device.sh) with the paper's V100 figures

  The tables, gs and isai commands also draw figures when matplotlib is importable (otherwise the tables alone):
  tables: speedup over cuSPARSE SpSV per matrix and variant; gs: speedup over the cuSPARSE sweep per matrix and path;
  isai: the GMRES time per preconditioner split into setup, preconditioner applies and the rest of the solve. Each is
  a PNG named after the CSV (<csv name>-speedup.png, <csv name>-breakdown.png), written to --plots DIR (default: the
  CSV's folder; --plots none: no figures) and linked under its table, relative to --md-dir DIR (the folder the
  markdown will be put in; default: the figures' folder). docs/PERFORMANCE.md: --md-dir docs.

Every number in the output comes from the CSV files; nothing is typed in. Standard library only, plus matplotlib
(optional) for the figures.

bench's error rule (bench_rule.py, the CSV's tol column) applies to the tables, ratios and ratio-compare commands: a row
whose max_rel_err is above its tol is shown as FAILED (err > tol) and never counts as a win, a best variant or in a
geometric mean; the tables state the rule, whether cuSPARSE was warmed up and whether the pointer update was paid.
"""
import argparse
import csv
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_rule  # noqa: E402  (bench's error rule, warm-up and pointer-update notes)
from bench_rule import fnum  # noqa: E402

E2E_FIELDS = ["problem", "solver", "status", "iterations", "reason", "ksp_solve_s", "pc_setup_s", "matsolve_count", "matsolve_s",
              "matsolve_gpu_s", "matmult_s", "pcapply_s", "total_s", "factor_backend", "error", "pcapply_count",
              "snes_solve_s", "iterations_total", "snes_iterations", "final_residual", "eps_solve_s", "eigenvalues"]
EVENTS = {"KSPSolve": "ksp_solve_s", "PCSetUp": "pc_setup_s", "MatSolve": "matsolve_s", "MatMult": "matmult_s", "PCApply": "pcapply_s",
          "SNESSolve": "snes_solve_s", "EPSSolve": "eps_solve_s"}



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
        row["iterations_total"] = str(sum(int(i[2]) for i in its))
    nl = re.findall(r"Nonlinear solve (converged|did not converge) due to (\S+) iterations (\d+)", text)
    if nl:
        row["snes_iterations"] = nl[-1][2]
        if nl[-1][0] != "converged":
            row["reason"] = nl[-1][1]
    # SLEPc (eps ex2): the eigensolver's reason and iterations stand for the run's; its eigenvalues (-eps_view_values
    # ::ascii_matlab, full digits) for the error rule
    eps = re.findall(r"Linear eigensolve (converged|did not converge) \((\d+) eigenpairs?\) due to (\S+); iterations (\d+)", text)
    if eps:
        row["reason"], row["iterations"] = eps[-1][2], eps[-1][3]
    lam = re.findall(r"Lambda_EPS_\w+ = \[\s*\n(.*?)\];", text, re.S)
    if lam:
        row["eigenvalues"] = ";".join(v for v in lam[-1].split() if v)
    fr = re.findall(r"KSP final norm of residual ([0-9.eE+-]+|nan|inf)", text)
    if fr:
        row["final_residual"] = fr[-1]
    t = re.search(r"^Time \(sec\):\s+(\S+)", text, re.M)
    if t:
        row["total_s"] = t.group(1)
    for line in text.splitlines():
        tok = line.split()
        if len(tok) < 21 or tok[0] not in EVENTS or not tok[1].isdigit():
            continue
        key = EVENTS[tok[0]]
        row[key] = tok[3]
        if tok[0] == "PCApply":
            row["pcapply_count"] = tok[1]
        if tok[0] == "MatSolve":
            row["matsolve_count"] = tok[1]
            # GPU time = flops / (GPU Mflop/s): only when the event logged GPU time (-log_view_gpu_time)
            flops, gpu_mflops = fnum(tok[5]), fnum(tok[21]) if len(tok) > 21 else None
            if flops and gpu_mflops:
                row["matsolve_gpu_s"] = "%.6g" % (flops / (gpu_mflops * 1e6))
    b = re.search(r"backend (\w+) \(([^)]*)\)(; vectors copied to (?:and from the device|/from the backend))?", text)
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


# ---- figures (optional: matplotlib) ------------------------------------------------------------------

def plot_target(args, csv_path, suffix):
    """(pyplot, PNG path, markdown link) for a figure of csv_path, or None: no figure (--plots none, no matplotlib)"""
    if getattr(args, "plots", "none") == "none" or not csv_path or not os.path.isfile(csv_path):
        return None
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("make-performance-md.py: matplotlib is not importable: tables without figures\n")
        return None
    folder = args.plots or os.path.dirname(os.path.abspath(csv_path))
    os.makedirs(folder, exist_ok=True)
    png = os.path.join(folder, os.path.splitext(os.path.basename(csv_path))[0] + "-" + suffix + ".png")
    link = os.path.relpath(os.path.abspath(png), os.path.abspath(args.md_dir or folder)).replace(os.sep, "/")
    return plt, png, link


def save_figure(plt, fig, png):
    # no date or version in the file: the same CSV gives the same PNG
    fig.savefig(png, dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)


def plot_speedups(target, labels, series, title, xlabel, groups=None):
    """horizontal grouped bars, one group per matrix (top to bottom in the order of labels), one bar per series
    (name -> list of speedups, None where missing), log scale, a line at 1x; groups: (first index, name) separators"""
    plt, png, link = target
    names = list(series)
    nb = len(names)
    h = 0.8 / nb
    fig, ax = plt.subplots(figsize=(9.5, 1.2 + 0.07 * len(labels) * (nb + 1.5)))
    colors = ["#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a"]
    vals = [v for name in names for v in series[name] if v]
    for j, name in enumerate(names):
        ys = [i - 0.4 + h * (j + 0.5) for i in range(len(labels))]
        xs = [v if v else 0 for v in series[name]]
        ax.barh(ys, xs, height=h, color=colors[j % len(colors)], label=name, left=0)
    ax.set_xscale("log")
    lo, hi = min(vals + [1.0]), max(vals + [1.0])
    ax.set_xlim(lo / 1.35, hi * 1.35)
    ax.axvline(1.0, color="black", linewidth=1.2)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    for i0, gname in (groups or [])[1:]:
        ax.axhline(i0 - 0.5, color="grey", linewidth=0.6, linestyle=":")
    import matplotlib.ticker as mticker
    ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: "%gx" % v))
    ax.xaxis.set_minor_formatter(mticker.FuncFormatter(lambda v, _: "%gx" % v if round(v, 3) in (0.2, 0.3, 0.5, 0.7, 1.5, 2, 3, 5) else ""))
    ax.tick_params(axis="x", which="minor", labelsize=7)
    ax.grid(axis="x", which="both", color="#dddddd", linewidth=0.5)
    ax.set_axisbelow(True)
    ax.set_xlabel(xlabel + "; black line: 1x, as fast as cuSPARSE", fontsize=9)
    ax.set_title(title, fontsize=10, pad=24)
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=nb, frameon=False)
    save_figure(plt, fig, png)
    return link


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
    rows = bench_rule.annotate(read_csv(args.bench))
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

    def row(label, kind, variant):
        return cases.get(label, {}).get((kind, variant))

    def best(label, kind):
        """the fastest of OURS that passed the error rule"""
        cand = [(get(label, kind, v, "median_ms"), v) for v in OURS if get(label, kind, v, "median_ms") is not None and bench_rule.ok(row(label, kind, v))]
        return min(cand) if cand else (None, None)

    def xcus(label, kind, variant, spec="%.2f"):
        """cuSPARSE time / the variant's, or FAILED (err > tol) when the variant broke the error rule"""
        r = row(label, kind, variant)
        if bench_rule.failed(r):
            return bench_rule.fail_cell(r)
        return fmt(ratio(get(label, kind, "cusparse-spsv", "median_ms"), get(label, kind, variant, "median_ms")), spec)

    def okget(label, kind, variant, field):
        """a field of a row that passed the error rule (None otherwise)"""
        return get(label, kind, variant, field) if bench_rule.ok(row(label, kind, variant)) else None

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
    if rows:
        p("  \n".join(bench_rule.header_lines(rows)))
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
        nfail = sum(1 for r in c.values() if bench_rule.failed(r))
        lu = c.get(("LU", "level-csr-graph")) or c.get(("LU", "host-reference")) or anyr
        rm, rp = row(lab, "LU", "matsolve-sptrsv"), row(lab, "LU", "matsolve-petsc-cusparse")
        xpetsc = (bench_rule.fail_cell(rm) if bench_rule.failed(rm) else
                  "n/a (PETSc's factor: err %s)" % rp["max_rel_err"] if bench_rule.failed(rp) else fmt(ratio(mpc, msu), "%.2f"))
        t.append([lab, anyr["n"], lu["nnz"], "%s/%s" % (lu["levels_L"], lu["levels_U"]), ms(cus), ms(our), xcus(lab, "LU", "level-csr-graph"),
                  fmt(okget(lab, "LU", "level-csr-graph", "bound_pct"), "%.1f"),
                  "%s (%s)" % (ms(bt), bv.replace("level-", "") if bv else "-"), fmt(ratio(cus, bt), "%.2f"),
                  fmt(get(lab, "LU", "cusparse-spsv", "bound_pct"), "%.1f"),
                  "%s/%s" % (fmt(get(lab, "LU", "level-csr-graph", "setup_ms"), "%.1f"), fmt(get(lab, "LU", "cusparse-spsv", "setup_ms"), "%.1f")),
                  ((c.get(("LU", "level-csr-graph")) or {}).get("breakeven_solves") or "-") if bench_rule.ok(row(lab, "LU", "level-csr-graph")) else "FAILED",
                  ms(msu), ms(mpc), xpetsc, fmt(max(errs) if errs else None, "%.1e") + (" (%d FAILED)" % nfail if nfail else "")])
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
        t.append([lab, anyr["levels_L"], ms(cus)] +
                 [bench_rule.fail_cell(row(lab, "L", v)) if bench_rule.failed(row(lab, "L", v)) else ms(get(lab, "L", v, "median_ms")) for v in OURS] +
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
                 ["%s (%s)" % (xcus(lab, "LU", v), fmt(get(lab, "LU", v, "setup_ms"), "%.1f")) for v in OURS] +
                 [ms(get(lab, "LU", "host-reference", "median_ms"))])
    p(md_table(hdr, t))
    p("")
    target = plot_target(args, args.bench, "speedup") if labels else None
    if target:
        series = {v.replace("level-", ""): [ratio(get(lab, "LU", "cusparse-spsv", "median_ms"), okget(lab, "LU", v, "median_ms")) for lab in labels]
                  for v in OURS}  # a bar only where the variant passed the error rule
        groups, last = [], None
        for i, lab in enumerate(labels):
            g = "ex2" if "_ex2" in lab else (lab[:5] if lab.startswith("lap") else "files")
            if g != last:
                groups.append((i, g))
                last = g
        link = plot_speedups(target, labels, series, "L then U: cuSPARSE SpSV time / our time (> 1x: ours faster), per matrix and variant",
                             "speedup over cuSPARSE SpSV (log scale)", groups)
        p("![Speedup over cuSPARSE SpSV per matrix and variant (the table above)](%s)" % link)
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
        v = ratio(get(lab, "LU", "matsolve-petsc-cusparse", "median_ms"), okget(lab, "LU", "matsolve-sptrsv", "median_ms"))
        tg.append(["MatSolve >= 2x PETSc's cusparse MatSolve (%s, bench, CUDA events)" % lab,
                   bench_rule.fail_cell(row(lab, "LU", "matsolve-sptrsv")) if bench_rule.failed(row(lab, "LU", "matsolve-sptrsv")) else fmt(v, "%.2fx"),
                   "NOT met (error rule)" if bench_rule.failed(row(lab, "LU", "matsolve-sptrsv")) else verdict(v, 2.0)])
    for prob, s in sorted(by.items()):
        if prob.startswith("ex2") and "sptrsv_level" in s and REF in s:
            v = ratio(fnum(s[REF]["matsolve_gpu_s"]), fnum(s["sptrsv_level"]["matsolve_gpu_s"]))
            tg.append(["MatSolve >= 2x PETSc's cusparse MatSolve (%s, -log_view GPU time)" % prob, fmt(v, "%.2fx"), verdict(v, 2.0)])
    for lab in labels:
        if lab.startswith("lap3d"):
            cus = get(lab, "LU", "cusparse-spsv", "median_ms")
            v = ratio(cus, okget(lab, "LU", "level-csr-graph", "median_ms"))
            vb = ratio(cus, best(lab, "LU")[0])
            fd = bench_rule.failed(row(lab, "LU", "level-csr-graph"))
            tg.append(["at least as fast as cuSPARSE SpSV, L+U (%s): default / best variant" % lab,
                       "%s / %s" % (bench_rule.fail_cell(row(lab, "LU", "level-csr-graph")) if fd else fmt(v, "%.2fx"), fmt(vb, "%.2fx")),
                       "%s / %s" % ("NOT met (error rule)" if fd else verdict(v, 1.0), verdict(vb, 1.0))])
    for lab in labels:
        if lab.startswith("lap3d7_128x128x128"):
            v = okget(lab, "LU", "level-csr-graph", "bound_pct")
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

    allrows = bench_rule.annotate(list(csv.DictReader(open(args.bench))))
    rows = [r for r in allrows if r["kind"] == "LU" and r["vs_cusparse"] not in ("", None) and not bench_rule.failed(r)]
    nfail = sum(1 for r in allrows if r["kind"] == "LU" and r["vs_cusparse"] not in ("", None) and r["variant"].startswith("level-") and bench_rule.failed(r))
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
    out += ["", bench_rule.RULE + f" Rows left out here for it: {nfail}."]
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


def cmd_ratio_compare(args):
    """Every (matrix, triangles, variant) measured in both runs: its ratio to cuSPARSE SpSV (cuSPARSE time / ours,
    measured in the same process) before and after, and the change; the closing line gives the largest change and
    the count beyond --tol (a refactoring must keep every ratio within it)."""
    import csv

    failed = set()

    def load(path):
        d = {}
        for r in bench_rule.annotate(list(csv.DictReader(open(path)))):
            if r["vs_cusparse"] in ("", None) or r["variant"].startswith(("host", "cusparse")):
                continue
            if bench_rule.failed(r):  # the error rule: a failing ratio is not compared
                failed.add((r["label"], r["kind"], r["variant"]))
                continue
            d[(r["label"], r["kind"], r["variant"])] = float(r["vs_cusparse"])
        return d

    a, b = load(args.before), load(args.after)
    keys = sorted((set(a) & set(b)) - failed, key=lambda k: (not k[0].startswith("lap"), k))
    out = ["| matrix | triangles | variant | vs cuSPARSE before | after | change |", "|---|---|---|---|---|---|"]
    worst, beyond = 0.0, 0
    for k in keys:
        ch = b[k] / a[k] - 1.0
        worst = max(worst, abs(ch))
        beyond += abs(ch) > args.tol
        out.append(f"| {k[0]} | {k[1]} | {k[2]} | {a[k]:.3f} | {b[k]:.3f} | {100 * ch:+.1f}% |")
    out.append("")
    out.append(f"{len(keys)} ratios compared ({len(set(a) - set(b))} only before, {len(set(b) - set(a))} only after; "
               f"{len(failed)} left out: FAILED the error rule in a run); "
               f"largest change {100 * worst:.1f}%, {beyond} beyond {100 * args.tol:.0f}%")
    # per configuration: our kernels replayed as CUDA graphs (the default), launched one by one (nograph), and
    # MatSolve through the factor (ours, and PETSc's cusparse as the run-to-run noise of a path we did not change)
    classes = {"kernels, CUDA graphs (default)": lambda v: v.endswith("-graph"), "kernels, launched one by one": lambda v: v.endswith("-nograph"),
               "MatSolve, sptrsv_level": lambda v: v == "matsolve-sptrsv", "MatSolve, PETSc cusparse (unchanged code)": lambda v: v == "matsolve-petsc-cusparse"}
    summ = ["| configuration | ratios | largest change | beyond " + f"{100 * args.tol:.0f}% |", "|---|---|---|---|"]
    for name, member in classes.items():
        ch = [abs(b[k] / a[k] - 1.0) for k in keys if member(k[2])]
        if ch:
            summ.append(f"| {name} | {len(ch)} | {100 * max(ch):.1f}% | {sum(c > args.tol for c in ch)} |")
    sys.stdout.write("\n".join(summ if args.summary else out) + "\n")
    return 0


# ---- Gauss-Seidel tables (bench_gs, run-gs-device.sh) ------------------------------------------------------

GS_VARIANTS = ["LEVR", "LEVC", "ELMR", "ELMC"]
GS_PAPER_COLS = ["LEVR", "LEVC", "ELMR", "ELMC", "CUS1", "CUS2"]
# Published figures, for comparison only: paper 000 (Li & Zhang), Tables 1 (c), (d) and 2 (c), (d): GFLOP/s of a forward
# + backward Gauss-Seidel sweep on an NVIDIA V100 (CUS1 = cusparseDcsrsv, CUS2 = cusparseDcsrsv2, CUDA 9.2), columns as
# GS_PAPER_COLS. Their Table 5 used 21 large SuiteSparse/MFEM matrices that are not among the shared matrices.
GS_PAPER_V100 = {
    (2, 5): {"2048x2048": (2.07, 2.09, 6.10, 5.25, 2.10, 2.07), "1024x4096": (1.60, 1.63, 5.44, 4.31, 1.70, 1.85),
             "512x8192": (0.97, 0.98, 3.56, 2.49, 1.07, 1.04), "256x16384": (0.49, 0.50, 1.90, 1.11, 0.51, 0.42),
             "128x32768": (0.25, 0.26, 0.94, 0.51, 0.23, 0.14)},
    (2, 9): {"2048x2048": (2.50, 2.55, 8.50, 6.08, 2.71, 2.09), "1024x4096": (1.60, 1.64, 5.99, 4.11, 1.53, 0.99),
             "512x8192": (0.90, 0.91, 3.32, 1.92, 0.88, 0.27), "256x16384": (0.46, 0.47, 1.69, 0.78, 0.42, 0.09),
             "128x32768": (0.22, 0.23, 0.66, 0.56, 0.49, 0.08)},
    (3, 7): {"128x128x128": (6.88, 7.32, 8.51, 9.03, 7.79, 8.06), "64x128x256": (7.11, 7.69, 9.66, 10.90, 8.45, 8.81),
             "64x64x512": (6.71, 7.05, 10.79, 13.87, 8.02, 10.43), "32x64x1024": (5.16, 5.19, 10.79, 11.62, 4.76, 8.51),
             "32x32x2048": (2.62, 2.67, 8.45, 6.51, 2.51, 4.76)},
    (3, 27): {"128x128x128": (19.53, 18.74, 34.57, 30.33, 16.87, 28.40), "64x128x256": (16.27, 16.38, 35.12, 27.27, 13.87, 25.21),
              "64x64x512": (9.98, 10.36, 29.20, 18.61, 9.46, 16.97), "32x64x1024": (5.01, 5.16, 14.27, 9.97, 4.79, 7.17),
              "32x32x2048": (2.62, 2.67, 6.49, 4.77, 2.41, 3.11)},
}


def gs_case_key(label):
    """(dim, stencil, grid) of a Laplacian label (lap2d5_2048x2048), or None for a file"""
    m = re.match(r"lap(\d)d(\d+)_(\d+x\d+(?:x\d+)?)$", label)
    return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else None


def geomean(vals):
    vals = [v for v in vals if v and v > 0]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


class GSCase:
    """the rows of one matrix: GFLOP/s per variant (GPU rows that ran and passed the check), the failures"""

    def __init__(self, label, rows):
        self.label, self.key = label, gs_case_key(label)
        self.rows = {r["variant"]: r for r in rows if r["backend"] == "cuda"}
        any_row = rows[0]
        self.n, self.nnz, self.levels = any_row["n"], any_row["nnz"], "%s/%s" % (any_row["levels_L"], any_row["levels_U"])
        self.changed = any_row.get("diag_changed", "")
        self.bad = {v: r["status"] for v, r in self.rows.items() if r["status"] != "ok"}

    def gf(self, v):
        r = self.rows.get(v)
        return fnum(r["gflops"]) if r and r["status"] == "ok" else None

    def cell(self, v, best):
        if v in self.bad:
            return self.bad[v]
        g = self.gf(v)
        return "-" if g is None else ("**%.2f**" % g if g == best else "%.2f" % g)

    def vs_cus(self, variants):
        """best GFLOP/s of the variants / CUS's"""
        return ratio(max((self.gf(v) for v in variants if self.gf(v) is not None), default=None), self.gf("CUS"))

    def bound(self, variants):
        best = max(variants, key=lambda v: self.gf(v) or -1)
        r = self.rows.get(best)
        return fnum(r["bw_fraction"]) if r and self.gf(best) else None


def gs_table(cases, paper):
    hdr = ["grid" if paper else "matrix", "n", "nnz", "levels L/U"] + GS_VARIANTS + ["CUS", "best/CUS", "%bound"]
    if paper:
        hdr += ["V100 " + c for c in GS_PAPER_COLS]
    else:
        hdr += ["diag changed"]
    t = []
    for c in cases:
        best = max((c.gf(v) for v in GS_VARIANTS + ["CUS"] if c.gf(v) is not None), default=None)
        row = [c.key[2] if paper else c.label, c.n, c.nnz, c.levels] + [c.cell(v, best) for v in GS_VARIANTS + ["CUS"]]
        b = c.bound(GS_VARIANTS)
        row += [fmt(c.vs_cus(GS_VARIANTS), "%.2f"), fmt(100 * b if b is not None else None, "%.1f")]
        if paper:
            pv = GS_PAPER_V100.get(c.key[:2], {}).get(c.key[2])
            row += ["%.2f" % x for x in pv] if pv else ["-"] * len(GS_PAPER_COLS)
        else:
            row += [c.changed or "-"]
        t.append(row)
    return md_table(hdr, t)


def gs_summary(name, cases):
    """geometric means and the cases where element scheduling loses (to cuSPARSE, or to level scheduling)"""
    out = []
    for label, vs in (("ELMR", ["ELMR"]), ("ELMC", ["ELMC"]), ("best of ELMR/ELMC", ["ELMR", "ELMC"]), ("best of ours", GS_VARIANTS)):
        r = [c.vs_cus(vs) for c in cases]
        ok = [x for x in r if x is not None]
        loses = [c.label for c, x in zip(cases, r) if x is not None and x <= 1.0]
        out.append([name, label + " / CUS", len(ok), fmt(geomean(ok), "%.2f"), fmt(min(ok) if ok else None, "%.2f"),
                    fmt(max(ok) if ok else None, "%.2f"), "%d of %d" % (len(ok) - len(loses), len(ok)), ", ".join(loses) or "-"])
    lose_lev = [c.label for c in cases if c.vs_cus(["ELMR", "ELMC"]) is not None and c.vs_cus(["LEVR", "LEVC"]) is not None
                and c.vs_cus(["ELMR", "ELMC"]) < c.vs_cus(["LEVR", "LEVC"])]
    n_both = sum(1 for c in cases if c.vs_cus(["ELMR", "ELMC"]) is not None and c.vs_cus(["LEVR", "LEVC"]) is not None)
    out.append([name, "best of ELMR/ELMC vs best of LEVR/LEVC (ahead: element not slower)", n_both, "-", "-", "-", "%d of %d" % (n_both - len(lose_lev), n_both),
                ", ".join(lose_lev) or "-"])
    return out


def gs_e2e(e2e, p):
    by = {}
    for r in e2e:
        by.setdefault(r["problem"], {})[r["solver"]] = r
    t, rt = [], []
    for prob in sorted(by, key=lambda x: [int(v) for v in re.findall(r"\d+", x)] or [0]):
        for pc in ("sor", "gs"):
            r = by[prob].get(pc)
            if not r:
                continue
            if r["status"] != "ok":
                t.append([prob, pc, "FAILED: " + r["error"], "-", "-", "-", "-", "-", "-"])
                continue
            cnt, pa = fnum(r.get("pcapply_count")), fnum(r["pcapply_s"])
            t.append([prob, pc, r["iterations"], r["reason"], r["ksp_solve_s"], r["pcapply_s"] or "-",
                      fmt(1e3 * pa / cnt if pa and cnt else None, "%.3f"), r["pc_setup_s"] or "-", r["factor_backend"] or "host (MatSOR)"])
        sor, gs = by[prob].get("sor"), by[prob].get("gs")
        if sor and gs and sor["status"] == gs["status"] == "ok":
            ks = ratio(fnum(sor["ksp_solve_s"]), fnum(gs["ksp_solve_s"]))
            rt.append([prob, sor["iterations"], gs["iterations"], fmt(ks, "%.2f"), fmt(ratio(fnum(sor["pcapply_s"]), fnum(gs["pcapply_s"])), "%.2f"),
                       "met" if ks and ks > 1 else "NOT met"])
    p("### End to end: ex45, GMRES(30), PETSc's `-pc_type sor` vs `-pc_type gs` (two processes, identical options otherwise)")
    p("")
    p("`-dm_mat_type aijcusparse -dm_vec_type cuda`, `-log_view -log_view_gpu_time`; seconds. PCSOR has no GPU kernel for "
      "the CUDA matrix type: PETSc's MatSOR sweeps on the host, with the vectors copied each application.")
    p("")
    p(md_table(["problem", "pc", "iterations", "reason", "KSPSolve", "PCApply", "per PCApply ms", "PCSetUp", "sweeps on"], t)
      if t else "**No end-to-end results** (gs-e2e.csv missing or empty: see logs.tar.gz).")
    p("")
    if rt:
        p(md_table(["problem", "iterations sor", "iterations gs", "KSPSolve sor / gs", "PCApply sor / gs", "gs faster (KSPSolve)"], rt))
        p("")
    return rt


def cmd_gs(args):
    rows = read_csv(args.csv)
    e2e = read_csv(args.e2e)
    out = []
    p = out.append
    by = {}
    for r in rows:
        by.setdefault(r["matrix"], []).append(r)
    cases = [GSCase(lab, rr) for lab, rr in by.items()]
    lap = {k: sorted([c for c in cases if c.key and c.key[:2] == k], key=lambda c: list(GS_PAPER_V100.get(k, {})).index(c.key[2])
                     if c.key[2] in GS_PAPER_V100.get(k, {}) else 99) for k in GS_PAPER_V100}
    files = sorted([c for c in cases if not c.key], key=lambda c: c.label)
    devices = sorted({r["device"] for r in rows if r["device"] not in ("", "none")})
    bws = sorted({fnum(r["bw_gbs"]) for r in rows if fnum(r["bw_gbs"])})
    p("<!-- generated by examples/benchmarks/make-performance-md.py gs from gs.csv and gs-e2e.csv: do not edit by hand -->")
    p("")
    if args.machine:
        p("Machine: %s  " % args.machine)
    if args.command:
        p("Command: `%s` (device run, carrying `.petsc-cuda` and `.carry`)  " % args.command)
    p("Device: %s; bandwidth bound: %s GB/s (cudaMemcpy device-to-device, read + write bytes); GPU timing: %s." % (
        ", ".join(devices) or "none (host rows only)", ", ".join("%.0f" % b for b in bws) or "-",
        ", ".join(sorted({r["timing"] for r in rows if r["backend"] == "cuda"})) or "-"))
    p("")
    p("GFLOP/s of one symmetric Gauss-Seidel iteration (a forward and a backward sweep, omega = 1, in place from a nonzero "
      "iterate) = 4 nnz(A) / t, as paper 000 (section 6) counts them; t = median of back-to-back iterations (CUDA events). "
      "Ours: SpTrsvGS on the CUDA backend, LEVR/LEVC = csr/csc with level scheduling, ELMR/ELMC = csr/csc with element "
      "scheduling. CUS = cuSPARSE: SpMV with the strict upper (lower) part, then SpSV with L + D (U + D). Best per row in "
      "bold; `best/CUS` = best of ours / CUS; `%bound` = model bytes (A read once per sweep as CSR with 32-bit indices, plus "
      "b and x read and x written) / t / bandwidth, for the best of ours. Each row's iterate after one iteration was checked "
      "against the host backend (relative error < 1e-10); a row that failed the check shows WRONG, one that did not run FAILED. "
      "`V100` columns: the paper's published figures (its Tables 1 and 2, (c) and (d); CUS1/CUS2 = cuSPARSE csrsv/csrsv2 "
      "of CUDA 9.2), for comparison only.")
    p("")
    if not rows:
        p("**No Gauss-Seidel rows** (gs.csv missing or empty: see logs.tar.gz).")
        p("")
    summ = []
    for title, dim in (("Table 1: 2-D Laplacians", 2), ("Table 2: 3-D Laplacians", 3)):
        for k in sorted(k for k in lap if k[0] == dim):
            if not lap[k]:
                continue
            p("### %s, %d-point stencil" % (title, k[1]))
            p("")
            p(gs_table(lap[k], True))
            p("")
            summ += gs_summary("%d-D %d-point" % k, lap[k])
    if files:
        p("### Table 5: the shared matrices")
        p("")
        p("Each row was made diagonally dominant first (a_ii = max(|a_ii|, sum of |a_ij|), sign kept; `diag changed` counts "
          "the rows that changed): Gauss-Seidel needs a nonzero diagonal, and one iteration of a general matrix can overflow. "
          "The pattern, which sets the schedule and the traffic, is the file's (plus any missing diagonal entry). The "
          "paper's Table 5 used other (larger) matrices; it reports on V100 a speedup over cuSPARSE and GSF of up to 3.8 "
          "and 1.6 on average.")
        p("")
        p(gs_table(files, False))
        p("")
        summ += gs_summary("shared matrices", files)
    if summ:
        p("### Speedups over cuSPARSE (geometric mean over the matrices; `ahead` = faster than CUS)")
        p("")
        p(md_table(["matrices", "variant", "cases", "geometric mean", "min", "max", "ahead", "behind (or equal)"], summ))
        p("")
    target = plot_target(args, args.csv, "speedup") if cases else None
    if target:
        order = [c for k in sorted(lap) for c in lap[k]] + files
        groups, last = [], None
        for i, c in enumerate(order):
            g = "lap%dd%d" % c.key[:2] if c.key else "files"
            if g != last:
                groups.append((i, g))
                last = g
        series = {v: [c.vs_cus([v]) for c in order] for v in GS_VARIANTS}
        link = plot_speedups(target, [c.label for c in order], series,
                             "Symmetric Gauss-Seidel iteration: GFLOP/s of ours / cuSPARSE's (> 1x: ours faster)",
                             "speedup over the cuSPARSE sweep (log scale); LEV = level, ELM = element scheduling; R = csr, C = csc", groups)
        p("![Speedup over the cuSPARSE sweep per matrix and path (the tables above)](%s)" % link)
        p("")
    rt = gs_e2e(e2e, p)
    # ---- targets ----
    tg = []
    d2 = [c for k in ((2, 5), (2, 9)) for c in lap[k]]
    if d2:
        behind = [c.label for c in d2 if not (c.vs_cus(["ELMR", "ELMC"]) or 0) > 1]
        tg.append(["ELMR/ELMC ahead of cuSPARSE on every 2-D Laplacian shape (best of the two)",
                   "%d of %d" % (len(d2) - len(behind), len(d2)), "met" if not behind and len(d2) == 10 else "NOT met" + (" (%d of 10 ran)" % len(d2) if len(d2) < 10 else "")])
    if files:
        ahead = sum(1 for c in files if (c.vs_cus(["ELMR", "ELMC"]) or 0) > 1)
        tg.append(["ELMR/ELMC ahead of cuSPARSE on at least 80% of the shared matrices", "%d of %d (%.0f%%)" % (ahead, len(files), 100.0 * ahead / len(files)),
                   "met" if ahead >= 0.8 * len(files) else "NOT met"])
    for r in rt:
        tg.append(["GMRES(30) + PC gs faster than + PCSOR (aijcusparse), KSPSolve, %s" % r[0], r[3] + "x", r[5]])
    bad = [(c.label, v, s) for c in cases for v, s in sorted(c.bad.items())]
    ngpu = sum(len(c.rows) for c in cases)
    tg.append(["every GPU row matches the host backend (relative error < 1e-10)",
               "%d of %d rows not ok" % (len(bad), ngpu) if ngpu else "no GPU rows", "-" if not ngpu else ("NOT met" if bad else "met")])
    p("### Targets of the issue, checked on these numbers")
    p("")
    p(md_table(["target", "measured", "verdict"], tg))
    p("")
    if bad:
        p("Rows not ok: " + "; ".join("%s %s %s" % b for b in bad))
        p("")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


# ---- PC isai (paper 003) ----------------------------------------------------------------------------------------

ISAI_VARIANTS = [("cpu-ilu", "PETSc ILU(0), CPU"), ("cusparse-ilu", "PETSc ILU(0), cuSPARSE"), ("sptrsv-ilu", "sptrsv_level ILU(0)"),
                 ("isai-k1", "isai k=1"), ("isai-k2", "isai k=2"), ("isai-k3", "isai k=3"),
                 ("isai-k1-hostfactor", "isai k=1, block ILU on the host")]
# paper 003 (V100, Tables 1-4): case -> (column names, T_p ms, T_total ms, G_it)
ISAI_PAPER = [
    ("atmosmodd (bs 4)", ["PETSc", "cuSPARSE", "ISAI S(X)", "ISAI S(X^2)"], [1072, 86, 19.7, 44], [7654, 859, 594, 685], [201, 201, 295, 242]),
    ("af_shell3 (bs 5)", ["PETSc", "cuSPARSE", "ISAI S(X)", "ISAI S(X^2)", "ISAI S(X^3)"], [435, 170, 9.03, 15.1, 22.0], [470, 193, 40.1, 35.5, 39.7], [25, 25, 45, 29, 26]),
    ("lid-driven cavity 300x300 (bs 3)", ["PETSc", "cuSPARSE", "ISAI S(X)", "ISAI S(X^2)", "ISAI S(X^3)"], [130, 129, 3.72, 5.20, 6.88], [3150, 3074, 560, 468, 443], [623, 623, 1092, 836, 711]),
    ("venkat50 (bs 4)", ["PETSc", "cuSPARSE", "ISAI S(X)", "ISAI S(X^2)", "ISAI S(X^3)"], [50, 192, 1.96, 3.02, 4.25], [734, 2556, 678, 458, 369], [367, 367, 2208, 1324, 948]),
]


def plot_isai_breakdown(target, rows, problems):
    """one panel per problem: a stacked bar per preconditioner (PCSetUp, PCApply, KSPSolve - PCApply), seconds"""
    plt, png, link = target
    ncol = 2
    nrow = (len(problems) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(12, 0.4 + 2.55 * nrow), squeeze=False)
    parts = [("PCSetUp (setup)", "#9467bd"), ("PCApply (preconditioner applies)", "#ff7f0e"), ("rest of KSPSolve (SpMV, orthogonalization)", "#1f77b4")]
    for k, prob in enumerate(problems):
        ax = axes[k // ncol][k % ncol]
        get = {r["solver"]: r for r in rows if r["problem"] == prob}
        keys = [(key, label) for key, label in ISAI_VARIANTS if key in get]
        bars = []
        for key, label in keys:
            r = get[key]
            su, sv, pa = fnum(r["pc_setup_s"]), fnum(r["ksp_solve_s"]), fnum(r["pcapply_s"])
            ok = r["status"] == "ok" and su is not None and sv is not None
            bars.append((key, ok, su or 0.0, min(pa or 0.0, sv or 0.0), max((sv or 0.0) - (pa or 0.0), 0.0), r))
        # the host ILU can take 10x the GPU rows: the axis ends after the slowest GPU row and the longer bars are cut
        gpu = [b[2] + b[3] + b[4] for b in bars if b[1] and b[0] != "cpu-ilu"]
        alltot = [b[2] + b[3] + b[4] for b in bars if b[1]]
        xmax = 1.3 * (max(gpu) if gpu else max(alltot + [1e-9]))
        if alltot and max(alltot) <= 1.6 * xmax / 1.3:
            xmax = 1.3 * max(alltot)
        for i, (key, ok, su, pa, rest, r) in enumerate(bars):
            if not ok:
                ax.text(0, i, " failed", va="center", fontsize=8, color="red")
                continue
            conv = r.get("reason", "").startswith("CONVERGED")
            left = 0.0
            for (name, color), w in zip(parts, (su, pa, rest)):
                ax.barh(i, w, left=left, color=color, hatch=None if conv else "//", edgecolor="white" if conv else "black", linewidth=0.3)
                left += w
            note = "%.3g s, %s it" % (left, r["iterations"]) + ("" if conv else " (" + r.get("reason", "") + ")")
            if left > xmax:
                ax.text(xmax, i, "%s >" % note, va="center", ha="right", fontsize=7, color="white", fontweight="bold")
            else:
                ax.text(left, i, " " + note, va="center", fontsize=7)
        ax.set_xlim(0, xmax)
        ax.set_yticks(range(len(bars)))
        ax.set_yticklabels([b[0] for b in bars], fontsize=8)
        ax.invert_yaxis()
        ax.set_title(prob, fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(axis="x", color="#dddddd", linewidth=0.5)
        ax.set_axisbelow(True)
        if k // ncol == nrow - 1 or k + ncol >= len(problems):
            ax.set_xlabel("seconds", fontsize=8)
    for k in range(len(problems), nrow * ncol):
        axes[k // ncol][k % ncol].axis("off")
    import matplotlib.patches as mpatches
    handles = [mpatches.Patch(color=c, label=n) for n, c in parts]
    if any(r["status"] == "ok" and not r.get("reason", "").startswith("CONVERGED") for r in rows if r["problem"] in problems):
        handles.append(mpatches.Patch(facecolor="white", edgecolor="black", hatch="//", label="did not converge"))
    fig.legend(handles=handles, loc="upper center", ncol=4, fontsize=8, bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.suptitle("GMRES(30) to 1e-8: time per preconditioner (bar end: setup + solve, iterations)", fontsize=10, y=1.03)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    save_figure(plt, fig, png)
    return link


def cmd_isai(args):
    rows = read_csv(args.csv)
    out = []
    p = out.append
    p("<!-- generated by examples/benchmarks/make-performance-md.py isai from isai.csv: do not edit by hand -->")
    p("")
    if args.machine:
        p("Machine: " + args.machine + "  ")
    if args.command:
        p("Command: `" + args.command + "` (device run, carrying `.petsc-cuda` and `.carry`)  ")
    p("")
    p("One GMRES(30) solve per row, relative tolerance 1e-8, x0 = 0, one process. `T_p` = 30 preconditioner applications "
      "(PCApply time / PCApply count x 30), `setup` = PCSetUp (factorization, ISAI patterns and column solves, GPU copies; "
      "the isai rows factor on the GPU except `block ILU on the host`), "
      "`solve` = KSPSolve (PETSc runs the setup before this event), `T_total` = setup + solve; seconds. `vs cuSPARSE` = T_total of PETSc's "
      "cuSPARSE ILU / T_total of the row (> 1: faster); `vs best exact` = best T_total of the exact-solve GPU rows "
      "(cuSPARSE, sptrsv_level) / T_total of the row.")
    p("")
    problems = list(dict.fromkeys(r["problem"] for r in rows))  # in first-seen order
    summary = []
    for prob in problems:
        get = {r["solver"]: r for r in rows if r["problem"] == prob}

        def tot(v):
            r = get.get(v)
            if not (r and r.get("status") == "ok" and r.get("reason", "").startswith("CONVERGED")):
                return None
            a, b = fnum(r["ksp_solve_s"]), fnum(r["pc_setup_s"])
            return a + b if a is not None and b is not None else None

        ref = tot("cusparse-ilu")
        exact = [t for t in (tot("cusparse-ilu"), tot("sptrsv-ilu")) if t]
        best_exact = min(exact) if exact else None
        p("#### " + prob)
        p("")
        table = []
        for key, label in ISAI_VARIANTS:
            r = get.get(key)
            if not r:
                table.append([label, "not run", "", "", "", "", "", "", ""])
                continue
            if r["status"] != "ok":
                table.append([label, "failed: " + (r.get("error") or "")[:80], "", "", "", "", "", "", ""])
                continue
            sv, su = fnum(r["ksp_solve_s"]), fnum(r["pc_setup_s"])
            t = sv + su if sv is not None and su is not None else None
            pa, pc = fnum(r["pcapply_s"]), fnum(r["pcapply_count"])
            tp = pa / pc * 30 if pa is not None and pc else None
            conv = r.get("reason", "").startswith("CONVERGED")
            vs = ref / t if ref and t and conv else None
            vb = best_exact / t if best_exact and t and conv else None
            table.append([label, r["iterations"] + ("" if conv else " (" + r.get("reason", "") + ")"), fmt(tp, "%.4g"), fmt(su, "%.4g"),
                          fmt(t, "%.4g"), fmt(sv, "%.4g"),
                          fmt(100 * su / t if t and su is not None else None, "%.1f"), fmt(vs, "%.2f"), fmt(vb, "%.2f")])
            if key.startswith("isai") and conv:
                summary.append((prob, label, vs, vb, 100 * su / t if t and su is not None else None))
        p(md_table(["preconditioner", "G_it", "T_p", "setup", "T_total", "solve", "setup %", "vs cuSPARSE", "vs best exact"], table))
        p("")
    target = plot_target(args, args.csv, "breakdown") if problems else None
    if target:
        link = plot_isai_breakdown(target, rows, problems)
        p("#### GMRES(30) time per preconditioner: setup, preconditioner applies, rest of the solve")
        p("")
        p("![GMRES(30) time per preconditioner and problem: PCSetUp, PCApply, rest of KSPSolve (the tables above)](%s)" % link)
        p("")
    if summary:
        p("#### isai against the exact GPU solves")
        p("")
        p(md_table(["problem", "isai", "vs cuSPARSE", "vs best exact", "setup % of T_total"],
                   [[a, b, fmt(c, "%.2f"), fmt(d, "%.2f"), fmt(e, "%.1f")] for a, b, c, d, e in summary]))
        p("")
    p("#### Paper 003 (V100), for comparison")
    p("")
    for name, cols, tp, tt, git in ISAI_PAPER:
        p("*" + name + "*")
        p("")
        p(md_table([""] + cols, [["T_p (ms)"] + [str(v) for v in tp], ["T_total (ms)"] + [str(v) for v in tt], ["G_it"] + [str(v) for v in git]]))
        p("")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def add_plot_args(parser):
    parser.add_argument("--plots", default="", help="folder of the PNG figures (default: the CSV's folder); none: no figures")
    parser.add_argument("--md-dir", default="", help="folder the markdown goes to: figure links are relative to it (default: the figures' folder)")


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
    add_plot_args(b)
    c = sub.add_parser("ratios")
    c.add_argument("--bench", default="bench.csv")
    g = sub.add_parser("gs")
    g.add_argument("--csv", default="gs.csv")
    g.add_argument("--e2e", default="gs-e2e.csv")
    g.add_argument("--machine", default="")
    g.add_argument("--command", default="")
    add_plot_args(g)
    i = sub.add_parser("isai")
    i.add_argument("--csv", default="isai.csv")
    i.add_argument("--machine", default="")
    i.add_argument("--command", default="")
    add_plot_args(i)
    d = sub.add_parser("compare")
    d.add_argument("--before", required=True)
    d.add_argument("--after", required=True)
    r = sub.add_parser("ratio-compare")
    r.add_argument("--before", required=True)
    r.add_argument("--after", required=True)
    r.add_argument("--tol", type=float, default=0.03)
    r.add_argument("--summary", action="store_true", help="one row per configuration instead of one per ratio")
    args = ap.parse_args()
    if args.cmd == "ratio-compare":
        return cmd_ratio_compare(args)
    if args.cmd == "ratios":
        return cmd_ratios(args)
    if args.cmd == "compare":
        return cmd_compare(args)
    if args.cmd == "gs":
        return cmd_gs(args)
    if args.cmd == "isai":
        return cmd_isai(args)
    return cmd_e2e(args) if args.cmd == "e2e" else cmd_tables(args)


if __name__ == "__main__":
    sys.exit(main())
