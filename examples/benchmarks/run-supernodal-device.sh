#!/usr/bin/env bash
# The supernodal path (paper 002) against cuSPARSE SpSV and the other paths, in one device call:
#
#   device run: bash examples/benchmarks/run-supernodal-device.sh        (carry: .petsc-cuda)
#
# Builds the plugin and bench (as run-device.sh does), then times bench on the exact LU factors of 3-D 7-point
# Laplacians in nested-dissection order (ILU(k) with k above any fill level = the exact LU; wide dense supernodes,
# the target of paper 002: sptrsv_supernodal >= 5x cuSPARSE), and on the ILU(0) factor of a 3-D Laplacian in the
# natural order (supernodes of width ~1: the case the automatic choice must avoid). bench compares every variant with
# the host reference (max_rel_err column) and with cuSPARSE (vs_cusparse column). The supernodal variants (bench.c):
# supernodal-auto (TRSV), -pull, -inv (inverted diagonal blocks, split levels where the cost model says), -inv-nosplit
# (inverted, one block per supernode and cuBLAS for the wide ones), -merge-relax. Before the timings, the host-side cost
# model of each grid (bench -bench_supernodal_estimate -bench_supernodal_detail) goes to logs/estimate-G.log. Writes
# $OUT/supernodal.csv, $OUT/summary.txt and $OUT/logs.tar.gz; the summary ends with one line per grid, "target 5x: PASS"
# or "FAIL" for supernodal-inv's L + U against cuSPARSE SpSV (the run's exit status is about the steps, not the target).
#   SN_GRIDS="24 32 40"   exact-LU grids (n^3); SN_ILU0_GRID=64; SN_PATHS (default: level, syncfree, supernodal and pinv
#   with fill 1 and 4); BENCH_ARGS (extra bench arguments)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${BENCH_BUDGET:-540}
OUTDIR=${OUT:-$ROOT/build/bench-out}
WORK=$ROOT/build/bench
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
CSV=$OUTDIR/supernodal.csv
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
finish() {
  echo "---------------- supernodal benchmark summary ($(elapsed) s) ----------------"
  cat "$SUMMARY"
  [ -f "$CSV" ] && python3 - "$CSV" "$ROOT/examples/benchmarks" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[2])
import bench_rule  # bench's error rule (the CSV's tol column): a FAILED row meets no target
rows = bench_rule.annotate(list(csv.DictReader(open(sys.argv[1]))))
for r in rows:
    if r['kind'] in ('L', 'LU'):
        print('%-28s %-3s %-36s %10s ms  vs_cusparse %-8s err %s%s' % (r['label'], r['kind'], r['variant'], r['median_ms'], r['vs_cusparse'], r['max_rel_err'], '  ' + bench_rule.fail_cell(r) if bench_rule.failed(r) else ''))
for r in rows:
    if r['kind'] == 'LU' and r['variant'] == 'supernodal-inv' and '_nd_lu' in r['label']:
        if bench_rule.failed(r):
            print('%s: supernodal-inv L+U %s, target 5x: FAIL' % (r['label'], bench_rule.fail_cell(r)))
            continue
        try:
            x = float(r['vs_cusparse'])
            print('%s: supernodal-inv L+U %.2fx cuSPARSE SpSV, target 5x: %s' % (r['label'], x, 'PASS' if x >= 5 else 'FAIL'))
        except ValueError:
            print('%s: supernodal-inv L+U vs cuSPARSE unknown (%s), target 5x: FAIL' % (r['label'], r['vs_cusparse']))
PY
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  [ "$FAILED" = 0 ]
  exit $?
}
device_init
rm -f "$CSV"
device_prepare || finish
BENCH=$WORK/bench
device_build_bench bench BENCH_SRC || finish
PATHS=${SN_PATHS:-"-bench_paths level,syncfree,supernodal,pinv -bench_pinv_fill 1,4"}
for g in ${SN_GRIDS:-24 32 40}; do
  step "estimate-$g" 0 60 "$BENCH" -lap3d "${g}x${g}x${g}" -stencil 7 -bench_levels 100000 -bench_ordering nd -label "lap3d7_${g}_nd_lu" -bench_supernodal_estimate -bench_supernodal_detail
done
for g in ${SN_GRIDS:-24 32 40}; do
  # shellcheck disable=SC2086 # BENCH_ARGS, PATHS: words
  step "bench-lu-nd-$g" 1 200 "$BENCH" -lap3d "${g}x${g}x${g}" -stencil 7 -bench_levels 100000 -bench_ordering nd -label "lap3d7_${g}_nd_lu" $PATHS -csv "$CSV" -max_time 0.2 ${BENCH_ARGS:-}
done
g=${SN_ILU0_GRID:-64}
# shellcheck disable=SC2086
step "bench-ilu0-$g" 1 120 "$BENCH" -lap3d "${g}x${g}x${g}" -stencil 7 -label "lap3d7_${g}_ilu0" $PATHS -csv "$CSV" -max_time 0.2 ${BENCH_ARGS:-}
finish
