static const char help[] = "The driver of the GPU numeric ILU (src/mat/factor/ilu_device.c) with the host emulation of its passes\n"
                           "(src/mat/factor/ilu_emul.c) against the host numeric ILU: the same factor bit for bit, the same shifts,\n"
                           "zero pivots, NaN/Inf outcomes and errors, for ILU(0..2), natural and RCM orderings, every shift type.\n";

#include "unit_common.h"
#include <sptrsv/ilu_device.h>
#include <sptrsv/plan.h> /* SpTrsvLevelsCompute */
#include "../../examples/common/stencil.h"
#include <petsc/private/matimpl.h>
#include "test_helpers.h"

static PetscBool verbose     = PETSC_FALSE; /* -v: the outcome of every configuration */
static PetscBool level_order = PETSC_FALSE; /* the emulated elimination hands the rows out in level order (the same values bit for bit) */
static PetscBool given_levels = PETSC_FALSE; /* with level_order: L's levels given to the set-up, as an analysis's (the plan's level_asap) */

static PetscBool SameArray(PetscInt m, const PetscScalar *a, const PetscScalar *b)
{
  for (PetscInt k = 0; k < m; k++)
    if (!(a[k] == b[k] || (PetscIsNanScalar(a[k]) && PetscIsNanScalar(b[k])))) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* the numeric phase on the host (emul = false) or through the device driver with the emulation; *ierr: its error */
static PetscErrorCode Factor(Mat A, IS row, IS col, const MatFactorInfo *info, PetscBool emul, PetscBool errorif, SpTrsvFactor *fac, PetscErrorCode *ierr, char *msg, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvFactorCreate(MAT_FACTOR_ILU, A->rmap->n, fac));
  PetscCall(SpTrsvFactorILUSymbolic(A, row, col, info, *fac));
  if (emul) {
    const SpTrsvILUDeviceConfig cfg = {level_order, PETSC_FALSE, 0};
    PetscInt                   *lv = NULL, nl = 0;

    if (level_order && given_levels) {
      PetscCall(PetscMalloc1((*fac)->n + 1, &lv));
      PetscCall(SpTrsvLevelsCompute((*fac)->n, (*fac)->L->i, (*fac)->L->j, PETSC_TRUE, lv, &nl));
    }
    PetscCall(SpTrsvFactorILUDeviceSetUpOps(A, *fac, &cfg, lv, nl, &SpTrsvILUDeviceOpsEmul));
    PetscCall(PetscFree(lv));
  }
  PetscCall(MatSetErrorIfFailure(A, errorif));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = emul ? SpTrsvFactorILUNumericDevice(A, info, *fac) : SpTrsvFactorILUNumeric(A, info, *fac);
  PetscCall(PetscPopErrorHandler());
  LastMessage(*ierr, msg, len);
  PetscCall(MatSetErrorIfFailure(A, PETSC_FALSE));
  if (emul && !*ierr) {
    EXPECT((*fac)->host_stale, "the emulated device numeric phase leaves the host values stale");
    PetscCall(SpTrsvFactorSyncHost(*fac));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* host and emulated device numeric phases of one configuration, and a second numeric phase with new values */
static PetscErrorCode Compare(Mat A0, const char *name, const char *ordering, PetscInt levels, MatFactorShiftType st, PetscBool errorif)
{
  Mat            A;
  IS             row, col;
  MatFactorInfo  info;
  SpTrsvFactor   fh, fe;
  PetscErrorCode eh, ee;
  char           mh[512], me[512];

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(A0, MAT_COPY_VALUES, &A));
  PetscCall(MatGetOrdering(A, ordering, &row, &col));
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels      = (PetscReal)levels;
  info.shifttype   = (PetscReal)st;
  info.shiftamount = 1e-6;
  info.zeropivot   = 1e-12;
  info.fill        = 2.0;
  for (PetscInt pass = 0; pass < 2; pass++) {
    PetscCall(Factor(A, row, col, &info, PETSC_FALSE, errorif, &fh, &eh, mh, sizeof(mh)));
    PetscCall(Factor(A, row, col, &info, PETSC_TRUE, errorif, &fe, &ee, me, sizeof(me)));
    EXPECT(eh == ee && !strcmp(mh, me), "%s ILU(%" PetscInt_FMT ") %s shift %d errorif %d: errors %d '%s' (host) and %d '%s' (device driver)", name, levels, ordering, (int)st, (int)errorif, (int)eh, mh, (int)ee, me);
    if (verbose) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s ILU(%" PetscInt_FMT ") %s shift %d errorif %d pass %" PetscInt_FMT ": error %d '%s', nshifts %" PetscInt_FMT ", shift %g, zero pivot %d row %" PetscInt_FMT ", nonfinite %d\n", name, levels, ordering, (int)st, (int)errorif, pass, (int)ee, me, fe->nshifts, (double)fe->shift_amount, (int)fe->error, fe->zeropivot_row, (int)fe->nonfinite));
    if (!eh && !ee) {
      const PetscInt n = fh->n;
      EXPECT(SameArray(fh->L->i[n], fh->L->a, fe->L->a) && SameArray(fh->U->i[n], fh->U->a, fe->U->a) && SameArray(n, fh->U->idiag, fe->U->idiag), "%s ILU(%" PetscInt_FMT ") %s shift %d: factor values differ", name, levels, ordering, (int)st);
      EXPECT(fh->nshifts == fe->nshifts && fh->shift_amount == fe->shift_amount, "%s ILU(%" PetscInt_FMT ") %s shift %d: shifts %" PetscInt_FMT " %g (host) and %" PetscInt_FMT " %g", name, levels, ordering, (int)st, fh->nshifts, (double)fh->shift_amount, fe->nshifts, (double)fe->shift_amount);
      EXPECT(fh->error == fe->error && fh->zeropivot_row == fe->zeropivot_row && fh->zeropivot_value == fe->zeropivot_value && fh->nonfinite == fe->nonfinite, "%s ILU(%" PetscInt_FMT ") %s shift %d: outcomes differ (error %d/%d, row %" PetscInt_FMT "/%" PetscInt_FMT ", nonfinite %d/%d)", name, levels, ordering, (int)st, (int)fh->error, (int)fe->error, fh->zeropivot_row, fe->zeropivot_row, (int)fh->nonfinite, (int)fe->nonfinite);
    }
    PetscCall(SpTrsvFactorDestroy(&fh));
    PetscCall(SpTrsvFactorDestroy(&fe));
    if (!pass) { /* new values, same pattern */
      PetscCall(MatScale(A, 2.0));
      PetscCall(MatShift(A, 0.25));
    }
  }
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Cases(void);

/* the residency cap as the set-up resolves it (SpTrsvFactorILUDeviceGetConfig) from cfg */
static PetscErrorCode ResolvedCap(Mat A, PetscBool lo, PetscInt bps, PetscInt *cap)
{
  SpTrsvFactor                fac;
  MatFactorInfo               info;
  IS                          row, col;
  SpTrsvILUDeviceConfig       rc;
  const SpTrsvILUDeviceConfig cfg = {lo, PETSC_TRUE, bps};

  PetscFunctionBeginUser;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(SpTrsvFactorCreate(MAT_FACTOR_ILU, A->rmap->n, &fac));
  PetscCall(SpTrsvFactorILUSymbolic(A, row, col, &info, fac));
  PetscCall(SpTrsvFactorILUDeviceSetUpOps(A, fac, &cfg, NULL, 0, &SpTrsvILUDeviceOpsEmul));
  PetscCall(SpTrsvFactorILUDeviceGetConfig(fac, &rc));
  EXPECT(rc.level_order == lo && rc.rows_shared, "the resolved configuration keeps the options (level order %d, shared rows %d)", (int)rc.level_order, (int)rc.rows_shared);
  *cap = rc.blocks_per_sm;
  PetscCall(SpTrsvFactorDestroy(&fac));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_sptrsv_factor_device_blocks_per_sm -1 (the default): SPTRSV_ILU_AUTO_CAP blocks when the rows go in level order and
   L's levels are narrow (a 2-D grid: 576 rows in 47 levels), none when they are wide (a diagonal: 3000 rows in one level)
   or in row order; a number given is kept */
static PetscErrorCode AutoCap(void)
{
  Mat      A;
  PetscInt cap;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildConvDiff2D(24, 0.0, &A));
  PetscCall(ResolvedCap(A, PETSC_TRUE, PETSC_DECIDE, &cap));
  EXPECT(cap == SPTRSV_ILU_AUTO_CAP, "automatic cap, 2-D grid of 24^2 in level order: %" PetscInt_FMT " blocks per SM, expected %d", cap, SPTRSV_ILU_AUTO_CAP);
  PetscCall(ResolvedCap(A, PETSC_FALSE, PETSC_DECIDE, &cap));
  EXPECT(cap == 0, "automatic cap, row order: %" PetscInt_FMT " blocks per SM, expected none", cap);
  PetscCall(ResolvedCap(A, PETSC_TRUE, 2, &cap));
  EXPECT(cap == 2, "a cap of 2 given: %" PetscInt_FMT, cap);
  PetscCall(ResolvedCap(A, PETSC_TRUE, 0, &cap));
  EXPECT(cap == 0, "no cap given: %" PetscInt_FMT, cap);
  PetscCall(MatDestroy(&A));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3000, 3000, 1, NULL, &A));
  for (PetscInt i = 0; i < 3000; i++) PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ResolvedCap(A, PETSC_TRUE, PETSC_DECIDE, &cap));
  EXPECT(cap == 0, "automatic cap, one level of 3000 rows: %" PetscInt_FMT " blocks per SM, expected none", cap);
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt npass_row = 0, base;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-v", &verbose, NULL));
  PetscCall(AutoCap());
  base = npass;
  for (PetscInt lo = 0; lo < 2; lo++) { /* every case in increasing row order, then with the rows handed out in level order */
    level_order = (PetscBool)lo;
    if (lo) npass_row = npass - base;
    PetscCall(Cases());
  }
  EXPECT(npass - base - npass_row >= npass_row - 1, "level order: %" PetscInt_FMT " checks passed, row order %" PetscInt_FMT, npass - base - npass_row, npass_row);
  given_levels = PETSC_TRUE; /* level order again, L's levels given as the analysis of its solves gives them */
  base         = npass;
  PetscCall(Cases());
  EXPECT(npass - base >= npass_row, "level order with given levels: %" PetscInt_FMT " checks passed, row order %" PetscInt_FMT, npass - base, npass_row);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}

/* every configuration (defined after main: the cases read from top to bottom) */
static PetscErrorCode Cases(void)
{
  Mat                      A;
  const MatFactorShiftType types[] = {MAT_SHIFT_NONE, MAT_SHIFT_NONZERO, MAT_SHIFT_POSITIVE_DEFINITE, MAT_SHIFT_INBLOCKS};
  const char              *orders[] = {MATORDERINGNATURAL, MATORDERINGRCM};

  PetscFunctionBeginUser;
  for (PetscInt m = 0; m < 2; m++) {
    PetscCall(SpTrsvBuildConvDiff2D(24, m ? 300.0 : 0.0, &A));
    for (PetscInt o = 0; o < 2; o++)
      for (PetscInt k = 0; k <= 2; k++) PetscCall(Compare(A, m ? "convdiff" : "lap2d", orders[o], k, MAT_SHIFT_NONE, PETSC_FALSE));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(SpTrsvBuildZeroPivotPairs(200, &A));
  for (PetscInt t = 0; t < 4; t++) {
    PetscCall(Compare(A, "zeropivots", MATORDERINGNATURAL, 0, types[t], PETSC_FALSE));
    PetscCall(Compare(A, "zeropivots", MATORDERINGNATURAL, 1, types[t], PETSC_TRUE));
  }
  PetscCall(MatDestroy(&A));
  { /* a NaN in A; an Inf factor from a finite A (overflowing multiplier) */
    PetscCall(SpTrsvBuildConvDiff2D(12, 50.0, &A));
    PetscCall(MatSetValue(A, 30, 31, (PetscScalar)NAN, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    for (PetscInt e = 0; e < 2; e++) PetscCall(Compare(A, "convdiff+NaN", MATORDERINGRCM, 1, MAT_SHIFT_NONE, (PetscBool)e));
    PetscCall(MatDestroy(&A));
    PetscCall(SpTrsvBuildConvDiff2D(12, 50.0, &A));
    PetscCall(MatSetValue(A, 41, 40, 1e308, INSERT_VALUES)); /* a huge multiplier, times U(40,52): fill (41,52) of ILU(1) is -Inf */
    PetscCall(MatSetValue(A, 40, 52, 1e308, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    for (PetscInt e = 0; e < 2; e++) PetscCall(Compare(A, "convdiff+overflow", MATORDERINGNATURAL, 1, MAT_SHIFT_NONE, (PetscBool)e));
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
