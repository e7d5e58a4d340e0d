/* The row executors shared by the host executors of the paths that run rows in plan order (see
   include/sptrsv/host_rows.h) */
#include <sptrsv/host_rows.h>

/*
   The executors run the rows in the plan's order, order[0..n-1]. For a level plan that is level after
   level; for an element plan it is the dispatch order the GPU warps take (checked at setup to put
   every dependency first), so the host runs the same schedule one row at a time.
*/

/* rows of op(T), pull: x_i = keep xold_i + idiag_i (b_i - sum_j T_ij x_j - sum_j R_ij xold_j); without
   a rest (R = NULL) and without xold this is the triangular solve x_i = (b_i - sum_j T_ij x_j) idiag_i */
static void SpTrsvHostRowsCSR(const SpTrsvOp *op, const SpTrsvPlan plan, SpTrsvTri R, PetscScalar keep, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  for (PetscInt k = 0; k < op->n; k++) {
    const PetscInt i = plan->order[k];
    PetscScalar    s = b[i];
    for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) s -= op->ra[p] * x[op->rj[p]];
    if (R && xold) {
      for (PetscInt p = R->i[i]; p < R->i[i + 1]; p++) s -= R->a[p] * xold[R->j[p]];
      x[i] = keep * xold[i] + s * op->idiag[i];
    } else x[i] = op->unit ? s : s * op->idiag[i];
  }
}

/* columns of op(T), push: once x_i is final it pushes its updates to the rows that depend on it */
static void SpTrsvHostColumnsCSC(const SpTrsvOp *op, const SpTrsvPlan plan, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt i = 0; i < op->n; i++) x[i] = b[i];
  for (PetscInt k = 0; k < op->n; k++) {
    const PetscInt    i  = plan->order[k];
    const PetscScalar xi = op->unit ? x[i] : x[i] * op->idiag[i];
    x[i]                 = xi;
    for (PetscInt p = op->ci[i]; p < op->ci[i + 1]; p++) x[op->cj[p]] -= op->ca[p] * xi;
  }
}

/* a CSC sweep first folds the old iterate into the right-hand side, w_i = b_i + cdiag_i xold_i -
   sum_j R_ij xold_j (cdiag_i = keep / idiag_i), then solves with T: the same x as the CSR sweep */
static void SpTrsvHostSweepRHS(PetscInt n, SpTrsvTri R, const PetscScalar *cdiag, const PetscScalar *b, const PetscScalar *xold, PetscScalar *w)
{
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar s = b[i] + cdiag[i] * xold[i];
    for (PetscInt p = R->i[i]; p < R->i[i + 1]; p++) s -= R->a[p] * xold[R->j[p]];
    w[i] = s;
  }
}

/* the plan and the triangle already live on the host; a CSC sweep needs a right-hand side */
PetscErrorCode SpTrsvHostOrderedSetup(SpTrsvSolver s)
{
  PetscFunctionBegin;
  if (s->rest && s->format == SPTRSV_FORMAT_CSC) PetscCall(PetscMalloc1(s->op.n + 1, (PetscScalar **)&s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvHostOrderedUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS); /* values are read in place from the triangle */
}

PetscErrorCode SpTrsvHostOrderedSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  if (s->format == SPTRSV_FORMAT_CSR) SpTrsvHostRowsCSR(&s->op, s->plan, NULL, 0.0, b, NULL, x);
  else SpTrsvHostColumnsCSC(&s->op, s->plan, b, x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvHostOrderedSweep(SpTrsvSolver s, const PetscScalar *b, const PetscScalar *xold, PetscScalar *x)
{
  PetscFunctionBegin;
  if (s->format == SPTRSV_FORMAT_CSR) SpTrsvHostRowsCSR(&s->op, s->plan, s->rest, s->keep, b, xold, x);
  else {
    PetscScalar *w = (PetscScalar *)s->bdata;
    SpTrsvHostSweepRHS(s->op.n, s->rest, s->cdiag, b, xold, w);
    SpTrsvHostColumnsCSC(&s->op, s->plan, w, x);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvHostOrderedDestroy(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}
