/*
   ICC(k) of a MATSEQAIJ matrix, reproducing PETSc's native ICC (MatICCFactorSymbolic_SeqAIJ,
   MatCholeskyFactorNumeric_SeqAIJ): A(p,p) ~ Ut^T D Ut with Ut unit upper triangular, computed from
   the upper triangle of the symmetrically permuted matrix (row k of the factor is row p[k] of A; only
   the entries of that row that land on or right of the diagonal are read).

   Storage (see factor.h): L = Ut^T (unit lower, explicit CSR) and U = D Ut (upper, idiag = 1/D), so
   x = p^T U^{-1} L^{-1} p b as for ILU. The numeric phase works on the rows of U = D Ut (the rows of
   the Schur complements, before scaling), exactly as PETSc does, and writes each scaled entry
   Ut(i,k) = U(i,k)/d_i into L(k,i) when column k is reached.
*/
#include "fill_core.h"

typedef struct {
  PetscInt     nnzA;
  PetscInt    *iperm; /* inverse permutation (always allocated) */
  PetscInt    *adiag; /* position of A(i,i) in the CSR of A */
  PetscInt    *lmap;  /* slot p of U(i,k) in U -> slot of L(k,i) in L */
  PetscScalar *work;  /* dense accumulator for one row */
  PetscInt    *il;    /* il[i]: slot in U of the next entry of row i to be used */
  PetscInt    *head;  /* head[c]: first of the rows i whose next entry is in column c */
  PetscInt    *next;  /* next[i]: the row after i in its column list */
} SpTrsvICCSym;

static PetscErrorCode SpTrsvICCSymDestroy(void **ctx)
{
  SpTrsvICCSym *sym = (SpTrsvICCSym *)*ctx;

  PetscFunctionBegin;
  if (!sym) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree2(sym->iperm, sym->adiag));
  PetscCall(PetscFree(sym->lmap));
  PetscCall(PetscFree4(sym->work, sym->il, sym->head, sym->next));
  PetscCall(PetscFree(sym));
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Symbolic ICC(k), row by row. Row k starts (level 0) with the entries of row p[k] of A that land in
  columns >= k (the diagonal is among them). The rows i < k with U(i,k) in the pattern are found
  through column lists: row i waits in the list of the column of its next unused entry (il[i]); when
  row k is formed, every row i of list k merges its entries right of column k with the level rule
      lev(k,j) = min(lev(k,j), lev(i,k) + lev(i,j) + 1),   kept only when <= levels,
  then moves to the list of its next column. (The resulting pattern does not depend on the order in
  which the rows are merged.)
*/
static PetscErrorCode SpTrsvICCSymbolicRows(PetscInt n, PetscInt levels, PetscReal fill, const PetscInt *ai, const PetscInt *aj, const PetscInt *pp, const PetscInt *ipp, SpTrsvFillWork *wk)
{
  PetscInt *ui, *nxt, *lev, *cols, *il, *head, *rnext;

  PetscFunctionBegin;
  PetscCall(SpTrsvFillWorkCreate(n, levels, fill, ai[n], PETSC_FALSE, PETSC_TRUE, wk));
  ui    = wk->ui;
  nxt   = wk->nxt;
  lev   = wk->lev;
  cols  = wk->cols;
  il    = wk->il;
  head  = wk->head;
  rnext = wk->rnext;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt row = pp ? pp[k] : k;
    PetscInt       nz  = 0, c;
    PetscBool      hasdiag;

    /* level-0 entries: the upper part of row p[k] of A, in factor numbering, sorted */
    for (PetscInt q = ai[row]; q < ai[row + 1]; q++) {
      c = ipp[aj[q]];
      if (c >= k) cols[nz++] = c;
    }
    if (pp) PetscCall(PetscSortInt(nz, cols));
    SpTrsvFillRowStart(n, nz, cols, nxt, lev);
    PetscCheck(nz && cols[0] == k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row %" PetscInt_FMT " lost its diagonal", k);

    /* merge the rows i < k with U(i,k) != 0 (with 0 levels nothing can be added) */
    for (PetscInt i = levels > 0 ? head[k] : n; i < k;) {
      const PetscInt inext = rnext[i], p0 = il[i];

      /* U(i, k+1:) at level U(i,k), inserted after k (the head of the list) */
      SpTrsvFillListMerge(levels, wk->ul.a[p0], k, ui[i + 1] - p0 - 1, wk->uj.a + p0 + 1, wk->ul.a + p0 + 1, nxt, lev);
      if (p0 + 1 < ui[i + 1]) SpTrsvColListWait(i, p0 + 1, wk->uj.a[p0 + 1], il, head, rnext); /* row i waits for its next column */
      i = inext;
    }

    /* store the strict part of row k and its levels (the row starts at its diagonal) */
    PetscCall(SpTrsvFillRowStore(wk, n, k, levels, &hasdiag));
    if (levels > 0 && ui[k + 1] > ui[k]) SpTrsvColListWait(k, ui[k], wk->uj.a[ui[k]], il, head, rnext); /* row k waits for its first column */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorICCSymbolic - patterns of L = Ut^T and U = D Ut for ICC(info->levels) with the symmetric
  ordering perm; a missing diagonal entry in A is an error (as in PETSc). info->diagonal_fill does not
  apply (PETSc's ICC ignores it too: a symmetric ordering keeps the diagonal on the diagonal).
*/
PetscErrorCode SpTrsvFactorICCSymbolic(Mat A, IS perm, const MatFactorInfo *info, SpTrsvFactor fac)
{
  const PetscInt *ai, *aj;
  PetscInt        n  = fac->n, levels, *ui = NULL, *ujv = NULL, *li, *lj, *pos;
  SpTrsvFillWork  wk = {0};
  SpTrsvICCSym   *sym;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorSymbolicBegin(A, info, MAT_FACTOR_ICC, fac));
  levels = fac->levels;

  PetscCall(PetscNew(&sym));
  fac->sym        = sym;
  fac->symdestroy = SpTrsvICCSymDestroy;
  PetscCall(SpTrsvFactorGetPerm(perm, n, "symmetric", &fac->rperm));
  if (fac->rperm) {
    PetscCall(PetscMalloc1(n, &fac->cperm));
    PetscCall(PetscArraycpy(fac->cperm, fac->rperm, n));
  }
  PetscCall(PetscMalloc2(n + 1, &sym->iperm, n + 1, &sym->adiag));
  for (PetscInt k = 0; k < n; k++) sym->iperm[fac->rperm ? fac->rperm[k] : k] = k;
  PetscCall(PetscMalloc4(n + 1, &sym->work, n + 1, &sym->il, n + 1, &sym->head, n + 1, &sym->next));

  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, NULL));
  sym->nnzA = ai[n];
  fac->nnzA = ai[n];
  ierr      = SpTrsvFactorFindDiagonal(n, ai, aj, sym->adiag);
  if (!ierr) {
    if (levels == 0) ierr = SpTrsvFillPatternLevel0(n, ai, aj, sym->adiag, fac->rperm, fac->rperm ? sym->iperm : NULL, (PetscBool)(fac->rperm != NULL), NULL, NULL, &ui, &ujv); /* ILU(0)'s, the upper part */
    else ierr = SpTrsvICCSymbolicRows(n, levels, info->fill, ai, aj, fac->rperm, sym->iperm, &wk);
  }
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, NULL));
  if (ierr) PetscCall(SpTrsvFillWorkFree(&wk));
  PetscCall(ierr);

  /* U: the strict part as built; L = U^T by a counting sort, which keeps the columns of each row of L
     ascending, and records where each entry of U goes in L */
  if (levels > 0) {
    PetscCall(SpTrsvIntBufFinish(&wk.uj, &ujv));
    ui    = wk.ui;
    wk.ui = NULL;
    pos   = wk.cols; /* reuse as insertion positions */
  } else PetscCall(PetscMalloc1(n + 1, &pos));
  PetscCall(PetscCalloc1(n + 1, &li));
  PetscCall(PetscMalloc1(ui[n] + 1, &lj));
  PetscCall(PetscMalloc1(ui[n] + 1, &sym->lmap));
  for (PetscInt p = 0; p < ui[n]; p++) li[ujv[p] + 1]++;
  for (PetscInt c = 0; c < n; c++) li[c + 1] += li[c];
  for (PetscInt c = 0; c < n; c++) pos[c] = li[c];
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt p = ui[i]; p < ui[i + 1]; p++) {
      const PetscInt q = pos[ujv[p]]++;

      lj[q]        = i;
      sym->lmap[p] = q;
    }
  }
  PetscCall(SpTrsvTriCreate(n, SPTRSV_LOWER, PETSC_TRUE, &fac->L));
  PetscCall(SpTrsvTriCreate(n, SPTRSV_UPPER, PETSC_FALSE, &fac->U));
  PetscCall(SpTrsvTriSetPatternTrusted(fac->L, li, lj, PETSC_TRUE));
  PetscCall(SpTrsvTriSetPatternTrusted(fac->U, ui, ujv, PETSC_TRUE));
  if (levels == 0) PetscCall(PetscFree(pos));
  PetscCall(SpTrsvFillWorkFree(&wk));
  PetscCall(
    PetscInfo(A, "ICC(%" PetscInt_FMT "): %" PetscInt_FMT " nonzeros in U (with diagonal), fill ratio needed %g given %g\n", levels, fac->U->i[n] + n, sym->nnzA ? (double)(2.0 * (fac->U->i[n] + n) / ((PetscReal)sym->nnzA + n)) : 0.0, (double)info->fill));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Numeric ICC, as MatCholeskyFactorNumeric_SeqAIJ (an up-looking LDL^T on rows):
    w = upper part of row p[k] of A on the pattern of row k, w_k += shift, d = w_k
    for each row i of the list of column k (rows with U(i,k) != 0, in list order):
       t = -U(i,k)/d_i;  d += t U(i,k);  L(k,i) = -t;  w_j += t U(i,j) for j > k in U(i,:)
       row i moves to the list of its next column
    U(k,:) = w on the pattern (row k joins the list of its first column), pivot check on d, 1/d stored.
  The list order (rows pushed at the head) is PETSc's, so sums are formed in the same order.
*/
typedef struct {
  SpTrsvFactor       fac;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
} SpTrsvICCRowsCtx;

/* every pass starts with empty column lists (SpTrsvFactorRowsOps.pass) */
static void SpTrsvICCNumericPass(void *ctx)
{
  const SpTrsvICCRowsCtx *c   = (const SpTrsvICCRowsCtx *)ctx;
  SpTrsvICCSym           *sym = (SpTrsvICCSym *)c->fac->sym;

  for (PetscInt col = 0; col < c->fac->n; col++) sym->head[col] = c->fac->n;
}

/* row k of the elimination above (SpTrsvFactorRowsOps.row) */
static SPTRSV_FORCE_INLINE void SpTrsvICCNumericRow(void *ctx, PetscInt k, PetscReal shift, PetscScalar *pv, PetscReal *rs, PetscLogDouble *flops)
{
  const SpTrsvICCRowsCtx *c   = (const SpTrsvICCRowsCtx *)ctx;
  const SpTrsvFactor      fac = c->fac;
  SpTrsvICCSym           *sym = (SpTrsvICCSym *)fac->sym;
  const PetscInt          row = fac->rperm ? fac->rperm[k] : k, *ipp = sym->iperm, *lmap = sym->lmap, *ai = c->ai, *aj = c->aj;
  const PetscInt         *ui = fac->U->i, *uj = fac->U->j;
  PetscInt               *il = sym->il, *head = sym->head, *next = sym->next;
  const PetscScalar      *aa = c->aa, *idiag = fac->U->idiag;
  PetscScalar            *la = fac->L->a, *ua = fac->U->a, *w = sym->work, dk;
  PetscLogDouble          fl = 0; /* local counts: stores to w[] could alias *flops */

  /* clear the accumulator on the pattern of row k, then scatter the upper part of row p[k] of A */
  w[k] = 0.0;
  SpTrsvFillClearRow(ui[k], ui[k + 1], uj, w);
  for (PetscInt q = ai[row]; q < ai[row + 1]; q++) {
    const PetscInt col = ipp[aj[q]];

    if (col >= k) w[col] = aa[q];
  }
  w[k] += shift;
  dk = w[k];

  /* add the multiples of the rows i with U(i,k) != 0 */
  for (PetscInt i = head[k]; i < k;) {
    const PetscInt    inext = next[i], p0 = il[i];
    const PetscScalar t = -ua[p0] * idiag[i];

    dk += t * ua[p0];
    la[lmap[p0]] = -t;
    if (p0 + 1 < ui[i + 1]) {
      for (PetscInt p = p0 + 1; p < ui[i + 1]; p++) w[uj[p]] += t * ua[p];
      fl += 2.0 * (ui[i + 1] - p0 - 1);
      SpTrsvColListWait(i, p0 + 1, uj[p0 + 1], il, head, next);
    }
    fl += 3;
    i = inext;
  }

  /* gather row k of U = D Ut; row k waits for its first column */
  SpTrsvFillGatherRow(ui[k], ui[k + 1], uj, w, ua, rs);
  if (ui[k + 1] > ui[k]) SpTrsvColListWait(k, ui[k], uj[ui[k]], il, head, next);
  *pv = dk;
  *flops += fl;
}

/* the row PETSc's MatCholeskyFactorNumeric_SeqAIJ() reports for a zero pivot (MatFactorGetErrorZeroPivot()) is not
   k: it passes its loop variable, which then holds the first off-diagonal column of row k, or n when the row has
   none; record the same (the error message of SpTrsvShiftCheckPivot() names k) (SpTrsvFactorRowsOps.zeropivot_row) */
static PetscInt SpTrsvICCZeroPivotRow(void *ctx, PetscInt k)
{
  const SpTrsvFactor fac = ((const SpTrsvICCRowsCtx *)ctx)->fac;
  const PetscInt    *ui = fac->U->i, *uj = fac->U->j;

  return ui[k + 1] > ui[k] ? uj[ui[k]] : fac->n;
}

/* unlike ILU, PETSc's ICC does not bisect back towards a smaller POSITIVE_DEFINITE shift: the first shift that gives
   no zero pivot is kept (refine false) */
static PetscErrorCode SpTrsvICCNumericRows(SpTrsvFactor fac, const MatFactorInfo *info, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, SpTrsvShiftCtx *sctx)
{
  const SpTrsvICCSym       *sym = (const SpTrsvICCSym *)fac->sym;
  SpTrsvICCRowsCtx          ctx = {fac, ai, aj, aa};
  const SpTrsvFactorRowsOps ops = {SpTrsvICCNumericPass, SpTrsvICCNumericRow, SpTrsvICCZeroPivotRow, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorRowsRun(fac, info, ai, aj, aa, sym->nnzA, sym->adiag, sctx, &ops, &ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorICCNumeric - values of L and U from the current values of A, on the symbolic pattern
*/
PetscErrorCode SpTrsvFactorICCNumeric(Mat A, const MatFactorInfo *info, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvFactorNumericRun(A, info, fac, MAT_FACTOR_ICC, SpTrsvICCNumericRows));
  PetscFunctionReturn(PETSC_SUCCESS);
}
