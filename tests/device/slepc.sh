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

# slepc-timing: EPSSolve time per path (fastest of 3 solves after one EPSSetUp), for docs/PERFORMANCE.md. Advisory:
# it also asserts the eigenvalues, but a slow or skipped path does not fail the device check.
slepc_timing() {
  local c=(-solver_types "$SLEPC_TYPES" -st_mat_sptrsv_backend cuda -require_backend cuda -repeat 3)
  local nd=(-st_pc_factor_mat_ordering_type nd)
  SLEPC_RC=0
  # host matrices (the vectors of SLEPc's basis stay on the host; our factors copy each right-hand side to the GPU)
  slepc_eps "${c[@]}" -problem lap3d -n 30 -factor cholesky "${nd[@]}"
  slepc_eps "${c[@]}" -problem lap3d -n 30 -beta 20 -factor lu -st_mat_sptrsv_lu_ordering colamd
  slepc_eps "${c[@]}" -problem lap3d -n 16 -factor icc
  # cuSPARSE matrices: SLEPc's basis vectors on the GPU; PETSc's cusparse solver type (host factorization, cuSPARSE
  # triangular solves) as the reference, PETSc's host factorization beside ours
  slepc_eps -solver_types "cusparse,petsc,all,sptrsv_supernodal,sptrsv_pinv" -mat_type aijcusparse -st_mat_sptrsv_backend cuda -require_backend cuda -repeat 3 -problem lap3d -n 30 -factor cholesky "${nd[@]}"
  return $SLEPC_RC
}
