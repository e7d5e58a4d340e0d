/* SpTrsvSolver: one oriented triangle op(T) bound to a storage format, a plan and a backend */
#include <sptrsv/backend.h>

/*
  SpTrsvSolverCreate - analyse op(T) (pattern only) and hand the plan to the backend
*/
PetscErrorCode SpTrsvSolverCreate(SpTrsvTri tri, PetscBool transpose, SpTrsvFormat format, SpTrsvPlanType ptype, const SpTrsvBackendOps *backend, SpTrsvSolver *solver)
{
  SpTrsvSolver s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
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
