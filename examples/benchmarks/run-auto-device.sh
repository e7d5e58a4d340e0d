#!/usr/bin/env bash
# The automatic choice on the GPU with its measured check, and sptrsv_cusparse, in one device call:
#
#   device run: AUTO_SETS="shared shared-lu" bash examples/benchmarks/run-auto-device.sh        (carry: .petsc-cuda)
#
# 1. AUTO_CHECK=1 (default): tests/device/run.sh with SPTRSV_DEVICE_STEPS='cusparse-.*' (sptrsv_cusparse and the
#    automatic choice with -mat_sptrsv_auto_measure 1 against the host, memcheck of both), logs in $OUT/check.
# 2. examples/benchmarks/run-supernodal-pinv-device.sh on the sets AUTO_SETS (its SN_SETS; default "shared shared-lu")
#    with BENCH_ARGS="-bench_matsolve_type sptrsv": per matrix the automatic choice's MatSolve (the H100 model, the
#    measured check on: its default), cuSPARSE SpSV, PETSc's cusparse MatSolve and the paths of AUTO_BENCH (default:
#    sync-free, supernodal, pinv fill 1 and 4), in one process; the summary scores the automatic choice against the best
#    path of the process and against cuSPARSE. Budget AUTO_BUDGET seconds (default 300) for part 2; logs in $OUT/bench.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
OUT0=${OUT:-$ROOT/build/auto-out}
mkdir -p "$OUT0"
RC=0
if [ "${AUTO_CHECK:-1}" = 1 ]; then
  OUT=$OUT0/check SPTRSV_DEVICE_STEPS='cusparse-.*' bash tests/device/run.sh >"$OUT0/check.txt" 2>&1 || RC=1
  echo "---------------- device check (cusparse-*) ----------------"
  cat "$OUT0/check/summary.txt" 2>/dev/null | grep -v SKIPPED
fi
[ -n "${AUTO_BENCH:-}" ] && export SN_BENCH="$AUTO_BENCH"
OUT=$OUT0/bench BENCH_BUDGET=${AUTO_BUDGET:-300} SN_SETS=${AUTO_SETS:-shared shared-lu} BENCH_ARGS="-bench_matsolve_type sptrsv ${AUTO_BENCH_ARGS:-}" \
  bash examples/benchmarks/run-supernodal-pinv-device.sh >"$OUT0/bench.txt" 2>&1 || RC=1
sed -n '/---------------- supernodal\/pinv vs cuSPARSE/,$p' "$OUT0/bench.txt"
exit $RC
