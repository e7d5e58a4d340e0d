#!/usr/bin/env bash
# CHOLMOD's numeric Cholesky under the BLAS's threads (issue 32: the "Cholesky regression" of run 8), one device call:
#
#   device run: bash examples/benchmarks/direct-blas-threads-device.sh   (carry: .petsc-cuda .carry/tutorials .carry/directlibs)
#
# ksp ex45 on 33^3 with Cholesky (nd) and the benchmark of record's options (50 Richardson steps), three processes per
# setting: sptrsv_supernodal and sptrsv (with and without -ksp_view, and -mat_sptrsv_expected_solves 50), with the
# machine's BLAS threads (OpenBLAS, one per core) and with OPENBLAS_NUM_THREADS=1 or OMP_NUM_THREADS=1. Prints per run
# the SpTrsvCholNumeric and PCSetUp seconds and the log's length; -info lines of one sptrsv run in diag-info.txt.
# Output ($OUT, default build/diag): diag-chol.txt, diag-info.txt, diag-summary.txt, diag-logs.tgz.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd); OUTDIR=${OUT:-$ROOT/build/diag}; WORK=$ROOT/build/e2e; LOGDIR=$WORK/diaglogs; SUMMARY=$OUTDIR/diag-summary.txt; BUDGET=${DIAG_BUDGET:-200}
source "$ROOT/examples/benchmarks/device-common.sh"
device_init; device_prepare || exit 1
device_build_tutorial ex45 || exit 1
LIB=$ROOT/lib/libpetscsptrsv.so
ARGS=(-da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -dm_mat_type aijcusparse -dm_vec_type cuda -pc_type cholesky -pc_factor_mat_ordering_type nd -ksp_type richardson -ksp_max_it 50 -ksp_rtol 1e-50 -ksp_atol 0 -ksp_norm_type none -ksp_converged_reason -log_view -log_view_gpu_time -dll_append "$LIB")
R=$OUTDIR/diag-chol.txt; : > "$R"
nproc >> "$R"; (ls -la /etc/alternatives/libblas.so.3* 2>&1; ldd "$LIB" | grep -i "blas\|lapack\|gomp\|cholmod") >> "$R" 2>&1
run() { # tag env... -- opts
  local tag=$1; shift; local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  for r in 1 2 3; do
    l=$LOGDIR/$tag-$r.log
    env "${envs[@]}" timeout 60 "$WORK/ex45" "${ARGS[@]}" "$@" > "$l" 2>&1
    printf '%-34s r%d %s | %s | %s\n' "$tag" "$r" "$(awk '/^SpTrsvCholNumeric/ {print $4}' "$l")" "$(awk '/^PCSetUp / {print $4}' "$l")" "$(grep -c . "$l")" >> "$R"
  done
}
run super X=1 -- -pc_factor_mat_solver_type sptrsv_supernodal
run sptrsv X=1 -- -pc_factor_mat_solver_type sptrsv -ksp_view
run sptrsv-noview X=1 -- -pc_factor_mat_solver_type sptrsv
run sptrsv-es50 X=1 -- -pc_factor_mat_solver_type sptrsv -mat_sptrsv_expected_solves 50
run super-blas1 OPENBLAS_NUM_THREADS=1 -- -pc_factor_mat_solver_type sptrsv_supernodal
run sptrsv-blas1 OPENBLAS_NUM_THREADS=1 -- -pc_factor_mat_solver_type sptrsv -ksp_view
run sptrsv-omp1 OMP_NUM_THREADS=1 -- -pc_factor_mat_solver_type sptrsv -ksp_view
run super-omp1 OMP_NUM_THREADS=1 -- -pc_factor_mat_solver_type sptrsv_supernodal
"$WORK/ex45" "${ARGS[@]}" -pc_factor_mat_solver_type sptrsv -ksp_view -info > "$LOGDIR/info.log" 2>&1
grep -i "sptrsv\|cholmod" "$LOGDIR/info.log" | head -80 > "$OUTDIR/diag-info.txt"
tar czf "$OUTDIR/diag-logs.tgz" -C "$LOGDIR" .
cat "$R"
