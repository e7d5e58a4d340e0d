#!/usr/bin/env bash
# Issue 32: the GPU ILU's variants against PETSc's cusparse on refactorizations (same pattern, new values), in one
# device call:
#
#   device run: bash examples/benchmarks/run-refactor-variants-device.sh        (carry: .petsc-cuda .carry/directlibs)
#
# Builds the plugin and tests/device/check_longrun through tests/device/run.sh (its longrun step, small counts), then
# runs check_longrun once per variant of the GPU ILU's options (REFVAR_VARIANTS: ';'-separated, each a name, ':' and
# the options without their prefix, e.g. "shared-b2:-mat_sptrsv_factor_device_rows shared
# -mat_sptrsv_factor_device_blocks_per_sm 2"; given to check_longrun's factors as -lr_...; a word NAME=VALUE is put in that
# process's environment instead), each process timing
# REFVAR_REFACTOR refactorizations (default 1500) and then REFVAR_SOLVES solves (default 1500) of the 2-D 5-point grid
# of REFVAR_N^2 rows (default 120: the long-run workload) on the paths REFVAR_PATHS (default
# "syncfree,sptrsv,petsc-cusparse": PETSc's cusparse in every process, so each variant's ratio is measured beside it).
# check_longrun checks every factor against PETSc's host ILU. Output ($OUT, default build/refvar-out): longrun-<name>.log
# per variant and refactor-variants.txt (the table: microseconds per refactorization and per solve, and the ratio
# PETSc cusparse / ours from the same process).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
OUTDIR=${OUT:-$ROOT/build/refvar-out}
mkdir -p "$OUTDIR"
N=${REFVAR_N:-120}
NREF=${REFVAR_REFACTOR:-1500}
NSOL=${REFVAR_SOLVES:-1500}
PATHS=${REFVAR_PATHS:-syncfree,sptrsv,petsc-cusparse}
R=-mat_sptrsv_factor_device_rows
B=-mat_sptrsv_factor_device_blocks_per_sm
VARIANTS=${REFVAR_VARIANTS:-"global:;shared:$R shared;global-b2:$B 2;global-b4:$B 4;shared-b2:$R shared $B 2;shared-b4:$R shared $B 4;shared-b8:$R shared $B 8"}
# shellcheck source=examples/benchmarks/longrun-env.sh
source "$ROOT/examples/benchmarks/longrun-env.sh"
longrun_prepare "$OUTDIR" || exit 1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >"$OUTDIR/gpu.txt" 2>&1
LOGS=()
rc=0
IFS=';' read -r -a VS <<<"$VARIANTS"
for v in "${VS[@]}"; do
  name=${v%%:*}
  opts=${v#*:}
  lr=""
  envs=()
  for o in $opts; do
    case $o in
      -*) lr="$lr -lr_${o#-}" ;;
      [A-Z]*=*) envs+=("$o") ;; # an environment variable for this variant's process, e.g. CUDA_MODULE_LOADING=EAGER
      *) lr="$lr $o" ;;
    esac
  done
  # shellcheck disable=SC2086 # the options are words
  env "${envs[@]}" PETSC_OPTIONS="-use_gpu_aware_mpi 0$lr" timeout 200 tests/device/check_longrun -backend cuda -aijcusparse -faults 0 -n "$N" \
    -refactor "$NREF" -solves "$NSOL" -pc_setups 1 -paths "$PATHS" >"$OUTDIR/longrun-$name.log" 2>&1 || rc=1
  echo "$name ($opts): $(tail -n 1 "$OUTDIR/longrun-$name.log")"
  LOGS+=("$name" "$OUTDIR/longrun-$name.log")
done
{
  echo "# GPU: $(cat "$OUTDIR/gpu.txt"); grid ${N}^2, $NREF refactorizations then $NSOL solves per path; variants: $VARIANTS"
  python3 examples/benchmarks/refactor-variants-table.py "${LOGS[@]}"
} | tee "$OUTDIR/refactor-variants.txt"
exit $rc
