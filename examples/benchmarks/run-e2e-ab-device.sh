#!/usr/bin/env bash
# End-to-end A/B of two source trees, interleaved (a refactoring must keep PCSetUp and KSPSolve):
#
#   device run: bash examples/benchmarks/run-e2e-ab-device.sh BEFORE_TREE      (carry: .petsc-cuda, .carry)
#
# Builds this tree's plugin and BEFORE_TREE's against the same carried PETSc, PETSc's ksp ex2 and ex45 once (sources in
# .carry/tutorials), then runs every solver type of AB_SOLVERS on ex2 (AB_EX2=500: 500x500) and ex45 (AB_EX45=48: 48^3) on
# the GPU, GMRES(30) + ILU(0), AB_MAXIT=200 iterations, AB_REPS=3 times, the two trees' processes alternating (before,
# after, before, after, ...) so that a drift of the machine falls on both alike. -log_view's events go to
# $OUT/e2e-before.csv and $OUT/e2e-after.csv (make-performance-md.py e2e) and examples/benchmarks/e2e-compare.py prints
# the table (the least time of each event per tree).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BEFORE=$(cd "${1:?usage: run-e2e-ab-device.sh BEFORE_TREE}" && pwd) || exit 2
OUTDIR=${OUT:-$ROOT/build/e2e-ab-out}
WORK=$ROOT/build/e2e-ab
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
BUDGET=${AB_BUDGET:-500}
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
device_init
device_prepare || exit 1
# the before tree's plugin, built by its own makefile as device_prepare builds this one
(ROOT=$BEFORE; cd "$BEFORE" && device_prepare) || exit 1
device_build_tutorial ex2 && device_build_tutorial ex45 || exit 1
E2E=(-ksp_type gmres -ksp_gmres_restart 30 -pc_type ilu -pc_factor_levels 0 -ksp_converged_reason -log_view -log_view_gpu_time -ksp_max_it "${AB_MAXIT:-200}" -ksp_rtol 1e-12)
for r in $(seq 1 "${AB_REPS:-3}"); do
  for st in ${AB_SOLVERS:-cusparse sptrsv_level sptrsv_element sptrsv_syncfree sptrsv_locality sptrsv_supernodal sptrsv_pinv sptrsv}; do
    for tag in before after; do
      lib=$ROOT/lib/libpetscsptrsv.so
      [ "$tag" = before ] && lib=$BEFORE/lib/libpetscsptrsv.so
      mkdir -p "$LOGDIR/$tag"
      step "e2e-ex2_${AB_EX2:-500}-${st}_r$r-$tag" 0 120 "$WORK/ex2" -m "${AB_EX2:-500}" -n "${AB_EX2:-500}" -mat_type aijcusparse -vec_type cuda "${E2E[@]}" -dll_append "$lib" -pc_factor_mat_solver_type "$st"
      step "e2e-ex45_${AB_EX45:-48}-${st}_r$r-$tag" 0 120 "$WORK/ex45" -da_grid_x "${AB_EX45:-48}" -da_grid_y "${AB_EX45:-48}" -da_grid_z "${AB_EX45:-48}" -dm_mat_type aijcusparse -dm_vec_type cuda "${E2E[@]}" -dll_append "$lib" -pc_factor_mat_solver_type "$st"
    done
  done
done
for tag in before after; do
  mkdir -p "$WORK/$tag"
  for f in "$LOGDIR"/e2e-*-"$tag".log; do cp "$f" "$WORK/$tag/$(basename "${f%-"$tag".log}").log"; done
  python3 "$ROOT/examples/benchmarks/make-performance-md.py" e2e --csv "$OUTDIR/e2e-$tag.csv" "$WORK/$tag"/e2e-*.log
done
python3 "$ROOT/examples/benchmarks/e2e-compare.py" --before "$OUTDIR/e2e-before.csv" --after "$OUTDIR/e2e-after.csv" | tee "$OUTDIR/e2e-compare.md"
