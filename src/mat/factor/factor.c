/* SpTrsvFactor: the factor object and the helpers shared by ILU(k) and ICC(k) */
#include <sptrsv/factor.h>
#include <petscbt.h>
#include <sptrsv/threads.h>
#include <petsc/private/matimpl.h> /* A->erroriffailure */

/*
  SpTrsvFactorCreate - an empty factor of order n (the symbolic phase builds L, U and the permutations)
*/
PetscErrorCode SpTrsvFactorCreate(MatFactorType ftype, PetscInt n, SpTrsvFactor *fac)
{
  SpTrsvFactor f;

  PetscFunctionBegin;
  PetscCheck(ftype == MAT_FACTOR_ILU || ftype == MAT_FACTOR_ICC || ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_CHOLESKY, PETSC_COMM_SELF, PETSC_ERR_SUP, "Only ILU, ICC, LU and Cholesky factors are supported, not %s", MatFactorTypes[ftype]);
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size %" PetscInt_FMT, n);
  PetscCall(PetscNew(&f));
  f->ftype = ftype;
  f->n     = n;
  *fac     = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvFactorDestroy(SpTrsvFactor *fac)
{
  SpTrsvFactor f = *fac;

  PetscFunctionBegin;
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvFactorReset(f));
  PetscCall(PetscFree(f));
  *fac = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorReset - forget a previous factorization (the symbolic phases start with it)
*/
PetscErrorCode SpTrsvFactorReset(SpTrsvFactor fac)
{
  PetscFunctionBegin;
  if (fac->device_destroy) PetscCall((*fac->device_destroy)(&fac->device)); /* the GPU numeric phase's hook (ilu_device.c) */
  fac->host_stale = PETSC_FALSE;
  PetscCall(SpTrsvTriDestroy(&fac->L));
  PetscCall(SpTrsvTriDestroy(&fac->U));
  PetscCall(PetscFree(fac->rperm));
  PetscCall(PetscFree(fac->cperm));
  if (fac->symdestroy) PetscCall((*fac->symdestroy)(&fac->sym));
  fac->sym          = NULL;
  fac->symdestroy   = NULL;
  fac->levels       = 0;
  fac->nnzA         = 0;
  fac->shift_amount = 0;
  fac->nshifts      = 0;
  fac->error        = MAT_FACTOR_NOERROR;
  fac->nonfinite    = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorCheckMat - the factorizations read the CSR of a square MATSEQAIJ (or a type derived from it)
  of order n (the order of the factor)
*/
PetscErrorCode SpTrsvFactorCheckMat(Mat A, PetscInt n)
{
  PetscBool isaij;
  PetscInt  rows, cols;
  MatType   type;

  PetscFunctionBegin;
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &isaij));
  PetscCheck(isaij, PETSC_COMM_SELF, PETSC_ERR_SUP, "Incomplete factorization of matrix type %s is not supported: use a MATSEQAIJ matrix", type);
  PetscCall(MatGetLocalSize(A, &rows, &cols));
  PetscCheck(rows == cols, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Incomplete factorization needs a square matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, rows, cols);
  PetscCheck(rows == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The matrix has %" PetscInt_FMT " rows, the factor was created for %" PetscInt_FMT, rows, n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorGetPerm - copy of the indices of a permutation IS of size n (validated), or NULL when the
  IS is NULL or the identity
*/
PetscErrorCode SpTrsvFactorGetPerm(IS is, PetscInt n, const char *name, PetscInt **perm)
{
  const PetscInt *idx;
  PetscInt        m, *p;
  PetscBool       identity = PETSC_TRUE;
  PetscBT         seen;

  PetscFunctionBegin;
  *perm = NULL;
  if (!is) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ISGetLocalSize(is, &m));
  PetscCheck(m == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The %s permutation has size %" PetscInt_FMT ", the matrix has %" PetscInt_FMT " rows", name, m, n);
  /* an IS that already knows it is the identity (MatGetOrdering()'s natural ordering sets it): no pass over it */
  PetscCall(ISGetInfo(is, IS_IDENTITY, IS_LOCAL, PETSC_FALSE, &identity));
  if (identity) PetscFunctionReturn(PETSC_SUCCESS);
  identity = PETSC_TRUE;
  PetscCall(ISGetIndices(is, &idx));
  PetscCall(PetscBTCreate(n, &seen));
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(idx[k] >= 0 && idx[k] < n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The %s permutation has entry %" PetscInt_FMT " = %" PetscInt_FMT " outside [0, %" PetscInt_FMT ")", name, k, idx[k], n);
    PetscCheck(!PetscBTLookupSet(seen, idx[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The %s ordering is not a permutation: %" PetscInt_FMT " appears twice", name, idx[k]);
    if (idx[k] != k) identity = PETSC_FALSE;
  }
  PetscCall(PetscBTDestroy(&seen));
  if (!identity) {
    PetscCall(PetscMalloc1(n, &p));
    PetscCall(PetscArraycpy(p, idx, n));
    *perm = p;
  }
  PetscCall(ISRestoreIndices(is, &idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorInvertPerm - iperm[perm[k]] = k; the identity when perm is NULL
*/
PetscErrorCode SpTrsvFactorInvertPerm(PetscInt n, const PetscInt *perm, PetscInt **iperm)
{
  PetscInt *ip;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &ip));
  for (PetscInt k = 0; k < n; k++) ip[perm ? perm[k] : k] = k;
  *iperm = ip;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const PetscInt *ai, *aj;
  PetscInt       *adiag;
} SpTrsvFactorDiagCtx;

/* rows [lo_row, hi_row) of SpTrsvFactorFindDiagonal() (SpTrsvThreadsFor()): the diagonal's position, -1 where it is missing */
static void SpTrsvFactorFindDiagonalRows(void *ctx, PetscInt lo_row, PetscInt hi_row)
{
  const SpTrsvFactorDiagCtx *c = (const SpTrsvFactorDiagCtx *)ctx;
  const PetscInt            *ai = c->ai, *aj = c->aj;

  for (PetscInt i = lo_row; i < hi_row; i++) {
    PetscInt lo = ai[i], hi = ai[i + 1];

    /* columns ascend in each row: a scan of a short row (stencils) is cheaper than a search, else binary search */
    if (hi - lo <= 16) {
      while (lo < hi && aj[lo] < i) lo++;
    } else {
      while (lo < hi) {
        PetscInt mid = lo + (hi - lo) / 2;
        if (aj[mid] < i) lo = mid + 1;
        else hi = mid;
      }
    }
    c->adiag[i] = (lo < ai[i + 1] && aj[lo] == i) ? lo : -1;
  }
}

/*
  SpTrsvFactorFindDiagonal - adiag[i] = position of A(i,i) in the CSR (rows split over the setup's threads); a missing
  diagonal entry is an error naming the first such row, as in PETSc's ILU(k)/ICC(k) (which check MatMissingDiagonal()
  at every level of fill)
*/
PetscErrorCode SpTrsvFactorFindDiagonal(PetscInt n, const PetscInt *ai, const PetscInt *aj, PetscInt *adiag)
{
  SpTrsvFactorDiagCtx c = {ai, aj, adiag};

  PetscFunctionBegin;
  PetscCall(SpTrsvThreadsFor(n, SpTrsvFactorFindDiagonalRows, &c));
  for (PetscInt i = 0; i < n; i++) PetscCheck(adiag[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Matrix is missing diagonal entry in row %" PetscInt_FMT, i);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorCheckSamePattern - cheap check at the numeric phase that A still has the pattern the
  symbolic phase saw (same size, same number of nonzeros, diagonal entries where they were)
*/
PetscErrorCode SpTrsvFactorCheckSamePattern(PetscInt n, PetscInt nnz, const PetscInt *ai, const PetscInt *aj, const PetscInt *adiag)
{
  PetscFunctionBegin;
  PetscCheck(ai[n] == nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The matrix has %" PetscInt_FMT " nonzeros, the symbolic factorization was done with %" PetscInt_FMT ": redo the symbolic factorization after changing the nonzero pattern", ai[n], nnz);
  for (PetscInt i = 0; i < n; i++) PetscCheck(adiag[i] >= ai[i] && adiag[i] < ai[i + 1] && aj[adiag[i]] == i, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The nonzero pattern of row %" PetscInt_FMT " changed since the symbolic factorization", i);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorCheckFinite - a NaN or Inf in A spreads through the factor. PETSc's ILU/ICC do not look for
  them (the solves return NaN/Inf and KSP stops with KSP_DIVERGED_NANORINF); neither do we unless asked:
  with errorif the first one is an error naming the entry, otherwise *found tells and -info names it
*/
PetscErrorCode SpTrsvFactorCheckFinite(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscBool errorif, PetscBool *found)
{
  PetscFunctionBegin;
  *found = PETSC_FALSE;
  if (SpTrsvAllFinite(aa, ai[n])) PetscFunctionReturn(PETSC_SUCCESS); /* the usual case, in one cheap pass */
  for (PetscInt i = 0; i < n && !*found; i++)
    for (PetscInt p = ai[i]; p < ai[i + 1]; p++) {
      if (!PetscIsInfOrNanScalar(aa[p])) continue;
      PetscCall(SpTrsvFactorReportNonFiniteInput(i, aj[p], (PetscBool)PetscIsNanScalar(aa[p]), errorif));
      *found = PETSC_TRUE;
      break;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorReportNonFiniteInput - the first NaN/Inf of A, at (row, col): an error with errorif, else -info
  (SpTrsvFactorCheckFinite() and the GPU numeric phase)
*/
PetscErrorCode SpTrsvFactorReportNonFiniteInput(PetscInt row, PetscInt col, PetscBool isnan, PetscBool errorif)
{
  PetscFunctionBegin;
  PetscCheck(!errorif, PETSC_COMM_SELF, PETSC_ERR_FP, "Matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is %s", row, col, isnan ? "NaN" : "Inf");
  PetscCall(PetscInfo(NULL, "Matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is %s: the factor will not be finite\n", row, col, isnan ? "NaN" : "Inf"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorReportNonFiniteFactor - the first NaN/Inf of a factor made from a finite A, at (row, col) (col
  -1: the pivot): an error with errorif, else -info and fac->nonfinite
*/
PetscErrorCode SpTrsvFactorReportNonFiniteFactor(PetscInt r, PetscInt c, PetscBool errorif, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  PetscCheck(!errorif, PETSC_COMM_SELF, PETSC_ERR_FP, c < 0 ? "Factor has an Inf/NaN pivot in row %" PetscInt_FMT : "Factor has an Inf/NaN value at (%" PetscInt_FMT ", %" PetscInt_FMT ")", r, c);
  PetscCall(PetscInfo(NULL, "Factor has an Inf/NaN value in row %" PetscInt_FMT ", column %" PetscInt_FMT " (-1: the pivot)\n", r, c));
  fac->nonfinite = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorCheckNonFiniteFactor - the first NaN/Inf of L, then of U, reported by SpTrsvFactorReportNonFiniteFactor() (none: nothing)
*/
PetscErrorCode SpTrsvFactorCheckNonFiniteFactor(PetscBool errorif, SpTrsvFactor fac)
{
  PetscInt r = -1, c = -1;

  PetscFunctionBegin;
  PetscCall(SpTrsvTriFindNonFinite(fac->L, &r, &c));
  if (r < 0) PetscCall(SpTrsvTriFindNonFinite(fac->U, &r, &c));
  if (r >= 0) PetscCall(SpTrsvFactorReportNonFiniteFactor(r, c, errorif, fac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- zero pivots and shifts ----------------------------------------------------------------------

   PETSc's rules (include/petsc/private/matimpl.h, MatPivotCheck_*), applied after row i of the factor
   is complete, with rs = sum of |off-diagonal entries of factored row i| and pv = its pivot:
   - NONE:       |pv| <= zeropivot is a zero pivot. With sctx->erroriffailure (A->erroriffailure, set by
                 MatSetErrorIfFailure(), e.g. by PCSetUp_ILU under -ksp_error_if_not_converged) it is an
                 error (PETSC_ERR_MAT_LU_ZRPVT naming the row and the pivot). Otherwise, as PETSc's
                 MatPivotCheck_none(), it is recorded (the last one met wins: row and |pivot|) and the
                 factorization goes on with 1/pivot; the factor matrix then reports
                 MAT_FACTOR_NUMERIC_ZEROPIVOT (MatFactorGetError()).
   - NONZERO:    |pv| <= zeropivot*rs restarts the whole factorization with a diagonal shift of
                 shiftamount, then doubles it on every further restart.
   - POSITIVE_DEFINITE: Re(pv) <= zeropivot*rs restarts with shift = fraction * shift_top, where
                 shift_top = 1.1 * max_i (sum_j |a_ij| - |a_ii| - Re(a_ii)) (at least zeropivot);
                 the fraction is bisected in [0,1] for at most 5 tries: a successful pass with a
                 positive fraction tries a smaller one (SpTrsvShiftRefine()). A non-positive pivot in
                 the pass after the 5 tries (with the largest shift) is a zero pivot, as for NONE
                 (PETSc restarts for ever there).
   - INBLOCKS:   |pv| <= zeropivot adds shiftamount to that pivot only; no restart.
   A NaN pivot is not a zero pivot (it is caught when the values of the factor are checked).
*/
PetscErrorCode SpTrsvShiftSetUp(const MatFactorInfo *info, PetscInt n, const PetscInt *ai, const PetscInt *adiag, const PetscScalar *aa, SpTrsvShiftCtx *sctx)
{
  PetscReal rowmax = PETSC_NINFINITY;

  PetscFunctionBegin;
  if (info->shifttype == (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE) {
    for (PetscInt i = 0; i < n; i++) {
      PetscScalar d  = aa[adiag[i]];
      PetscReal   rs = -PetscAbsScalar(d) - PetscRealPart(d); /* shift that would make row i diagonally dominant */

      for (PetscInt p = ai[i]; p < ai[i + 1]; p++) rs += PetscAbsScalar(aa[p]);
      if (rs > rowmax) rowmax = rs; /* a NaN row is skipped */
    }
  }
  PetscCall(SpTrsvShiftSetUpTop(info, rowmax, sctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvShiftSetUpTop - SpTrsvShiftSetUp() with the row maximum computed elsewhere (the GPU numeric phase):
  rowmax = max_i (sum_j |a_ij| - |a_ii| - Re(a_ii)) over the rows where it is not NaN (-inf: none)
*/
PetscErrorCode SpTrsvShiftSetUpTop(const MatFactorInfo *info, PetscReal rowmax, SpTrsvShiftCtx *sctx)
{
  const PetscBool errorif = sctx->erroriffailure;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(sctx, sizeof(*sctx)));
  sctx->erroriffailure = errorif;
  if (info->shifttype == (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE) {
    sctx->shift_top = rowmax > info->zeropivot ? rowmax : info->zeropivot;
    sctx->shift_top *= 1.1;
    sctx->nshift_max = 5;
    sctx->shift_lo   = 0.;
    sctx->shift_hi   = 1.;
  } else {
    PetscCheck(info->shifttype == (PetscReal)MAT_SHIFT_NONE || info->shifttype == (PetscReal)MAT_SHIFT_NONZERO || info->shifttype == (PetscReal)MAT_SHIFT_INBLOCKS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown shift type %g", (double)info->shifttype);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvShiftCheckPivot - check the pivot sctx->pv of factored row `row` (row `inrow` of the input)
  with rs = sctx->rs; sets sctx->newshift when the pass must restart; may change sctx->pv (INBLOCKS)
*/
PetscErrorCode SpTrsvShiftCheckPivot(const MatFactorInfo *info, SpTrsvShiftCtx *sctx, PetscInt row, PetscInt inrow)
{
  const PetscScalar pv     = sctx->pv;
  const PetscBool   notnan = (PetscBool)!PetscIsNanScalar(pv);

  PetscFunctionBegin;
  sctx->newshift = PETSC_FALSE;
  if (info->shifttype == (PetscReal)MAT_SHIFT_NONZERO) {
    if (PetscAbsScalar(pv) <= info->zeropivot * sctx->rs && notnan) {
      if (!sctx->nshift) sctx->shift_amount = info->shiftamount;
      else sctx->shift_amount *= 2.0;
      /* PETSc would loop forever here; a clear error is better */
      PetscCheck(sctx->shift_amount > 0 && !PetscIsInfOrNanReal(sctx->shift_amount), PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input) and the nonzero shift amount %g cannot remove it; use -pc_factor_shift_amount <positive>", row, inrow,
                 (double)sctx->shift_amount);
      sctx->newshift = PETSC_TRUE;
      sctx->nshift++;
    }
  } else if (info->shifttype == (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE) {
    if (PetscRealPart(pv) <= info->zeropivot * sctx->rs && notnan && sctx->nshift > sctx->nshift_max) {
      /* the pass with the largest shift met a non-positive pivot too (an ICC of a matrix far from symmetric
         positive definite): PETSc would restart for ever; a failed factorization instead, as a zero pivot */
      PetscCheck(!sctx->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Non-positive pivot %g in row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input) even with the largest positive-definite shift %g; use -pc_factor_shift_type nonzero", (double)PetscRealPart(pv), row, inrow, (double)sctx->shift_amount);
      PetscCall(PetscInfo(NULL, "Non-positive pivot %g in row %" PetscInt_FMT " (row %" PetscInt_FMT " of the input) with the largest positive-definite shift %g\n", (double)PetscRealPart(pv), row, inrow, (double)sctx->shift_amount));
      sctx->zeropivot = PETSC_TRUE;
      sctx->nzeropivot++;
      sctx->zeropivot_row   = row;
      sctx->zeropivot_value = PetscAbsScalar(pv);
    } else if (PetscRealPart(pv) <= info->zeropivot * sctx->rs && notnan) {
      if (sctx->nshift == sctx->nshift_max) {
        sctx->shift_fraction = sctx->shift_hi;
      } else {
        sctx->shift_lo       = sctx->shift_fraction;
        sctx->shift_fraction = (sctx->shift_hi + sctx->shift_lo) / 2.;
      }
      sctx->shift_amount = sctx->shift_fraction * sctx->shift_top;
      sctx->nshift++;
      sctx->newshift = PETSC_TRUE;
    }
  } else if (info->shifttype == (PetscReal)MAT_SHIFT_INBLOCKS) {
    if (PetscAbsScalar(pv) <= info->zeropivot && notnan) {
      sctx->pv += info->shiftamount;
      sctx->shift_amount = 0.0;
      sctx->nshift++;
    }
  } else if (PetscAbsScalar(pv) <= info->zeropivot && notnan) {
    PetscCheck(!sctx->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input): |pivot| %g <= tolerance %g; use -pc_factor_shift_type nonzero", row, inrow, (double)PetscAbsScalar(pv), (double)info->zeropivot);
    PetscCall(PetscInfo(NULL, "Detected zero pivot in factorization in row %" PetscInt_FMT " (row %" PetscInt_FMT " of the input) value %g tolerance %g\n", row, inrow, (double)PetscAbsScalar(pv), (double)info->zeropivot));
    sctx->zeropivot       = PETSC_TRUE;
    sctx->nzeropivot++;
    sctx->zeropivot_row   = row;
    sctx->zeropivot_value = PetscAbsScalar(pv);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvShiftRefine - after a pass without zero pivots: with POSITIVE_DEFINITE, when a shift was used and
  tries are left, bisect towards a smaller shift and ask for another pass (sctx->newshift)
*/
PetscErrorCode SpTrsvShiftRefine(const MatFactorInfo *info, SpTrsvShiftCtx *sctx)
{
  PetscFunctionBegin;
  if (info->shifttype == (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE && !sctx->newshift && sctx->shift_fraction > 0 && sctx->nshift < sctx->nshift_max) {
    sctx->shift_hi       = sctx->shift_fraction;
    sctx->shift_fraction = (sctx->shift_hi + sctx->shift_lo) / 2.;
    sctx->shift_amount   = sctx->shift_fraction * sctx->shift_top;
    sctx->newshift       = PETSC_TRUE;
    sctx->nshift++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvShiftRecord - report the shift in the factor: the diagonal shift of the last pass (NONZERO,
  POSITIVE_DEFINITE) or, for INBLOCKS, the amount added to each of the nshifts shifted pivots
*/
PetscErrorCode SpTrsvShiftRecord(const MatFactorInfo *info, const SpTrsvShiftCtx *sctx, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  fac->nshifts      = sctx->nshift;
  fac->shift_amount = sctx->shift_amount;
  if (info->shifttype == (PetscReal)MAT_SHIFT_INBLOCKS) fac->shift_amount = sctx->nshift ? info->shiftamount : 0.0;
  if (sctx->nshift) {
    if (info->shifttype == (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE) {
      PetscCall(PetscInfo(NULL, "number of shift_pd tries %" PetscInt_FMT ", shift_amount %g, diagonal shifted up by %e fraction top_value %e\n", sctx->nshift, (double)sctx->shift_amount, (double)sctx->shift_fraction, (double)sctx->shift_top));
    } else if (info->shifttype == (PetscReal)MAT_SHIFT_NONZERO) {
      PetscCall(PetscInfo(NULL, "number of shift_nz tries %" PetscInt_FMT ", shift_amount %g\n", sctx->nshift, (double)sctx->shift_amount));
    } else {
      PetscCall(PetscInfo(NULL, "number of shift_inblocks applied %" PetscInt_FMT ", each shift_amount %g\n", sctx->nshift, (double)info->shiftamount));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorNumericRun - the numeric phase of ILU and ICC: run the factorization's row loop on the
  current values of A (same pattern as at the symbolic phase), record the shift and the outcome (zero
  pivot, NaN/Inf; errors instead when A->erroriffailure), and mark the new values
*/
PetscErrorCode SpTrsvFactorNumericRun(Mat A, const MatFactorInfo *info, SpTrsvFactor fac, MatFactorType ftype, SpTrsvNumericRowsFn rows)
{
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  SpTrsvShiftCtx     sctx;
  PetscErrorCode     ierr;
  const PetscBool    errorif = A->erroriffailure;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckMat(A, fac->n));
  PetscCheck(fac->ftype == ftype && fac->sym && fac->L && fac->U, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call the symbolic %s factorization before the numeric one", ftype == MAT_FACTOR_ICC ? "ICC" : "ILU");
  fac->error           = MAT_FACTOR_NOERROR;
  fac->zeropivot_value = 0.0;
  fac->zeropivot_row   = 0;
  fac->nonfinite       = PETSC_FALSE;
  PetscCall(PetscMemzero(&sctx, sizeof(sctx)));
  sctx.erroriffailure = errorif;
  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, &aa));
  ierr = SpTrsvFactorCheckFinite(fac->n, ai, aj, aa, errorif, &fac->nonfinite);
  if (!ierr) ierr = (*rows)(fac, info, ai, aj, aa, &sctx);
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, &aa));
  PetscCall(ierr);
  PetscCall(SpTrsvShiftRecord(info, &sctx, fac));
  if (sctx.zeropivot) {
    fac->error           = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    fac->zeropivot_value = sctx.zeropivot_value;
    fac->zeropivot_row   = sctx.zeropivot_row;
  } else if (!fac->nonfinite) PetscCall(SpTrsvFactorCheckNonFiniteFactor(errorif, fac)); /* a finite A can still give an Inf/NaN factor (overflow, Inf * 0) */
  PetscCall(SpTrsvTriValuesChanged(fac->L));
  PetscCall(SpTrsvTriValuesChanged(fac->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorSymbolicBegin - check A, the factor type and the levels of fill, drop any earlier pattern
*/
PetscErrorCode SpTrsvFactorSymbolicBegin(Mat A, const MatFactorInfo *info, MatFactorType ftype, SpTrsvFactor fac)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckMat(A, fac->n));
  PetscCheck(fac->ftype == ftype, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not an %s factor", ftype == MAT_FACTOR_ICC ? "ICC" : "ILU");
  PetscCheck(info->levels >= 0 && info->levels <= PETSC_INT_MAX / 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Levels of fill %g out of range", (double)info->levels);
  PetscCall(SpTrsvFactorReset(fac));
  fac->levels = (PetscInt)info->levels;
  PetscFunctionReturn(PETSC_SUCCESS);
}
