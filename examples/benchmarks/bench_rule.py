"""bench's error rule for the scripts that turn its CSVs into tables (issue 34, item 4: numbers that count only when correct).

bench (examples/benchmarks/bench.c, bench.h) checks every timed row's max_rel_err (against the host reference solution of
the same triangles) against a tolerance it writes in the CSV column `tol`:

    tol = max(1e-10, f x cuSPARSE SpSV's max_rel_err on the same triangles, same process), at most 1e-2
    f = 10 for a substitution (any order), 100 where the arithmetic differs (products of inverted blocks: sptrsv_pinv,
    sptrsv_supernodal's inverted diagonal blocks, sptrsv_locality's blocks kernel, a MatSolve through one of them)

cuSPARSE's own error is the proxy of the triangles' conditioning: an exact substitution in another order is that far from
the host's. The cap keeps a broken cuSPARSE row (an error of order 1) from passing every other row of its triangles. A row whose max_rel_err is above its tol (or not a number) FAILED: its speed-up is shown as
"FAILED (err X > tol Y)" and it never counts as a win, a best path or in a geometric mean.

CSVs written before the column existed get the same rule computed here, per bench process (a process's rows start with
its host-reference L row): every locality, supernodal and pinv variant and a MatSolve through the automatic choice are
taken as f = 100 (their kernels were not recorded), so this errs on the lenient side for them.

The CSVs also say whether cuSPARSE (and every path) was warmed up before the timed setups (column warmed_up: an untimed
SpSV of a throwaway triangle first; without it the first cuSPARSE setup of each process includes cuSPARSE's one-time
start-up, 40-69 ms on the H200) and whether the pointer update was paid (column ptr_update: two b/x pairs alternating,
as the vectors of a KSP solve do; without it a CUDA-graph path skipped its vector-pointer update after the first solve).

Standard library only. Use: rows = bench_rule.annotate(list(csv.DictReader(f))) once per CSV file, then failed(r),
fail_cell(r), ok(r), and header_lines(rows) for the table's text; fnum(cell) reads a cell as a finite float or None.
"""
import math

FLOOR = 1e-10
CAP = 1e-2
EXACT = 10.0
INVERSE = 100.0
CUSPARSE = "cusparse-spsv"

RULE = ("Error rule: a row counts only when its max_rel_err (against the host reference solution of the same triangles) is at "
        "most tol = max(1e-10, 10 x cuSPARSE SpSV's error on the same triangles) for a substitution, 100 x where the arithmetic "
        "differs (products of inverted blocks: pinv, supernodal's inverted diagonal blocks, locality's blocks kernel), at most 1e-2; "
        "cuSPARSE's error stands for the factor's conditioning. A row above it is shown as FAILED (err > tol) and is never a "
        "win, a best path or part of a geometric mean.")


def _num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def fnum(s):
    """a CSV cell as a finite float, else None (empty, not a number, NaN or Inf): the table scripts' reading of a cell"""
    try:
        v = float(s)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def legacy_inverse(variant):
    """f = 100 for a CSV without the tol column: the variants whose kernels may multiply by inverted blocks"""
    v = variant
    for suffix in ("-hostvec", "-host"):
        if v.endswith(suffix):
            v = v[: -len(suffix)]
    if v.startswith(("pinv-", "locality-", "supernodal-")):
        return True
    return v.startswith("matsolve-") and v not in ("matsolve-sptrsv", "matsolve-petsc-cusparse")


def annotate(rows):
    """each row of ONE bench CSV gets '_err' (float, NaN kept; None: no error recorded), '_tol' (float or None) and
    '_failed' (bool); '_legacy' is True where tol was computed here (no tol column). Returns rows."""
    legacy = bool(rows) and "tol" not in rows[0]
    if legacy:
        # the processes of the CSV: each starts with its host-reference L row; cuSPARSE's error per (process, kind)
        block, blocks = -1, []
        for r in rows:
            if r.get("variant") == "host-reference" and r.get("kind") == "L" or block < 0:
                block += 1
            blocks.append(block)
        ref = {}
        for b, r in zip(blocks, rows):
            e = _num(r.get("max_rel_err"))
            if r.get("variant") == CUSPARSE and e is not None and math.isfinite(e) and _num(r.get("median_ms")):
                ref[(b, r.get("label"), r.get("kind"))] = e
    for i, r in enumerate(rows):
        e = _num(r.get("max_rel_err"))
        r["_err"] = e
        if legacy:
            r["_legacy"] = True
            if e is None:
                r["_tol"] = None
            else:
                er = ref.get((blocks[i], r.get("label"), r.get("kind")), 0.0)
                r["_tol"] = min(CAP, max(FLOOR, (INVERSE if legacy_inverse(r.get("variant", "")) else EXACT) * er))
        else:
            r["_legacy"] = False
            r["_tol"] = _num(r.get("tol"))
        r["_failed"] = r["_tol"] is not None and e is not None and not e <= r["_tol"]  # NaN fails
    return rows


def failed(r):
    return bool(r and r.get("_failed"))


def ok(r):
    """a row that may count: present and not failed"""
    return bool(r) and not r.get("_failed")


def fail_cell(r):
    return "FAILED (err %.1e > tol %.1e)" % (r["_err"], r["_tol"]) if r.get("_err") is not None and math.isfinite(r["_err"]) else "FAILED (err %s > tol %.1e)" % (r.get("max_rel_err") or "?", r["_tol"])


def failures(rows):
    return [r for r in rows if failed(r)]


def header_lines(rows):
    """the table's statement of the rule, the warm-up and the pointer update (from the CSV's own columns)"""
    out = [RULE]
    if any(r.get("_legacy") for r in rows):
        out.append("This CSV predates the `tol` column: the tolerance was computed by the table script with the same rule, every "
                   "locality, supernodal and pinv variant and the automatic MatSolve taken at 100 x (their kernels were not recorded).")
    dev = [r for r in rows if r.get("timing") not in ("host-clock", None, "")]
    w = {r.get("warmed_up") for r in dev}
    if not dev:
        out.append("No GPU rows (a host run): no cuSPARSE to warm up; " + ("each path variant was set up and applied once, untimed, "
                   "on a throwaway triangle before its timed setup." if {r.get("warmed_up") for r in rows} == {"1"} else "no warm-up recorded."))
    elif w == {"1"}:
        out.append("cuSPARSE warmed up: before any timed setup each process ran an untimed SpSV analysis + solve of a throwaway "
                   "64-row triangle (and set up each path variant once on it), so the setup columns hold no one-time start-up.")
    elif "1" in w:
        out.append("cuSPARSE warmed up in some processes only (column warmed_up): the setup columns of the others include "
                   "cuSPARSE's one-time start-up in their first analysis.")
    else:
        out.append("cuSPARSE NOT warmed up (rows from a bench before the warm-up, or -bench_setup_warmup 0): the first cuSPARSE "
                   "analysis of each process (the L triangle) includes its one-time start-up, which inflates cuSPARSE's setup "
                   "and the break-even counts against it.")
    p = {r.get("ptr_update") for r in dev}
    if dev and p == {"1"}:
        out.append("Pointer update paid: two b/x buffer pairs alternate between the timed solves, so a CUDA-graph path rewrites "
                   "its vector pointers before each solve, as inside a KSP solve.")
    elif dev and "1" not in p:
        out.append("Pointer update NOT paid (one b/x pair: a bench before the change, or -bench_ptr_update 0): CUDA-graph paths "
                   "skipped the vector-pointer update that a KSP solve pays on every application.")
    elif dev:
        out.append("Pointer update paid in some processes only (column ptr_update).")
    nf = len(failures(rows))
    out.append("Rows that FAILED the error rule: %d of %d." % (nf, sum(1 for r in rows if r.get("_tol") is not None)))
    return out
