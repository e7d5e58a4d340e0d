# Sourced by tests/device/run.sh (after PETSc, SLEPc and tests/slepc/eps_sinvert are built; MATDIR, SLEPC_DIR set).
# The SLEPc steps of the device check (issue 13): shift-and-invert EPSSolve with PETSc's factorization first and then every
# sptrsv_* solver type (the registry's paths, sptrsv, and sptrsv_supernodal/sptrsv_pinv once they exist) on the CUDA
# backend (-st_mat_sptrsv_backend cuda; -require_backend cuda fails a factor that fell back to the host). eps_sinvert
# asserts the eigenvalues equal the reference's to 1e-10 relative and backward errors <= 1e-8; a type without the
# factorization prints a "skipped:" line. The ilu/icc cases (GMRES to 1e-13 inside the shift-and-invert) run every path
# today (-require_run: at least one of ours compared); the lu/cholesky ones compare as soon as the types have them.
# shellcheck shell=bash
# shellcheck disable=SC2317 # called through step
SLEPC_TYPES=petsc,all,sptrsv_supernodal,sptrsv_pinv

slepc_eps() { # slepc_eps ARGS...: one eps_sinvert run; remembers a failure in SLEPC_RC
  echo "\$ eps_sinvert $*"
  local rc=0
  timeout "${SLEPC_EPS_TIMEOUT:-120}" "$ROOT/tests/slepc/eps_sinvert" "$@" || rc=$?
  if [ "$rc" != 0 ]; then
    SLEPC_RC=1
    echo "(exit status $rc$([ "$rc" = 124 ] && echo ": timed out after ${SLEPC_EPS_TIMEOUT:-120} s"))"
  fi
  echo
}

# slepc: under ~60 s on an H100 (the generated pencils are 4096 and 8000 rows; the reference factorizes on the host)
slepc_check() {
  local d=$SLEPC_DIR/share/slepc/datafiles/matrices
  local c=(-solver_types "$SLEPC_TYPES" -st_mat_sptrsv_backend cuda -require_backend cuda)
  local nd=(-st_pc_factor_mat_ordering_type nd)
  SLEPC_RC=0
  # generated pencils (A the 3-D Laplacian, B SPD with A's pattern): GHEP, and GNHEP with convection
  slepc_eps "${c[@]}" -problem lap3d -n 16 -factor icc -require_run
  slepc_eps "${c[@]}" -problem lap3d -n 16 -beta 20 -factor ilu -require_run
  slepc_eps "${c[@]}" -problem lap3d -n 20 -factor cholesky "${nd[@]}"
  # nonsymmetric LU: SuperLU pivots rows, so its column ordering is COLAMD (made for partial pivoting); nested dissection
  # of A + A^T is made for LU without pivoting and fills in once rows move (5.8 s per factorization against 0.86 s on the
  # build VM at n = 20: eight solver types then ran past the 120 s limit on the H100)
  slepc_eps "${c[@]}" -problem lap3d -n 20 -beta 20 -factor lu -st_mat_sptrsv_lu_ordering colamd
  # a shipped SPD matrix (standard problem), Cholesky and LU
  slepc_eps "${c[@]}" -f "$MATDIR/bcsstk13.mtx.gz" -factor cholesky "${nd[@]}"
  slepc_eps "${c[@]}" -f "$MATDIR/494_bus.mtx.gz" -factor lu
  # SLEPc's own generalized nonsymmetric pencil bfw62a/b (carried in .slepc-cuda/share/slepc/datafiles)
  if [ -f "$d/bfw62a.petsc" ]; then
    slepc_eps "${c[@]}" -f "$d/bfw62a.petsc" -fB "$d/bfw62b.petsc" -factor ilu -require_run
    slepc_eps "${c[@]}" -f "$d/bfw62a.petsc" -fB "$d/bfw62b.petsc" -factor lu
  else
    echo "no $d/bfw62a.petsc in the carried SLEPc: bfw62 cases left out"
  fi
  return $SLEPC_RC
}

# slepc-timing: EPSSolve seconds per path (fastest of SLEPC_TIMING_REPEAT=3 solves after one EPSSetUp), for
# docs/PERFORMANCE.md (issue 13). examples/benchmarks/slepc-timing-table.py makes the Markdown table from this step's log
# ($OUT/slepc-timing.log); the step runs it at its end. Advisory: a run that fails or times out fails the step, and so
# does a type whose eigenvalues differ from the reference's; the device check does not fail.
# One eps_sinvert process per (problem, solver type), each with its own timeout (SLEPC_TIMING_TIMEOUT, default 60 s), so
# that one slow type cannot hide the others' figures: the previous form ran every type in one process at 30^3, outlasted
# its 120 s and printed nothing (sptrsv_pinv's setup alone takes 12 s at 30^3 Cholesky on the 2-core build VM). The step
# starts no run once its budget is spent (SLEPC_TIMING_BUDGET, default 200 s, with at least SLEPC_TIMING_MIN = 10 s left
# per run; run.sh gives a function step no timeout of its own): those print "not run" lines, which the table lists.
# Each case runs its reference first (petsc for host matrices, cusparse for -mat_type aijcusparse) and sptrsv_pinv last.
# A type alone in its process is checked by eps_sinvert for convergence, backward errors and backend; the table script
# compares its eigenvalues ("Eigenvalues of" line: every converged one) with the reference process's as eps_sinvert's
# MaxDiff does (1e-10 relative).
# Sizes (SLEPC_TIMING_N_CHOLESKY, _N_LU, _N_ICC): on the 2-core build VM with the host backend, the 9 processes of 26^3
# Cholesky (ND) took 35 s, 18^3 LU (SuperLU with COLAMD) 18 s, 20^3 ICC 27 s (83 s with the queries); the aijcusparse
# case adds about 40 s, and CUDA's start about 1 s per process: about 160 s on a device whose CPU is as fast.
# Log lines per run: "[slepc-timing] case=LABEL ref=REFTYPE type=TYPE", then slepc_eps's lines; a type the query finds
# without the factorization: "... type=TYPE skipped: WHY"; a run past the budget: "... type=TYPE not run: WHY".
# SLEPC_TIMING_BACKEND=host runs the step without a GPU (the aijcusparse case left out), e.g. to test the table script.
SLEPC_TIMING_T0=0
SLEPC_TIMING_RAW=/dev/null
slepc_timing_out() { tee -a "$SLEPC_TIMING_RAW"; } # stdin to the log and to the table script's input

# slepc_timing_case LABEL REFTYPE SOLVER_TYPES ARGS...: the query, then one process per available type (REFTYPE first)
slepc_timing_case() {
  local label=$1 ref=$2 list=$3 q rc=0 left tmo t types=() pinv="" out
  shift 3
  local budget=${SLEPC_TIMING_BUDGET:-200} maxt=${SLEPC_TIMING_TIMEOUT:-60}
  local back=(-st_mat_sptrsv_backend "${SLEPC_TIMING_BACKEND:-cuda}" -require_backend "${SLEPC_TIMING_BACKEND:-cuda}")
  left=$((budget - ($(date +%s) - SLEPC_TIMING_T0)))
  if [ "$left" -lt "${SLEPC_TIMING_MIN:-10}" ]; then
    echo "[slepc-timing] case=$label ref=$ref type=(every) not run: the step's budget of $budget s is spent" | slepc_timing_out
    return
  fi
  q=$(timeout $((left < 60 ? left : 60)) "$ROOT/tests/slepc/eps_sinvert" -solver_types "$list" "$@" -query 2>&1) || rc=$?
  {
    echo "[slepc-timing] case=$label ref=$ref query"
    echo "\$ eps_sinvert -solver_types $list $* -query"
    echo "$q"
    [ "$rc" != 0 ] && echo "(exit status $rc: the query failed; case $label left out)"
    echo
  } | slepc_timing_out
  if [ "$rc" != 0 ]; then
    SLEPC_RC=1
    return
  fi
  # the reference first, sptrsv_pinv (the slowest setup) last; the types without the factorization as skipped lines
  while read -r t; do
    if [ "$t" = "$ref" ]; then types=("$t" "${types[@]}"); elif [ "$t" = sptrsv_pinv ]; then pinv=$t; else types+=("$t"); fi
  done < <(sed -n 's/^available: \([^ ]*\) .*/\1/p' <<<"$q")
  [ -n "$pinv" ] && types+=("$pinv")
  sed -n 's/^skipped: \([^ ]*\) \(.*\)/[slepc-timing] case='"$label"' ref='"$ref"' type=\1 skipped: \1 \2/p' <<<"$q" | slepc_timing_out
  out=$(mktemp)
  for t in "${types[@]}"; do
    left=$((budget - ($(date +%s) - SLEPC_TIMING_T0)))
    if [ "$left" -lt "${SLEPC_TIMING_MIN:-10}" ]; then
      echo "[slepc-timing] case=$label ref=$ref type=$t not run: the step's budget of $budget s is spent" | slepc_timing_out
      continue
    fi
    tmo=$((left < maxt ? left : maxt))
    SLEPC_EPS_TIMEOUT=$tmo slepc_eps -solver_types "$t" -repeat "${SLEPC_TIMING_REPEAT:-3}" "${back[@]}" "$@" >"$out" 2>&1
    { echo "[slepc-timing] case=$label ref=$ref type=$t"; cat "$out"; } | slepc_timing_out
  done
  rm -f "$out"
}

slepc_timing() {
  local nd=(-st_pc_factor_mat_ordering_type nd) rc=0
  local nc=${SLEPC_TIMING_N_CHOLESKY:-26} nl=${SLEPC_TIMING_N_LU:-18} ni=${SLEPC_TIMING_N_ICC:-20}
  SLEPC_RC=0
  SLEPC_TIMING_T0=$(date +%s)
  SLEPC_TIMING_RAW=$(mktemp)
  echo "[slepc-timing] backend ${SLEPC_TIMING_BACKEND:-cuda}, -repeat ${SLEPC_TIMING_REPEAT:-3}, ${SLEPC_TIMING_TIMEOUT:-60} s per run, budget ${SLEPC_TIMING_BUDGET:-200} s" | slepc_timing_out
  # host matrices (SLEPc's basis vectors on the host; our factors copy each right-hand side to the GPU): Cholesky with
  # nested dissection, the largest case
  slepc_timing_case "lap3d-$nc-cholesky-nd" petsc "$SLEPC_TYPES" -problem lap3d -n "$nc" -factor cholesky "${nd[@]}"
  # cuSPARSE matrices: SLEPc's basis vectors on the GPU; PETSc's cusparse solver type (host factorization, cuSPARSE
  # triangular solves) as the reference, PETSc's host factorization beside ours
  if [ "${SLEPC_TIMING_BACKEND:-cuda}" = cuda ]; then
    slepc_timing_case "lap3d-$nc-cholesky-nd-aijcusparse" cusparse "cusparse,$SLEPC_TYPES" -mat_type aijcusparse -problem lap3d -n "$nc" -factor cholesky "${nd[@]}"
  else
    echo "[slepc-timing] the aijcusparse case needs the CUDA backend (SLEPC_TIMING_BACKEND=$SLEPC_TIMING_BACKEND): left out" | slepc_timing_out
  fi
  # nonsymmetric LU (SuperLU with COLAMD, as in slepc_check: nested dissection fills in once rows pivot)
  slepc_timing_case "lap3d-$nl-beta20-lu-colamd" petsc "$SLEPC_TYPES" -problem lap3d -n "$nl" -beta 20 -factor lu -st_mat_sptrsv_lu_ordering colamd
  # ICC(0) inside GMRES to 1e-13: many triangular solves per EPSSolve, no fill, no factorization cost
  slepc_timing_case "lap3d-$ni-icc" petsc "$SLEPC_TYPES" -problem lap3d -n "$ni" -factor icc
  echo "[slepc-timing] runs done in $(($(date +%s) - SLEPC_TIMING_T0)) s"
  echo
  # the table, and the eigenvalues of each type against its case's reference's (exit 1 on a difference)
  if command -v python3 >/dev/null 2>&1; then
    python3 "$ROOT/examples/benchmarks/slepc-timing-table.py" --check "$SLEPC_TIMING_RAW" || rc=$?
    if [ "$rc" != 0 ]; then
      SLEPC_RC=1
      echo "(slepc-timing-table.py: exit status $rc)"
    fi
  else
    echo "no python3: no table, and the types' eigenvalues are not compared with the reference's"
  fi
  rm -f "$SLEPC_TIMING_RAW"
  SLEPC_TIMING_RAW=/dev/null
  return $SLEPC_RC
}
