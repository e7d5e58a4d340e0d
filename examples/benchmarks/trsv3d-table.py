#!/usr/bin/env python3
"""The table of trsv3d_breakdown (issue 33, item 1): where the time of a sync-free lower solve goes on 3-D 7-point factors.

  trsv3d-table.py CSV [--bench BENCH_CSV ...] [--bench-variant syncfree-asap-csr]
  trsv3d-table.py CSV --trace     (the "# trace" lines of a TRSV3D_TRACE run: the critical path's hops, a table)
  trsv3d-table.py CSV --steps     (its "# steps" lines: every chunk's step against the critical path's, and the longest
                                   path of independent steps, a table; examples/benchmarks/trsv3d_trace_host.h)
  trsv3d-table.py CSV --compact   (one row per kernel, one column per grid: cuSPARSE SpSV's time over the kernel's)

CSV is run-trsv3d-breakdown-device.sh's trsv3d.csv: a first comment line with the machine (GPU, memory, driver; CUDA),
then trsv3d_breakdown's header and one line per grid N and kernel (kernels and bounds: the header comment of
examples/benchmarks/trsv3d_breakdown.cu). Per grid N^3 the table gives each kernel's time, cuSPARSE SpSV's time over it
(> 1: faster than cuSPARSE), its time over the bound max(bound_bw_ms, bound_path_ms) ("x over bound"), its error
against the host substitution and, for the counting kernel `polls`, the polls per row; then the bound's row (the
bandwidth bound and the critical-path bound, levels x the chain's handoff cost). The lines under the table are computed
from the same CSV.

--bench: CSVs of examples/benchmarks/bench (label, kind, variant, ..., vs_cusparse, ...) whose lower triangles of the
same 3-D 7-point ILU(0) factors (labels lap3d7_N_ilu0 or lap3d7_NxNxN, kind L) carry the production sync-free path
(--bench-variant): its ratio to cuSPARSE from its own run is printed per N beside the minimal kernels'. Every number
comes from the CSVs.
"""
import argparse
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_rule import fnum  # noqa: E402  (a CSV cell as a finite float or None)




def load(path):
    machine, lines = None, []
    for ln in open(path):
        if ln.startswith("#"):
            if machine is None:
                machine = ln[1:].strip()
            continue
        if ln.strip():
            lines.append(ln)
    rows = [r for r in csv.DictReader(lines) if r.get("N") and r["N"] != "N"]
    return machine, rows


def index(rows):
    """the grids (ascending), the rows by (N, kernel), and the kernels in their first order"""
    grids = sorted({int(r["N"]) for r in rows})
    by = {(int(r["N"]), r["kernel"]): r for r in rows}
    kernels = []
    for r in rows:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    return grids, by, kernels


def fmt_range(vals, f):
    lo, hi = min(vals), max(vals)
    return f % lo if f % lo == f % hi else "%s-%s" % (f % lo, f % hi)


def bench_ratios(paths, variant):
    """{N: (vs_cusparse, path, device)} of the bench's L of lap3d7 N^3 ILU(0)"""
    out = {}
    for p in paths:
        for r in csv.DictReader(ln for ln in open(p) if not ln.startswith("#")):
            m = re.match(r"lap3d7_(\d+)(?:x(\d+)x(\d+))?(?:_ilu0)?$", r.get("label", ""))
            if not m or r.get("kind") != "L" or r.get("variant") != variant:
                continue
            if m.group(2) and not (m.group(1) == m.group(2) == m.group(3)):
                continue
            v = fnum(r.get("vs_cusparse"))
            if v is not None:
                out[int(m.group(1))] = (v, p, r.get("device", ""))
    return out


TRACE = re.compile(r"^# trace (\S+) N=(\d+): solve ([0-9.]+) us; critical path by the latest producer:(.*)$")
HOP = re.compile(r" (\S+) (\d+) hops ([0-9.]+) us \(to global words in (-?[0-9.]+), block words (-?[0-9.]+), scan\+publish (-?[0-9.]+)\)")


def trace_table(path):
    """one row per traced kernel and grid: the solve's time and, per kind of hop on its critical path, count x mean cost"""
    kinds = ["x", "y-blk", "y-glob", "z-blk", "z-glob"]
    out = ["| grid | kernel | solve us (traced) | " + " | ".join("%s hops x us" % k for k in kinds) + " | scan+publish us (mean over the path) |",
           "|---|---|---|" + "---|" * len(kinds) + "---|"]
    with open(path) as f:
        for line in f:
            m = TRACE.match(line.strip())
            if not m:
                continue
            hops = {h.group(1): (int(h.group(2)), float(h.group(3)), float(h.group(6))) for h in HOP.finditer(m.group(4))}
            cells = ["%d x %.2f" % (hops[k][0], hops[k][1]) if k in hops else "" for k in kinds]
            tot = sum(c for c, _, _ in hops.values())
            sp = sum(c * s for c, _, s in hops.values()) / tot if tot else 0.0
            out.append("| %s^3 | %s | %s | %s | %.2f |" % (m.group(2), m.group(1), m.group(3), " | ".join(cells), sp))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def compact_table(path):
    """one row per kernel (but cusparse), one column per grid: cuSPARSE SpSV's time over the kernel's, in the same process;
    a kernel whose error is above 1e-12 relative (the scan's rounding) is shown as FAILED"""
    machine, rows = load(path)
    if not rows:
        sys.stderr.write("%s: no data lines\n" % path)
        return 1
    grids, by, kernels = index(rows)
    kernels = [k for k in kernels if k != "cusparse"]
    out = ["Machine: %s" % machine, ""] if machine else []
    out.append("| kernel | " + " | ".join("%d^3" % N for N in grids) + " |")
    out.append("|---|" + "---|" * len(grids))
    for k in kernels:
        cells = []
        for N in grids:
            r = by.get((N, k))
            v, e = (fnum(r.get("vs_cusparse")), fnum(r.get("rel_err"))) if r else (None, None)
            if v is None:
                cells.append("")
            elif e is not None and e >= 0 and e > 1e-12:
                cells.append("FAILED (err %.1e)" % e)
            else:
                cells.append("%.2fx" % v)
        out.append("| %s | %s |" % (k, " | ".join(cells)))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


STEPS = re.compile(r"# steps (\S+) N=(\d+): all (\d+) chunks' steps \(publication after the latest producer's\) mean ([0-9.]+) us, "
                   r"p10 ([0-9.]+), median ([0-9.]+), p90 ([0-9.]+), p99 ([0-9.]+); the critical path's (\d+) steps mean ([0-9.]+) us; "
                   r"solve after the first chunk ([0-9.]+) us; hops x mean step ([0-9.]+) us; Monte Carlo longest path of independent "
                   r"steps drawn from all chunks' \((\d+) draws\) ([0-9.]+) us")


def steps_table(path):
    """one row per traced kernel and grid: the steps of all chunks and of the critical path, the solve against hops x
    mean step and against the Monte Carlo longest path of independent steps"""
    out = ["| grid | kernel | step, all chunks: mean (p10 / median / p90 / p99) us | step on the critical path: mean us (hops) | "
           "solve after the first chunk us | hops x mean step us | longest path of independent steps us (draws) |",
           "|---|---|---|---|---|---|---|"]
    with open(path) as f:
        for line in f:
            m = STEPS.match(line.strip())
            if not m:
                continue
            g = m.groups()
            out.append("| %s^3 | %s | %s (%s / %s / %s / %s) | %s (%s) | %s | %s | %s (%s) |" % (
                g[1], g[0], g[3], g[4], g[5], g[6], g[7], g[9], g[8], g[10], g[11], g[13], g[12]))
    if len(out) == 2:
        sys.stderr.write("%s: no \"# steps\" lines\n" % path)
        return 1
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--bench", action="append", default=[])
    ap.add_argument("--bench-variant", default="syncfree-asap-csr")
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--steps", action="store_true")
    ap.add_argument("--compact", action="store_true")
    a = ap.parse_args()
    if a.trace:
        return trace_table(a.csv)
    if a.steps:
        return steps_table(a.csv)
    if a.compact:
        return compact_table(a.csv)
    machine, rows = load(a.csv)
    if not rows:
        sys.stderr.write("%s: no data lines\n" % a.csv)
        return 1
    grids, by, kernels = index(rows)
    out = []
    if machine:
        out.append("Machine: %s" % machine)
        out.append("")
    out.append("| grid (rows, row levels) | kernel | ms | vs cuSPARSE | x over bound | rel_err | polls per row |")
    out.append("|---|---|---|---|---|---|---|")
    xob = {}
    for N in grids:
        first = True
        rs = [by[(N, k)] for k in kernels if (N, k) in by]
        r0 = rs[0]
        bw, path = fnum(r0["bound_bw_ms"]), fnum(r0["bound_path_ms"])
        bound = max(bw, path)
        for r in rs:
            ms = fnum(r["ms"])
            err = fnum(r["rel_err"])
            polls = fnum(r["polls_per_row"])
            xob[(N, r["kernel"])] = ms / bound
            out.append("| %s | %s | %s | %.2fx | %.2f | %s | %s |" % (
                "%d^3 (%s, %s)" % (N, r["n"], r["levels"]) if first else "",
                r["kernel"], r["ms"], fnum(r["vs_cusparse"]), ms / bound,
                "(no solve)" if err is not None and err < 0 else r["rel_err"],
                "%.0f" % polls if r["kernel"] == "polls" and polls is not None else ""))
            first = False
        out.append("| | **bound** = max(bandwidth %s ms at %s GB/s, path %s ms = %s levels x %s us handoff) | %.5g | | 1.00 | | |" % (
            r0["bound_bw_ms"], r0["bw_gbs"], r0["bound_path_ms"], r0["levels"], r0["handoff_us"], bound))
    out.append("")
    out.append("vs cuSPARSE: cuSPARSE SpSV's time over the kernel's (> 1: faster), same process. x over bound: the kernel's time "
               "over the bound of its grid. polls per row: the `polls` kernel (`syncfree` with every poll counted, which "
               "slows it). `stream` solves nothing (no waits): the traffic of the access pattern alone.")
    out.append("")

    def ratio(N, k):
        r = by.get((N, k))
        return fnum(r["vs_cusparse"]) if r else None

    facts = []
    sf = [(N, ratio(N, "syncfree")) for N in grids if ratio(N, "syncfree") is not None]
    if sf:
        facts.append("minimal sync-free kernel (`syncfree`, row order) vs cuSPARSE: " +
                     ", ".join("%.2fx at %d^3" % (v, N) for N, v in sf))
    pl = [fnum(by[(N, "polls")]["polls_per_row"]) for N in grids if (N, "polls") in by]
    if pl:
        facts.append("polls per row: " + fmt_range(pl, "%.0f"))
    lv = [(N, fnum(by[(N, "syncfree")]["ms"]) / fnum(by[(N, "syncfree-lev")]["ms"])) for N in grids
          if (N, "syncfree") in by and (N, "syncfree-lev") in by]
    if lv:
        facts.append("wavefront order against row order, `syncfree` time over `syncfree-lev` time (> 1: wavefront order faster): " +
                     ", ".join("%.2f at %d^3" % (v, N) for N, v in lv))
    ls = [N for N in grids if (N, "linescan") in by]
    if ls:
        facts.append("`linescan` vs cuSPARSE: " + fmt_range([ratio(N, "linescan") for N in ls], "%.2fx") +
                     "; x over bound: " + ", ".join("%.2f at %d^3" % (xob[(N, "linescan")], N) for N in ls) +
                     "; critical path, row levels (3N-2) -> line steps (2N-1): " +
                     ", ".join("%s -> %d" % (by[(N, "linescan")]["levels"], 2 * N - 1) for N in ls))
    bd = []
    for N in grids:
        r0 = [by[(N, k)] for k in kernels if (N, k) in by][0]
        bd.append("%s at %d^3" % ("bandwidth" if fnum(r0["bound_bw_ms"]) > fnum(r0["bound_path_ms"]) else "critical path", N))
    facts.append("the larger bound: " + ", ".join(bd))
    if a.bench:
        br = bench_ratios(a.bench, a.bench_variant)
        cells = []
        for N in grids:
            if N in br:
                v, p, dev = br[N]
                cells.append("%.2fx at %d^3 (%s, %s)" % (v, N, p.split("/")[-1], dev))
            else:
                cells.append("%d^3 not in the bench CSVs" % N)
        facts.append("production sync-free path (`%s`, the lower triangle of the same grid's ILU(0) factor, its own run) "
                     "vs cuSPARSE: %s" % (a.bench_variant, "; ".join(cells)))
    out.extend("- " + f for f in facts)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
