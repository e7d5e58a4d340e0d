/* SpTrsvSolver: one oriented triangle op(T) bound to a storage format, a path's plan and a backend's executor */
#include <sptrsv/backend.h>

/* the solver layer's functions as executors reach them (s->ops: a delegate's or fallback's solver) */
static const SpTrsvSolverOps SpTrsvSolverOpsDefault = {SpTrsvSolverCreateWithOptions, SpTrsvSolverUpdateValues, SpTrsvSolverApply, SpTrsvSolverDestroy};

/*
  SpTrsvSolverCreate - SpTrsvSolverCreateWithOptions() with SpTrsvPathOptionsDefault(): every path's options from the
  global options (no prefix), so that a delegate or fallback the path creates reads its own too
*/
PetscErrorCode SpTrsvSolverCreate(SpTrsvTri tri, PetscBool transpose, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, SpTrsvSolver *solver)
{
  SpTrsvPathOptions opts;

  PetscFunctionBegin;
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  PetscCall(SpTrsvSolverCreateWithOptions(tri, transpose, format, path, backend, &opts, solver));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the relaxation term of a CSC sweep, keep / idiag_i = (1 - omega) a_ii / omega */
static PetscErrorCode SpTrsvSolverComputeCDiag(SpTrsvSolver s)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < s->tri->n; i++) s->cdiag[i] = s->keep / s->tri->idiag[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a new solver of op(T), not analysed yet: its options, executor and fields; rest and omega only for sweeps */
static PetscErrorCode SpTrsvSolverNew(SpTrsvTri tri, PetscBool transpose, SpTrsvTri rest, PetscReal omega, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, SpTrsvSolver *solver)
{
  SpTrsvSolver s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->ops       = &SpTrsvSolverOpsDefault;
  s->opts      = *opts;
  s->tri       = tri;
  s->transpose = transpose;
  s->format    = format;
  s->backend   = backend;
  s->rest      = rest;
  s->keep      = 1.0 - omega;
  PetscCall(SpTrsvPathOptionsGet(&s->opts, path, &s->own));
  if (path->options_backend) PetscCall((*path->options_backend)(backend->slot, (void *)s->own)); /* what only another backend's executor reads, off */
  PetscCall(SpTrsvPathGetExecutor(path, backend->slot, &s->exec));
  PetscCheck(!rest || s->exec->sweep, PETSC_COMM_SELF, PETSC_ERR_SUP, "Path %s has no Gauss-Seidel sweeps", path->name);
  *solver = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the operator the analysis reads: op(T), with T's columns built first for the CSC format (a transpose builds them anyway) */
static PetscErrorCode SpTrsvSolverGetOp(SpTrsvSolver s)
{
  PetscFunctionBegin;
  if (s->format == SPTRSV_FORMAT_CSC) PetscCall(SpTrsvTriBuildCSC(s->tri));
  PetscCall(SpTrsvTriGetOp(s->tri, s->transpose, &s->op));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an analysed solver (its plan) handed to the backend (the upload); a failed setup gives back what it made and *sp is NULL */
static PetscErrorCode SpTrsvSolverSetUpBackend(SpTrsvSolver *sp)
{
  SpTrsvSolver   s = *sp;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (s->rest && s->format == SPTRSV_FORMAT_CSC) {
    PetscCall(PetscMalloc1(s->tri->n + 1, &s->cdiag));
    PetscCall(SpTrsvSolverComputeCDiag(s));
  }
  PetscCall(PetscLogEventBegin(SPTRSV_Upload, 0, 0, 0, 0));
  {
    SpTrsvDevMem *saved;

    SpTrsvDevMemBegin(&s->mem, &saved);
    ierr = (*s->exec->setup)(s);
    SpTrsvDevMemEnd(saved);
  }
  PetscCall(PetscLogEventEnd(SPTRSV_Upload, 0, 0, 0, 0));
  if (ierr) { /* e.g. a device allocation that failed: give back what the setup made, then report */
    PetscCall(SpTrsvSolverDestroy(sp));
    PetscCall(ierr);
  }
  s->state      = s->tri->state;
  s->rest_state = s->rest ? s->rest->state : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* create, analyse (pattern of op(T) only) and hand to the backend; rest and omega only for sweeps */
static PetscErrorCode SpTrsvSolverCreate_Private(SpTrsvTri tri, PetscBool transpose, SpTrsvTri rest, PetscReal omega, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, SpTrsvSolver *solver)
{
  SpTrsvSolver   s;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(SpTrsvSolverNew(tri, transpose, rest, omega, format, path, backend, opts, &s));
  PetscCall(PetscLogEventBegin(SPTRSV_Analysis, 0, 0, 0, 0));
  ierr = SpTrsvSolverGetOp(s);
  if (!ierr) ierr = SpTrsvPlanCreate(&s->op, path, format, &s->opts, &s->plan);
  PetscCall(PetscLogEventEnd(SPTRSV_Analysis, 0, 0, 0, 0));
  if (ierr) { /* e.g. an option value the path rejects: nothing is kept */
    PetscCall(PetscFree(s));
    PetscCall(ierr);
  }
  PetscCall(SpTrsvSolverSetUpBackend(&s));
  *solver = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreatePairWithOptions - SpTrsvSolverCreateWithOptions() of a factor's L and U (not transposed) on one path,
  their analyses at once where the path can (SpTrsvPlanCreatePair(); one SpTrsvAnalysis event for both)
*/
PetscErrorCode SpTrsvSolverCreatePairWithOptions(SpTrsvTri L, SpTrsvTri U, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, SpTrsvSolver *solverL, SpTrsvSolver *solverU)
{
  SpTrsvSolver   s[2] = {NULL, NULL};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!path->analyze_pair) {
    PetscCall(SpTrsvSolverCreateWithOptions(L, PETSC_FALSE, format, path, backend, opts, solverL));
    ierr = SpTrsvSolverCreateWithOptions(U, PETSC_FALSE, format, path, backend, opts, solverU);
    if (ierr) PetscCall(SpTrsvSolverDestroy(solverL));
    PetscCall(ierr);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvSolverNew(L, PETSC_FALSE, NULL, 1.0, format, path, backend, opts, &s[0]));
  ierr = SpTrsvSolverNew(U, PETSC_FALSE, NULL, 1.0, format, path, backend, opts, &s[1]);
  if (ierr) PetscCall(PetscFree(s[0]));
  PetscCall(ierr);
  PetscCall(PetscLogEventBegin(SPTRSV_Analysis, 0, 0, 0, 0));
  ierr = SpTrsvSolverGetOp(s[0]);
  if (!ierr) ierr = SpTrsvSolverGetOp(s[1]);
  if (!ierr) ierr = SpTrsvPlanCreatePair(&s[0]->op, &s[1]->op, path, format, &s[0]->opts, &s[0]->plan, &s[1]->plan);
  PetscCall(PetscLogEventEnd(SPTRSV_Analysis, 0, 0, 0, 0));
  if (ierr) {
    PetscCall(PetscFree(s[0]));
    PetscCall(PetscFree(s[1]));
    PetscCall(ierr);
  }
  ierr = SpTrsvSolverSetUpBackend(&s[0]); /* on an error: destroyed, NULL */
  if (!ierr) ierr = SpTrsvSolverSetUpBackend(&s[1]);
  if (ierr) {
    if (s[1] && !s[0]) { /* s[1] analysed, never set up */
      PetscCall(SpTrsvPlanDestroy(&s[1]->plan));
      PetscCall(PetscFree(s[1]));
    }
    PetscCall(SpTrsvSolverDestroy(&s[0]));
    PetscCall(ierr);
  }
  *solverL = s[0];
  *solverU = s[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreateWithOptions - analyse op(T) (pattern only) and hand the plan to the backend
*/
PetscErrorCode SpTrsvSolverCreateWithOptions(SpTrsvTri tri, PetscBool transpose, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, SpTrsvSolver *solver)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvSolverCreate_Private(tri, transpose, NULL, 1.0, format, path, backend, opts, solver));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreateSweep - a relaxed sweep over A = T + R (see SpTrsvSolver in backend.h): T holds
  the strict triangle the sweep waits for and idiag_i = omega / a_ii, R the opposite strict triangle
  (same n). The plan is computed on T alone.
*/
PetscErrorCode SpTrsvSolverCreateSweep(SpTrsvTri tri, SpTrsvTri rest, PetscReal omega, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *backend, const SpTrsvPathOptions *opts, SpTrsvSolver *solver)
{
  PetscFunctionBegin;
  PetscCheck(rest && rest->n == tri->n && rest->uplo != tri->uplo, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "A sweep needs the opposite strict triangle of the same size");
  PetscCheck(!tri->unit && tri->idiag, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "A sweep needs an explicit diagonal");
  PetscCall(SpTrsvSolverCreate_Private(tri, PETSC_FALSE, rest, omega, format, path, backend, opts, solver));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverUpdateValues - refresh the backend's copy of the values if the triangle (or the rest of
  a sweep) changed
*/
PetscErrorCode SpTrsvSolverUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  if (s->state == s->tri->state && (!s->rest || s->rest_state == s->rest->state)) PetscFunctionReturn(PETSC_SUCCESS);
  if (s->cdiag) PetscCall(SpTrsvSolverComputeCDiag(s));
  SpTrsvDevMemScope(&s->mem, (*s->exec->update_values)(s));
  s->state = s->tri->state;
  if (s->rest) s->rest_state = s->rest->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverUpdateValuesDevice - the triangle's new values are already on the device (a GPU numeric
  factorization, PC gs's device refresh): a = T's CSR values, d = T's inverted diagonal (NULL for a unit triangle),
  r = the rest's CSR values of a sweep solver (NULL for a plain triangle), device arrays in T->a's, T->idiag's and
  R->a's layouts. The executor copies them into its own order (a CSC sweep's keep / idiag too) and the solver is
  marked current, so SpTrsvSolverUpdateValues() does not upload the (stale) host values later; the host cdiag of a
  CSC sweep is recomputed at the next host refresh.
*/
PetscErrorCode SpTrsvSolverUpdateValuesDevice(SpTrsvSolver s, const PetscScalar *a, const PetscScalar *d, const PetscScalar *r)
{
  PetscFunctionBegin;
  PetscCheck(s->exec->update_values_device, PETSC_COMM_SELF, PETSC_ERR_SUP, "The %s executor cannot take values from the device", s->backend->name);
  PetscCheck(!s->rest == !r, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s", s->rest ? "Device values for a sweep solver need the rest's values" : "Device rest values for a solver without a rest");
  SpTrsvDevMemScope(&s->mem, (*s->exec->update_values_device)(s, a, d, r));
  s->state = s->tri->state;
  if (s->rest) s->rest_state = s->rest->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverMarkCurrent - the backend's copy of the values is current (the host values were brought in line with it,
  e.g. downloaded after a GPU numeric phase): no upload at the next use; a nested solver it forwards to (s->nested) too
*/
PetscErrorCode SpTrsvSolverMarkCurrent(SpTrsvSolver s)
{
  PetscFunctionBegin;
  s->state = s->tri->state;
  if (s->rest) s->rest_state = s->rest->state;
  if (s->nested) PetscCall(SpTrsvSolverMarkCurrent(s->nested));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverApply - x = op(T)^{-1} b, arrays in the backend's memory, b != x. For a sweep solver this
  is the sweep from a zero iterate.
*/
PetscErrorCode SpTrsvSolverApply(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvSolverUpdateValues(s));
  SpTrsvDevMemScope(&s->mem, (*s->exec->solve)(s, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverSweep - x_i = keep xold_i + idiag_i (b_i - sum_j T_ij x_j - sum_j R_ij xold_j) in the
  plan's order (a sweep solver), arrays in the backend's memory; b != x. xold may be x itself when
  every entry R_ij has a matching T_ji (a structurally symmetric A): row j then depends on row i, so it
  is solved after row i has read the old x_j.
*/
PetscErrorCode SpTrsvSolverSweep(SpTrsvSolver s, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCheck(s->rest, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not a sweep solver");
  PetscCall(SpTrsvSolverUpdateValues(s));
  SpTrsvDevMemScope(&s->mem, (*s->exec->sweep)(s, b, xold, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* flops of one solve, counted as PETSc counts MatSolve: a multiply-add per off-diagonal entry and a
   multiply per row for an explicit diagonal */
PetscLogDouble SpTrsvSolverFlops(SpTrsvSolver s)
{
  return 2.0 * s->op.nnz + (s->op.unit ? 0.0 : s->op.n);
}

/* flops of a sweep from a nonzero iterate: T and R entries, and the relaxation of each row */
PetscLogDouble SpTrsvSolverSweepFlops(SpTrsvSolver s)
{
  return 2.0 * (s->op.nnz + (s->rest ? s->rest->i[s->rest->n] : 0)) + 3.0 * s->op.n;
}

PetscErrorCode SpTrsvSolverDestroy(SpTrsvSolver *solver)
{
  SpTrsvSolver s = *solver;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  if (s->exec) PetscCall((*s->exec->destroy)(s));
  PetscCall(SpTrsvPlanDestroy(&s->plan));
  PetscCall(PetscFree(s->cdiag));
  SpTrsvDevMemDetach(&s->mem); /* nothing should be left; if something is, no table entry points into s */
  PetscCall(PetscFree(s));
  *solver = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
