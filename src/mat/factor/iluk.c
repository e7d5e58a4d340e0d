/*
   ILU(k) of a MATSEQAIJ matrix, reproducing PETSc's native SeqAIJ ILU (MatILUFactorSymbolic_SeqAIJ,
   MatLUFactorNumeric_SeqAIJ): the same pattern (levels of fill), the same elimination order and
   the same zero-pivot shifts, so the preconditioner is the same up to rounding.

   Numbering: row i of the factored matrix is row r[i] of A, column j is column c[j] of A, with
   r = rperm and c = cperm (identity when NULL); ic = c^{-1}, so A(r[i], col) lands in column ic[col].
*/
#include <sptrsv/factor.h>

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

/* the pattern being built (freed on error) */
typedef struct {
  PetscInt    *li, *ui;          /* row pointers of L and U */
  SpTrsvIntBuf lj, uj, ul;       /* columns of L, columns of U and their levels */
  PetscInt    *nxt, *lev, *cols; /* the active row: linked list, levels, sort buffer */
} SpTrsvILUWork;

static PetscErrorCode SpTrsvILUWorkFree(SpTrsvILUWork *wk)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(wk->li));
  PetscCall(PetscFree(wk->ui));
  PetscCall(PetscFree(wk->lj.a));
  PetscCall(PetscFree(wk->uj.a));
  PetscCall(PetscFree(wk->ul.a));
  PetscCall(PetscFree3(wk->nxt, wk->lev, wk->cols));
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
static PetscErrorCode SpTrsvILUSymbolicRows(PetscInt n, PetscInt levels, PetscBool diagonal_fill, PetscReal fill, const PetscInt *ai, const PetscInt *aj, const PetscInt *rp, const PetscInt *icp, PetscBool sort, SpTrsvILUWork *wk)
{
  PetscInt  *li, *ui, *nxt, *lev, *cols;
  PetscInt64 hint;

  PetscFunctionBegin;
  /* fill is only a hint for the first allocation (the factor has about fill * nnz(A) entries) */
  hint = (PetscInt64)PetscMin(PetscMax(fill, 1.0) * (PetscReal)ai[n] / 2, (PetscReal)PETSC_INT_MAX - 1);
  hint = PetscMin(hint, (PetscInt64)n * (PetscInt64)(n - 1) / 2 + 1);
  PetscCall(SpTrsvIntBufReserve(&wk->lj, hint));
  PetscCall(SpTrsvIntBufReserve(&wk->uj, hint));
  PetscCall(SpTrsvIntBufReserve(&wk->ul, levels ? hint : 1));
  PetscCall(PetscMalloc1(n + 1, &wk->li));
  PetscCall(PetscMalloc1(n + 1, &wk->ui));
  PetscCall(PetscMalloc3(n + 1, &wk->nxt, n + 1, &wk->lev, n + 1, &wk->cols));
  li   = wk->li;
  ui   = wk->ui;
  nxt  = wk->nxt;
  lev  = wk->lev;
  cols = wk->cols;
  for (PetscInt c = 0; c < n; c++) lev[c] = -1;
  li[0] = ui[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt row = rp ? rp[i] : i, nz = ai[row + 1] - ai[row];
    PetscInt       last    = n, c;
    PetscBool      hasdiag = PETSC_FALSE;

    /* level-0 entries: the pattern of row r[i] of A, in factor numbering, sorted */
    const PetscInt *acols = aj + ai[row];
    if (icp) {
      for (PetscInt t = 0; t < nz; t++) cols[t] = icp[acols[t]];
      if (sort) PetscCall(PetscSortInt(nz, cols));
      acols = cols;
    }
    for (PetscInt t = 0; t < nz; t++) {
      nxt[last]     = acols[t];
      lev[acols[t]] = 0;
      last          = acols[t];
    }
    nxt[last] = n;

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
    for (c = nxt[n]; c < n; c = nxt[c]) {
      if (c < i) PetscCall(SpTrsvIntBufAppend(&wk->lj, c));
      else if (c == i) hasdiag = PETSC_TRUE;
      else {
        PetscCall(SpTrsvIntBufAppend(&wk->uj, c));
        if (levels > 0) PetscCall(SpTrsvIntBufAppend(&wk->ul, lev[c]));
      }
      lev[c] = -1;
    }
    PetscCheck(hasdiag, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input) has no diagonal entry: the row and column orderings put a zero on the diagonal; try -pc_factor_diagonal_fill or -pc_factor_nonzeros_along_diagonal", i, row);
    li[i + 1] = (PetscInt)wk->lj.n;
    ui[i + 1] = (PetscInt)wk->uj.n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUPattern - the patterns of L and U (strict parts, CSR, PetscMalloc'ed) of ILU(levels) of the
  CSR pattern ai/aj with row order rp (NULL: natural) and inverse column order icp (NULL: natural; sort: icp is
  not the identity); adiag (may be NULL) the positions of the diagonal entries of the rows of ai/aj, all present.
  Shared by ILU(k) and the block ILU(k) (on the block pattern).
*/
/* ILU(0): no fill, so the factored row i is row rp[i] of A with its columns renumbered by icp, split at the diagonal
   (sorted when icp is not the identity): where the level-of-fill merge would walk a linked list per row.
   Without a column permutation the columns of a row ascend already: the split point of each row (its diagonal
   position when known, else a binary search) gives the row pointers in one pass over the rows, and the rows
   are copied as they are; with one, two passes over the entries (count, then fill and sort). */
static PetscErrorCode SpTrsvILUPatternLevel0(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *adiag, const PetscInt *rp, const PetscInt *icp, PetscBool sort, PetscInt **li, PetscInt **lj, PetscInt **ui, PetscInt **uj)
{
  PetscInt nl = 0, nu = 0, *Li, *Lj, *Ui, *Uj;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &Li));
  PetscCall(PetscMalloc1(n + 1, &Ui));
  Li[0] = Ui[0] = 0;
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
      Li[i + 1] = Li[i] + (lo - ai[row]);
      Ui[i + 1] = Ui[i] + (ai[row + 1] - hi);
    }
    PetscCall(PetscMalloc1(Li[n] + 1, &Lj));
    PetscCall(PetscMalloc1(Ui[n] + 1, &Uj));
    for (PetscInt i = 0; i < n; i++) { /* short rows: a loop, not a memcpy() call per row */
      const PetscInt  row = rp ? rp[i] : i, nli = Li[i + 1] - Li[i], nui = Ui[i + 1] - Ui[i];
      const PetscInt *al = aj + ai[row], *au = aj + ai[row + 1] - nui;
      PetscInt       *l = Lj + Li[i], *u = Uj + Ui[i];

      for (PetscInt k = 0; k < nli; k++) l[k] = al[k];
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
    PetscCall(PetscMalloc1(nl + 1, &Lj));
    PetscCall(PetscMalloc1(nu + 1, &Uj));
    nl = nu = 0;
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = rp ? rp[i] : i;
      for (PetscInt p = ai[row]; p < ai[row + 1]; p++) {
        const PetscInt c = icp[aj[p]];
        if (c < i) Lj[nl++] = c;
        else if (c > i) Uj[nu++] = c;
      }
      Li[i + 1] = nl;
      Ui[i + 1] = nu;
      if (sort) {
        PetscCall(PetscSortInt(Li[i + 1] - Li[i], Lj + Li[i]));
        PetscCall(PetscSortInt(Ui[i + 1] - Ui[i], Uj + Ui[i]));
      }
    }
  }
  *li = Li;
  *lj = Lj;
  *ui = Ui;
  *uj = Uj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvFactorILUPattern(PetscInt n, PetscInt levels, PetscBool diagonal_fill, PetscReal fill, const PetscInt *ai, const PetscInt *aj, const PetscInt *adiag, const PetscInt *rp, const PetscInt *icp, PetscBool sort, PetscInt **li, PetscInt **lj, PetscInt **ui, PetscInt **uj)
{
  SpTrsvILUWork  wk = {0};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!levels) { /* the diagonal is not stored in L or U: diagonal_fill changes nothing at level 0 */
    PetscCall(SpTrsvILUPatternLevel0(n, ai, aj, adiag, rp, icp, sort, li, lj, ui, uj));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ierr = SpTrsvILUSymbolicRows(n, levels, diagonal_fill, fill, ai, aj, rp, icp, sort, &wk);
  if (ierr) PetscCall(SpTrsvILUWorkFree(&wk));
  PetscCall(ierr);
  PetscCall(SpTrsvIntBufFinish(&wk.lj, lj));
  PetscCall(SpTrsvIntBufFinish(&wk.uj, uj));
  *li   = wk.li;
  *ui   = wk.ui;
  wk.li = wk.ui = NULL;
  PetscCall(SpTrsvILUWorkFree(&wk));
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
static PetscErrorCode SpTrsvILUNumericRows(SpTrsvFactor fac, const MatFactorInfo *info, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, SpTrsvShiftCtx *sctx)
{
  SpTrsvILUSym   *sym = (SpTrsvILUSym *)fac->sym;
  const PetscInt  n = fac->n, *rp = fac->rperm, *ic = sym->icperm;
  const PetscInt *li = fac->L->i, *lj = fac->L->j, *ui = fac->U->i, *uj = fac->U->j;
  PetscScalar    *la = fac->L->a, *ua = fac->U->a, *idiag = fac->U->idiag, *w = sym->work;
  PetscLogDouble  flops = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckSamePattern(n, sym->nnzA, ai, aj, sym->adiag));
  PetscCall(SpTrsvShiftSetUp(info, n, ai, sym->adiag, aa, sctx));
  do {
    sctx->newshift = PETSC_FALSE;
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = rp ? rp[i] : i;
      PetscReal      rs  = 0.0;

      /* clear the accumulator on the pattern of row i, then scatter row r[i] of A into it */
      for (PetscInt p = li[i]; p < li[i + 1]; p++) w[lj[p]] = 0.0;
      w[i] = 0.0;
      for (PetscInt p = ui[i]; p < ui[i + 1]; p++) w[uj[p]] = 0.0;
      if (ic)
        for (PetscInt p = ai[row]; p < ai[row + 1]; p++) w[ic[aj[p]]] = aa[p];
      else
        for (PetscInt p = ai[row]; p < ai[row + 1]; p++) w[aj[p]] = aa[p];
      w[i] += sctx->shift_amount;

      /* eliminate with the rows k of L(i,:), in increasing order; updates outside the pattern of
         row i land in unused slots of w and are dropped */
      for (PetscInt p = li[i]; p < li[i + 1]; p++) {
        const PetscInt k = lj[p];

        if (w[k] != 0.0) {
          const PetscScalar mult = w[k] * idiag[k];

          w[k] = mult;
          for (PetscInt q = ui[k]; q < ui[k + 1]; q++) w[uj[q]] -= mult * ua[q];
          flops += 1 + 2.0 * (ui[k + 1] - ui[k]);
        }
      }

      /* gather the row into L and U */
      for (PetscInt p = li[i]; p < li[i + 1]; p++) {
        la[p] = w[lj[p]];
        rs += PetscAbsScalar(la[p]);
      }
      for (PetscInt p = ui[i]; p < ui[i + 1]; p++) {
        ua[p] = w[uj[p]];
        rs += PetscAbsScalar(ua[p]);
      }

      /* pivot check: may ask for a restart with a (larger) shift */
      sctx->rs = rs;
      sctx->pv = w[i];
      PetscCall(SpTrsvShiftCheckPivot(info, sctx, i, row));
      if (sctx->newshift) break;
      w[i]     = sctx->pv; /* INBLOCKS may have shifted this pivot */
      idiag[i] = 1.0 / w[i];
    }
    PetscCall(SpTrsvShiftRefine(info, sctx));
  } while (sctx->newshift);
  PetscCall(PetscLogFlops(flops + n));
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
