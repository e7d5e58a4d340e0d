#!/usr/bin/env bash
# One GPU per MPI rank (issue 15, item 1), in one device call on a machine with 2 GPUs:
#
#   device run: bash tests/device/run-multigpu.sh        (kind nvidia-h200-x2; carry: .petsc-cuda .carry)
#
# Same set-up as the benchmark scripts (examples/benchmarks/device-common.sh: the carried CUDA PETSc, relocated; the
# plugin built with make WITH_CUDA=1; ksp ex45.c from SPTRSV_TUTORIALS, default .carry/tutorials), plus
# tests/device/check_multigpu.c. Every parallel run is `mpiexec -n 2` (Open MPI; PETSC_OPTIONS=-use_gpu_aware_mpi 0, the
# MPI is not CUDA-aware) with -dm_mat_type aijcusparse -dm_vec_type cuda (MPIAIJCUSPARSE / VECMPICUDA on 2 ranks), each
# rank on the device PETSc chose for it (rank % devices):
#   (a) sub-solvers: ex45 on MGPU_GRID^3 (default 65), GMRES(30), -pc_type bjacobi and -pc_type asm with -sub_pc_type ilu
#       and -sub_pc_factor_mat_solver_type sptrsv_level, sptrsv_syncfree, sptrsv (auto), sptrsv_element, sptrsv_locality:
#       the iterations must equal PETSc's cusparse and petsc sub-solvers' (petsc on the same GPU types, or on host types
#       where PETSc's ILU does not take a cusparse matrix); our runs' -ksp_view ::ascii_info_detail must show the two
#       ranks' factors on two different GPUs ("CUDA device N of M (PCI ...)")
#   (b) PC gs: -pc_type gs (local symmetric sweeps of each rank's diagonal block, on the GPU) against PCSOR
#       (-pc_type sor, the same local semantics) on 2 ranks and on 1 rank, and -pc_type bjacobi -sub_pc_type gs against
#       -sub_pc_type sor on 2 ranks: equal iterations for each rank count (2 ranks need more than 1: local sweeps)
#   (c) tests/device/check_multigpu on 2 ranks: PASS with bjacobi + sptrsv_level, asm + sptrsv_syncfree, PC gs, and with
#       CUDA_VISIBLE_DEVICES set per rank to its local rank (each sees one GPU, told the node has MGPU_NGPUS);
#       then the negative tests, which must FAIL with "ranks share 1 GPU": both ranks forced on device 0 by PETSc's
#       option (-device_select_cuda 0), and both given CUDA_VISIBLE_DEVICES=0. While a 2-rank run works, nvidia-smi's
#       compute processes are sampled: no process may appear on two GPUs, and the run must use two (advisory when
#       nvidia-smi lists no process, as in some containers)
#   (d) strong scaling: ex45 MGPU_SCALE_GRID^3 (default 129), GMRES(30) + block Jacobi with ILU(0) blocks
#       (sptrsv_level, cusparse), 1 rank on 1 GPU against 2 ranks on 2 GPUs, MGPU_REPEAT (default 2) runs each, the one
#       with the smallest KSPSolve + PCSetUp kept; KSPSolve, PCSetUp, MatSolve (max over ranks) from -log_view
#       -log_view_gpu_time into $OUT/multigpu-scaling.csv; examples/benchmarks/multigpu-table.py turns it into the table of
#       docs/PERFORMANCE.md ("Several GPUs")
# Output ($OUT, else build/multigpu-out): summary.txt, multigpu-iterations.csv (every comparison), multigpu-scaling.csv,
# logs.tar.gz (every log). Last lines: the table, and MULTIGPU CHECK: PASS or FAIL. A budget (MGPU_BUDGET, default 480 s)
# keeps it inside one call: no step starts after it.
#
# Knobs: MGPU_GRID=65, MGPU_SCALE_GRID=129, MGPU_REPEAT=2, MGPU_BUDGET=480, MGPU_TIMEOUT=150 (seconds per run),
# MGPU_NGPUS (default: nvidia-smi -L), MGPU_GPU=1 (0: host types and no GPU checks, a smoke test of the script on a machine
# without GPUs: PETSC_DIR=/usr/lib/petsc MGPU_GPU=0 SPTRSV_TUTORIALS=<PETSc's ksp tutorials>), and those of device-common.sh.
set -u
# shellcheck disable=SC2317 # functions run through step
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${MGPU_BUDGET:-480}
OUTDIR=${OUT:-$ROOT/build/multigpu-out}
WORK=$ROOT/build/multigpu
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
ITS_CSV=$OUTDIR/multigpu-iterations.csv
SCALE_CSV=$OUTDIR/multigpu-scaling.csv
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
device_init
rm -f "$ITS_CSV" "$SCALE_CSV" "$OUTDIR/logs.tar.gz"

GRID=${MGPU_GRID:-65}
SGRID=${MGPU_SCALE_GRID:-129}
REPEAT=${MGPU_REPEAT:-2}
TIMEOUT=${MGPU_TIMEOUT:-150}
GPU=${MGPU_GPU:-1}
NGPUS=${MGPU_NGPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')}
OURS="sptrsv_level sptrsv_syncfree sptrsv sptrsv_element sptrsv_locality"
MPIEXEC=(mpiexec --oversubscribe -n)
if [ "$GPU" = 1 ]; then TYPES=(-dm_mat_type aijcusparse -dm_vec_type cuda); else TYPES=(-dm_mat_type aij -dm_vec_type standard); fi
HOSTTYPES=(-dm_mat_type aij -dm_vec_type standard)
echo "part,case,ranks,solver,iterations,reference,reference_iterations,status,log" >"$ITS_CSV"

finish() {
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  echo
  echo "---------------- one GPU per rank: summary ($(elapsed) s, budget $BUDGET s) ----------------"
  printf '%-40s %-16s %7s\n' step status time
  cat "$SUMMARY"
  echo "machine: $(device_machine); GPUs: $NGPUS"
  echo
  column -s, -t "$ITS_CSV" 2>/dev/null || cat "$ITS_CSV"
  echo
  [ -f "$SCALE_CSV" ] && python3 "$ROOT/examples/benchmarks/multigpu-table.py" "$SCALE_CSV" 2>&1
  if [ "$FAILED" = 0 ]; then echo "MULTIGPU CHECK: PASS"; else echo "MULTIGPU CHECK: FAIL (see the summary)"; fi
  [ "$FAILED" = 0 ]
  exit $?
}

if [ "$GPU" = 1 ] && [ "$NGPUS" -lt 2 ]; then
  say "this check needs 2 GPUs; nvidia-smi lists $NGPUS"
  record gpus FAIL 0
  FAILED=1
fi
device_prepare || finish
device_build_tutorial ex45 || finish
# shellcheck disable=SC2016 # make expands these
step build-check-multigpu 1 120 "${MAKE[@]}" --eval='build/multigpu/check_multigpu: tests/device/check_multigpu.c $(SPTRSV_AR) ; $(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ tests/device/check_multigpu.c $(SPTRSV_AR) $(LINK_LIBS) $(CUDA_LIBS)' build/multigpu/check_multigpu || finish
CHECK=$WORK/check_multigpu
EX45=$WORK/ex45
LIB=$ROOT/lib/libpetscsptrsv.so

# iterations of a log's last "Linear solve ... iterations N" line
its_of() { sed -n 's/.*Linear solve .* iterations \([0-9][0-9]*\).*/\1/p' "$1" 2>/dev/null | tail -n 1; }
converged() { grep -q "Linear solve converged" "$1" 2>/dev/null && ! grep -q "Linear solve did not converge" "$1"; }
# seconds of a -log_view event (the max column), empty when absent
event_time() { awk -v e="$2" '$1 == e && NF > 4 { print $4; exit }' "$1" 2>/dev/null; }

# ex45run NAME NP ARGS...: one ex45 run (the plugin loaded) as a step; nonzero when it failed or did not converge
ex45run() {
  local name=$1 np=$2
  shift 2
  step "$name" 1 "$TIMEOUT" "${MPIEXEC[@]}" "$np" "$EX45" -dll_append "$LIB" -ksp_converged_reason "$@" || return 1
  converged "$LOGDIR/$name.log" || { say "$name: did not converge"; record "$name-converged" FAIL 0; FAILED=1; return 1; }
}

# reference NAME NP ARGS...: a PETSc reference run on the GPU types; where PETSc refuses them (no such solver for a
# cusparse matrix, no MatSOR), the same on host types. REF_LOG: the log's name (empty when none converged).
reference() {
  local name=$1 np=$2
  shift 2
  REF_LOG=""
  if step "$name" 0 "$TIMEOUT" "${MPIEXEC[@]}" "$np" "$EX45" -ksp_converged_reason "${TYPES[@]}" "$@" && converged "$LOGDIR/$name.log"; then
    REF_LOG=$name
    return 0
  fi
  [ "$(left)" -gt 15 ] || return 1 # the budget is spent: the step says so
  if [ "$GPU" = 1 ]; then
    say "$name: PETSc's own run on ${TYPES[*]} failed or did not converge; again on host types"
    if step "$name-host" 1 "$TIMEOUT" "${MPIEXEC[@]}" "$np" "$EX45" -ksp_converged_reason "${HOSTTYPES[@]}" "$@" && converged "$LOGDIR/$name-host.log"; then
      REF_LOG=$name-host
      return 0
    fi
  fi
  record "$name-reference" FAIL 0
  FAILED=1
  return 1
}

# same_its PART CASE NP SOLVER LOG REFNAME REFLOG: one CSV row; a difference (or a missing count) fails the check
same_its() {
  local a b status=PASS
  a=$(its_of "$LOGDIR/$5.log") b=$(its_of "$LOGDIR/$7.log")
  if [ -z "$a" ] || [ -z "$b" ] || [ "$a" != "$b" ]; then status=FAIL FAILED=1; fi
  echo "$1,$2,$3,$4,${a:-?},$6,${b:-?},$status,$5.log" >>"$ITS_CSV"
  record "its-$2-np$3-$4-vs-$6" "$status" 0
}

# two_gpus LOG: the -ksp_view ::ascii_info_detail of a 2-rank run shows our objects on two different GPUs
two_gpus() {
  local n
  n=$(sed -n 's/.*CUDA device [0-9]* of [0-9]* (PCI \([^,]*\),.*/\1/p' "$LOGDIR/$1.log" | sort -u | wc -l)
  if [ "$n" -ge 2 ]; then record "view-two-gpus-$1" PASS 0; else
    say "$1: -ksp_view shows our objects on $n GPU(s), expected 2"
    record "view-two-gpus-$1" FAIL 0
    FAILED=1
  fi
}

GMRES=(-ksp_type gmres -ksp_gmres_restart 30)
EX45G=(-da_grid_x "$GRID" -da_grid_y "$GRID" -da_grid_z "$GRID")

# ---- (a) block Jacobi / ASM sub-solvers on 2 ranks: ours against cusparse and petsc -------------------------------------
for pc in bjacobi asm; do
  PCARGS=(-pc_type "$pc" -sub_pc_type ilu)
  refs=()
  if [ "$GPU" = 1 ]; then
    # PETSc's cusparse blocks: required for block Jacobi (cusparse blocks of an MPIAIJCUSPARSE); advisory for ASM, whose
    # overlapping blocks PETSc may extract as host AIJ matrices, which cusparse does not factor (petsc is then the reference)
    req=1
    [ "$pc" = asm ] && req=0
    if step "a-$pc-np2-cusparse" "$req" "$TIMEOUT" "${MPIEXEC[@]}" 2 "$EX45" -ksp_converged_reason "${TYPES[@]}" "${EX45G[@]}" "${GMRES[@]}" "${PCARGS[@]}" -sub_pc_factor_mat_solver_type cusparse && converged "$LOGDIR/a-$pc-np2-cusparse.log"; then
      refs+=("cusparse:a-$pc-np2-cusparse")
    else
      record "a-$pc-np2-cusparse-reference" "$([ "$req" = 1 ] && echo FAIL || echo ADVISORY)" 0
      [ "$req" = 1 ] && FAILED=1
    fi
  fi
  reference "a-$pc-np2-petsc" 2 "${EX45G[@]}" "${GMRES[@]}" "${PCARGS[@]}" -sub_pc_factor_mat_solver_type petsc && refs+=("petsc:$REF_LOG")
  for s in $OURS; do
    name="a-$pc-np2-$s"
    ex45run "$name" 2 "${TYPES[@]}" "${EX45G[@]}" "${GMRES[@]}" "${PCARGS[@]}" -sub_pc_factor_mat_solver_type "$s" -ksp_view ::ascii_info_detail || continue
    [ "$GPU" = 1 ] && two_gpus "$name"
    for ref in "${refs[@]}"; do same_its a "$pc" 2 "$s" "$name" "${ref%%:*}" "${ref#*:}"; done
  done
done

# ---- (b) PC gs on 2 ranks and on 1 rank against PCSOR's local sweeps ------------------------------------------------------
for np in 1 2; do
  reference "b-gs-np$np-sor" "$np" "${EX45G[@]}" "${GMRES[@]}" -pc_type sor || continue
  ex45run "b-gs-np$np-gs" "$np" "${TYPES[@]}" "${EX45G[@]}" "${GMRES[@]}" -pc_type gs -ksp_view ::ascii_info_detail || continue
  same_its b gs-local "$np" gs "b-gs-np$np-gs" sor "$REF_LOG"
  [ "$GPU" = 1 ] && [ "$np" = 2 ] && two_gpus "b-gs-np2-gs"
done
reference "b-bjacobi-gs-np2-sor" 2 "${EX45G[@]}" "${GMRES[@]}" -pc_type bjacobi -sub_pc_type sor &&
  ex45run "b-bjacobi-gs-np2-gs" 2 "${TYPES[@]}" "${EX45G[@]}" "${GMRES[@]}" -pc_type bjacobi -sub_pc_type gs &&
  same_its b bjacobi-gs 2 gs "b-bjacobi-gs-np2-gs" sor "$REF_LOG"

# ---- (c) the one-GPU-per-rank check, and its negative tests -----------------------------------------------------------
CK=(-n 64 "${TYPES[@]}" -gpus_per_node "$NGPUS")
[ "$GPU" = 1 ] && CK+=(-require_cuda)
# check_expect WANT(pass|fail|skip) [ENV=VALUE ...] -- ARGS...: check_multigpu on 2 ranks (through the wrapper WRAP, when
# set) must PASS (exit 0), FAIL (nonzero, with "ranks share 1 GPU", the solve converged, no crash), or be skipped (host
# smoke test); the output goes to the step's log
WRAP=()
check_expect() {
  local want=$1 envs=() o rc
  shift
  while [ "$1" != "--" ]; do
    envs+=("$1")
    shift
  done
  shift
  o=$(mktemp)
  echo "+ ${envs[*]} ${MPIEXEC[*]} 2 ${WRAP[*]} $CHECK $*"
  env "${envs[@]}" timeout "$TIMEOUT" "${MPIEXEC[@]}" 2 "${WRAP[@]}" "$CHECK" "$@" >"$o" 2>&1
  rc=$?
  cat "$o"
  echo "(exit $rc; expected: $want)"
  local ok=1
  grep -q "^solve: CONVERGED" "$o" || { echo "the solve did not converge (or did not run)"; ok=0; }
  ! grep -q "Caught signal" "$o" || { echo "crashed"; ok=0; }
  case $want in
  pass) [ $rc = 0 ] && grep -q "^check_multigpu: PASS" "$o" || ok=0 ;;
  skip) [ $rc = 0 ] && grep -q "^check_multigpu: no CUDA device, skipped" "$o" || ok=0 ;;
  fail) [ $rc != 0 ] && [ $rc -lt 124 ] && grep -q "^check_multigpu: FAIL" "$o" && grep -q "ranks share 1 GPU" "$o" || ok=0 ;;
  esac
  rm -f "$o"
  [ $ok = 1 ]
}
# a wrapper between mpiexec and the program: CUDA_VISIBLE_DEVICES = the rank's local rank (Open MPI), or MGPU_VISIBLE
PERRANK=$WORK/visible-per-rank.sh
printf '#!/bin/sh\n# CUDA_VISIBLE_DEVICES = the local rank (MGPU_VISIBLE: the same device for every rank)\nCUDA_VISIBLE_DEVICES=${MGPU_VISIBLE:-${OMPI_COMM_WORLD_LOCAL_RANK:-0}}\nexport CUDA_VISIBLE_DEVICES\nexec "$@"\n' >"$PERRANK"
chmod +x "$PERRANK"
if [ "$GPU" = 1 ]; then WANT=pass; else WANT=skip; fi
step c-check-bjacobi-level 1 "$TIMEOUT" check_expect "$WANT" -- "${CK[@]}" -ksp_view ::ascii_info_detail
[ "$GPU" = 1 ] && two_gpus c-check-bjacobi-level
step c-check-asm-syncfree 1 "$TIMEOUT" check_expect "$WANT" -- "${CK[@]}" -ksp_type gmres -pc_type asm -sub_pc_factor_mat_solver_type sptrsv_syncfree
step c-check-pc-gs 1 "$TIMEOUT" check_expect "$WANT" -- "${CK[@]}" -ksp_type gmres -pc_type gs
if [ "$GPU" = 1 ]; then
  # each rank sees one GPU (device 0 in both processes, two PCI bus ids; -gpus_per_node says the node has NGPUS): must pass
  WRAP=("$PERRANK")
  step c-check-visible-per-rank 1 "$TIMEOUT" check_expect pass -- "${CK[@]}" -ksp_type gmres -sub_pc_factor_mat_solver_type sptrsv
  # negative tests, which must fail: both ranks given CUDA_VISIBLE_DEVICES=0; both on device 0 by PETSc's option
  step c-negative-visible-0 1 "$TIMEOUT" check_expect fail MGPU_VISIBLE=0 -- "${CK[@]}"
  WRAP=()
  step c-negative-device-select-0 1 "$TIMEOUT" check_expect fail -- "${CK[@]}" -device_select_cuda 0
else
  record c-negative-tests "SKIPPED(host)" 0
fi

# nvidia-smi's compute processes while a 2-rank run works: no process on two GPUs, two GPUs used
gpu_processes() {
  local smp=$LOGDIR/c-gpu-processes.samples pid
  : >"$smp"
  timeout "$TIMEOUT" "${MPIEXEC[@]}" 2 "$CHECK" -n 128 "${TYPES[@]}" -ksp_type gmres -ksp_rtol 1e-10 >"$LOGDIR/c-gpu-processes.run" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    nvidia-smi --query-compute-apps=pid,gpu_bus_id --format=csv,noheader >>"$smp" 2>/dev/null
    sleep 0.2
  done
  wait "$pid"
  echo "distinct (pid, GPU) pairs seen:"
  sort -u "$smp" | tee "$smp.pairs"
  if [ ! -s "$smp.pairs" ]; then echo "nvidia-smi lists no compute process here (container): nothing to check"; return 3; fi
  awk -F', *' '{ n[$1]++ } END { bad = 0; for (p in n) if (n[p] > 1) { print "process " p " on " n[p] " GPUs"; bad = 1 } exit bad }' "$smp.pairs" || return 1
  [ "$(cut -d, -f2 "$smp.pairs" | sort -u | wc -l)" -ge 2 ] || { echo "the run used one GPU"; return 1; }
}
if [ "$GPU" = 1 ]; then
  step c-gpu-processes 0 "$TIMEOUT" gpu_processes
  if [ -f "$LOGDIR/c-gpu-processes.log" ] && grep -q "on [0-9]* GPUs$\|the run used one GPU" "$LOGDIR/c-gpu-processes.log"; then
    record c-gpu-processes-verdict FAIL 0
    FAILED=1
  fi
fi

# ---- (d) strong scaling: 1 rank on 1 GPU against 2 ranks on 2 GPUs --------------------------------------------------
SG=(-da_grid_x "$SGRID" -da_grid_y "$SGRID" -da_grid_z "$SGRID")
SCALE_CASES=()
for s in sptrsv_level cusparse; do
  [ "$GPU" = 1 ] || [ "$s" != cusparse ] || continue
  for np in 1 2; do SCALE_CASES+=("$s:$np"); done
done
for ((r = 1; r <= REPEAT; r++)); do
  for c in "${SCALE_CASES[@]}"; do
    s=${c%%:*} np=${c#*:}
    extra=()
    [ "$GPU" = 1 ] && extra=(-log_view_gpu_time)
    ex45run "d-ex45_$SGRID-$s-np$np-r$r" "$np" "${TYPES[@]}" "${SG[@]}" "${GMRES[@]}" -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type "$s" -log_view "${extra[@]}"
  done
done
echo "problem,grid,solver,ranks,gpus,iterations,converged,kspsolve_s,pcsetup_s,matsolve_s,runs,totals_s,log" >"$SCALE_CSV"
for c in "${SCALE_CASES[@]}"; do
  s=${c%%:*} np=${c#*:}
  best="" bestt="" totals="" n=0
  for ((r = 1; r <= REPEAT; r++)); do
    log=$LOGDIR/d-ex45_$SGRID-$s-np$np-r$r.log
    ks=$(event_time "$log" KSPSolve) ps=$(event_time "$log" PCSetUp)
    [ -n "$ks" ] && [ -n "$ps" ] || continue
    tot=$(awk -v a="$ks" -v b="$ps" 'BEGIN { printf "%.4e", a + b }')
    n=$((n + 1)) totals="$totals${totals:+;}$tot"
    if [ -z "$bestt" ] || awk -v a="$tot" -v b="$bestt" 'BEGIN { exit !(a < b) }'; then best=$log bestt=$tot; fi
  done
  [ -n "$best" ] || { record "d-$s-np$np" "NO RESULT" 0; continue; }
  gpus=$np
  [ "$GPU" = 1 ] || gpus=0
  conv=no
  converged "$best" && conv=yes
  echo "ex45,$SGRID,$s,$np,$gpus,$(its_of "$best"),$conv,$(event_time "$best" KSPSolve),$(event_time "$best" PCSetUp),$(event_time "$best" MatSolve),$n,$totals,$(basename "$best")" >>"$SCALE_CSV"
done
finish
