#!/usr/bin/env bash
# Gauss-Seidel benchmarks of petsc-sptrsv on a GPU machine (paper 000's Tables 1, 2 and 5; docs/PERFORMANCE.md), in
# one call:
#
#   device run: bash examples/benchmarks/run-gs-device.sh        (carry: .petsc-cuda .carry)
#
# Same machine and set-up as run-device.sh (device-common.sh: the carried CUDA PETSc, relocated; the plugin built with
# make WITH_CUDA=1). It
#   1. builds examples/benchmarks/bench_gs and PETSc's ksp tutorial ex45.c (carried in SPTRSV_TUTORIALS);
#   2. runs bench_gs (one process per matrix: LEVR, LEVC, ELMR, ELMC and the cuSPARSE baseline CUS, side by side) on
#      the 2-D 5/9-point Laplacians of paper 000 (2048x2048 ... 128x32768), appending to gs.csv;
#   3. then the end-to-end runs (below), then bench_gs on the 3-D 7/27-point Laplacians (128x128x128 ... 32x32x2048)
#      and every *.mtx.gz of SPTRSV_MATDIR (this order of priority within the budget);
#   the end-to-end runs: ex45 (GMRES(30), -dm_mat_type aijcusparse -dm_vec_type cuda) once with -pc_type sor (PETSc's MatSOR: on the
#      host for the CUDA matrix type) and once with -pc_type gs (the plugin's GPU sweeps), identical options otherwise
#      (both load the plugin with -dll_append), -log_view -log_view_gpu_time; iterations and times go to gs-e2e.csv;
#   4. writes into $OUT (default build/bench-gs-out): gs.csv, gs-e2e.csv, gs-tables.md (make-performance-md.py gs),
#      summary.txt and logs.tar.gz (every raw log), and prints the summary and the tables last.
# A time budget keeps the whole run inside one device call: no new step starts after GS_BUDGET seconds and a running
# step is stopped at the budget; skipped steps are listed. Exit status 0 iff no step failed (a bench_gs run with a
# wrong or failed variant exits nonzero, so its step fails).
#
# Knobs (environment):
#   GS_BUDGET=420          seconds after which no step starts
#   GS_MAX_TIME=0.25       seconds of timed iterations per variant (bench_gs -max_time)
#   GS_REPS=200            timed iterations per variant at most (bench_gs -reps)
#   GS_E2E_GRIDS="129 65"  ex45 grids (n^3), in this order
#   GS_E2E_MAXIT=0         -ksp_max_it of both ex45 runs (0: ex45's own tolerance)
#   GS_E2E_GPU=1           0: host matrix and vector types (smoke tests without a GPU)
#   GS_QUICK=0             1: small grids only (smoke test of the script)
#   GS_GRIDS2, GS_GRIDS3   replace the 2-D / 3-D grid lists (space-separated, may be empty; GS_E2E_GRIDS="" skips ex45)
#   and those of device-common.sh (PETSC_DIR, SPTRSV_MATDIR, SPTRSV_TUTORIALS, CUDA_HOME)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${GS_BUDGET:-420}
OUTDIR=${OUT:-$ROOT/build/bench-gs-out}
WORK=$ROOT/build/bench-gs
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
CSV=$OUTDIR/gs.csv
E2E_CSV=$OUTDIR/gs-e2e.csv
MD=$OUTDIR/gs-tables.md
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
device_init
rm -f "$CSV" "$E2E_CSV" "$MD" "$OUTDIR/logs.tar.gz"

MAX_TIME=${GS_MAX_TIME:-0.25}
REPS=${GS_REPS:-200}
E2E_GRIDS=${GS_E2E_GRIDS:-129 65}
E2E_MAXIT=${GS_E2E_MAXIT:-0}
E2E_GPU=${GS_E2E_GPU:-1}
QUICK=${GS_QUICK:-0}

finish() {
  local py=$ROOT/examples/benchmarks/make-performance-md.py machine
  say "tables"
  machine=$(device_machine)
  echo "$machine" >"$LOGDIR/machine.txt"
  python3 "$py" e2e --csv "$E2E_CSV" "$LOGDIR"/e2e-*.log >"$LOGDIR/e2e-parse.log" 2>&1 || echo "e2e parse failed: see e2e-parse.log" | tee -a "$LOGDIR/run.log"
  python3 "$py" gs --csv "$CSV" --e2e "$E2E_CSV" --machine "$machine" --command "bash examples/benchmarks/run-gs-device.sh" >"$MD" 2>"$LOGDIR/tables.log" || { echo "table generation failed:"; cat "$LOGDIR/tables.log"; }
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  echo
  echo "---------------- Gauss-Seidel benchmark summary ($(elapsed) s, budget $BUDGET s) ----------------"
  printf '%-40s %-16s %7s\n' step status time
  cat "$SUMMARY"
  echo "files in $OUTDIR: $(cd "$OUTDIR" && find . -maxdepth 1 -type f -printf '%f ')"
  echo
  cat "$MD" 2>/dev/null
  if [ "$FAILED" = 0 ]; then echo "GS BENCHMARKS: DONE"; else echo "GS BENCHMARKS: SOME STEPS FAILED (see the summary)"; fi
  [ "$FAILED" = 0 ]
  exit $?
}

# ---- environment, carried PETSc, plugin; bench_gs and ex45 -----------------------------------------------
device_prepare || finish
BENCH_GS=$WORK/bench_gs
device_build_bench bench_gs BENCH_GS_SRC || finish
HAVE_EX45=1
device_build_tutorial ex45 || HAVE_EX45=0

# ---- bench_gs: one matrix per process; the first run measures the device bandwidth, the others reuse it -----
BW_ARGS=()
NOGPU=0
gs_case() { # gs_case NAME ARGS...
  local name=$1 log bw
  shift
  step "gs-$name" 1 120 "$BENCH_GS" "$@" -csv "$CSV" -reps "$REPS" -max_time "$MAX_TIME" "${BW_ARGS[@]}"
  log=$LOGDIR/gs-$name.log
  if [ ${#BW_ARGS[@]} = 0 ]; then
    bw=$(device_bandwidth "$log")
    [ -n "$bw" ] && BW_ARGS=(-bw_gbs "$bw") && say "device bandwidth $bw GB/s (used for every bound)"
  fi
  if [ -f "$log" ] && grep -q "^NO GPU RUN" "$log" && [ "$NOGPU" = 0 ]; then
    NOGPU=1
    say "WARNING: bench_gs found no usable GPU: $(grep '^NO GPU RUN' "$log")"
    record gpu-available FAIL 0
    FAILED=1
  fi
  return 0
}

if [ "$QUICK" = 1 ]; then
  GRIDS2=(64x64 32x128) GRIDS3=(16x16x16 8x8x64)
  E2E_GRIDS="17"
else
  GRIDS2=(2048x2048 1024x4096 512x8192 256x16384 128x32768)
  GRIDS3=(128x128x128 64x128x256 64x64x512 32x64x1024 32x32x2048)
fi
# GS_GRIDS2 / GS_GRIDS3 (space-separated, possibly empty) replace the grid lists, e.g. to finish a run in two calls
[ -n "${GS_GRIDS2+x}" ] && read -r -a GRIDS2 <<<"$GS_GRIDS2"
[ -n "${GS_GRIDS3+x}" ] && read -r -a GRIDS3 <<<"$GS_GRIDS3"
for g in "${GRIDS2[@]}"; do
  for s in 5 9; do gs_case "lap2d$s-$g" -lap2d "$g" -stencil "$s"; done
done

# the end-to-end runs come before the 3-D grids and the shared matrices, so a short budget still has them
# ---- end to end: ex45, GMRES(30), PETSc's PCSOR vs PC gs, identical options otherwise ----------------------
if [ "$HAVE_EX45" = 1 ]; then
  COMMON=(-ksp_type gmres -ksp_gmres_restart 30 -ksp_converged_reason -ksp_view -log_view -dll_append "$ROOT/lib/libpetscsptrsv.so")
  [ "$E2E_GPU" = 1 ] && COMMON+=(-log_view_gpu_time -dm_mat_type aijcusparse -dm_vec_type cuda)
  [ "$E2E_MAXIT" -gt 0 ] 2>/dev/null && COMMON+=(-ksp_max_it "$E2E_MAXIT")
  for g in $E2E_GRIDS; do
    for pc in sor gs; do
      step "e2e-ex45_${g}x${g}x${g}-$pc" 1 240 "$WORK/ex45" -da_grid_x "$g" -da_grid_y "$g" -da_grid_z "$g" "${COMMON[@]}" -pc_type "$pc"
    done
  done
fi

for g in "${GRIDS3[@]}"; do
  for s in 7 27; do gs_case "lap3d$s-$g" -lap3d "$g" -stencil "$s"; done
done
if [ -n "$MM_SRC" ] && [ -d "$MATDIR" ]; then
  for f in "$MATDIR"/*.mtx.gz; do
    [ -f "$f" ] || continue
    gs_case "mtx-$(basename "$f" .mtx.gz)" -mtx "$f"
  done
else
  say "no Matrix Market runs (directory $MATDIR, reader ${MM_SRC:-not built})"
fi

finish
