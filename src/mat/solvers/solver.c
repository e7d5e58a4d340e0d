/* SpTrsvSolver: one oriented triangle op(T) bound to a storage format, a plan and a backend */
#include <sptrsv/backend.h>

/*
  SpTrsvSolverOptionsDefault - graphs on, one pass per fused level; a program that uses the solver API
  directly (no factor Mat, so no prefix) may override them with the global -mat_sptrsv_graph and
  -mat_sptrsv_fuse_passes. Factor matrices read them with their own prefix instead.
*/
PetscErrorCode SpTrsvSolverOptionsDefault(SpTrsvSolverOptions *opts)
{
  PetscFunctionBegin;
  opts->use_graph   = PETSC_TRUE;
  opts->fuse_passes = 1;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_sptrsv_graph", &opts->use_graph, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_fuse_passes", &opts->fuse_passes, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreate - SpTrsvSolverCreateWithOptions() with SpTrsvSolverOptionsDefault()
*/
PetscErrorCode SpTrsvSolverCreate(SpTrsvTri tri, PetscBool transpose, SpTrsvFormat format, SpTrsvPlanType ptype, const SpTrsvBackendOps *backend, SpTrsvSolver *solver)
{
  SpTrsvSolverOptions opts;

  PetscFunctionBegin;
  PetscCall(SpTrsvSolverOptionsDefault(&opts));
  PetscCall(SpTrsvSolverCreateWithOptions(tri, transpose, format, ptype, backend, &opts, solver));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverCreateWithOptions - analyse op(T) (pattern only) and hand the plan to the backend
*/
PetscErrorCode SpTrsvSolverCreateWithOptions(SpTrsvTri tri, PetscBool transpose, SpTrsvFormat format, SpTrsvPlanType ptype, const SpTrsvBackendOps *backend, const SpTrsvSolverOptions *opts, SpTrsvSolver *solver)
{
  SpTrsvSolver s;

  PetscFunctionBegin;
  PetscCheck(opts->fuse_passes >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_sptrsv_fuse_passes must be >= 1, got %" PetscInt_FMT, opts->fuse_passes);
  PetscCall(PetscNew(&s));
  s->opts      = *opts;
  s->tri       = tri;
  s->transpose = transpose;
  s->format    = format;
  s->backend   = backend;
  PetscCall(SpTrsvTriGetOp(tri, transpose, &s->op));
  switch (ptype) {
  case SPTRSV_PLAN_LEVEL:
    PetscCall(SpTrsvPlanCreateLevel(&s->op, &s->plan));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Unknown plan type %d", (int)ptype);
  }
  PetscCall((*backend->setup)(s));
  s->state = tri->state;
  *solver  = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverUpdateValues - refresh the backend's copy of the values if the triangle changed
*/
PetscErrorCode SpTrsvSolverUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  if (s->state == s->tri->state) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*s->backend->update_values)(s));
  s->state = s->tri->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSolverApply - x = op(T)^{-1} b, arrays in the backend's memory, b != x
*/
PetscErrorCode SpTrsvSolverApply(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvSolverUpdateValues(s));
  PetscCall((*s->backend->solve)(s, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* flops of one solve, counted as PETSc counts MatSolve: a multiply-add per off-diagonal entry and a
   multiply per row for an explicit diagonal */
PetscLogDouble SpTrsvSolverFlops(SpTrsvSolver s)
{
  return 2.0 * s->op.nnz + (s->op.unit ? 0.0 : s->op.n);
}

PetscErrorCode SpTrsvSolverDestroy(SpTrsvSolver *solver)
{
  SpTrsvSolver s = *solver;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*s->backend->destroy)(s));
  PetscCall(SpTrsvPlanDestroy(&s->plan));
  PetscCall(PetscFree(s));
  *solver = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
