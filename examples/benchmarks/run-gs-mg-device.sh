#!/usr/bin/env bash
# PC gs as a GPU multigrid smoother (issue 16), in one device call:
#
#   device run: bash examples/benchmarks/run-gs-mg-device.sh        (carry: .petsc-cuda .carry)
#
# Same machine and set-up as run-gs-device.sh (device-common.sh: the carried CUDA PETSc, relocated; the plugin built with
# make WITH_CUDA=1; PETSc's ksp tutorial ex45.c from SPTRSV_TUTORIALS). It runs ex45 on an n^3 grid (default 129^3) with
# CG + PCMG (5 levels, -dm_mat_type aijcusparse -dm_vec_type cuda, -log_view -log_view_gpu_time) and these level smoothers:
#   gs-exact-richardson       -mg_levels_pc_type gs (exact-order sweeps), Richardson, 2 iterations per level
#   gs-multicolor-richardson  -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor, Richardson, 2 iterations
#   gs-multicolor-chebyshev   the same sweeps under PCMG's default Chebyshev smoother
#   chebyshev-jacobi          -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi (PETSc's GPU smoother)
#   sor-richardson            -mg_levels_pc_type sor (PETSc's MatSOR), Richardson, 2 iterations
# and writes $OUT/gs-mg.csv (default build/bench-gs-mg-out): smoother, grid, iterations, KSPSolve and PCSetUp seconds
# (-log_view, max over processes), the colours of the finest level (multicolor runs), and the options; every raw log in
# logs.tar.gz. A budget (GS_MG_BUDGET, default 450 s) keeps it inside one call: no run starts after it.
#
# Knobs: GS_MG_GRID=129, GS_MG_LEVELS=5, GS_MG_BUDGET=450, GS_MG_GPU=1 (0: host types, a smoke test without a GPU),
# GS_MG_SMOOTHERS="..." (a subset of the names above), and those of device-common.sh.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${GS_MG_BUDGET:-450}
OUTDIR=${OUT:-$ROOT/build/bench-gs-mg-out}
WORK=$ROOT/build/bench-gs-mg
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
CSV=$OUTDIR/gs-mg.csv
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
device_init
rm -f "$CSV" "$OUTDIR/logs.tar.gz"

GRID=${GS_MG_GRID:-129}
LEVELS=${GS_MG_LEVELS:-5}
GPU=${GS_MG_GPU:-1}
SMOOTHERS=${GS_MG_SMOOTHERS:-gs-exact-richardson gs-multicolor-richardson gs-multicolor-chebyshev chebyshev-jacobi sor-richardson}

finish() {
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  echo
  echo "---------------- PCMG smoother benchmark summary ($(elapsed) s, budget $BUDGET s) ----------------"
  printf '%-40s %-16s %7s\n' step status time
  cat "$SUMMARY"
  echo "machine: $(device_machine)"
  echo
  column -s, -t "$CSV" 2>/dev/null || cat "$CSV" 2>/dev/null
  if [ "$FAILED" = 0 ]; then echo "GS MG BENCHMARK: DONE"; else echo "GS MG BENCHMARK: SOME STEPS FAILED (see the summary)"; fi
  [ "$FAILED" = 0 ]
  exit $?
}

device_prepare || finish
device_build_tutorial ex45 || finish

# the level smoother's options of each name
smoother_opts() {
  case $1 in
  gs-exact-richardson) echo "-mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -mg_levels_pc_type gs" ;;
  gs-multicolor-richardson) echo "-mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor" ;;
  gs-multicolor-chebyshev) echo "-mg_levels_ksp_type chebyshev -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor" ;;
  chebyshev-jacobi) echo "-mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi" ;;
  sor-richardson) echo "-mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -mg_levels_pc_type sor" ;;
  *) return 1 ;;
  esac
}

# seconds of a -log_view event (the max column), empty when absent
event_time() { awk -v e="$2" '$1 == e && NF > 4 { print $4; exit }' "$1"; }

echo "smoother,grid,levels,iterations,converged,kspsolve_s,pcsetup_s,finest_colours,options" >"$CSV"
COMMON=(-da_grid_x "$GRID" -da_grid_y "$GRID" -da_grid_z "$GRID" -ksp_type cg -pc_type mg -pc_mg_levels "$LEVELS" -ksp_converged_reason -ksp_view -log_view -dll_append "$ROOT/lib/libpetscsptrsv.so")
[ "$GPU" = 1 ] && COMMON+=(-log_view_gpu_time -dm_mat_type aijcusparse -dm_vec_type cuda)
for s in $SMOOTHERS; do
  opts=$(smoother_opts "$s") || { say "unknown smoother $s"; record "$s" "FAIL(unknown)" 0; FAILED=1; continue; }
  name="ex45_${GRID}-$s"
  # shellcheck disable=SC2086 # opts is a list of options
  step "$name" 1 150 "$WORK/ex45" "${COMMON[@]}" $opts
  log=$LOGDIR/$name.log
  [ -f "$log" ] || continue
  its=$(sed -n 's/.*Linear solve \(converged\|did not converge\) .* iterations \([0-9]*\).*/\2/p' "$log" | tail -n 1)
  conv=$(grep -q "Linear solve converged" "$log" && echo yes || echo no)
  colours=$(sed -n 's/^ *\([0-9]*\) colours (greedy.*/\1/p' "$log" | tail -n 1)
  echo "$s,$GRID,$LEVELS,${its:-},$conv,$(event_time "$log" KSPSolve),$(event_time "$log" PCSetUp),${colours:-},\"$opts\"" >>"$CSV"
done
finish
