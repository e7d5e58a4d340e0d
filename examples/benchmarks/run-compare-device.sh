#!/usr/bin/env bash
# Before/after comparison of two source trees on the same cases, in one device call (a refactoring must keep
# every ratio to cuSPARSE):
#
#   device run: bash examples/benchmarks/run-compare-device.sh BEFORE_TREE      (carry: .petsc-cuda and the tree)
#
# BEFORE_TREE is an earlier checkout of this repository carried with the call (e.g. `git archive <rev> | tar -x
# -C .carry/before`). For each tree, before then after (this one), it builds that tree's plugin and its
# examples/benchmarks/bench against the same carried PETSc (that tree's own device-common.sh), and runs bench on
# the same cases: ex2's matrix (2-D 5-point 1000x1000), the 3-D 7-point 128^3 Laplacian and every *.mtx.gz of
# SPTRSV_MATDIR, appending to $OUT/bench-before.csv and $OUT/bench-after.csv. Every ratio is measured inside one
# bench process (ours vs cusparseSpSV and PETSc's cusparse MatSolve on the same triangles), so the two runs are
# compared ratio by ratio: examples/benchmarks/make-performance-md.py ratio-compare prints the table last.
#
# COMPARE_E2E=1 adds end-to-end runs of PETSc's ksp ex2 (COMPARE_EX2=500: a 500x500 grid) and ex45 (COMPARE_EX45=48: 48^3)
# on the GPU with every solver type of COMPARE_E2E_SOLVERS, COMPARE_E2E_REPS=2 times each, COMPARE_E2E_MAXIT=200
# iterations, and prints examples/benchmarks/e2e-compare.py's table of PCSetUp, KSPSolve and MatSolve before -> after;
# COMPARE_BENCH=0 leaves the bench cases out.
# Knobs: COMPARE_BUDGET=250 (seconds per tree after which no case starts), BENCH_MAX_TIME=0.15,
# COMPARE_AFTER_ARGS="-bench_paths level" (extra bench options of the after tree: the variants the before tree has),
# and those of device-common.sh (PETSC_DIR, SPTRSV_MATDIR, CUDA_HOME). The command of the recorded run:
#   git archive 05a93c8 | tar -x -C .carry/before; SPTRSV_MATDIR=.carry/matrices COMPARE_BUDGET=230 \
#   BENCH_MAX_TIME=0.15 bash examples/benchmarks/run-compare-device.sh .carry/before
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
HERE=$(pwd)
BEFORE=${1:?usage: run-compare-device.sh BEFORE_TREE}
BEFORE=$(cd "$BEFORE" && pwd) || exit 2
OUTTOP=${OUT:-$HERE/build/compare-out}
mkdir -p "$OUTTOP"
export PETSC_DIR=${PETSC_DIR:-$HERE/.petsc-cuda}
# both trees read this tree's matrices (tests/data/matdir.sh), as an absolute path
. "$HERE/tests/data/matdir.sh"
SPTRSV_MATDIR=$(cd "$MATDIR" && pwd) || exit 2
export SPTRSV_MATDIR
MAX_TIME=${BENCH_MAX_TIME:-0.15}
# COMPARE_AFTER_ARGS set, even empty (every path), replaces the default
if [ -n "${COMPARE_AFTER_ARGS+set}" ]; then AFTER_ARGS=$COMPARE_AFTER_ARGS; else AFTER_ARGS="-bench_paths level"; fi
# both trees build this tree's copy of PETSc's tutorials (the before tree has no .carry of its own)
export SPTRSV_TUTORIALS=${SPTRSV_TUTORIALS:-$HERE/.carry/tutorials}
RC=0

# run_tree TAG TREE EXTRA_ARGS: build and bench one tree (in a subshell: each tree's own helpers)
run_tree() {
  local tag=$1 tree=$2 extra=$3
  (
    ROOT=$tree
    cd "$ROOT" || exit 2
    BUDGET=${COMPARE_BUDGET:-250}
    WORK=$ROOT/build/bench-$tag
    LOGDIR=$WORK/logs
    OUTDIR=$OUTTOP
    SUMMARY=$OUTTOP/summary-$tag.txt
    CSV=$OUTTOP/bench-$tag.csv
    rm -f "$CSV"
    # shellcheck source=examples/benchmarks/device-common.sh
    source "$ROOT/examples/benchmarks/device-common.sh"
    device_init
    device_prepare || exit 1
    device_build_bench bench BENCH_SRC || exit 1
    BW=()
    # shellcheck disable=SC2086 # extra is a list of options
    bcase() {
      local name=$1
      shift
      step "$tag-bench-$name" 1 150 "$WORK/bench" "$@" -csv "$CSV" -max_time "$MAX_TIME" "${BW[@]}" $extra
      if [ ${#BW[@]} = 0 ]; then
        local bw
        bw=$(device_bandwidth "$LOGDIR/$tag-bench-$name.log")
        [ -n "$bw" ] && BW=(-bw_gbs "$bw")
      fi
    }
    if [ "${COMPARE_BENCH:-1}" = 1 ]; then
      bcase ex2-matrix -lap2d 1000x1000 -stencil 5 -label lap2d5_1000x1000_ex2
      bcase lap3d7-128 -lap3d 128x128x128 -stencil 7
      for f in "$MATDIR"/*.mtx.gz; do
        [ -f "$f" ] && [ -n "$MM_SRC" ] && bcase "mtx-$(basename "$f" .mtx.gz)" -mtx "$f"
      done
    fi
    # end to end (COMPARE_E2E=1): PETSc's tutorials ex2 and ex45 on the GPU (aijcusparse, cuda vectors), GMRES(30) +
    # ILU(0) with a fixed iteration count, once per solver type and repetition, -log_view's PCSetUp, KSPSolve and
    # MatSolve parsed into $OUTTOP/e2e-$tag.csv (the tutorials: PETSc 3.26.1's sources in .carry/tutorials)
    if [ "${COMPARE_E2E:-0}" = 1 ]; then
      local st r ecsv=$OUTTOP/e2e-$tag.csv
      device_build_tutorial ex2 && device_build_tutorial ex45 src/ksp/ksp/tutorials || exit 1
      E2E=(-ksp_type gmres -ksp_gmres_restart 30 -pc_type ilu -pc_factor_levels 0 -ksp_converged_reason -log_view -log_view_gpu_time -ksp_max_it "${COMPARE_E2E_MAXIT:-200}" -ksp_rtol 1e-12 -dll_append "$ROOT/lib/libpetscsptrsv.so")
      for r in $(seq 1 "${COMPARE_E2E_REPS:-2}"); do
        for st in ${COMPARE_E2E_SOLVERS:-cusparse sptrsv_level sptrsv_element sptrsv_syncfree sptrsv_locality sptrsv_supernodal sptrsv_pinv sptrsv}; do
          step "e2e-ex2_${COMPARE_EX2:-500}-${st}_r$r" 0 120 "$WORK/ex2" -m "${COMPARE_EX2:-500}" -n "${COMPARE_EX2:-500}" -mat_type aijcusparse -vec_type cuda "${E2E[@]}" -pc_factor_mat_solver_type "$st"
          step "e2e-ex45_${COMPARE_EX45:-48}-${st}_r$r" 0 120 "$WORK/ex45" -da_grid_x "${COMPARE_EX45:-48}" -da_grid_y "${COMPARE_EX45:-48}" -da_grid_z "${COMPARE_EX45:-48}" -dm_mat_type aijcusparse -dm_vec_type cuda "${E2E[@]}" -pc_factor_mat_solver_type "$st"
        done
      done
      python3 "$HERE/examples/benchmarks/make-performance-md.py" e2e --csv "$ecsv" "$LOGDIR"/e2e-*.log
    fi
    tar -czf "$OUTTOP/logs-$tag.tar.gz" -C "$WORK" logs 2>/dev/null
    cat "$SUMMARY"
    [ "$FAILED" = 0 ]
  ) || RC=1
}

run_tree before "$BEFORE" ""
run_tree after "$HERE" "$AFTER_ARGS"
if [ "${COMPARE_BENCH:-1}" = 1 ]; then
  python3 "$HERE/examples/benchmarks/make-performance-md.py" ratio-compare --before "$OUTTOP/bench-before.csv" --after "$OUTTOP/bench-after.csv" | tee "$OUTTOP/compare.md" || RC=1
fi
if [ "${COMPARE_E2E:-0}" = 1 ]; then
  python3 "$HERE/examples/benchmarks/e2e-compare.py" --before "$OUTTOP/e2e-before.csv" --after "$OUTTOP/e2e-after.csv" | tee "$OUTTOP/e2e-compare.md" || RC=1
fi
exit $RC
