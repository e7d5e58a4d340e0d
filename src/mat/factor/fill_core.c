/*
   The core shared by ILU(k) (iluk.c) and ICC(k) (icck.c), see fill_core.h: the symbolic phase's work space and the
   storing of a formed row, and the numeric phase's row loop (zero-pivot check, shift restarts, inverted diagonal).
*/
#include "fill_core.h"
#include <sptrsv/threads.h>

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

/* the level-0 pattern without a column permutation, by ranges of rows (SpTrsvThreadsFor()): the counts, then the copy */
typedef struct {
  const PetscInt *ai, *aj, *adiag, *rp;
  PetscInt       *Li, *Lj, *Ui, *Uj; /* Li NULL: no L part */
} SpTrsvFillLevel0Ctx;

/* Li[i + 1], Ui[i + 1] = the counts of row i's L and U parts: the split point of its row of A (the diagonal's position
   when known, else a binary search for the first column >= i, then past column i if present) */
static void SpTrsvFillLevel0Count(void *ctx, PetscInt lo_row, PetscInt hi_row)
{
  const SpTrsvFillLevel0Ctx *c = (const SpTrsvFillLevel0Ctx *)ctx;
  const PetscInt            *ai = c->ai, *aj = c->aj, *rp = c->rp;

  for (PetscInt i = lo_row; i < hi_row; i++) {
    const PetscInt row = rp ? rp[i] : i;
    PetscInt       lo, hi;

    if (c->adiag && !rp) { /* factored row i is row i of A: its diagonal splits it */
      lo = c->adiag[i];
      hi = lo + 1;
    } else {
      lo = ai[row];
      hi = ai[row + 1];
      while (lo < hi) {
        const PetscInt mid = lo + (hi - lo) / 2;
        if (aj[mid] < i) lo = mid + 1;
        else hi = mid;
      }
      hi = (lo < ai[row + 1] && aj[lo] == i) ? lo + 1 : lo;
    }
    if (c->Li) c->Li[i + 1] = lo - ai[row];
    c->Ui[i + 1] = ai[row + 1] - hi;
  }
}

/* rows [lo_row, hi_row) copied into Lj, Uj at the prefix sums Li, Ui (short rows: a loop, not a memcpy() call per row) */
static void SpTrsvFillLevel0Copy(void *ctx, PetscInt lo_row, PetscInt hi_row)
{
  const SpTrsvFillLevel0Ctx *c = (const SpTrsvFillLevel0Ctx *)ctx;
  const PetscInt            *ai = c->ai, *aj = c->aj, *rp = c->rp, *Li = c->Li, *Ui = c->Ui;

  for (PetscInt i = lo_row; i < hi_row; i++) {
    const PetscInt  row = rp ? rp[i] : i, nui = Ui[i + 1] - Ui[i];
    const PetscInt *au = aj + ai[row + 1] - nui;
    PetscInt       *u  = c->Uj + Ui[i];

    if (Li)
      for (PetscInt k = 0; k < Li[i + 1] - Li[i]; k++) c->Lj[Li[i] + k] = aj[ai[row] + k];
    for (PetscInt k = 0; k < nui; k++) u[k] = au[k];
  }
}

/* SpTrsvFillPatternLevel0 - ILU(0), and with li = lj = NULL ICC(0) (its upper part only): no fill, so the factored row i is
   row rp[i] of A with its columns renumbered by icp, split at the diagonal (sorted when icp is not the identity): where
   the level-of-fill merge would walk a linked list per row.
   Without a column permutation the columns of a row ascend already: the split point of each row gives the counts, their
   prefix sums the row pointers, and the rows are copied as they are, the counts and the copy split over the setup's
   threads (threads.h: each thread first touches its own rows' pages); with one, two passes over the entries (count,
   then fill and sort). */
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
    SpTrsvFillLevel0Ctx c = {ai, aj, adiag, rp, Li, NULL, Ui, NULL};

    PetscCall(SpTrsvThreadsFor(n, SpTrsvFillLevel0Count, &c));
    for (PetscInt i = 0; i < n; i++) {
      if (lower) Li[i + 1] += Li[i];
      Ui[i + 1] += Ui[i];
    }
    if (lower) PetscCall(PetscMalloc1(Li[n] + 1, &Lj));
    PetscCall(PetscMalloc1(Ui[n] + 1, &Uj));
    c.Lj = Lj;
    c.Uj = Uj;
    PetscCall(SpTrsvThreadsFor(n, SpTrsvFillLevel0Copy, &c));
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
