#!/usr/bin/env bash
# Issue 32: where a refactorization (same pattern, new values) goes on the GPU, ours against PETSc's cusparse, in one
# device call:
#
#   device run: bash examples/benchmarks/run-refactor-profile-device.sh        (carry: .petsc-cuda .carry/directlibs)
#
# Builds the plugin and tests/device/check_longrun through tests/device/run.sh (its longrun step, small counts), then
# runs check_longrun under Nsight Compute (ncu --clock-control none --profile-from-start off, one metric:
# gpu__time_duration) with REFPROF_REFACTOR refactorizations (default 10) and no solves, only the loop of the
# refactorizations profiled (check_longrun -profile_setups), on each of the paths REFPROF_PATHS (default
# "syncfree,petsc-cusparse") with REFPROF_OPTIONS added to PETSC_OPTIONS (e.g. -lr_mat_sptrsv_factor_device_rows
# shared), the 2-D 5-point grid of REFPROF_N^2 rows (default 120: the long-run workload). Output
# ($OUT, default build/refprof-out): ncu-<path>.csv (every kernel launch of the loop and its duration) and
# refactor-kernels.txt (examples/benchmarks/refactor-kernels.py: per path, the kernels of one refactorization). ncu
# serialises the launches, so the host time between kernels is not in these numbers: they say what the GPU spends;
# check_longrun's microseconds per refactorization (the long-run step) say the whole. (Without -profile_setups, ncu
# profiled every launch of the process: 400 s were not enough for three paths.) REFPROF_SECTIONS=1 adds, per path of ours,
# ncu's sections of one launch of the elimination kernel: ncu-sections-<path>.txt.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
OUTDIR=${OUT:-$ROOT/build/refprof-out}
mkdir -p "$OUTDIR"
N=${REFPROF_N:-120}
NREF=${REFPROF_REFACTOR:-20}
PATHS=${REFPROF_PATHS:-syncfree,petsc-cusparse}
# shellcheck source=examples/benchmarks/longrun-env.sh
source "$ROOT/examples/benchmarks/longrun-env.sh"
longrun_prepare "$OUTDIR" || exit 1
# Ubuntu's Open MPI is not CUDA-aware: a CUDA PETSc aborts in PetscInitialize without this (run.sh sets it only for itself)
export PETSC_OPTIONS="-use_gpu_aware_mpi 0${REFPROF_OPTIONS:+ $REFPROF_OPTIONS}"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
[ -n "$NCU" ] || { echo "no ncu"; exit 1; }
# one process per path: the kernels of each are apart
ARGS=()
for P in ${PATHS//,/ }; do
  timeout 240 "$NCU" --clock-control none --profile-from-start off --metrics gpu__time_duration.sum --csv --print-units base \
    tests/device/check_longrun -backend cuda -aijcusparse -faults 0 -n "$N" -refactor "$NREF" -solves 200 -pc_setups 1 -paths "$P" -profile_setups \
    >"$OUTDIR/ncu-$P.csv" 2>"$OUTDIR/ncu-$P.err"
  echo "ncu on $P: exit $?"
  grep -h "setups \|PROF.*rror" "$OUTDIR/ncu-$P.csv" "$OUTDIR/ncu-$P.err" | head -n 5
  ARGS+=("$P" "$OUTDIR/ncu-$P.csv")
done
python3 examples/benchmarks/refactor-kernels.py --per "$NREF" "${ARGS[@]}" | tee "$OUTDIR/refactor-kernels.txt"
# REFPROF_SECTIONS=1: also Nsight Compute's sections (speed of light, warp states, scheduler, memory, occupancy) of one
# launch of the GPU ILU's elimination kernel per path of ours (its stall reasons: where a refactorization waits)
if [ "${REFPROF_SECTIONS:-0}" = 1 ]; then
  for P in ${PATHS//,/ }; do
    [ "$P" = petsc-cusparse ] && continue
    timeout 120 "$NCU" --profile-from-start off -k regex:SpTrsvILURowsKernel -s 5 -c 1 --section SpeedOfLight --section WarpStateStats \
      --section SchedulerStats --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      tests/device/check_longrun -backend cuda -aijcusparse -faults 0 -n "$N" -refactor "$NREF" -solves 20 -pc_setups 1 -paths "$P" -profile_setups \
      >"$OUTDIR/ncu-sections-$P.txt" 2>&1
    echo "ncu sections on $P: exit $?"
  done
fi
