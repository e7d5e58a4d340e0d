#!/usr/bin/env bash
# Issue 33: Nsight Compute's figures of the runs dispatch's kernel (one L solve of a 3-D 7-point ILU(0) factor, from
# bench) beside the microbenchmark's replica of it (trsv3d_breakdown.cu, KRunProd) on the same grid, in one device call:
#
#   device run: bash examples/benchmarks/run-runs-ncu-device.sh        (carry: .petsc-cuda .carry/directlibs)
#
# Knobs: NCU_N (grid size, default 128), NCU_VARIANTS (bench -bench_syncfree, default runs-csr), NCU_SKIP (kernel launches
# of the production kernel skipped before the one profiled, default 30), NCU_SECTIONS (ncu's arguments instead of the
# metrics below, e.g. "--section WarpStateStats --section SourceCounters"), NCU_TAIL (lines kept of each report). Output ($OUT, default build/ncu-out): ncu.txt.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
OUTDIR=${OUT:-$ROOT/build/ncu-out}
WORK=$ROOT/build/ncu
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
BUDGET=500
N=${NCU_N:-128}
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
finish() { cat "$SUMMARY"; exit "$FAILED"; }
device_init
device_prepare || finish
device_build_bench bench BENCH_SRC || finish
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
METRICS=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,launch__occupancy_limit_warps,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,sm__cycles_elapsed.avg.per_second
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1); ncu: $NCU"
  echo "## production: bench -lap3d ${N}x${N}x${N} -stencil 7, -bench_syncfree ${NCU_VARIANTS:-runs-csr}, the runs kernel with one row per lane (L and U)"
  timeout 300 "$NCU" --clock-control none --kernel-name-base mangled -k regex:'SpTrsvSyncFreeKernelILb[01]ELb0ELb1ELi1E' --launch-skip "${NCU_SKIP:-30}" --launch-count 1 ${NCU_SECTIONS:---metrics $METRICS} \
    "$WORK/bench" -lap3d "${N}x${N}x${N}" -stencil 7 -bench_paths syncfree -bench_syncfree "${NCU_VARIANTS:-runs-csr}" -max_time 0.05 2>&1 | grep -v "^==PROF==" | grep -v '^ *[0-9]*\. _Z' | tail -n ${NCU_TAIL:-60}
  echo "## replica: trsv3d_breakdown $N, KRunProd<4, true, true>"
  "$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -arch=sm_90 -o "$WORK/trsv3d_breakdown" examples/benchmarks/trsv3d_breakdown.cu -lcusparse
  TRSV3D_ONLY="rp" timeout 200 "$NCU" --clock-control none --kernel-name-base mangled -k regex:'KRunProdILi4ELb1ELb1E' --launch-skip 3 --launch-count 1 ${NCU_SECTIONS:---metrics $METRICS} \
    "$WORK/trsv3d_breakdown" "$N" 3 2>&1 | grep -v "^==PROF==" | tail -n ${NCU_TAIL:-30}
} >"$OUTDIR/ncu.txt" 2>&1
cat "$OUTDIR/ncu.txt"
finish
