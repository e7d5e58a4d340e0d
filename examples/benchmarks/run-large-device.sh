#!/usr/bin/env bash
# Large problems on one GPU (issue 15, item 2), in one device call (under 550 s):
#
#   device run: bash examples/benchmarks/run-large-device.sh        (carry: .petsc-cuda)
#
# examples/benchmarks/large.c: the 3-D 7-point Laplacian on an N^3 grid (LARGE_N, default 256: 1.68e7 rows, 1.17e8
# nonzeros), built as CSR on the host and converted to MATSEQAIJCUSPARSE, b = A 1, GMRES(30) right-preconditioned with
# PCILU, -ksp_max_it LARGE_MAX_IT (default 30: the solve is a handful of seconds; the point is the setup and memory),
# then the true residual ||b - A x|| checked against GMRES's own. One process per case (a case that stops, by error or
# time-out, loses nothing of the others), in this order (LARGE_CASES):
#   ilu0-sptrsv_level ilu0-sptrsv_syncfree ilu0-sptrsv ilu0-cusparse ilu1-sptrsv_level ilu1-cusparse ilu1-sptrsv_syncfree
#   ilu1-sptrsv
# ILU(1) makes a factor of well over 2^31 bytes (values and 32-bit indices): it must run, or stop with a PETSc error
# naming the limit (32-bit indexing, device memory), never crash or answer wrongly. Our paths run with
# -mat_sptrsv_compare_cusparse_memory, so their -ksp_view gives the device memory of L and U next to what cusparseSpSV
# would hold for the same triangles.
#
# Host-side cost measured at 128^3 on the 2-core build VM (Debian PETSc 3.18, host backend): building the matrix 1.2 s,
# ILU(0) set-up (symbolic + level analysis + numeric) 1.1 s, ILU(1) 2.2 s, 0.8-1.0 GB resident; 256^3 is 8 times that:
# about 10 s to build, 10-20 s of host set-up, 7-8 GB of host memory, plus the CUDA context and the upload. A case
# should take 30-60 s; the budget (LARGE_BUDGET, default 540 s) stops starting cases when fewer than LARGE_MIN_LEFT
# (default 60) seconds remain, and each case has LARGE_TIMEOUT (default 200) seconds.
#
# Output ($OUT, default build/bench-large-out): large.csv, one row per case as it completes: case, levels, solver,
# status (ok | FAILED (wrong residual) | ERROR (a PETSc error: error column) | TIMEOUT | CRASH (a signal)), the RESULT
# fields of large.c (build_s, setup_s, solve_s, its, reason, true_rel, ksp_rel, gpu_used_mb: cudaMemGetInfo before
# minus after the setup, ours_L_mb, ours_U_mb, ours_rest_mb: our factor's device memory by part), gpu_peak_mb (the
# largest memory.used nvidia-smi saw during the case, sampled every 200 ms, minus the value before it), the -ksp_view
# device-memory and cuSPARSE lines (ours), the first error line, wall_s and the log; summary.txt; logs.tar.gz.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
BUDGET=${LARGE_BUDGET:-540}
OUTDIR=${OUT:-$ROOT/build/bench-large-out}
WORK=$ROOT/build/bench-large
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
CSV=$OUTDIR/large.csv
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
device_init
rm -f "$CSV" "$OUTDIR/logs.tar.gz"

N=${LARGE_N:-256}
MAX_IT=${LARGE_MAX_IT:-30}
TIMEOUT=${LARGE_TIMEOUT:-200}
MIN_LEFT=${LARGE_MIN_LEFT:-60}
GPU=${LARGE_GPU:-1}
CASES=${LARGE_CASES:-ilu0-sptrsv_level ilu0-sptrsv_syncfree ilu0-sptrsv ilu0-cusparse ilu1-sptrsv_level ilu1-cusparse ilu1-sptrsv_syncfree ilu1-sptrsv}

finish() {
  tar -czf "$OUTDIR/logs.tar.gz" -C "$WORK" logs 2>/dev/null
  echo
  echo "---------------- large problems ($(elapsed) s, budget $BUDGET s) ----------------"
  printf '%-40s %-16s %7s\n' step status time
  cat "$SUMMARY"
  echo "machine: $(device_machine)"
  echo
  cut -d, -f1-17 "$CSV" 2>/dev/null | column -s, -t 2>/dev/null || cat "$CSV" 2>/dev/null
  if [ "$FAILED" = 0 ]; then echo "LARGE BENCHMARK: DONE"; else echo "LARGE BENCHMARK: SOME CASES FAILED (see the summary)"; fi
  [ "$FAILED" = 0 ]
  exit $?
}

device_prepare || finish
step build-large 1 120 "${MAKE[@]}" examples/benchmarks/large || finish

# field KEY LINE: the value of KEY=value in a RESULT line
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<"$2" | head -n 1; }
csvq() { local s=${1//\"/\'}; printf '"%s"' "$s"; } # a quoted CSV cell
echo "case,levels,solver,status,build_s,setup_s,solve_s,its,reason,true_rel,ksp_rel,gpu_used_mb,gpu_peak_mb,ours_L_mb,ours_U_mb,ours_rest_mb,wall_s,device_memory,cusparse_memory,error,log" >"$CSV"

for c in $CASES; do
  lv=${c%%-*} lv=${lv#ilu} solver=${c#*-}
  if [ "$(left)" -lt "$MIN_LEFT" ]; then
    say "$c: SKIPPED (budget: $(left) s left)"
    record "$c" "SKIPPED(budget)" 0
    echo "$c,$lv,$solver,SKIPPED,,,,,,,,,,,,,,,,," >>"$CSV"
    continue
  fi
  log=$LOGDIR/$c.log
  args=(-n "$N" -pc_factor_levels "$lv" -pc_factor_mat_solver_type "$solver" -ksp_max_it "$MAX_IT" -ksp_view -ksp_converged_reason)
  [ "$GPU" = 1 ] && args+=(-large_mat_type aijcusparse)
  case $solver in sptrsv*) args+=(-mat_sptrsv_compare_cusparse_memory) ;; esac
  tmo=$TIMEOUT
  [ "$tmo" -gt $(($(left) - 5)) ] && tmo=$(($(left) - 5))
  say "$c (timeout $tmo s)"
  base=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -n 1)
  smi=$WORK/$c.smi
  : >"$smi"
  if [ -n "$base" ]; then
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$smi" 2>/dev/null &
    smipid=$!
  else smipid=""; fi
  t=$(date +%s)
  echo "+ $WORK/large ${args[*]}" >"$log"
  timeout "$tmo" "$ROOT/examples/benchmarks/large" "${args[@]}" >>"$log" 2>&1
  rc=$?
  wall=$(($(date +%s) - t))
  [ -n "$smipid" ] && kill "$smipid" 2>/dev/null && wait "$smipid" 2>/dev/null
  peak=""
  if [ -n "$base" ] && [ -s "$smi" ]; then peak=$(awk -v b="$base" 'BEGIN{m=b} $1+0>m{m=$1+0} END{print m-b}' "$smi"); fi
  res=$(grep '^RESULT ' "$log" | tail -n 1)
  if [ $rc = 124 ]; then status=TIMEOUT
  elif [ $rc -gt 128 ] || grep -q "Caught signal" "$log"; then status=CRASH
  elif [ -n "$res" ] && [ "$(field check "$res")" = ok ] && [ $rc = 0 ]; then status=ok
  elif [ -n "$res" ]; then status=FAILED
  else status=ERROR; fi
  err=$(grep -A2 -m1 "PETSC ERROR: -* Error Message" "$log" | tail -n 2 | sed "s/^\[[0-9]*\]PETSC ERROR: //" | paste -sd" ") # the message itself
  [ -z "$err" ] && err=$(grep -m1 "PETSC ERROR" "$log" | head -n 1)
  devmem=$(grep -m2 -E "^ *device memory: " "$log" | sed 's/^ *//' | paste -sd';')
  cusp=$(grep -m1 "cuSPARSE SpSV" "$log" | sed 's/^ *//')
  {
    printf '%s,%s,%s,%s,' "$c" "$lv" "$solver" "$status"
    for k in build_s setup_s solve_s its reason true_rel ksp_rel gpu_used_mb; do printf '%s,' "$(field "$k" "$res")"; done
    printf '%s,' "$peak"
    for k in ours_L_mb ours_U_mb ours_rest_mb; do printf '%s,' "$(field "$k" "$res")"; done
    printf '%s,%s,%s,%s,%s\n' "$wall" "$(csvq "$devmem")" "$(csvq "$cusp")" "$(csvq "$err")" "${log#"$ROOT"/}"
  } >>"$CSV"
  # a PETSc error that names a limit (32-bit indexing, device memory) is an accepted outcome of a case too large for
  # a path; a wrong answer, a crash or a time-out is not
  case $status in
    ok) record "$c" PASS "$wall" ;;
    ERROR) if grep -qE "exceeds 32-bit indexing|Device allocation of|do not fit in PetscInt|32-bit indices|too many" "$log"; then record "$c" "LIMIT(error)" "$wall"; else record "$c" FAIL "$wall"; FAILED=1; fi ;;
    *) record "$c" "$status" "$wall"; FAILED=1 ;;
  esac
  say "$c: $status in $wall s; $(field setup_s "$res") s setup, $(field its "$res") its, true residual $(field true_rel "$res"), GPU used $(field gpu_used_mb "$res") MB (peak $peak MB)"
done
finish
