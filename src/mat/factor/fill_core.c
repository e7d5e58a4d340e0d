/*
   The core shared by ILU(k) (iluk.c) and ICC(k) (icck.c), see fill_core.h: the symbolic phase's work space and the
   storing of a formed row, and the numeric phase's row loop (zero-pivot check, shift restarts, inverted diagonal).
*/
#include "fill_core.h"

/*
  SpTrsvFillWorkCreate - the work space of a symbolic phase of n rows with the given levels of fill; fill * nnzA is
  only a hint for the first allocation of the column arrays (the factor has about fill * nnz(A) entries). lower: a
  strict lower part is stored too (ILU); collists: the column lists of the pivot rows (ICC)
*/
PetscErrorCode SpTrsvFillWorkCreate(PetscInt n, PetscInt levels, PetscReal fill, PetscInt nnzA, PetscBool lower, PetscBool collists, SpTrsvFillWork *wk)
{
  PetscInt64 hint;

  PetscFunctionBegin;
  hint = (PetscInt64)PetscMin(PetscMax(fill, 1.0) * (PetscReal)nnzA / 2, (PetscReal)PETSC_INT_MAX - 1);
  hint = PetscMin(hint, (PetscInt64)n * (PetscInt64)(n - 1) / 2 + 1);
  if (lower) PetscCall(SpTrsvIntBufReserve(&wk->lj, hint));
  PetscCall(SpTrsvIntBufReserve(&wk->uj, hint));
  PetscCall(SpTrsvIntBufReserve(&wk->ul, levels ? hint : 1));
  if (lower) PetscCall(PetscMalloc1(n + 1, &wk->li));
  PetscCall(PetscMalloc1(n + 1, &wk->ui));
  PetscCall(PetscMalloc3(n + 1, &wk->nxt, n + 1, &wk->lev, n + 1, &wk->cols));
  if (collists) PetscCall(PetscMalloc3(n + 1, &wk->il, n + 1, &wk->head, n + 1, &wk->rnext));
  for (PetscInt c = 0; c < n; c++) wk->lev[c] = -1;
  if (collists)
    for (PetscInt c = 0; c < n; c++) wk->head[c] = n;
  if (lower) wk->li[0] = 0;
  wk->ui[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvFillWorkFree(SpTrsvFillWork *wk)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(wk->li));
  PetscCall(PetscFree(wk->ui));
  PetscCall(PetscFree(wk->lj.a));
  PetscCall(PetscFree(wk->uj.a));
  PetscCall(PetscFree(wk->ul.a));
  PetscCall(PetscFree3(wk->nxt, wk->lev, wk->cols));
  PetscCall(PetscFree3(wk->il, wk->head, wk->rnext));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFillRowStore - store the active row i: its columns left of i into the lower part (there is none for ICC, whose
  rows start at their diagonal), right of i into the upper part with their levels (levels > 0); the list is emptied
  (lev[] back to -1). hasdiag: whether column i was in it.
*/
PetscErrorCode SpTrsvFillRowStore(SpTrsvFillWork *wk, PetscInt n, PetscInt i, PetscInt levels, PetscBool *hasdiag)
{
  PetscInt *nxt = wk->nxt, *lev = wk->lev;

  PetscFunctionBegin;
  *hasdiag = PETSC_FALSE;
  for (PetscInt c = nxt[n]; c < n; c = nxt[c]) {
    if (c < i) PetscCall(SpTrsvIntBufAppend(&wk->lj, c));
    else if (c == i) *hasdiag = PETSC_TRUE;
    else {
      PetscCall(SpTrsvIntBufAppend(&wk->uj, c));
      if (levels > 0) PetscCall(SpTrsvIntBufAppend(&wk->ul, lev[c]));
    }
    lev[c] = -1;
  }
  if (wk->li) wk->li[i + 1] = (PetscInt)wk->lj.n;
  wk->ui[i + 1] = (PetscInt)wk->uj.n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorRowsRun - the numeric row loop of ILU(k) and ICC(k) on A's CSR: the same pattern as at the symbolic
  phase, PETSc's shift set-up; then passes over the rows (ops->row forms row i, rows in the factor's order r = rperm),
  each pivot checked by SpTrsvShiftCheckPivot() (zero pivots, shifts, their messages naming the row of the factor and
  of the input), 1/pivot stored in U->idiag; a shift that needs a restart (NONZERO, POSITIVE_DEFINITE) starts a new pass
*/
PetscErrorCode SpTrsvFactorRowsRun(SpTrsvFactor fac, const MatFactorInfo *info, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscInt nnzA, const PetscInt *adiag, SpTrsvShiftCtx *sctx, const SpTrsvFactorRowsOps *ops, void *ctx)
{
  const PetscInt n = fac->n, *rp = fac->rperm;
  PetscScalar   *idiag = fac->U->idiag;
  PetscLogDouble flops = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckSamePattern(n, nnzA, ai, aj, adiag));
  PetscCall(SpTrsvShiftSetUp(info, n, ai, adiag, aa, sctx));
  do {
    sctx->newshift = PETSC_FALSE;
    if (ops->pass) ops->pass(ctx);
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = rp ? rp[i] : i, nzp = sctx->nzeropivot;
      PetscReal      rs  = 0.0;
      PetscScalar    pv;

      ops->row(ctx, i, sctx->shift_amount, &pv, &rs, &flops);
      /* pivot check: may ask for a restart with a (larger) shift */
      sctx->rs = rs;
      sctx->pv = pv;
      PetscCall(SpTrsvShiftCheckPivot(info, sctx, i, row));
      if (ops->zeropivot_row && sctx->nzeropivot > nzp) sctx->zeropivot_row = ops->zeropivot_row(ctx, i);
      if (sctx->newshift) break;
      idiag[i] = 1.0 / sctx->pv; /* INBLOCKS may have shifted this pivot */
    }
    if (ops->refine) PetscCall(SpTrsvShiftRefine(info, sctx));
  } while (sctx->newshift);
  PetscCall(PetscLogFlops(flops + n));
  PetscFunctionReturn(PETSC_SUCCESS);
}
