#!/usr/bin/env bash
# sptrsv_supernodal and sptrsv_pinv (fill 1 and fill 4) side by side with cuSPARSE SpSV on every shared matrix and the
# bench's standard set (the matrices the automatic choice's model is fitted on), in one device call:
#
#   device run: BENCH_BUDGET=520 bash examples/benchmarks/run-supernodal-pinv-device.sh        (carry: .petsc-cuda)
#
# Per matrix one bench process (-bench_paths syncfree,supernodal,pinv -bench_syncfree asap-csr -bench_pinv_fill 1,4: the
# sync-free default as the yardstick of the other paths, supernodal's four modes, pinv's two fills, cuSPARSE SpSV in the
# same process), cheapest first: the shared matrices (tests/data/matrices), the exact ND LU factors (SN_GRIDS, as
# run-supernodal-device.sh), the strong-locality matrices, ex2's matrix, the chain, then the Laplacians of paper 000 (the
# largest, where pinv's host setup is longest), each step stopped at SN_STEP_TIMEOUT seconds and none started after the
# budget. Self-check: PASS iff every step that ran passed and no row of ours failed bench's error rule (its tol column,
# examples/benchmarks/bench_rule.py: max(1e-10, 10 x cuSPARSE SpSV's error on the same triangles) for a substitution, 100 x
# for inverted blocks; bench's error column is valid on every row since it reads the factor's current values; PETSc's
# cusparse row, its own factor, is reported only); a failing row is never a path's best variant nor the best path of the
# automatic choice's comparison. Writes $OUT/supernodal-pinv.csv, summary.txt, and
# logs.tar.gz (every log); prints per matrix the speed-up of each path's best variant over cuSPARSE (L then U), and the
# matrices where supernodal or pinv (each at its best variant) is slower than cuSPARSE.
#   SN_SETS="shared nd ilu0 locality ex2 chain lap" (the sets to run, in this order; also ex56=NE: the exact LU of ksp
#   ex56's elasticity operator with NE elements per side, its source in .carry/tutorials; shared-lu: the exact LU of each
#   shared matrix under nested dissection, labels NAME_nd_lu; lap4m: only the six 4M-row grids of lap; mtx=NAME: one shared
#   matrix, shared-lu=NAME: its exact LU; chol: CHOLMOD's Cholesky of the 3-D Laplacians SN_CHOL_GRIDS="48 64" under nested
#   dissection; ex56chol=NE: of ex56's operator; lap2d=NXxNY:S, lap3d=NXxNYxNZ:S: one grid of stencil S), SN_BENCH (the bench's path arguments, default
#   "-bench_paths syncfree,supernodal,pinv -bench_syncfree asap-csr -bench_pinv_fill 1,4"), SN_GRIDS="24 32", SN_STEP_TIMEOUT=90, BENCH_MAX_TIME=0.1, BENCH_ARGS (extra bench arguments; with
#   "-bench_matsolve_type sptrsv" each matrix also times the automatic choice's MatSolve, and the summary scores it
#   against the best path of the same process and cuSPARSE: within 10% of the best, slower than cuSPARSE)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${BENCH_BUDGET:-520}
OUTDIR=${OUT:-$ROOT/build/bench-out}
WORK=$ROOT/build/bench
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
CSV=$OUTDIR/supernodal-pinv.csv
MT=${BENCH_MAX_TIME:-0.1}
TMO=${SN_STEP_TIMEOUT:-90}
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
finish() {
  echo "---------------- supernodal/pinv vs cuSPARSE ($(elapsed) s) ----------------"
  cat "$SUMMARY"
  if [ -f "$CSV" ]; then
    python3 - "$CSV" "$ROOT/examples/benchmarks" <<'PY' || FAILED=1
import csv, sys
sys.path.insert(0, sys.argv[2])
import bench_rule  # bench's error rule (the CSV's tol column)
rows = bench_rule.annotate(list(csv.DictReader(open(sys.argv[1]))))
# PETSc's cusparse MatSolve solves PETSc's own GPU ILU(0) (cuSPARSE's, with its own zero-pivot handling, not our
# MatFactorInfo shift): a different factor on the matrices that need the shift, so its column is reported, not checked
own = lambda r: r['variant'] != 'matsolve-petsc-cusparse'
bad = [r for r in rows if own(r) and bench_rule.failed(r)]
for r in rows:
    if not own(r) and bench_rule.failed(r):
        print('note: %s %s %s: max_rel_err %s (PETSc factors on its own: not checked)' % (r['label'], r['kind'], r['variant'], r['max_rel_err']))
for r in bad:
    print('ERROR: %s %s %s: max_rel_err %s > tol %.2g%s' % (r['label'], r['kind'], r['variant'], r['max_rel_err'], r['_tol'], ' (inverted blocks of an ill-conditioned factor)' if '-inv' in r['variant'] or r['variant'].startswith('pinv') else ''))
labels = list(dict.fromkeys(r['label'] for r in rows))
fam = {'syncfree': 'syncfree-', 'supernodal': 'supernodal-', 'pinv1': 'pinv-fill1', 'pinv4': 'pinv-fill4'}
print('%-28s %10s %10s %10s %10s   (cuSPARSE time / best variant time, L then U)' % ('matrix', *fam))
slow = {k: [] for k in fam}
for lab in labels:
    lu = [r for r in rows if r['label'] == lab and r['kind'] == 'LU' and r['vs_cusparse'] and not bench_rule.failed(r)]  # a FAILED row is no best variant
    cells = []
    for k, pre in fam.items():
        v = [float(r['vs_cusparse']) for r in lu if r['variant'].startswith(pre)]
        cells.append('%10.2f' % max(v) if v else '%10s' % '-')
        if v and max(v) < 1.0:
            slow[k].append(lab)
    print('%-28s %s' % (lab, ' '.join(cells)))
for k in ('supernodal', 'pinv1', 'pinv4'):
    print('%s slower than cuSPARSE on %d of %d matrices: %s' % (k, len(slow[k]), len(labels), ', '.join(slow[k]) or '-'))
# with BENCH_ARGS="-bench_matsolve_type sptrsv": the automatic choice's own MatSolve (the GPU's model picks per triangle;
# bench's log has its -ksp_view lines) against the best path of the same process and cuSPARSE (L then U)
auto = [r for r in rows if r['variant'].startswith('matsolve-sptrsv_auto') and r['kind'] == 'LU' and r['median_ms']]
if auto:
    ok, slow = 0, []
    print('%-28s %12s %30s %8s %8s   (automatic choice: MatSolve L then U)' % ('matrix', 'auto ms', 'best path (ms)', '/ best', 'vs cus'))
    for r in auto:
        lab = r['label']
        lu = {x['variant']: float(x['median_ms']) for x in rows if x['label'] == lab and x['kind'] == 'LU' and x['median_ms'] and own(x) and not bench_rule.failed(x) and not x['variant'].startswith(('matsolve', 'host', 'cusparse'))}
        cus = [float(x['median_ms']) for x in rows if x['label'] == lab and x['kind'] == 'LU' and x['variant'] == 'cusparse-spsv' and x['median_ms']]
        if not lu:
            continue
        best, t = min(lu, key=lu.get), float(r['median_ms'])
        if bench_rule.failed(r):  # the automatic choice broke the error rule: never within 10%, always behind cuSPARSE
            slow.append(lab)
            print('%-28s %12.4g %30s %8s %8s' % (lab, t, '%s (%.4g)' % (best, lu[best]), '-', bench_rule.fail_cell(r)))
            continue
        ok += t <= 1.10 * lu[best]
        if cus and t > cus[0]:
            slow.append(lab)
        print('%-28s %12.4g %30s %8.2f %8s' % (lab, t, '%s (%.4g)' % (best, lu[best]), t / lu[best], '%.2f' % (cus[0] / t) if cus else '-'))
    print('automatic choice within 10%% of the best path on %d of %d matrices; slower than cuSPARSE on %d: %s' % (ok, len(auto), len(slow), ', '.join(slow) or '-'))
print('max_rel_err check: %s (%d rows, %d of ours above their tol: bench\'s error rule)' % ('PASS' if not bad else 'FAIL', len(rows), len(bad)))
print('\n'.join(bench_rule.header_lines(rows)))
sys.exit(1 if bad else 0)
PY
  fi
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  if [ "$FAILED" = 0 ]; then echo "RESULT: PASS"; else echo "RESULT: FAIL"; fi
  [ "$FAILED" = 0 ]
  exit $?
}
device_init
rm -f "$CSV"
device_prepare || finish
BENCH=$WORK/bench
device_build_bench bench BENCH_SRC || finish
SETS=${SN_SETS:-shared nd ilu0 locality ex2 chain lap}
# shellcheck disable=SC2206 # SN_BENCH: words
P=(${SN_BENCH:--bench_paths syncfree,supernodal,pinv -bench_syncfree asap-csr -bench_pinv_fill 1,4} -csv "$CSV" -max_time "$MT")
BW=()
case_() { # case_ NAME BENCH-ARGS...: one matrix; the first run's measured bandwidth is passed to the others
  local name=$1 bw
  shift
  # shellcheck disable=SC2086 # BENCH_ARGS: words
  step "$name" 1 "$TMO" "$BENCH" "$@" "${P[@]}" "${BW[@]}" ${BENCH_ARGS:-}
  if [ ${#BW[@]} = 0 ]; then bw=$(device_bandwidth "$LOGDIR/$name.log"); [ -n "$bw" ] && BW=(-bw_gbs "$bw"); fi
  return 0
}
has_set() { case " $SETS " in *" $1 "*) return 0 ;; esac; return 1; }
for w in $SETS; do # lap2d=NXxNY:S, lap3d=NXxNYxNZ:S: one grid
  case "$w" in
    lap2d=* | lap3d=*) g=${w#*=}; d=${w%%=*}; case_ "$d${g##*:}-${g%%:*}" "-$d" "${g%%:*}" -stencil "${g##*:}" ;;
  esac
done
if [ -n "$MM_SRC" ] && [ -d "$MATDIR" ]; then
  for w in $SETS; do # mtx=NAME, shared-lu=NAME: one matrix
    case "$w" in
      mtx=*) case_ "mtx-${w#mtx=}" -mtx "$MATDIR/${w#mtx=}.mtx.gz" ;;
      shared-lu=*) case_ "mtx-${w#shared-lu=}-nd-lu" -mtx "$MATDIR/${w#shared-lu=}.mtx.gz" -bench_levels 100000 -bench_ordering nd -label "${w#shared-lu=}_nd_lu" ;;
    esac
  done
  if has_set shared; then for f in "$MATDIR"/*.mtx.gz; do case_ "mtx-$(basename "$f" .mtx.gz)" -mtx "$f"; done; fi
  # the exact LU factor of each shared matrix (ILU with every fill level, under nested dissection: the issue's LU factors)
  if has_set shared-lu; then for f in "$MATDIR"/*.mtx.gz; do b=$(basename "$f" .mtx.gz); case_ "mtx-$b-nd-lu" -mtx "$f" -bench_levels 100000 -bench_ordering nd -label "${b}_nd_lu"; done; fi
fi
if has_set nd; then for g in ${SN_GRIDS:-24 32}; do case_ "nd-lu-$g" -lap3d "${g}x${g}x${g}" -stencil 7 -bench_levels 100000 -bench_ordering nd -label "lap3d7_${g}_nd_lu"; done; fi
# chol: CHOLMOD's supernodal Cholesky factor of the same Laplacians under nested dissection (bench -bench_factor
# cholesky; CHOLMOD calls the GPU machine's OpenBLAS: seconds at 64^3), labels lap3d7_G_nd_chol
if has_set chol; then for g in ${SN_CHOL_GRIDS:-48 64}; do case_ "nd-chol-$g" -lap3d "${g}x${g}x${g}" -stencil 7 -bench_factor cholesky -bench_ordering nd -label "lap3d7_${g}_nd_chol"; done; fi
# ex56=NE: the exact LU (nested dissection) of ksp ex56's 3-D elasticity operator, NE elements per side (3 (NE+1)^3
# rows), written by the tutorial (-ksp_view_mat binary) and read by bench -fbin (the tutorial's source: .carry/tutorials)
# ex56chol=NE: the same operator's Cholesky factor (CHOLMOD, as chol)
for w in $SETS; do
  case "$w" in
    ex56=* | ex56chol=*)
      ne=${w#*=}
      [ -x "$WORK/ex56" ] || device_build_tutorial ex56 || continue
      [ -f "$WORK/ex56_ne$ne.bin" ] || step "ex56-ne$ne-write" 1 120 "$WORK/ex56" -ne "$ne" -alpha 1e-3 -two_solves false -ksp_type preonly -pc_type none -ksp_max_it 1 -ksp_view_mat "binary:$WORK/ex56_ne$ne.bin" || continue
      if [ "${w%%=*}" = ex56 ]; then case_ "ex56-ne$ne-nd-lu" -fbin "$WORK/ex56_ne$ne.bin" -bench_levels 100000 -bench_ordering nd -label "ex56_ne${ne}_nd_lu"
      else case_ "ex56-ne$ne-nd-chol" -fbin "$WORK/ex56_ne$ne.bin" -bench_factor cholesky -bench_ordering nd -label "ex56_ne${ne}_nd_chol"; fi
      ;;
  esac
done
has_set ilu0 && case_ ilu0-64 -lap3d 64x64x64 -stencil 7 -label lap3d7_64_ilu0
if has_set locality; then
  for m in "-banded 100000x2" "-banded 100000x8" "-banded 50000x32" "-blockdiag 262144x128" "-blockdiag 1000000x8" "-blockdiag 1000000x32"; do
    # shellcheck disable=SC2086 # m: words
    case_ "$(echo $m | tr -d ' -')" $m
  done
fi
has_set ex2 && case_ ex2-matrix -lap2d 1000x1000 -stencil 5 -label lap2d5_1000x1000_ex2
has_set chain && case_ chain -lap2d 200000x1 -stencil 5 -label chain_200000
# the six 4M-row grids alone (locality run 3 left them untimed)
if has_set lap4m; then
  for g in 1024x4096 512x8192; do for s in 5 9; do case_ "lap2d$s-$g" -lap2d "$g" -stencil "$s"; done; done
  for s in 7 27; do case_ "lap3d$s-64x128x256" -lap3d 64x128x256 -stencil "$s"; done
fi
if has_set lap; then
  for g in 256x16384 128x32768 512x8192 1024x4096 2048x2048; do for s in 5 9; do case_ "lap2d$s-$g" -lap2d "$g" -stencil "$s"; done; done
  for g in 32x32x2048 32x64x1024 64x64x512 64x128x256 128x128x128; do for s in 7 27; do case_ "lap3d$s-$g" -lap3d "$g" -stencil "$s"; done; done
fi
finish
