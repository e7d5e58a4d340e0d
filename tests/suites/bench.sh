# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# the benchmark harness (examples/benchmarks/bench) on the host: its max_rel_err column must be a valid check. Without a
# GPU, -bench_host_paths runs every path's host executor on each variant the device run times (supernodal's modes, pinv's
# fill limits, ...) on the factor's own triangles; every row's error against the host reference must stay at rounding
# (1e-8), and the reference itself must solve A (the factor of -bench_levels 100000 is the exact LU: residual 1e-12).
bench_err_case() { # bench_err_case LABEL BENCH-ARGS...
  local label=$1 csv=$OUT/bench-$1.csv o=$OUT/bench-$1.out
  shift
  need_file examples/benchmarks/bench "make examples" || return 1
  rm -f "$csv"
  prun "$o" examples/benchmarks/bench "$@" -label "$label" -bench_host_paths -csv "$csv" -max_time 0.01 -host_time 0.005 -min_reps 1 -warmup 1 || fail "bench exited nonzero" || return 1
  python3 - "$csv" "$o" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = []
paths = {r['variant'].split('-')[0] for r in rows if r['variant'].endswith('-host') and r['variant'] != 'matsolve-sptrsv-host'}
for want in ('level', 'syncfree', 'supernodal', 'pinv'):
    if want not in paths:
        bad.append('no %s rows (paths seen: %s)' % (want, ', '.join(sorted(paths))))
for r in rows:
    e = r['max_rel_err']
    if e in ('', None):
        bad.append('%s %s: no max_rel_err' % (r['variant'], r['kind']))
    elif not float(e) <= 1e-8:
        bad.append('%s %s: max_rel_err %s > 1e-8' % (r['variant'], r['kind'], e))
    # the error rule's column (bench.h: without a cuSPARSE row every tolerance is the floor 1e-10), the pointer update
    # (two b/x pairs alternating on every path row) and the warm-up before the timed setups
    if r.get('tol') in ('', None) or abs(float(r['tol']) - 1e-10) > 1e-14:
        bad.append('%s %s: tol %s (expected 1e-10 without cuSPARSE)' % (r['variant'], r['kind'], r.get('tol')))
    elif e not in ('', None) and not float(e) <= float(r['tol']):
        bad.append('%s %s: max_rel_err %s above its tol %s' % (r['variant'], r['kind'], e, r['tol']))
    if r['variant'].endswith('-host') and r['variant'] != 'matsolve-sptrsv-host' and r.get('ptr_update') != '1':
        bad.append('%s %s: ptr_update %s (expected 1: -bench_ptr_update is on by default)' % (r['variant'], r['kind'], r.get('ptr_update')))
    if r.get('warmed_up') != '1':
        bad.append('%s %s: warmed_up %s (expected 1: -bench_setup_warmup is on by default)' % (r['variant'], r['kind'], r.get('warmed_up')))
m = re.search(r'reference check: .* = (\S+) for x', open(sys.argv[2]).read())
if not m:
    bad.append('no "reference check" line')
if not re.search(r'error rule: .* 0 of \d+ rows FAILED', open(sys.argv[2]).read()):
    bad.append('no "error rule: ... 0 of N rows FAILED" line')
elif re.search(r'nd_(lu|chol|superlu)', rows[0]['label']) and not float(m.group(1)) <= 1e-12:
    bad.append('the reference does not solve A (exact factor): relative residual %s' % m.group(1))
if re.search(r'nd_(chol|superlu)', rows[0]['label']) and not any(r['variant'] == 'matsolve-sptrsv-host' for r in rows):
    bad.append('no matsolve-sptrsv-host row (MatSolve through the permuted direct factor)')
print('%d rows checked' % len(rows))
for b in bad:
    print('FAIL: ' + b)
sys.exit(1 if bad else 0)
PY
}
run_test bench/host-paths-err-nd-lu bench_err_case lap3d7_8_nd_lu -lap3d 8x8x8 -stencil 7 -bench_levels 100000 -bench_ordering nd -bench_pinv_fill 1,4
# -bench_factor cholesky|lu: CHOLMOD's and SuperLU's factors, whose permutations (postordering, pivoting) MatSolve's row
# and the reference residual undo (a wrong permutation fails both: MatSolve's error and the residual are then O(1))
run_test bench/host-paths-err-nd-chol bench_err_case lap3d7_8_nd_chol -lap3d 8x8x8 -stencil 7 -bench_factor cholesky -bench_ordering nd -bench_pinv_fill 1,4
run_test bench/host-paths-err-nd-superlu bench_err_case lap3d7_8_nd_superlu -lap3d 8x8x8 -stencil 7 -bench_factor lu -bench_ordering nd
run_test bench/host-paths-err-ilu0 bench_err_case lap2d5_20x20 -lap2d 20x20 -stencil 5 -bench_pinv_fill 1,4
# -bench_factor icc: the plugin's ICC(k) (MatICCFactorSymbolic), its L and U = D L^T solved by every path's host executor
bench_icc_case() {
  bench_err_case lap3d7_8_icc1 -lap3d 8x8x8 -stencil 7 -bench_factor icc -bench_levels 1 -bench_pinv_fill 1,4 || return 1
  grep -q '^ICC(1): nnz(L) = ' "$OUT/bench-lap3d7_8_icc1.out" || fail "bench did not make the ICC(1) factor" || return 1
}
run_test bench/host-paths-err-icc1 bench_icc_case
# -fbin: a PETSc binary matrix written by a tutorial (-ksp_view_mat binary:FILE; the device harness does it with ksp
# ex56, run-supernodal-pinv-device.sh's ex56=NE), here ex2's 12 x 10 Laplacian: its exact LU under nested dissection
bench_fbin_case() {
  local bin=$OUT/ex2-12x10.bin
  need_file "$OUT/bin/ex2" "see the build/programs test" || return 1
  prun "$OUT/write.out" "$OUT/bin/ex2" -m 12 -n 10 -ksp_max_it 1 -ksp_view_mat "binary:$bin" || fail "ex2 could not write its matrix" || return 1
  bench_err_case ex2_12x10_nd_lu -fbin "$bin" -bench_levels 100000 -bench_ordering nd -bench_pinv_fill 1,4 || return 1
  grep -q "bench ex2_12x10_nd_lu: n = 120, nnz(A) = 556" "$OUT/bench-ex2_12x10_nd_lu.out" || fail "bench did not read the 120 x 120 matrix with 556 entries (5 x 120 - 2 x 12 - 2 x 10)" || return 1
}
run_test bench/fbin-ex2-nd-lu bench_fbin_case
# -csv: a file that holds another header (an older bench's columns) is refused before the run, and left as it was
bench_csv_header_case() {
  local csv=$OUT/bench-old-header.csv
  need_file examples/benchmarks/bench "make examples" || return 1
  printf 'label,kind,variant\nx,L,y\n' >"$csv"
  if examples/benchmarks/bench -lap2d 8x8 -stencil 5 -csv "$csv" >"$OUT/bench-old-header.out" 2>&1; then fail "bench appended to a CSV with another header"; return 1; fi
  grep -q "not this program's header" "$OUT/bench-old-header.out" || fail "no message about the CSV header" || return 1
  [ "$(wc -l <"$csv")" = 2 ] || fail "the CSV was changed" || return 1
}
run_test bench/csv-header-mismatch bench_csv_header_case
# the table scripts apply bench's error rule (examples/benchmarks/bench_rule.py): on the recorded supernodal defaults run
# (an older CSV: the rule computed from its cuSPARSE rows) pinv fill 4 on nnc1374's exact LU (max_rel_err 7.2e-2, cuSPARSE's
# 7.8e-6) is FAILED, not a 15.75x win, and left out of the geometric mean and the count of wins
bench_table_rule_case() {
  local out=$OUT/variant-table-rule.md
  python3 examples/benchmarks/variant-table.py docs/perf-data/supernodal-defaults-h200.csv --variants supernodal-auto,pinv-fill4 >"$out" || fail "variant-table.py failed" || return 1
  grep -q '^| nnc1374_nd_lu | 1.13x | FAILED (err 7.2e-02 > tol 7.8e-04) |$' "$out" || fail "nnc1374_nd_lu pinv-fill4 is not FAILED" || return 1
  grep -q '^| faster than cuSPARSE | 14 of 14 | 13 of 14 |$' "$out" || fail "the FAILED cell counted as a win" || return 1
  grep -q '^| failed the error rule | 0 | 1 |$' "$out" || fail "no count of the failures" || return 1
  grep -q '^Error rule: ' "$out" || fail "the table does not state the rule" || return 1
  grep -q 'cuSPARSE NOT warmed up' "$out" || fail "the table does not say cuSPARSE was not warmed up (a CSV without warmed_up)" || return 1
}
run_test bench/table-error-rule bench_table_rule_case
# variant-table.py --path-us: the time over max(levels x US, the bandwidth bound), from the CSV's levels_L, median_ms and
# bound_pct; on run 21c's lower triangles 128^3 is 2.34x its path bound and 256^3 2.78x its bandwidth bound
bench_table_path_case() {
  local out=$OUT/variant-table-path.md
  python3 examples/benchmarks/variant-table.py docs/perf-data/syncfree-runs-run21c-autopair.csv --kind L --variants syncfree-runs-csr --path-us 0.217 >"$out" || fail "variant-table.py --path-us failed" || return 1
  grep -q '^| lap3d7_128 | 4.13x (2.34x its path bound) |$' "$out" || fail "128^3: not 2.34x its path bound (382 levels x 0.217 us against 0.1944 ms)" || return 1
  grep -q '^| lap3d7_256 | 4.14x (2.78x its bandwidth bound) |$' "$out" || fail "256^3: not 2.78x its bandwidth bound" || return 1
  grep -q '^Cells: .*max(levels x 0.217 us' "$out" || fail "the table does not state the bound" || return 1
}
run_test bench/table-path-bound bench_table_path_case
# trsv3d-table.py --compact: one row per kernel, cuSPARSE SpSV over it per grid, read from the CSV; a kernel whose error
# is above the scan's rounding is FAILED, not a speed-up
# trsv3d-table.py --steps: the "# steps" lines of a TRSV3D_TRACE run (trsv3d_trace_host.h), one row per kernel and grid
bench_trsv3d_steps_case() {
  local out=$OUT/trsv3d-steps.md
  python3 examples/benchmarks/trsv3d-table.py docs/perf-data/trsv3d-breakdown-run5-steps.csv --steps >"$out" || fail "trsv3d-table.py --steps failed" || return 1
  grep -q '^| 128^3 | win1x1 | 0.860 (0.768 / 0.768 / 1.024 / 1.280) | 0.964 (257) | 247.6 | 221.1 | 265.0 (8) |$' "$out" || fail "128^3 win1x1's steps are not the CSV's" || return 1
  [ "$(grep -c '^| [0-9]*^3 |' "$out")" = 12 ] || fail "not 12 rows (3 kernels x 4 grids)" || return 1
  ! python3 examples/benchmarks/trsv3d-table.py docs/perf-data/trsv3d-breakdown-run3f-ablation.csv --steps >/dev/null 2>&1 || fail "a CSV without steps lines gave a table" || return 1
}
run_test bench/trsv3d-steps bench_trsv3d_steps_case
bench_trsv3d_compact_case() {
  local out=$OUT/trsv3d-compact.md bad=$OUT/trsv3d-bad.csv
  python3 examples/benchmarks/trsv3d-table.py docs/perf-data/trsv3d-breakdown-run3f-ablation.csv --compact >"$out" || fail "trsv3d-table.py --compact failed" || return 1
  grep -q '^| kernel | 128^3 | 192^3 |$' "$out" || fail "no grid columns" || return 1
  grep -q '^| rf-nobr | 2.86x | 3.46x |$' "$out" || fail "rf-nobr's ratios are not the CSV's" || return 1
  ! grep -q '^| cusparse ' "$out" || fail "the reference listed as a kernel" || return 1
  printf '%s\n' "# test" "N,n,nnz,levels,kernel,ms,vs_cusparse,rel_err,polls_per_row,handoff_us,bound_bw_ms,bound_path_ms,bw_gbs" \
    "8,512,1344,22,cusparse,0.01,1.000,1e-16,0,0.2,0.001,0.004,4000" "8,512,1344,22,good,0.005,2.000,2e-16,0,0.2,0.001,0.004,4000" \
    "8,512,1344,22,bad,0.001,10.000,3e-05,0,0.2,0.001,0.004,4000" >"$bad"
  python3 examples/benchmarks/trsv3d-table.py "$bad" --compact >"$out" || fail "trsv3d-table.py --compact failed on the made-up CSV" || return 1
  grep -q '^| good | 2.00x |$' "$out" || fail "the good kernel's ratio" || return 1
  grep -q '^| bad | FAILED (err 3.0e-05) |$' "$out" || fail "a kernel off by 3e-5 is not FAILED" || return 1
}
run_test bench/trsv3d-table-compact bench_trsv3d_compact_case
