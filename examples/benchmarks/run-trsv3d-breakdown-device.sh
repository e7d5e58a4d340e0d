#!/usr/bin/env bash
# Issue 33, item 1: where the time of a sync-free lower solve goes on 3-D 7-point factors, in one device call:
#
#   device run: bash examples/benchmarks/run-trsv3d-breakdown-device.sh        (no carry needed: CUDA and cuSPARSE only)
#
# Builds examples/benchmarks/trsv3d_breakdown.cu with nvcc and runs it on N^3 grids (TRSV3D_SIZES, default 64 96 128 192
# 256; empty: none), TRSV3D_REPS solves per kernel (default 20), TRSV3D_ONLY the kernels to run (default all). Then examples/benchmarks/window_hop.cu, the cost of one
# window step of the runs dispatch and of its parts, with the most resident blocks per SM and with each count of
# TRSV3D_HOP_BLOCKS (default 2: fewer windows polling at once); TRSV3D_HOP=0 skips it. Output ($OUT, default build/trsv3d-out): trsv3d.csv (one
# line per grid and kernel: ms, cuSPARSE SpSV / kernel, error, polls per row, the chain's handoff cost, the bandwidth and
# critical-path bounds), window-hop.csv (examples/benchmarks/window-hop-table.py makes its table). The machine line
# (GPU, driver, CUDA) is each CSV's first comment line.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
OUTDIR=${OUT:-build/trsv3d-out}
mkdir -p "$OUTDIR" build
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
MACHINE="# $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -n 1); CUDA $("$CUDA_HOME/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
if [ -n "${TRSV3D_SIZES-64 96 128 192 256}" ]; then
  "$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -arch=sm_90 -o build/trsv3d_breakdown examples/benchmarks/trsv3d_breakdown.cu -lcusparse || exit 1
  {
    echo "$MACHINE"
    build/trsv3d_breakdown -h
    for N in ${TRSV3D_SIZES-64 96 128 192 256}; do timeout 120 build/trsv3d_breakdown "$N" "${TRSV3D_REPS:-20}" || echo "# N=$N: exit $?"; done
  } 2>&1 | tee "$OUTDIR/trsv3d.csv"
fi
[ "${TRSV3D_HOP:-1}" = 1 ] || exit 0 # TRSV3D_HOP=0: the grids only
"$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -arch=sm_90 -o build/window_hop examples/benchmarks/window_hop.cu || exit 1
{
  echo "$MACHINE"
  build/window_hop -h
  timeout 120 build/window_hop "${TRSV3D_REPS:-20}" || echo "# window_hop: exit $?"
  for B in ${TRSV3D_HOP_BLOCKS-2}; do timeout 120 build/window_hop "${TRSV3D_REPS:-20}" "$B" || echo "# window_hop $B: exit $?"; done
} 2>&1 | tee "$OUTDIR/window-hop.csv"
# a run that failed or timed out left its "exit" line
! grep -q "^# window_hop.*: exit" "$OUTDIR/window-hop.csv"
