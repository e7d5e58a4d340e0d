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

/* SpTrsvFillPatternLevel0 - ILU(0), and with li = lj = NULL ICC(0) (its upper part only): no fill, so the factored row i is
   row rp[i] of A with its columns renumbered by icp, split at the diagonal (sorted when icp is not the identity): where
   the level-of-fill merge would walk a linked list per row.
   Without a column permutation the columns of a row ascend already: the split point of each row (its diagonal
   position when known, else a binary search) gives the row pointers in one pass over the rows, and the rows
   are copied as they are; with one, two passes over the entries (count, then fill and sort). */
PetscErrorCode SpTrsvFillPatternLevel0(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *adiag, const PetscInt *rp, const PetscInt *icp, PetscBool sort, PetscInt **li, PetscInt **lj, PetscInt **ui, PetscInt **uj)
{
  const PetscBool lower = (PetscBool)(li != NULL);
  PetscInt        nl = 0, nu = 0, *Li = NULL, *Lj = NULL, *Ui, *Uj;

  PetscFunctionBegin;
  if (lower) PetscCall(PetscMalloc1(n + 1, &Li));
  PetscCall(PetscMalloc1(n + 1, &Ui));
  if (lower) Li[0] = 0;
  Ui[0] = 0;
  if (!icp) {
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = rp ? rp[i] : i;
      PetscInt       lo, hi;

      if (adiag && !rp) { /* factored row i is row i of A: its diagonal splits it */
        lo = adiag[i];
        hi = lo + 1;
      } else { /* the first column >= i, then past column i if present */
        lo = ai[row];
        hi = ai[row + 1];
        while (lo < hi) {
          const PetscInt mid = lo + (hi - lo) / 2;
          if (aj[mid] < i) lo = mid + 1;
          else hi = mid;
        }
        hi = (lo < ai[row + 1] && aj[lo] == i) ? lo + 1 : lo;
      }
      if (lower) Li[i + 1] = Li[i] + (lo - ai[row]);
      Ui[i + 1] = Ui[i] + (ai[row + 1] - hi);
    }
    if (lower) PetscCall(PetscMalloc1(Li[n] + 1, &Lj));
    PetscCall(PetscMalloc1(Ui[n] + 1, &Uj));
    for (PetscInt i = 0; i < n; i++) { /* short rows: a loop, not a memcpy() call per row */
      const PetscInt  row = rp ? rp[i] : i, nui = Ui[i + 1] - Ui[i];
      const PetscInt *au = aj + ai[row + 1] - nui;
      PetscInt       *u  = Uj + Ui[i];

      if (lower)
        for (PetscInt k = 0; k < Li[i + 1] - Li[i]; k++) Lj[Li[i] + k] = aj[ai[row] + k];
      for (PetscInt k = 0; k < nui; k++) u[k] = au[k];
    }
  } else {
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = rp ? rp[i] : i;
      for (PetscInt p = ai[row]; p < ai[row + 1]; p++) {
        const PetscInt c = icp[aj[p]];
        if (c < i) nl++;
        else if (c > i) nu++;
      }
    }
    if (lower) PetscCall(PetscMalloc1(nl + 1, &Lj));
    PetscCall(PetscMalloc1(nu + 1, &Uj));
    nl = nu = 0;
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = rp ? rp[i] : i;
      for (PetscInt p = ai[row]; p < ai[row + 1]; p++) {
        const PetscInt c = icp[aj[p]];
        if (c < i && lower) Lj[nl++] = c;
        else if (c > i) Uj[nu++] = c;
      }
      if (lower) Li[i + 1] = nl;
      Ui[i + 1] = nu;
      if (sort && lower) PetscCall(PetscSortInt(Li[i + 1] - Li[i], Lj + Li[i]));
      if (sort) PetscCall(PetscSortInt(Ui[i + 1] - Ui[i], Uj + Ui[i]));
    }
  }
  if (lower) {
    *li = Li;
    *lj = Lj;
  }
  *ui = Ui;
  *uj = Uj;
  PetscFunctionReturn(PETSC_SUCCESS);
}
