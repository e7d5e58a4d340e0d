#!/usr/bin/env bash
# Issue 33: the sync-free path's runs dispatch (-mat_sptrsv_dispatch runs: a window of consecutive rows per warp, the
# dependency on the row before solved inside the warp by a scan) against its default level dispatch and cuSPARSE SpSV,
# checked first, in one device call:
#
#   device run: bash examples/benchmarks/run-syncfree-runs-device.sh        (carry: .petsc-cuda)
#
#   1. builds the plugin, bench and the fuzz check;
#   2. fuzz-syncfree-runs: every sync-free variant (runs among them) against the host backend on RUNS_FUZZ random
#      triangles with a watchdog (tests/device/check_fuzz -only_path syncfree); then compute-sanitizer memcheck,
#      racecheck and synccheck on RUNS_SAN small cases of the same; the device check of the analysis (tests/device/check_analysis: the
#      runs dispatch's pattern built on the GPU against the host setup's, bit for bit; RUNS_ANALYSIS=0: skipped);
#   3. bench (examples/benchmarks/bench.c, ILU(k) and ICC(k) factors in natural order, the error rule of its header) on 3-D
#      7-point grids (RUNS_GRIDS), 27-point, ILU(1)/ILU(2), ICC(0)/ICC(1), elongated boxes and 2-D grids, with the sync-free variants
#      RUNS_VARIANTS (bench -bench_syncfree) beside cuSPARSE SpSV and PETSc's cusparse MatSolve.
# Output ($OUT, default build/runs-out): runs-bench.csv (bench's CSV), runs-table.md (variant-table.py), summary.txt.
#
# Knobs: RUNS_SETS ("grids"; "shared", "local": the matrices of tests/data/matrices, banded and block-diagonal triangles; see
# CASES below), RUNS_BUDGET (540 s), RUNS_FUZZ (400), RUNS_SAN (12; RUNS_SANITIZE=0: no sanitizer steps), RUNS_ANALYSIS_RANDOM (100), RUNS_VARIANTS ("asap-csr,runs-csr"), RUNS_CASES (names
# of the bench cases below, all by default), RUNS_MAX_TIME (0.25 s of timed solves per variant).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
OUTDIR=${OUT:-$ROOT/build/runs-out}
WORK=$ROOT/build/runs
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
BUDGET=${RUNS_BUDGET:-540}
CSV=$OUTDIR/runs-bench.csv
VARIANTS=${RUNS_VARIANTS:-asap-csr,runs-csr}
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"

finish() {
  { python3 "$ROOT/examples/benchmarks/variant-table.py" "$CSV" --prefix syncfree- --bound; python3 "$ROOT/examples/benchmarks/variant-table.py" "$CSV" --kind LU --prefix syncfree- --bound; } >"$OUTDIR/runs-table.md" 2>&1 || true
  echo "---------------- runs dispatch ($(elapsed) s, budget $BUDGET s) ----------------"
  cat "$SUMMARY"
  cat "$OUTDIR/runs-table.md"
  exit "$FAILED"
}

device_init
rm -f "$CSV"
device_prepare || finish
device_build_bench bench BENCH_SRC || finish
step build-fuzz 1 120 "${MAKE[@]}" tests/device/check_fuzz || finish
FUZZ=$ROOT/tests/device/check_fuzz
step fuzz-syncfree-runs 1 240 "$FUZZ" -only_path syncfree -cases "${RUNS_FUZZ:-400}" -timeout 10
SAN=$CUDA_HOME/bin/compute-sanitizer
if [ -x "$SAN" ] && [ "${RUNS_SANITIZE:-1}" = 1 ]; then
  step sanitizer-memcheck-runs 1 150 "$SAN" --tool memcheck --error-exitcode 97 "$FUZZ" -only_path syncfree -cases "${RUNS_SAN:-12}" -big_every 0 -timeout 60
  step sanitizer-racecheck-runs 1 150 "$SAN" --tool racecheck --error-exitcode 97 "$FUZZ" -only_path syncfree -cases "${RUNS_SAN:-12}" -big_every 0 -timeout 60
  step sanitizer-synccheck-runs 1 150 "$SAN" --tool synccheck --error-exitcode 97 "$FUZZ" -only_path syncfree -cases "${RUNS_SAN:-12}" -big_every 0 -timeout 60
fi
# the runs dispatch's setup on the GPU (syncfree_runs_setup.cu) against the host setup: arrays bit for bit, solutions
if [ "${RUNS_ANALYSIS:-1}" = 1 ]; then
  step build-analysis 1 120 "${MAKE[@]}" tests/device/check_analysis && step check-analysis 1 200 "$ROOT/tests/device/check_analysis" -matdir "$ROOT/tests/data/matrices" -random "${RUNS_ANALYSIS_RANDOM:-100}"
fi

BENCH=$WORK/bench
BW_ARGS=()
# name | bench arguments
CASES=(
  "lap3d7_64|-lap3d 64x64x64 -stencil 7"
  "lap3d7_96|-lap3d 96x96x96 -stencil 7"
  "lap3d7_100|-lap3d 100x100x100 -stencil 7"
  "lap3d7_112|-lap3d 112x112x112 -stencil 7"
  "lap3d7_128|-lap3d 128x128x128 -stencil 7"
  "lap3d7_96_ilu1|-lap3d 96x96x96 -stencil 7 -bench_levels 1"
  "lap3d7_96_ilu2|-lap3d 96x96x96 -stencil 7 -bench_levels 2"
  "lap3d27_64|-lap3d 64x64x64 -stencil 27"
  "lap3d7_128x128x48|-lap3d 128x128x48 -stencil 7"
  "lap3d7_160|-lap3d 160x160x160 -stencil 7"
  "lap3d7_192|-lap3d 192x192x192 -stencil 7"
  "lap3d7_256x256x64|-lap3d 256x256x64 -stencil 7"
  "lap3d7_96x96x384|-lap3d 96x96x384 -stencil 7"
  "lap2d5_1000|-lap2d 1000x1000 -stencil 5"
  "lap2d5_1025x1000|-lap2d 1025x1000 -stencil 5"
  "lap3d7_256|-lap3d 256x256x256 -stencil 7"
  "lap3d7_128_icc0|-lap3d 128x128x128 -stencil 7 -bench_factor icc"
  "lap3d7_96_icc1|-lap3d 96x96x96 -stencil 7 -bench_factor icc -bench_levels 1"
  "lap3d27_64_icc0|-lap3d 64x64x64 -stencil 27 -bench_factor icc"
  "lap3d27_128|-lap3d 128x128x128 -stencil 27"
  "lap3d7_160_ilu1|-lap3d 160x160x160 -stencil 7 -bench_levels 1"
  "lap3d7_128_ilu2|-lap3d 128x128x128 -stencil 7 -bench_levels 2"
)
# RUNS_SETS: "grids" (the cases above, the default), "shared" (every matrix of tests/data/matrices, ILU(0) in natural
# order: the SuiteSparse matrices of ../shared), "local" (banded and block-diagonal triangles: paper 004's strong-locality
# cases); RUNS_CASES then picks among them by name
SETS=" ${RUNS_SETS:-grids} "
SETS=${SETS//,/ } # space- or comma-separated
[[ "$SETS" == *" grids "* ]] || CASES=()
if [[ "$SETS" == *" shared "* ]]; then
  for f in "$ROOT"/tests/data/matrices/*.mtx.gz; do CASES+=("mtx_$(basename "$f" .mtx.gz)|-mtx $f"); done
fi
if [[ "$SETS" == *" local "* ]]; then
  CASES+=("banded2_100000|-banded 100000x2" "banded8_100000|-banded 100000x8" "blockdiag8_1000000|-blockdiag 1000000x8" "blockdiag32_1000000|-blockdiag 1000000x32")
fi
for c in "${CASES[@]}"; do
  IFS='|' read -r name args <<<"$c"
  if [ -n "${RUNS_CASES:-}" ] && ! [[ " $RUNS_CASES " == *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086 # args: words
  step "bench-$name" 1 150 "$BENCH" $args -label "$name" -bench_paths syncfree -bench_syncfree "$VARIANTS" -csv "$CSV" -max_time "${RUNS_MAX_TIME:-0.25}" "${BW_ARGS[@]}"
  if [ ${#BW_ARGS[@]} = 0 ]; then
    bw=$(device_bandwidth "$LOGDIR/bench-$name.log")
    [ -n "$bw" ] && BW_ARGS=(-bw_gbs "$bw")
  fi
  grep -E "^ *$name .*(syncfree|cusparse)" "$LOGDIR/bench-$name.log" | sed 's/  */ /g' | cut -c1-220
done
finish
