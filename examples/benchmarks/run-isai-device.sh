#!/usr/bin/env bash
# PC isai benchmarks of petsc-sptrsv on a GPU machine (paper 003's tables; docs/PERFORMANCE.md), in one call:
#
#   device run: bash examples/benchmarks/run-isai-device.sh        (carry: .petsc-cuda .carry)
#
# Same set-up as run-device.sh (device-common.sh). It builds bench_isai (multi-field 3-D convection-diffusion,
# examples/common/stencil.c) and PETSc's tutorials snes ex19 (lid-driven cavity, 4 fields per node) and ksp ex56
# (3-D elasticity, 3 fields per node), carried in SPTRSV_TUTORIALS, then runs one GMRES(30) solve (relative
# tolerance 1e-8, x0 = 0) per problem and preconditioner, one process each, -log_view -log_view_gpu_time:
#   cpu-ilu        PETSc's ILU(0) on the host (-pc_factor_mat_solver_type petsc, host matrix and vectors; BAIJ for
#                  block problems: PETSc's block ILU)
#   cusparse-ilu   PETSc's GPU ILU(0) (-pc_factor_mat_solver_type cusparse, aijcusparse, CUDA vectors)
#   sptrsv-ilu     our ILU(0) with the level-scheduled GPU solves (sptrsv_level), same types
#   isai-k1..k3    PC isai (block ILU(0), block ISAI with pattern power k; apply as cuSPARSE SpMVs), same types;
#                  the block ILU runs on the GPU (-pc_isai_gpu_factor, default)
#   isai-k1-hostfactor  isai k=1 with the block ILU on the host (-pc_isai_gpu_factor 0), for the setup comparison
# and writes into $OUT (default build/bench-isai-out): isai.csv (parsed -log_view), isai-tables.md
# (make-performance-md.py isai), summary.txt and logs.tar.gz. ex19 does one Newton step (-snes_max_it 1), so each run
# is one linear solve of the cavity Jacobian. A time budget keeps the run inside one device call.
#
# Knobs (environment):
#   ISAI_BUDGET=480         seconds after which no step starts
#   ISAI_EX19_GRIDS="512"   ex19 grids (G x G nodes, 4 G^2 unknowns)
#   ISAI_EX56_NE="47"       ex56 elements per side (3 (ne+1)^3 unknowns)
#   ISAI_CD="48:4 40:5"     bench_isai problems m:bs (m^3 nodes, bs fields)
#   ISAI_MAXIT=3000         -ksp_max_it of every solve
#   ISAI_SKIP=""            PROBLEM-cpu-ilu names whose host ILU run is skipped (the largest grids take minutes)
#   ISAI_MTX="watt_2:4 olm1000:4"  shared matrices name:bs (SPTRSV_MATDIR), cut into blocks of bs by PC isai
#   ISAI_QUICK=0            1: small problems (smoke test of the script)
#   and those of device-common.sh (PETSC_DIR, SPTRSV_MATDIR, SPTRSV_TUTORIALS, CUDA_HOME)
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${ISAI_BUDGET:-480}
OUTDIR=${OUT:-$ROOT/build/bench-isai-out}
WORK=$ROOT/build/bench-isai
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
CSV=$OUTDIR/isai.csv
MD=$OUTDIR/isai-tables.md
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
device_init
rm -f "$CSV" "$MD" "$OUTDIR/logs.tar.gz"

EX19_GRIDS=${ISAI_EX19_GRIDS:-512}
EX56_NE=${ISAI_EX56_NE:-47}
CD=${ISAI_CD:-48:4 40:5}
MAXIT=${ISAI_MAXIT:-3000}
MTX=${ISAI_MTX:-watt_2:4 olm1000:4}
if [ "${ISAI_QUICK:-0}" = 1 ]; then EX19_GRIDS=32 EX56_NE=7 CD="8:4 6:5"; fi

finish() {
  local py=$ROOT/examples/benchmarks/make-performance-md.py machine
  say "tables"
  machine=$(device_machine)
  echo "$machine" >"$LOGDIR/machine.txt"
  python3 "$py" e2e --csv "$CSV" "$LOGDIR"/e2e-*.log >"$LOGDIR/parse.log" 2>&1 || echo "parse failed: see parse.log" | tee -a "$LOGDIR/run.log"
  python3 "$py" isai --csv "$CSV" --machine "$machine" --command "bash examples/benchmarks/run-isai-device.sh" >"$MD" 2>"$LOGDIR/tables.log" || { echo "table generation failed:"; cat "$LOGDIR/tables.log"; }
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  echo
  echo "---------------- PC isai benchmark summary ($(elapsed) s, budget $BUDGET s) ----------------"
  printf '%-40s %-16s %7s\n' step status time
  cat "$SUMMARY"
  echo
  cat "$MD" 2>/dev/null
  if [ "$FAILED" = 0 ]; then echo "ISAI BENCHMARKS: DONE"; else echo "ISAI BENCHMARKS: SOME STEPS FAILED (see the summary)"; fi
  [ "$FAILED" = 0 ]
  exit $?
}

device_prepare || finish
device_build_bench bench_isai BENCH_ISAI_SRC || finish
HAVE_EX19=1 HAVE_EX56=1
device_build_tutorial ex19 src/snes/tutorials || HAVE_EX19=0
device_build_tutorial ex56 || HAVE_EX56=0

COMMON=(-ksp_type gmres -ksp_gmres_restart 30 -ksp_rtol 1e-8 -ksp_max_it "$MAXIT" -ksp_converged_reason -ksp_view -log_view -log_view_gpu_time -dll_append "$ROOT/lib/libpetscsptrsv.so")
# variants PROBLEM BS HOSTTYPES GPUTYPES -- PROGRAM ARGS...: every preconditioner on one problem (the log names are
# e2e-PROBLEM-VARIANT.log, as make-performance-md.py e2e expects)
variants() {
  local prob=$1 bs=$2 host=$3 gpu=$4 k
  shift 5
  # shellcheck disable=SC2086 # the type options are word lists
  case " ${ISAI_SKIP:-} " in *" $prob-cpu-ilu "*) echo "skipped $prob-cpu-ilu (ISAI_SKIP)" | tee -a "$LOGDIR/run.log" ;;
  *) step "e2e-$prob-cpu-ilu" 0 150 "$@" $host "${COMMON[@]}" -pc_type ilu -pc_factor_mat_solver_type petsc ;; esac
  # shellcheck disable=SC2086
  step "e2e-$prob-cusparse-ilu" 0 150 "$@" $gpu "${COMMON[@]}" -pc_type ilu -pc_factor_mat_solver_type cusparse
  # shellcheck disable=SC2086
  step "e2e-$prob-sptrsv-ilu" 0 150 "$@" $gpu "${COMMON[@]}" -pc_type ilu -pc_factor_mat_solver_type sptrsv_level
  for k in 1 2 3; do
    # shellcheck disable=SC2086
    step "e2e-$prob-isai-k$k" 1 150 "$@" $gpu "${COMMON[@]}" -pc_type isai -pc_isai_power "$k" -pc_isai_block_size "$bs"
  done
  # the same k = 1 with the block ILU on the host (the setup path before the GPU factorization)
  # shellcheck disable=SC2086
  [ "$bs" -ge 2 ] && step "e2e-$prob-isai-k1-hostfactor" 0 150 "$@" $gpu "${COMMON[@]}" -pc_type isai -pc_isai_power 1 -pc_isai_block_size "$bs" -pc_isai_gpu_factor 0
}

for c in $CD; do
  m=${c%%:*} bs=${c##*:}
  variants "cd3d_${m}cube_bs$bs" "$bs" "-mat_type seqbaij" "-mat_type seqaijcusparse" -- "$WORK/bench_isai" -m "$m" -bs "$bs"
done
if [ "$HAVE_EX19" = 1 ]; then
  for g in $EX19_GRIDS; do
    variants "ex19_${g}x${g}" 4 "-dm_mat_type baij" "-dm_mat_type aijcusparse -dm_vec_type cuda" -- "$WORK/ex19" -da_grid_x "$g" -da_grid_y "$g" -snes_max_it 1 -snes_monitor
  done
fi
if [ "$HAVE_EX56" = 1 ]; then
  for ne in $EX56_NE; do
    variants "ex56_ne$ne" 3 "-mat_type baij" "-mat_type aijcusparse" -- "$WORK/ex56" -ne "$ne" -alpha 1e-3 -two_solves false
  done
fi
# shared matrices cut into blocks (scalar ILU for PETSc's paths, block ILU of that size for isai)
for c in $MTX; do
  f=${c%%:*} bs=${c##*:}
  [ -f "$MATDIR/$f.mtx.gz" ] || { echo "no $MATDIR/$f.mtx.gz" | tee -a "$LOGDIR/run.log"; continue; }
  variants "mtx_${f}_bs$bs" "$bs" "-mat_type seqaij" "-mat_type seqaijcusparse" -- "$WORK/bench_isai" -mtx "$MATDIR/$f.mtx.gz"
done
finish
