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


