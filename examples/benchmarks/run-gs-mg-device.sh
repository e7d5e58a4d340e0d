#!/usr/bin/env bash
# PC gs as a GPU multigrid smoother (issue 16), in one device call:
#
#   device run: bash examples/benchmarks/run-gs-mg-device.sh        (carry: .petsc-cuda .carry)
#
# Same machine and set-up as run-gs-device.sh (device-common.sh: the carried CUDA PETSc, relocated; the plugin built with
# make WITH_CUDA=1; PETSc's tutorials from SPTRSV_TUTORIALS, default .carry/tutorials: ksp ex45.c and snes ex19.c, copied
# from PETSc 3.26.1's src/ksp/ksp/tutorials and src/snes/tutorials, e.g. /opt/petsc-cuda/share/petsc/examples/src/...).
# GPU runs use -dm_mat_type aijcusparse -dm_vec_type cuda and -log_view -log_view_gpu_time. The problems (GS_MG_PROBLEMS):
#   ex45-mg     ksp ex45 (3-D Poisson, 7-point) on an n^3 grid (GS_MG_GRID, default 129), CG + PCMG, GS_MG_LEVELS (5) levels
#   ex45-gamg   the same ex45 with CG + PCGAMG (its own levels; the level smoothers take the same -mg_levels_* options)
#   ex19-mg     snes ex19 (lid-driven cavity, 4 fields per node, nonsymmetric) on a G x G grid (GS_MG_EX19_GRID, default
#               257: -da_grid_x/-da_grid_y), GMRES + PCMG (rediscretized coarse levels), levels halving the grid until it
#               is 9 x 9 (6 for 257; GS_MG_EX19_LEVELS sets them), one Newton step (GS_MG_EX19_SNES_MAX_IT=1: one
#               KSPSolve and one PCSetUp per run, as ex45; GS_MG_EX19_SNES_MAX_IT= (empty) runs Newton to the tutorial's
#               tolerance, 2 or 3 steps on 257^2, a count that depends on how accurate the smoother makes the linear
#               solves, which is why one step is the default). iterations = the linear iterations summed over the steps.
#   ex45-hypre, ex19-hypre   CG / GMRES + hypre BoomerAMG (-pc_type hypre, its own smoothers): one row each
#   ex45-amgx, ex19-amgx     CG / GMRES + NVIDIA AmgX (-pc_type amgx, its default configuration): one row each
# hypre and AmgX are in the default list only when $PETSC_DIR/include/petscconf.h defines PETSC_HAVE_HYPRE / PETSC_HAVE_AMGX.
# The CUDA PETSc of scripts/build-petsc-cuda.sh (/opt/petsc-cuda, carried as .petsc-cuda) has neither: its configure
# options download no external package (no --download-hypre, --download-amgx; AmgX is not downloadable by PETSc's
# configure at all and needs a separate CMake build), and the GPU machine has no network to add them there; so on the
# device these rows are absent. Naming them in GS_MG_PROBLEMS without the package records SKIPPED(no hypre|no amgx).
# Debian's host PETSc (/usr/lib/petsc) has hypre, so the hypre rows do appear in a host smoke run.
# The level smoothers of the mg and gamg problems (GS_MG_SMOOTHERS):
#   gs-exact-richardson       -mg_levels_pc_type gs (exact-order sweeps), Richardson, 2 iterations per level
#   gs-multicolor-richardson  -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor, Richardson, 2 iterations
#   gs-multicolor-chebyshev   the same sweeps under PCMG's default Chebyshev smoother
#   chebyshev-jacobi          -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi (PETSc's GPU smoother)
#   sor-richardson            -mg_levels_pc_type sor (PETSc's MatSOR, on the host), Richardson, 2 iterations
#
# Noise: PCSetUp varies by +-50% between runs on the GPU machine, so every case runs GS_MG_REPEAT (default 2) times
# (round after round: every case once, then every case again, so that a spent budget still leaves one run of each) and
# the script records, per case, the run with the smallest KSPSolve + PCSetUp; the CSV's runs and totals_s columns say
# how many runs there were and the KSPSolve + PCSetUp of each (';'-separated, in run order), log names the chosen one.
#
# Output: $OUT/gs-mg.csv (default build/bench-gs-mg-out), one row per problem and smoother: problem, smoother, grid
# (points per direction), levels (from -ksp_view: PCMG/PCGAMG's levels=), iterations, converged (every linear solve),
# kspsolve_s, pcsetup_s, snessolve_s (ex19) (-log_view, max over processes, summed over the Newton steps), newton_its,
# linear_solves, finest_colours (multicolor runs: the last "N colours (...)" line of -ksp_view, the finest level),
# runs, totals_s, wall_s (the chosen run, with program start-up), log, options (the smoother's) and problem_options;
# every raw log in logs.tar.gz. python3 examples/benchmarks/gs-mg-table.py gs-mg.csv makes the markdown table.
# A budget (GS_MG_BUDGET, default 540 s) keeps it inside one call (600 s): no run starts after it.
#
# Knobs: GS_MG_PROBLEMS="ex45-mg ex45-gamg ex19-mg" (+ the hypre/AmgX ones when present), GS_MG_GRID=129,
# GS_MG_LEVELS=5, GS_MG_EX19_GRID=257, GS_MG_EX19_LEVELS (auto), GS_MG_EX19_SNES_MAX_IT=1 (empty: tutorial default),
# GS_MG_REPEAT=2, GS_MG_BUDGET=540, GS_MG_TIMEOUT=150 (seconds per run), GS_MG_GPU=1 (0: host types, a smoke test
# without a GPU: PETSC_DIR=/usr/lib/petsc GS_MG_GPU=0 GS_MG_GRID=17 GS_MG_LEVELS=3 GS_MG_EX19_GRID=33 with that
# PETSc's own tutorials in SPTRSV_TUTORIALS), GS_MG_SMOOTHERS="..." (a subset of the names above), and those of
# device-common.sh.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${GS_MG_BUDGET:-540}
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
EX19_GRID=${GS_MG_EX19_GRID:-257}
EX19_SNES_MAX_IT=${GS_MG_EX19_SNES_MAX_IT-1}
REPEAT=${GS_MG_REPEAT:-2}
TIMEOUT=${GS_MG_TIMEOUT:-150}
GPU=${GS_MG_GPU:-1}
SMOOTHERS=${GS_MG_SMOOTHERS:-gs-exact-richardson gs-multicolor-richardson gs-multicolor-chebyshev chebyshev-jacobi sor-richardson}

# have_pkg NAME: the PETSc in PETSC_DIR was configured with the external package NAME (HYPRE, AMGX)
have_pkg() { grep -q "^#define PETSC_HAVE_$1 1" "$PETSC_DIR/include/petscconf.h" 2>/dev/null; }
if [ -n "${GS_MG_PROBLEMS:-}" ]; then PROBLEMS=$GS_MG_PROBLEMS; else
  PROBLEMS="ex45-mg ex45-gamg ex19-mg"
  have_pkg HYPRE && PROBLEMS="$PROBLEMS ex45-hypre ex19-hypre"
  have_pkg AMGX && PROBLEMS="$PROBLEMS ex45-amgx ex19-amgx"
fi

# PCMG levels of ex19: halve the grid ((G-1)/2+1 points) while it stays at 9 points or more
ex19_levels() {
  local g=$1 l=1
  while [ $(((g - 1) % 2)) = 0 ] && [ $(((g - 1) / 2 + 1)) -ge 9 ]; do g=$(((g - 1) / 2 + 1)) l=$((l + 1)); done
  echo "$l"
}
EX19_LEVELS=${GS_MG_EX19_LEVELS:-$(ex19_levels "$EX19_GRID")}
[ "$EX19_LEVELS" -ge 2 ] || say "NOTE: ex19 grid $EX19_GRID: $EX19_LEVELS PCMG level (a grid of 2^k + 1 points coarsens; 257 gives 6 levels)"

finish() {
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  echo
  echo "---------------- PCMG smoother benchmark summary ($(elapsed) s, budget $BUDGET s) ----------------"
  printf '%-40s %-16s %7s\n' step status time
  cat "$SUMMARY"
  echo "machine: $(device_machine)"
  echo "problems: $PROBLEMS; repeat $REPEAT; hypre: $(have_pkg HYPRE && echo yes || echo no); AmgX: $(have_pkg AMGX && echo yes || echo no)"
  echo
  column -s, -t "$CSV" 2>/dev/null || cat "$CSV" 2>/dev/null
  echo
  python3 "$ROOT/examples/benchmarks/gs-mg-table.py" "$CSV" 2>&1
  if [ "$FAILED" = 0 ]; then echo "GS MG BENCHMARK: DONE"; else echo "GS MG BENCHMARK: SOME STEPS FAILED (see the summary)"; fi
  [ "$FAILED" = 0 ]
  exit $?
}

device_prepare || finish
HAVE_EX45=0 HAVE_EX19=0
case " $PROBLEMS " in *" ex45-"*) device_build_tutorial ex45 && HAVE_EX45=1 ;; esac
case " $PROBLEMS " in *" ex19-"*) device_build_tutorial ex19 src/snes/tutorials && HAVE_EX19=1 ;; esac

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

# problem_opts PROBLEM: the program (first word) and its options; nonzero for an unknown problem
problem_opts() {
  local snes=-snes_converged_reason
  [ -n "$EX19_SNES_MAX_IT" ] && snes="$snes -snes_max_it $EX19_SNES_MAX_IT"
  case $1 in
  ex45-mg) echo "$WORK/ex45 -da_grid_x $GRID -da_grid_y $GRID -da_grid_z $GRID -ksp_type cg -pc_type mg -pc_mg_levels $LEVELS" ;;
  ex45-gamg) echo "$WORK/ex45 -da_grid_x $GRID -da_grid_y $GRID -da_grid_z $GRID -ksp_type cg -pc_type gamg" ;;
  ex45-hypre) echo "$WORK/ex45 -da_grid_x $GRID -da_grid_y $GRID -da_grid_z $GRID -ksp_type cg -pc_type hypre -pc_hypre_type boomeramg" ;;
  ex45-amgx) echo "$WORK/ex45 -da_grid_x $GRID -da_grid_y $GRID -da_grid_z $GRID -ksp_type cg -pc_type amgx" ;;
  ex19-mg) echo "$WORK/ex19 -da_grid_x $EX19_GRID -da_grid_y $EX19_GRID $snes -ksp_type gmres -pc_type mg -pc_mg_levels $EX19_LEVELS" ;;
  ex19-hypre) echo "$WORK/ex19 -da_grid_x $EX19_GRID -da_grid_y $EX19_GRID $snes -ksp_type gmres -pc_type hypre -pc_hypre_type boomeramg" ;;
  ex19-amgx) echo "$WORK/ex19 -da_grid_x $EX19_GRID -da_grid_y $EX19_GRID $snes -ksp_type gmres -pc_type amgx" ;;
  *) return 1 ;;
  esac
}

# seconds of a -log_view event (the max column), empty when absent
event_time() { awk -v e="$2" '$1 == e && NF > 4 { print $4; exit }' "$1"; }

COMMON=(-ksp_converged_reason -ksp_view -log_view -dll_append "$ROOT/lib/libpetscsptrsv.so")
[ "$GPU" = 1 ] && COMMON+=(-log_view_gpu_time -dm_mat_type aijcusparse -dm_vec_type cuda)

# the cases: PROBLEM:SMOOTHER (the hypre and AmgX problems have one pseudo-smoother, boomeramg / amgx, and no options)
CASES=()
for p in $PROBLEMS; do
  popts=$(problem_opts "$p") || { say "unknown problem $p"; record "$p" "FAIL(unknown)" 0; FAILED=1; continue; }
  case $p in
  ex45-*) [ "$HAVE_EX45" = 1 ] || { record "$p" "SKIPPED(no ex45)" 0; continue; } ;;
  ex19-*) [ "$HAVE_EX19" = 1 ] || { record "$p" "SKIPPED(no ex19)" 0; continue; } ;;
  esac
  case $p in
  *-hypre) if have_pkg HYPRE; then CASES+=("$p:boomeramg"); else say "NOTE: $p: this PETSc has no hypre"; record "$p" "SKIPPED(no hypre)" 0; fi ;;
  *-amgx) if have_pkg AMGX; then CASES+=("$p:amgx"); else say "NOTE: $p: this PETSc has no AmgX"; record "$p" "SKIPPED(no amgx)" 0; fi ;;
  *) for s in $SMOOTHERS; do
    if smoother_opts "$s" >/dev/null; then CASES+=("$p:$s"); else say "unknown smoother $s"; record "$s" "FAIL(unknown)" 0; FAILED=1; fi
  done ;;
  esac
done

case_grid() { case $1 in ex19-*) echo "$EX19_GRID" ;; *) echo "$GRID" ;; esac; }
case_log() { echo "${1%%:*}_$(case_grid "${1%%:*}")-${1#*:}-r$2"; }

# the runs, round after round; a case whose first run failed (not for time) is not run again
BROKEN=" "
for ((r = 1; r <= REPEAT; r++)); do
  for c in "${CASES[@]}"; do
    case $BROKEN in *" $c "*) continue ;; esac
    p=${c%%:*} s=${c#*:}
    popts=$(problem_opts "$p")
    opts=$(smoother_opts "$s" 2>/dev/null)
    name=$(case_log "$c" "$r")
    t=$(date +%s)
    # shellcheck disable=SC2086 # popts and opts are lists of words
    step "$name" 1 "$TIMEOUT" $popts "${COMMON[@]}" $opts
    rc=$?
    echo "$(($(date +%s) - t))" >"$LOGDIR/$name.wall"
    [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$rc" != 125 ] && BROKEN="$BROKEN$c "
  done
done

# one CSV row per case: its run with the smallest KSPSolve + PCSetUp
echo "problem,smoother,grid,levels,iterations,converged,kspsolve_s,pcsetup_s,snessolve_s,newton_its,linear_solves,finest_colours,runs,totals_s,wall_s,log,options,problem_options" >"$CSV"
for c in "${CASES[@]}"; do
  p=${c%%:*} s=${c#*:}
  best="" bestt="" totals="" n=0
  for ((r = 1; r <= REPEAT; r++)); do
    log=$LOGDIR/$(case_log "$c" "$r").log
    [ -f "$log" ] || continue
    ks=$(event_time "$log" KSPSolve) ps=$(event_time "$log" PCSetUp)
    if [ -z "$ks" ] || [ -z "$ps" ]; then continue; fi
    tot=$(awk -v a="$ks" -v b="$ps" 'BEGIN { printf "%.4e", a + b }')
    n=$((n + 1)) totals="$totals${totals:+;}$tot"
    if [ -z "$bestt" ] || awk -v a="$tot" -v b="$bestt" 'BEGIN { exit !(a < b) }'; then best=$log bestt=$tot; fi
  done
  [ -n "$best" ] || { record "$c" "NO RESULT" 0; continue; }
  log=$best
  its=$(sed -n 's/.*Linear solve \(converged\|did not converge\) .* iterations \([0-9]*\).*/\2/p' "$log" | awk '{ s += $1; n++ } END { if (n) print s }')
  nsolves=$(grep -c "Linear solve \(converged\|did not converge\)" "$log")
  conv=$(grep -q "Linear solve converged" "$log" && ! grep -q "Linear solve did not converge" "$log" && echo yes || echo no)
  newton=$(sed -n 's/^Number of SNES iterations = \([0-9]*\).*/\1/p' "$log" | tail -n 1)
  colours=$(sed -n 's/^ *\([0-9][0-9]*\) colours (.*/\1/p' "$log" | tail -n 1)
  levels=$(sed -n 's/.*type is [A-Z]*, levels=\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  opts=$(smoother_opts "$s" 2>/dev/null)
  popts=$(problem_opts "$p") popts=${popts#* }
  echo "$p,$s,$(case_grid "$p"),${levels:-},${its:-},$conv,$(event_time "$log" KSPSolve),$(event_time "$log" PCSetUp),$(event_time "$log" SNESSolve),${newton:-},$nsolves,${colours:-},$n,$totals,$(cat "${log%.log}.wall" 2>/dev/null),$(basename "$log"),\"$opts\",\"$popts\"" >>"$CSV"
done
finish
