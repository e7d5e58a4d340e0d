/*
   The core shared by ILU(k) (iluk.c) and ICC(k) (icck.c): the level-of-fill pattern built row by row, the column lists
   of the pivot rows, and the numeric row loop with PETSc's zero-pivot shifts (fill_core.c). Private to src/mat/factor.
*/
#pragma once
#include <sptrsv/factor.h>

/*
   SpTrsvFillWork - the symbolic phase's state (freed on error). The active row is a sorted linked list over the
   column indices (nxt[], head at slot n, end marker n) with the levels of its entries in lev[] (-1 = absent), see
   SpTrsvFillListMerge(); the rows already formed are stored in CSR (li/lj: strict lower part, ILU only; ui/uj:
   strict upper part, ul: the levels of uj, kept only with levels > 0 for the rows below). il/head/rnext: the
   column lists of the pivot rows (ICC only, SpTrsvColListWait()).
*/
typedef struct {
  PetscInt    *li, *ui;           /* row pointers of the strict lower (NULL without one) and strict upper parts */
  SpTrsvIntBuf lj, uj, ul;        /* their columns, and the levels of the upper part's */
  PetscInt    *nxt, *lev, *cols;  /* the active row: linked list, levels, a buffer of n + 1 */
  PetscInt    *il, *head, *rnext; /* column lists of the pivot rows (NULL without them) */
} SpTrsvFillWork;

SPTRSV_INTERN PetscErrorCode SpTrsvFillWorkCreate(PetscInt, PetscInt, PetscReal, PetscInt, PetscBool, PetscBool, SpTrsvFillWork *); /* n, levels, fill, nnz(A), lower part, column lists */
SPTRSV_INTERN PetscErrorCode SpTrsvFillWorkFree(SpTrsvFillWork *);
SPTRSV_INTERN PetscErrorCode SpTrsvFillPatternLevel0(PetscInt, const PetscInt *, const PetscInt *, const PetscInt *, const PetscInt *, const PetscInt *, PetscBool, PetscInt **, PetscInt **, PetscInt **, PetscInt **); /* ILU(0)/ICC(0) pattern: n, ai, aj, adiag, rp, icp, sort, li, lj (NULL: upper only), ui, uj */

/* SpTrsvFillRowStart - the active row at level 0: the ascending columns cols[0..nz) */
static inline void SpTrsvFillRowStart(PetscInt n, PetscInt nz, const PetscInt *cols, PetscInt *nxt, PetscInt *lev)
{
  PetscInt last = n;

  for (PetscInt t = 0; t < nz; t++) {
    nxt[last]     = cols[t];
    lev[cols[t]]  = 0;
    last          = cols[t];
  }
  nxt[last] = n;
}

/*
   SpTrsvColListWait - row i, whose next unused entry is slot p of the upper part, in column c, joins the list of
   column c: pushed at the head (head[c]), as PETSc's ICC does, so rows are visited in PETSc's order
*/
static inline void SpTrsvColListWait(PetscInt i, PetscInt p, PetscInt c, PetscInt *il, PetscInt *head, PetscInt *next)
{
  il[i]   = p;
  next[i] = head[c];
  head[c] = i;
}

/* SpTrsvFillClearRow - w = 0 on the columns j[p0..p1) */
static inline void SpTrsvFillClearRow(PetscInt p0, PetscInt p1, const PetscInt *j, PetscScalar *w)
{
  for (PetscInt p = p0; p < p1; p++) w[j[p]] = 0.0;
}

/* SpTrsvFillGatherRow - a[p] = w[j[p]] for p in [p0, p1), adding |a[p]| to *rs */
static inline void SpTrsvFillGatherRow(PetscInt p0, PetscInt p1, const PetscInt *j, const PetscScalar *w, PetscScalar *a, PetscReal *rs)
{
  PetscReal r = *rs; /* a local sum: a store to a[] could alias *rs */

  for (PetscInt p = p0; p < p1; p++) {
    a[p] = w[j[p]];
    r += PetscAbsScalar(a[p]);
  }
  *rs = r;
}

/*
   SpTrsvFactorRowsOps - what a factorization does in the numeric row loop of SpTrsvFactorRowsRun():
     pass:          at the start of every pass (a shift that needs a restart starts a new one); NULL: nothing
     row:           form factored row i with shift added to its diagonal: store its off-diagonal values, return its
                    pivot, the sum of the |values| stored and add its flops
     zeropivot_row: the row recorded for a zero pivot met in row i (NULL: i)
     refine:        bisect a POSITIVE_DEFINITE shift back after a pass (ILU, as PETSc's LU; not PETSc's ICC)
*/
typedef struct {
  void (*pass)(void *);
  void (*row)(void *, PetscInt, PetscReal, PetscScalar *, PetscReal *, PetscLogDouble *);
  PetscInt (*zeropivot_row)(void *, PetscInt);
  PetscBool refine;
} SpTrsvFactorRowsOps;

/* the numeric row loop of ILU(k) and ICC(k): A's CSR (ai, aj, aa) with nnzA entries and diagonal positions adiag */

/* The two per-row loops below are static inline: each factorization calls them once with its own constant ops, so the
   compiler inlines its row function into the loop (as in the separate ILU and ICC loops they replace; an indirect call
   per row cost 5-10% of the numeric phase) */
/*
  SpTrsvFillRowStore - store the active row i: its columns left of i into the lower part (there is none for ICC, whose
  rows start at their diagonal), right of i into the upper part with their levels (levels > 0); the list is emptied
  (lev[] back to -1). hasdiag: whether column i was in it.
*/
static inline PetscErrorCode SpTrsvFillRowStore(SpTrsvFillWork *wk, PetscInt n, PetscInt i, PetscInt levels, PetscBool *hasdiag)
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
static SPTRSV_FORCE_INLINE PetscErrorCode SpTrsvFactorRowsRun(SpTrsvFactor fac, const MatFactorInfo *info, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscInt nnzA, const PetscInt *adiag, SpTrsvShiftCtx *sctx, const SpTrsvFactorRowsOps *ops, void *ctx)
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
