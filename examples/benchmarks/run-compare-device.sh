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
AFTER_ARGS=${COMPARE_AFTER_ARGS:--bench_paths level}
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
    bcase ex2-matrix -lap2d 1000x1000 -stencil 5 -label lap2d5_1000x1000_ex2
    bcase lap3d7-128 -lap3d 128x128x128 -stencil 7
    for f in "$MATDIR"/*.mtx.gz; do
      [ -f "$f" ] && [ -n "$MM_SRC" ] && bcase "mtx-$(basename "$f" .mtx.gz)" -mtx "$f"
    done
    tar -czf "$OUTTOP/logs-$tag.tar.gz" -C "$WORK" logs 2>/dev/null
    cat "$SUMMARY"
    [ "$FAILED" = 0 ]
  ) || RC=1
}

run_tree before "$BEFORE" ""
run_tree after "$HERE" "$AFTER_ARGS"
python3 "$HERE/examples/benchmarks/make-performance-md.py" ratio-compare --before "$OUTTOP/bench-before.csv" --after "$OUTTOP/bench-after.csv" | tee "$OUTTOP/compare.md" || RC=1
exit $RC
