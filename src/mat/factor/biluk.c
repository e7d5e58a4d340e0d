/*
   Block ILU(k) of a block CSR matrix (MATSEQBAIJ, or MATSEQAIJ cut into blocks), reproducing PETSc's
   native MATSEQBAIJ ILU (MatILUFactorSymbolic_SeqBAIJ, MatLUFactorNumeric_SeqBAIJ_N and the unrolled
   variants for block sizes 1..7) with the natural ordering:
   - pattern: the ILU(k) level rule applied to the block pattern (the same code as the scalar ILU(k));
   - numeric: row-oriented block IKJ elimination, L(i,k) = W(i,k) inv(U(k,k)), W(i,j) -= L(i,k) U(k,j),
     skipped when W(i,k) is exactly zero; the diagonal blocks are inverted densely with partial pivoting;
   - zero pivots: bs = 1 follows the scalar rules (shift types none/nonzero/positive_definite/inblocks,
     as MatLUFactorNumeric_SeqBAIJ_1); bs > 1 supports shift types none and inblocks, where an exactly
     zero pivot of the dense inversion other than the last one is replaced by a tiny shift (block sizes
     2..7, as PETSc's PetscKernel_A_gets_inverse_A_<bs>); a remaining zero pivot is recorded in f->error
     (the PC then fails, as PETSc's PCILU with MAT_FACTOR_NUMERIC_ZEROPIVOT), or is an error naming the
     block row with f->erroriffailure (PETSc errors too when A->erroriffailure).
*/
#include <sptrsv/biluk.h>
#include <sptrsv/factor.h>

PetscErrorCode SpTrsvBILUCreate(PetscInt n, PetscInt bs, SpTrsvBILU *bilu)
{
  SpTrsvBILU f;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size %" PetscInt_FMT, n);
  PetscCheck(bs >= 1 && bs <= SPTRSV_BS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block size %" PetscInt_FMT " is not supported: use 1 to %d", bs, SPTRSV_BS_MAX);
  PetscCall(PetscNew(&f));
  f->n  = n;
  f->bs = bs;
  *bilu = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvBILUReset(SpTrsvBILU f)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvBlockTriDestroy(&f->L));
  PetscCall(SpTrsvBlockTriDestroy(&f->U));
  PetscCall(PetscFree(f->adiag));
  PetscCall(PetscFree(f->work));
  PetscCall(PetscFree(f->amap));
  f->nnzA = 0;
  f->nval = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvBILUDestroy(SpTrsvBILU *bilu)
{
  PetscFunctionBegin;
  if (!*bilu) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvBILUReset(*bilu));
  PetscCall(PetscFree(*bilu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvBILUCheckInput(const SpTrsvBlockCSR *A, SpTrsvBILU f)
{
  PetscFunctionBegin;
  PetscCheck(A->n == f->n && A->bs == f->bs, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The matrix has %" PetscInt_FMT " block rows of size %" PetscInt_FMT ", the block factor was created for %" PetscInt_FMT " of size %" PetscInt_FMT, A->n, A->bs, f->n, f->bs);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an IS given for an ordering must be the identity */
static PetscErrorCode SpTrsvBILUCheckNatural(IS is, const char *name)
{
  PetscBool identity;

  PetscFunctionBegin;
  if (!is) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ISIdentity(is, &identity));
  PetscCheck(identity, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block ILU supports only the natural ordering; the %s ordering given is not the identity", name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBILUSymbolic - patterns of L and U for BILU(info->levels); isrow and iscol may be NULL and must
  otherwise be the identity. A missing diagonal block is an error. With f->valuemap, also the map of the
  matrix's own value array into the factor (f->nval, f->amap; bilumap.c).
*/
PetscErrorCode SpTrsvBILUSymbolic(const SpTrsvBlockCSR *A, IS isrow, IS iscol, const MatFactorInfo *info, SpTrsvBILU f)
{
  const PetscInt n = f->n, bs = f->bs;
  PetscInt      *li, *lj, *ui, *uj;

  PetscFunctionBegin;
  PetscCall(SpTrsvBILUCheckInput(A, f));
  PetscCall(SpTrsvBILUCheckNatural(isrow, "row"));
  PetscCall(SpTrsvBILUCheckNatural(iscol, "column"));
  PetscCheck(info->levels >= 0 && info->levels <= PETSC_INT_MAX / 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Levels of fill %g out of range", (double)info->levels);
  PetscCheck(bs == 1 || (info->shifttype != (PetscReal)MAT_SHIFT_NONZERO && info->shifttype != (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE), PETSC_COMM_SELF, PETSC_ERR_SUP, "Block ILU with block size %" PetscInt_FMT " supports only the shift types none and inblocks (as PETSc's MATSEQBAIJ ILU)", bs);
  PetscCall(SpTrsvBILUReset(f));
  f->levels = (PetscInt)info->levels;
  f->nnzA   = A->i[n];
  PetscCall(PetscMalloc1(n + 1, &f->adiag));
  for (PetscInt r = 0; r < n; r++) {
    PetscInt loc;

    PetscCall(PetscFindInt(r, A->i[r + 1] - A->i[r], A->j + A->i[r], &loc));
    PetscCheck(loc >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Matrix is missing the diagonal block of block row %" PetscInt_FMT " (rows %" PetscInt_FMT " to %" PetscInt_FMT ")", r, r * bs, r * bs + bs - 1);
    f->adiag[r] = A->i[r] + loc;
  }
  PetscCall(SpTrsvFactorILUPattern(n, f->levels, PETSC_FALSE, info->fill, A->i, A->j, f->adiag, NULL, NULL, PETSC_FALSE, &li, &lj, &ui, &uj));
  PetscCall(SpTrsvBlockTriCreate(n, bs, SPTRSV_LOWER, PETSC_TRUE, li, lj, &f->L));
  PetscCall(SpTrsvBlockTriCreate(n, bs, SPTRSV_UPPER, PETSC_FALSE, ui, uj, &f->U));
  PetscCall(PetscCalloc1((size_t)n * bs * bs + 1, &f->work));
  if (f->valuemap) PetscCall(SpTrsvBILUValueMapCreate(f, A->src));
  PetscCall(PetscInfo(NULL, "BILU(%" PetscInt_FMT "), block size %" PetscInt_FMT ": %" PetscInt_FMT " blocks in L, %" PetscInt_FMT " in U (with diagonal), fill ratio %g\n", f->levels, bs, li[n], ui[n] + n, f->nnzA ? (double)(((PetscReal)li[n] + ui[n] + n) / f->nnzA) : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* invert the diagonal block of block row i (in U->idiag), with PETSc's block zero-pivot rule */
static PetscErrorCode SpTrsvBILUInvertDiagonal(const SpTrsvBlockCSR *A, const MatFactorInfo *info, SpTrsvBILU f, PetscInt i)
{
  const PetscInt bs = f->bs, bs2 = bs * bs;
  PetscScalar   *d  = f->U->idiag + (size_t)bs2 * i;
  PetscReal      shift = 0.0;
  PetscInt       zr;

  PetscFunctionBegin;
  if (bs <= 7) { /* PETSc's unrolled kernels: 1/4 (1/3 for bs = 3) of the shift amount, scaled by the diagonal */
    PetscReal s = 1.e-12;
    for (PetscInt k = 0; k < bs; k++) s += PetscAbsScalar(d[k + k * bs]);
    shift = (bs == 3 ? .333 : .25) * info->shiftamount * s;
  }
  PetscCall(SpTrsvBlockInvert(bs, d, shift, &zr));
  if (zr < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!f->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in the diagonal block of block row %" PetscInt_FMT " (rows %" PetscInt_FMT " to %" PetscInt_FMT "), at its row %" PetscInt_FMT ": %s", i, i * bs, i * bs + bs - 1, zr,
             SpTrsvBlockIsZero(bs2, A->a + (size_t)bs2 * f->adiag[i]) ? "the matrix's diagonal block of this row is zero" : "the pivot block (the diagonal block after the elimination) is singular");
  PetscCall(PetscInfo(NULL, "Zero pivot in the diagonal block of block row %" PetscInt_FMT " (rows %" PetscInt_FMT " to %" PetscInt_FMT "), at its row %" PetscInt_FMT "\n", i, i * bs, i * bs + bs - 1, zr));
  if (!f->error) {
    f->error         = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    f->zeropivot_row = i;
    f->zeropivot_sub = zr;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one pass over the block rows; returns early with sctx->newshift set when bs = 1 needs a restart */
static PetscErrorCode SpTrsvBILUNumericRows(const SpTrsvBlockCSR *A, const MatFactorInfo *info, SpTrsvBILU f, SpTrsvShiftCtx *sctx)
{
  const PetscInt     n = f->n, bs = f->bs, bs2 = bs * bs;
  const PetscInt    *li = f->L->i, *lj = f->L->j, *ui = f->U->i, *uj = f->U->j;
  const PetscScalar *aa = A->a;
  PetscScalar       *la = f->L->a, *ua = f->U->a, *w = f->work, tmp[SPTRSV_BS_MAX * SPTRSV_BS_MAX];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar *wi = w + (size_t)bs2 * i;

    /* clear the accumulator on the pattern of block row i, then load block row i of A */
    for (PetscInt p = li[i]; p < li[i + 1]; p++) PetscCall(PetscArrayzero(w + (size_t)bs2 * lj[p], bs2));
    PetscCall(PetscArrayzero(wi, bs2));
    for (PetscInt p = ui[i]; p < ui[i + 1]; p++) PetscCall(PetscArrayzero(w + (size_t)bs2 * uj[p], bs2));
    for (PetscInt p = A->i[i]; p < A->i[i + 1]; p++) PetscCall(PetscArraycpy(w + (size_t)bs2 * A->j[p], aa + (size_t)bs2 * p, bs2));
    if (bs == 1) wi[0] += sctx->shift_amount;

    /* eliminate with the block rows k of L(i,:), ascending; updates outside the pattern are dropped */
    for (PetscInt p = li[i]; p < li[i + 1]; p++) {
      const PetscInt k  = lj[p];
      PetscScalar   *wk = w + (size_t)bs2 * k;

      if (SpTrsvBlockIsZero(bs2, wk)) continue;
      SpTrsvBlockMult(bs, 1.0, wk, f->U->idiag + (size_t)bs2 * k, tmp);
      PetscCall(PetscArraycpy(wk, tmp, bs2));
      for (PetscInt q = ui[k]; q < ui[k + 1]; q++) SpTrsvBlockGemm(bs, -1.0, wk, ua + (size_t)bs2 * q, w + (size_t)bs2 * uj[q]);
      f->flops += 2.0 * bs2 * bs * (ui[k + 1] - ui[k] + 1) - bs2;
    }

    /* gather the block row into L and U */
    for (PetscInt p = li[i]; p < li[i + 1]; p++) PetscCall(PetscArraycpy(la + (size_t)bs2 * p, w + (size_t)bs2 * lj[p], bs2));
    for (PetscInt p = ui[i]; p < ui[i + 1]; p++) PetscCall(PetscArraycpy(ua + (size_t)bs2 * p, w + (size_t)bs2 * uj[p], bs2));

    if (bs == 1) { /* scalar pivot rules, as the scalar ILU */
      PetscReal rs = 0.0;

      for (PetscInt p = li[i]; p < li[i + 1]; p++) rs += PetscAbsScalar(la[p]);
      for (PetscInt p = ui[i]; p < ui[i + 1]; p++) rs += PetscAbsScalar(ua[p]);
      sctx->rs = rs;
      sctx->pv = wi[0];
      PetscCall(SpTrsvShiftCheckPivot(info, sctx, i, i));
      if (sctx->newshift) PetscFunctionReturn(PETSC_SUCCESS);
      f->U->diag[i]  = sctx->pv;
      f->U->idiag[i] = 1.0 / sctx->pv;
    } else {
      PetscCall(PetscArraycpy(f->U->diag + (size_t)bs2 * i, wi, bs2));
      PetscCall(PetscArraycpy(f->U->idiag + (size_t)bs2 * i, wi, bs2));
      PetscCall(SpTrsvBILUInvertDiagonal(A, info, f, i));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBILUNumeric - values of L and U from the current values of A (same block pattern as at the
  symbolic phase)
*/
PetscErrorCode SpTrsvBILUNumeric(const SpTrsvBlockCSR *A, const MatFactorInfo *info, SpTrsvBILU f)
{
  const PetscInt          n = f->n, bs = f->bs, bs2 = bs * bs;
  SpTrsvShiftCtx          sctx;
  struct _n_SpTrsvFactor  rec;

  PetscFunctionBegin;
  PetscCall(SpTrsvBILUCheckInput(A, f));
  PetscCheck(f->L && f->U, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call the symbolic block ILU before the numeric one");
  PetscCall(SpTrsvFactorCheckSamePattern(n, f->nnzA, A->i, A->j, f->adiag));
  f->error         = MAT_FACTOR_NOERROR;
  f->zeropivot_row = f->zeropivot_sub = 0;
  f->nonfinite     = PETSC_FALSE;
  for (PetscInt r = 0; r < n && !f->nonfinite; r++)
    for (PetscInt p = A->i[r]; p < A->i[r + 1] && !f->nonfinite; p++)
      for (PetscInt k = 0; k < bs2; k++) {
        const PetscScalar v = A->a[(size_t)bs2 * p + k];
        if (!PetscIsInfOrNanScalar(v)) continue;
        PetscCheck(!f->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_FP, "Matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is %s", r * bs + k % bs, A->j[p] * bs + k / bs, PetscIsNanScalar(v) ? "NaN" : "Inf");
        PetscCall(PetscInfo(NULL, "Matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is %s: the factor will not be finite\n", r * bs + k % bs, A->j[p] * bs + k / bs, PetscIsNanScalar(v) ? "NaN" : "Inf"));
        f->nonfinite = PETSC_TRUE;
        break;
      }
  PetscCall(PetscMemzero(&sctx, sizeof(sctx)));
  sctx.erroriffailure = f->erroriffailure;
  if (bs == 1) PetscCall(SpTrsvShiftSetUp(info, n, A->i, f->adiag, A->a, &sctx));
  f->flops = 0;
  do {
    sctx.newshift = PETSC_FALSE;
    PetscCall(SpTrsvBILUNumericRows(A, info, f, &sctx));
    PetscCall(SpTrsvShiftRefine(info, &sctx));
  } while (sctx.newshift);
  PetscCall(PetscMemzero(&rec, sizeof(rec)));
  PetscCall(SpTrsvShiftRecord(info, &sctx, &rec));
  f->nshifts      = rec.nshifts;
  f->shift_amount = rec.shift_amount;
  if (sctx.zeropivot) { /* bs = 1: the scalar rule (the last zero pivot met, as PETSc) */
    f->error         = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    f->zeropivot_row = sctx.zeropivot_row;
    f->zeropivot_sub = 0;
  }
  f->flops += 1.333333333333 * bs * bs2 * n; /* the inversions of the diagonal blocks, as PETSc counts them */
  PetscCall(PetscLogFlops(f->flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBILUSolve - x = U^{-1} L^{-1} b by block substitution (host reference of the factor; x may be b)
*/
PetscErrorCode SpTrsvBILUSolve(SpTrsvBILU f, const PetscScalar *b, PetscScalar *x)
{
  const PetscInt bs = f->bs, bs2 = bs * bs, n = f->n;
  PetscScalar    t[SPTRSV_BS_MAX];

  PetscFunctionBegin;
  if (x != b) PetscCall(PetscArraycpy(x, b, (size_t)n * bs));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt p = f->L->i[i]; p < f->L->i[i + 1]; p++) SpTrsvBlockGemv(bs, -1.0, f->L->a + (size_t)bs2 * p, x + (size_t)bs * f->L->j[p], x + (size_t)bs * i);
  for (PetscInt i = n - 1; i >= 0; i--) {
    for (PetscInt p = f->U->i[i]; p < f->U->i[i + 1]; p++) SpTrsvBlockGemv(bs, -1.0, f->U->a + (size_t)bs2 * p, x + (size_t)bs * f->U->j[p], x + (size_t)bs * i);
    PetscCall(PetscArrayzero(t, bs));
    SpTrsvBlockGemv(bs, 1.0, f->U->idiag + (size_t)bs2 * i, x + (size_t)bs * i, t);
    PetscCall(PetscArraycpy(x + (size_t)bs * i, t, bs));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
