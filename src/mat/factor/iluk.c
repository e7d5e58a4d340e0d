/*
   ILU(k) of a MATSEQAIJ matrix, reproducing PETSc's native SeqAIJ ILU (MatILUFactorSymbolic_SeqAIJ,
   MatLUFactorNumeric_SeqAIJ): the same pattern (levels of fill), the same elimination order and
   the same zero-pivot shifts, so the preconditioner is the same up to rounding.

   Numbering: row i of the factored matrix is row r[i] of A, column j is column c[j] of A, with
   r = rperm and c = cperm (identity when NULL); ic = c^{-1}, so A(r[i], col) lands in column ic[col].
*/
#include "fill_core.h"

static PetscErrorCode SpTrsvILUSymDestroy(void **ctx)
{
  SpTrsvILUSym *sym = (SpTrsvILUSym *)*ctx;

  PetscFunctionBegin;
  if (!sym) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(sym->icperm));
  PetscCall(PetscFree(sym->adiag));
  PetscCall(PetscFree(sym->work));
  PetscCall(PetscFree(sym));
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Symbolic ILU(k): the pattern of factored row i is computed from the pattern of row r[i] of A (level 0)
  by merging, in increasing order of prow, the strict upper part of every row prow < i present in the
  row, with the level rule (PETSc's, the classical sum rule)
      lev(i,j) = min(lev(i,j), lev(i,prow) + lev(prow,j) + 1),   kept only when <= k.
  The row is a sorted linked list over the column indices (nxt[], head at slot n, end marker n), lev[]
  holds the levels of its entries (-1 = absent). Only the levels of the strict upper parts are kept, for
  the rows below. With diagonal_fill, a missing diagonal is inserted at level 0 before the merges.
*/
static PetscErrorCode SpTrsvILUSymbolicRows(PetscInt n, PetscInt levels, PetscBool diagonal_fill, PetscReal fill, const PetscInt *ai, const PetscInt *aj, const PetscInt *rp, const PetscInt *icp, PetscBool sort, SpTrsvFillWork *wk)
{
  PetscInt *ui, *nxt, *lev, *cols;

  PetscFunctionBegin;
  PetscCall(SpTrsvFillWorkCreate(n, levels, fill, ai[n], PETSC_TRUE, PETSC_FALSE, wk));
  ui   = wk->ui;
  nxt  = wk->nxt;
  lev  = wk->lev;
  cols = wk->cols;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt row = rp ? rp[i] : i, nz = ai[row + 1] - ai[row];
    PetscInt       c;
    PetscBool      hasdiag;

    /* level-0 entries: the pattern of row r[i] of A, in factor numbering, sorted */
    const PetscInt *acols = aj + ai[row];
    if (icp) {
      for (PetscInt t = 0; t < nz; t++) cols[t] = icp[acols[t]];
      if (sort) PetscCall(PetscSortInt(nz, cols));
      acols = cols;
    }
    SpTrsvFillRowStart(n, nz, acols, nxt, lev);

    /* a nonsymmetric ordering can take the diagonal away: fill it in at level 0 if asked to */
    if (diagonal_fill && lev[i] < 0) {
      c = n;
      while (nxt[c] < i) c = nxt[c];
      nxt[i] = nxt[c];
      nxt[c] = i;
      lev[i] = 0;
    }

    /* merge the upper parts of the pivot rows prow < i (ascending; the list grows while we walk it).
       With k = 0 every merged entry would have level >= 1: nothing to do. */
    if (levels > 0) {
      for (PetscInt prow = nxt[n]; prow < i; prow = nxt[prow]) SpTrsvFillListMerge(levels, lev[prow], prow, ui[prow + 1] - ui[prow], wk->uj.a + ui[prow], wk->ul.a + ui[prow], nxt, lev);
    }

    /* store the row: strict lower part into L, strict upper part (and its levels) into U */
    PetscCall(SpTrsvFillRowStore(wk, n, i, levels, &hasdiag));
    PetscCheck(hasdiag, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input) has no diagonal entry: the row and column orderings put a zero on the diagonal; try -pc_factor_diagonal_fill or -pc_factor_nonzeros_along_diagonal", i, row);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUPattern - the patterns of L and U (strict parts, CSR, PetscMalloc'ed) of ILU(levels) of the
  CSR pattern ai/aj with row order rp (NULL: natural) and inverse column order icp (NULL: natural; sort: icp is
  not the identity); adiag (may be NULL) the positions of the diagonal entries of the rows of ai/aj, all present.
  Shared by ILU(k) and the block ILU(k) (on the block pattern).
*/
PetscErrorCode SpTrsvFactorILUPattern(PetscInt n, PetscInt levels, PetscBool diagonal_fill, PetscReal fill, const PetscInt *ai, const PetscInt *aj, const PetscInt *adiag, const PetscInt *rp, const PetscInt *icp, PetscBool sort, PetscInt **li, PetscInt **lj, PetscInt **ui, PetscInt **uj)
{
  SpTrsvFillWork wk = {0};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!levels) { /* the diagonal is not stored in L or U: diagonal_fill changes nothing at level 0 */
    PetscCall(SpTrsvFillPatternLevel0(n, ai, aj, adiag, rp, icp, sort, li, lj, ui, uj));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ierr = SpTrsvILUSymbolicRows(n, levels, diagonal_fill, fill, ai, aj, rp, icp, sort, &wk);
  if (ierr) PetscCall(SpTrsvFillWorkFree(&wk));
  PetscCall(ierr);
  PetscCall(SpTrsvIntBufFinish(&wk.lj, lj));
  PetscCall(SpTrsvIntBufFinish(&wk.uj, uj));
  *li   = wk.li;
  *ui   = wk.ui;
  wk.li = wk.ui = NULL;
  PetscCall(SpTrsvFillWorkFree(&wk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUSymbolic - patterns of L and U for ILU(info->levels) with the orderings isrow/iscol;
  a missing diagonal entry in A is an error (as in PETSc, at every level of fill)
*/
PetscErrorCode SpTrsvFactorILUSymbolic(Mat A, IS isrow, IS iscol, const MatFactorInfo *info, SpTrsvFactor fac)
{
  const PetscInt *ai, *aj;
  PetscInt        n = fac->n, levels, *li = NULL, *lj = NULL, *ui = NULL, *uj = NULL;
  SpTrsvILUSym   *sym;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorSymbolicBegin(A, info, MAT_FACTOR_ILU, fac));
  levels = fac->levels;

  PetscCall(PetscNew(&sym));
  fac->sym        = sym;
  fac->symdestroy = SpTrsvILUSymDestroy;
  PetscCall(PetscMalloc1(n + 1, &sym->adiag));
  PetscCall(PetscMalloc1(n + 1, &sym->work));
  PetscCall(SpTrsvFactorGetPerm(isrow, n, "row", &fac->rperm));
  PetscCall(SpTrsvFactorGetPerm(iscol, n, "column", &fac->cperm));
  if (fac->cperm) PetscCall(SpTrsvFactorInvertPerm(n, fac->cperm, &sym->icperm)); /* else NULL: the identity */

  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, NULL));
  sym->nnzA = ai[n];
  fac->nnzA = ai[n];
  ierr      = SpTrsvFactorFindDiagonal(n, ai, aj, sym->adiag);
  if (!ierr) ierr = SpTrsvFactorILUPattern(n, levels, (PetscBool)(info->diagonal_fill != 0.0), info->fill, ai, aj, sym->adiag, fac->rperm, sym->icperm, (PetscBool)(fac->cperm != NULL), &li, &lj, &ui, &uj);
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, NULL));
  PetscCall(ierr);

  PetscCall(SpTrsvTriCreate(n, SPTRSV_LOWER, PETSC_TRUE, &fac->L));
  PetscCall(SpTrsvTriCreate(n, SPTRSV_UPPER, PETSC_FALSE, &fac->U));
  PetscCall(SpTrsvTriSetPatternTrusted(fac->L, li, lj, PETSC_FALSE));
  PetscCall(SpTrsvTriSetPatternTrusted(fac->U, ui, uj, PETSC_FALSE));
  PetscCall(PetscInfo(A, "ILU(%" PetscInt_FMT "): %" PetscInt_FMT " nonzeros in L, %" PetscInt_FMT " in U (with diagonal), fill ratio needed %g given %g\n", levels, fac->L->i[n], fac->U->i[n] + n,
                      sym->nnzA ? (double)(((PetscReal)fac->L->i[n] + fac->U->i[n] + n) / sym->nnzA) : 0.0, (double)info->fill));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Numeric ILU: row-oriented IKJ elimination into a dense accumulator, as MatLUFactorNumeric_SeqAIJ:
    w = row r[i] of A (in factor numbering) on the pattern of row i, w_i += shift
    for each k in L(i,:) ascending with w_k != 0:  w_k *= 1/U(k,k);  w_j -= w_k U(k,j) for j in U(k,:)
    L(i,:) = w on the L pattern, U(i,:) = w on the U pattern (fill outside the pattern is dropped),
    then the pivot w_i is checked (shift rules in factor.c) and 1/w_i is stored.
  A shift that needs a restart (NONZERO, POSITIVE_DEFINITE) recomputes the whole factor.
  (PETSc's inode variant, used when A has inodes, does the same operations on groups of rows.)
*/
typedef struct {
  SpTrsvFactor       fac;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
} SpTrsvILURowsCtx;

/* row i of the elimination above (SpTrsvFactorRowsOps.row) */
static SPTRSV_FORCE_INLINE void SpTrsvILUNumericRow(void *ctx, PetscInt i, PetscReal shift, PetscScalar *pv, PetscReal *rs, PetscLogDouble *flops)
{
  const SpTrsvILURowsCtx *c   = (const SpTrsvILURowsCtx *)ctx;
  const SpTrsvFactor      fac = c->fac;
  const SpTrsvILUSym     *sym = (const SpTrsvILUSym *)fac->sym;
  const PetscInt          row = fac->rperm ? fac->rperm[i] : i, *ic = sym->icperm, *ai = c->ai, *aj = c->aj;
  const PetscInt         *li = fac->L->i, *lj = fac->L->j, *ui = fac->U->i, *uj = fac->U->j;
  const PetscScalar      *aa = c->aa, *idiag = fac->U->idiag;
  PetscScalar            *la = fac->L->a, *ua = fac->U->a, *w = sym->work;
  PetscLogDouble          fl = 0; /* local counts: stores to w[] could alias *flops */

  /* clear the accumulator on the pattern of row i, then scatter row r[i] of A into it */
  SpTrsvFillClearRow(li[i], li[i + 1], lj, w);
  w[i] = 0.0;
  SpTrsvFillClearRow(ui[i], ui[i + 1], uj, w);
  if (ic)
    for (PetscInt p = ai[row]; p < ai[row + 1]; p++) w[ic[aj[p]]] = aa[p];
  else
    for (PetscInt p = ai[row]; p < ai[row + 1]; p++) w[aj[p]] = aa[p];
  w[i] += shift;

  /* eliminate with the rows k of L(i,:), in increasing order; updates outside the pattern of
     row i land in unused slots of w and are dropped */
  for (PetscInt p = li[i]; p < li[i + 1]; p++) {
    const PetscInt k = lj[p];

    if (w[k] != 0.0) {
      const PetscScalar mult = w[k] * idiag[k];

      w[k] = mult;
      for (PetscInt q = ui[k]; q < ui[k + 1]; q++) w[uj[q]] -= mult * ua[q];
      fl += 1 + 2.0 * (ui[k + 1] - ui[k]);
    }
  }

  /* gather the row into L and U */
  SpTrsvFillGatherRow(li[i], li[i + 1], lj, w, la, rs);
  SpTrsvFillGatherRow(ui[i], ui[i + 1], uj, w, ua, rs);
  *pv = w[i];
  *flops += fl;
}

static PetscErrorCode SpTrsvILUNumericRows(SpTrsvFactor fac, const MatFactorInfo *info, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, SpTrsvShiftCtx *sctx)
{
  const SpTrsvILUSym       *sym = (const SpTrsvILUSym *)fac->sym;
  SpTrsvILURowsCtx          ctx = {fac, ai, aj, aa};
  const SpTrsvFactorRowsOps ops = {NULL, SpTrsvILUNumericRow, NULL, PETSC_TRUE};

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorRowsRun(fac, info, ai, aj, aa, sym->nnzA, sym->adiag, sctx, &ops, &ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUNumeric - values of L and U from the current values of A, on the symbolic pattern
*/
PetscErrorCode SpTrsvFactorILUNumeric(Mat A, const MatFactorInfo *info, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvFactorNumericRun(A, info, fac, MAT_FACTOR_ILU, SpTrsvILUNumericRows));
  PetscFunctionReturn(PETSC_SUCCESS);
}
