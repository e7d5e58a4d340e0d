static char help[] = "Tests of PC gs (Gauss-Seidel/SOR sweeps on the host backend) against PETSc's PCSOR on small matrices:\n"
                     "PCApply, PCApplyRichardson from zero and nonzero guesses, PCApplyTranspose, value refresh, bad input.\n";

#include <petscksp.h>
#include <petscsptrsv.h>
#include <sptrsv/compat.h>

#include "unit_common.h"
#include "test_helpers.h"

/* 2-D 5-point convection-diffusion on an m x m grid (nonsymmetric values for beta != 0); with extra > 0
   a few one-sided couplings make the pattern structurally nonsymmetric (two-vector sweeps) */
static PetscErrorCode Assemble(PetscInt m, PetscReal beta, PetscInt extra, Mat *A)
{
  PetscInt n = m * m;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 7, NULL, A));
  PetscCall(MatSetOption(*A, MAT_USE_INODES, PETSC_FALSE)); /* PCSOR's point sweeps, as PC gs */
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt i = 0; i < m; i++) {
      PetscInt row = j * m + i;
      if (i > 0) PetscCall(MatSetValue(*A, row, row - 1, -1.0 - beta, INSERT_VALUES));
      if (i < m - 1) PetscCall(MatSetValue(*A, row, row + 1, -1.0 + beta, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(*A, row, row - m, -1.0, INSERT_VALUES));
      if (j < m - 1) PetscCall(MatSetValue(*A, row, row + m, -1.0, INSERT_VALUES));
      if (extra && row % extra == 0 && row + 2 * m + 1 < n) PetscCall(MatSetValue(*A, row, row + 2 * m + 1, -0.3, INSERT_VALUES));
      if (extra && row % extra == 1 && row > 3 * m) PetscCall(MatSetValue(*A, row, row - 3 * m + 1, -0.2, INSERT_VALUES));
      PetscCall(MatSetValue(*A, row, row, 4.5 + 0.01 * (row % 7), INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the scheduler values PC gs accepts */
static const char *const Schedulers[] = {"level", "element", "auto"};

typedef struct {
  PCGSType  type;
  PetscReal omega, shift;
  PetscInt  its;
  PetscInt  format, scheduler; /* indices into SpTrsvFormats and Schedulers */
} GSCase;

static PetscErrorCode MakePCs(Mat A, const GSCase *c, PC *sor, PC *gs)
{
  MatSORType st = c->type == PC_GS_FORWARD ? SOR_FORWARD_SWEEP : (c->type == PC_GS_BACKWARD ? SOR_BACKWARD_SWEEP : SOR_SYMMETRIC_SWEEP);

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, sor));
  PetscCall(PCSetOperators(*sor, A, A));
  PetscCall(PCSetType(*sor, PCSOR));
  PetscCall(PCSORSetSymmetric(*sor, st));
  PetscCall(PCSORSetOmega(*sor, c->omega));
  PetscCall(PCSORSetIterations(*sor, c->its, 1));
  if (c->shift != 0.0) {
    PetscCall(PetscOptionsSetValue(NULL, "-sortest_pc_sor_diagonal_shift", "0.5"));
    PetscCall(PCSetOptionsPrefix(*sor, "sortest_"));
    PetscCall(PCSetFromOptions(*sor));
    PetscCall(PetscOptionsClearValue(NULL, "-sortest_pc_sor_diagonal_shift"));
  }
  PetscCall(PCSetUp(*sor));

  PetscCall(PCCreate(PETSC_COMM_SELF, gs));
  PetscCall(PCSetOperators(*gs, A, A));
  PetscCall(PCSetType(*gs, PCGS));
  PetscCall(PCGSSetType(*gs, c->type));
  PetscCall(PCGSSetOmega(*gs, c->omega));
  PetscCall(PCGSSetIterations(*gs, c->its));
  PetscCall(PCGSSetScheduler(*gs, Schedulers[c->scheduler]));
  PetscCall(PCSetOptionsPrefix(*gs, "gstest_"));
  PetscCall(PetscOptionsSetValue(NULL, "-gstest_pc_gs_format", SpTrsvFormats[c->format]));
  PetscCall(PetscOptionsSetValue(NULL, "-gstest_pc_gs_backend", "host"));
  if (c->shift != 0.0) PetscCall(PetscOptionsSetValue(NULL, "-gstest_pc_gs_diagonal_shift", "0.5"));
  PetscCall(PCSetFromOptions(*gs));
  PetscCall(PetscOptionsClearValue(NULL, "-gstest_pc_gs_format"));
  PetscCall(PetscOptionsClearValue(NULL, "-gstest_pc_gs_backend"));
  PetscCall(PetscOptionsClearValue(NULL, "-gstest_pc_gs_diagonal_shift"));
  PetscCall(PCSetUp(*gs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply, PCApplyRichardson (zero and nonzero guess) and PCApplyTranspose of gs against sor */
static PetscErrorCode TestCase(Mat A, const char *mname, const GSCase *c, PetscRandom rnd)
{
  PC        sor, gs;
  Vec       b, x0, ys, yg, w;
  PetscReal d;
  PetscInt  outits;
  PCRichardsonConvergedReason reason;
  char      name[256];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s %s omega %g its %" PetscInt_FMT " shift %g %s %s", mname, PCGSTypes[c->type], (double)c->omega, c->its, (double)c->shift, SpTrsvFormats[c->format], Schedulers[c->scheduler]));
  PetscCall(MakePCs(A, c, &sor, &gs));
  PetscCall(MatCreateVecs(A, &b, &x0));
  PetscCall(VecDuplicate(b, &ys));
  PetscCall(VecDuplicate(b, &yg));
  PetscCall(VecDuplicate(b, &w));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecSetRandom(x0, rnd));

  /* PCApply: its iterations from zero (y's content must not matter: fill it with garbage) */
  PetscCall(VecSet(yg, 1e30));
  PetscCall(PCApply(sor, b, ys));
  PetscCall(PCApply(gs, b, yg));
  PetscCall(VecRelDiffInf(ys, yg, ys, &d));
  EXPECT(d < 1e-13, "%s: PCApply differs from PCSOR by %g", name, (double)d);

  /* PCApplyRichardson, 2 outer iterations from a nonzero guess and from zero */
  for (PetscInt z = 0; z < 2; z++) {
    PetscCall(VecCopy(x0, ys));
    PetscCall(VecCopy(x0, yg));
    PetscCall(PCApplyRichardson(sor, b, ys, w, 0, 0, 0, 2, (PetscBool)z, &outits, &reason));
    PetscCall(PCApplyRichardson(gs, b, yg, w, 0, 0, 0, 2, (PetscBool)z, &outits, &reason));
    PetscCall(VecRelDiffInf(ys, yg, ys, &d));
    EXPECT(d < 1e-13 && outits == 2, "%s: PCApplyRichardson (%s guess) differs from PCSOR by %g", name, z ? "zero" : "nonzero", (double)d);
  }

  /* PCApplyTranspose (one iteration): <M^{-T} u, v> = <u, M^{-1} v> for random u, v */
  if (c->its == 1) {
    PetscScalar l, r;
    PetscCall(PCApply(gs, b, yg));          /* M^{-1} b */
    PetscCall(PCApplyTranspose(gs, x0, ys)); /* M^{-T} x0 */
    PetscCall(VecDot(ys, b, &l));
    PetscCall(VecDot(x0, yg, &r));
    EXPECT(PetscAbsScalar(l - r) < 1e-12 * PetscMax(PetscAbsScalar(l), 1.0), "%s: PCApplyTranspose is not the transpose: %g vs %g", name, (double)PetscRealPart(l), (double)PetscRealPart(r));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&ys));
  PetscCall(VecDestroy(&yg));
  PetscCall(VecDestroy(&w));
  PetscCall(PCDestroy(&sor));
  PetscCall(PCDestroy(&gs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values on the same pattern: the next PCSetUp reuses the analysis and the results follow A */
static PetscErrorCode TestRefresh(PetscRandom rnd)
{
  Mat       A;
  PC        sor, gs;
  Vec       b, ys, yg;
  PetscReal d;
  GSCase    c = {PC_GS_SYMMETRIC, 1.2, 0.0, 2, 0, 1};

  PetscFunctionBeginUser;
  PetscCall(Assemble(9, 0.2, 0, &A));
  PetscCall(MakePCs(A, &c, &sor, &gs));
  PetscCall(MatCreateVecs(A, &b, &ys));
  PetscCall(VecDuplicate(b, &yg));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PCApply(gs, b, yg));
  PetscCall(MatShift(A, 1.5));
  PetscCall(PCSetOperators(sor, A, A));
  PetscCall(PCSetOperators(gs, A, A));
  PetscCall(PCSetUp(sor));
  PetscCall(PCSetUp(gs));
  PetscCall(PCApply(sor, b, ys));
  PetscCall(PCApply(gs, b, yg));
  PetscCall(VecRelDiffInf(ys, yg, ys, &d));
  EXPECT(d < 1e-13, "refresh: after MatShift PC gs differs from PCSOR by %g", (double)d);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&ys));
  PetscCall(VecDestroy(&yg));
  PetscCall(PCDestroy(&sor));
  PetscCall(PCDestroy(&gs));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bad input must be a PETSc error with the right code, never a wrong answer (errorif: PCSetErrorIfFailure()) */
static PetscErrorCode ExpectSetUpErrorIf(Mat A, PetscBool errorif, PetscErrorCode expected, const char *what)
{
  PC             pc;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetType(pc, PCGS));
  PetscCall(PCSetErrorIfFailure(pc, errorif));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  EXPECT(ierr == expected, "%s: error %d, expected %d", what, (int)ierr, (int)expected);
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExpectSetUpError(Mat A, PetscErrorCode expected, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(ExpectSetUpErrorIf(A, PETSC_FALSE, expected, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  a zero diagonal entry or an Inf, PC gs against PCSOR with the same parameters (PCSORSetOmega() etc.): PCSetUp,
  PCApply, PCApplyRichardson must give the same outcome: an error on both, or no error, the same PC failed reason
  after the apply and a result that is not finite on both
*/
static PetscErrorCode ExpectLikeSOR(Mat A, PetscReal omega, PetscReal shift, PCGSType type, const char *what)
{
  PC              pc[2];
  PetscErrorCode  ierr[2];
  PCFailedReason  fr[2] = {PC_NOERROR, PC_NOERROR}, frr[2] = {PC_NOERROR, PC_NOERROR};
  PetscReal       nrm[2] = {0, 0}, nrr[2] = {0, 0};
  Vec             b, y;
  PetscInt        outits;
  PCRichardsonConvergedReason rr;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &y, &b));
  PetscCall(VecSet(b, 1.0));
  for (PetscInt t = 0; t < 2; t++) {
    /* MatSOR leaves a zero pivot error on the matrix itself, where it stays (PC gs does not touch the matrix),
       and looks at the diagonal again only after new values: start each case afresh */
    PetscCall(MatFactorClearError(A));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    {
      PetscScalar v;
      PetscInt    r0 = 0;

      PetscCall(MatGetValues(A, 1, &r0, 1, &r0, &v));
      PetscCall(MatSetValue(A, 0, 0, v, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(PCCreate(PETSC_COMM_SELF, &pc[t]));
    PetscCall(PCSetOperators(pc[t], A, A));
    if (t == 0) {
      PetscCall(PCSetType(pc[0], PCSOR));
      PetscCall(PCSORSetOmega(pc[0], omega));
      PetscCall(PCSORSetSymmetric(pc[0], type == PC_GS_FORWARD ? SOR_FORWARD_SWEEP : (type == PC_GS_BACKWARD ? SOR_BACKWARD_SWEEP : SOR_SYMMETRIC_SWEEP)));
    } else {
      PetscCall(PCSetType(pc[1], PCGS));
      PetscCall(PCGSSetOmega(pc[1], omega));
      PetscCall(PCGSSetType(pc[1], type));
    }
    { /* the diagonal shift has no setter: through the options */
      char v[64];
      PetscCall(PetscSNPrintf(v, sizeof(v), "%g", (double)shift));
      PetscCall(PCSetOptionsPrefix(pc[t], "likesor_"));
      PetscCall(PetscOptionsSetValue(NULL, "-likesor_pc_sor_diagonal_shift", v));
      PetscCall(PCSetFromOptions(pc[t]));
      PetscCall(PetscOptionsClearValue(NULL, "-likesor_pc_sor_diagonal_shift"));
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr[t] = PCSetUp(pc[t]);
    if (!ierr[t]) ierr[t] = PCApply(pc[t], b, y);
    if (!ierr[t]) ierr[t] = PCGetFailedReason(pc[t], &fr[t]);
    if (!ierr[t]) ierr[t] = VecNorm(y, NORM_1, &nrm[t]);
    if (!ierr[t]) ierr[t] = VecSet(y, 0.0);
    if (!ierr[t]) ierr[t] = PCApplyRichardson(pc[t], b, y, NULL, 0, 0, 0, 2, PETSC_FALSE, &outits, &rr);
    if (!ierr[t]) ierr[t] = PCGetFailedReason(pc[t], &frr[t]);
    if (!ierr[t]) ierr[t] = VecNorm(y, NORM_1, &nrr[t]);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PCDestroy(&pc[t]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: PCSOR error %d failed %s |y| %g %g; PC gs error %d failed %s |y| %g %g\n", what, (int)ierr[0], PCFailedReasons[fr[0]], (double)nrm[0], (double)nrr[0], (int)ierr[1], PCFailedReasons[fr[1]], (double)nrm[1], (double)nrr[1]));
  EXPECT(ierr[0] == ierr[1] && fr[0] == fr[1] && frr[0] == frr[1], "%s: PCSOR error %d, failed %s/%s; PC gs error %d, failed %s/%s", what, (int)ierr[0], PCFailedReasons[fr[0]], PCFailedReasons[frr[0]], (int)ierr[1], PCFailedReasons[fr[1]], PCFailedReasons[frr[1]]);
  EXPECT(ierr[0] || (PetscIsInfOrNanReal(nrm[0]) == PetscIsInfOrNanReal(nrm[1]) && PetscIsInfOrNanReal(nrr[0]) == PetscIsInfOrNanReal(nrr[1])), "%s: finite results differ: PCSOR %g %g, PC gs %g %g", what, (double)nrm[0], (double)nrr[0], (double)nrm[1], (double)nrr[1]);
  PetscCall(MatFactorClearError(A));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestBadInput(void)
{
  Mat            A;
  PC             pc;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  /* missing diagonal entry in row 3 */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 5, 5, 3, NULL, &A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = 0; i < 5; i++) {
    if (i != 3) PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
    if (i) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectSetUpError(A, PETSC_ERR_ARG_WRONGSTATE, "missing diagonal"));
  /* explicit zero on the diagonal of row 3 */
  PetscCall(MatSetValue(A, 3, 3, 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectSetUpError(A, PETSC_ERR_ARG_INCOMP, "zero diagonal (PCSOR's code)"));
  /* what PCSOR does with it for each omega and shift: an error, a failed PC, or Inf */
  PetscCall(ExpectLikeSOR(A, 1.0, 0.0, PC_GS_SYMMETRIC, "zero diagonal, omega 1"));
  PetscCall(ExpectLikeSOR(A, 1.0, -0.5, PC_GS_SYMMETRIC, "zero diagonal, omega 1, shift -0.5"));
  PetscCall(ExpectLikeSOR(A, 1.0, -0.5, PC_GS_FORWARD, "zero diagonal, omega 1, shift -0.5, forward"));
  PetscCall(ExpectLikeSOR(A, 1.3, 0.0, PC_GS_SYMMETRIC, "zero diagonal, omega 1.3"));
  PetscCall(ExpectLikeSOR(A, 1.0, 0.5, PC_GS_BACKWARD, "zero diagonal, omega 1, shift 0.5"));
  PetscCall(ExpectLikeSOR(A, 0.8, -2.0, PC_GS_SYMMETRIC, "diagonal 2 shifted to 0 (row 0), omega 0.8"));
  /* with PCSetErrorIfFailure() a zero diagonal met with a negative shift is an error */
  {
    PetscErrorCode ierr2;

    PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PCSetType(pc, PCGS));
    PetscCall(PCSetErrorIfFailure(pc, PETSC_TRUE));
    PetscCall(PetscOptionsSetValue(NULL, "-eif_pc_sor_diagonal_shift", "-0.5"));
    PetscCall(PCSetOptionsPrefix(pc, "eif_"));
    PetscCall(PCSetFromOptions(pc));
    PetscCall(PetscOptionsClearValue(NULL, "-eif_pc_sor_diagonal_shift"));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr2 = PCSetUp(pc);
    PetscCall(PetscPopErrorHandler());
    EXPECT(ierr2 == PETSC_ERR_MAT_LU_ZRPVT, "zero diagonal, shift -0.5, PCSetErrorIfFailure(): error %d, expected %d", (int)ierr2, (int)PETSC_ERR_MAT_LU_ZRPVT);
    PetscCall(PCDestroy(&pc));
  }
  /* NaN off the diagonal */
  PetscCall(MatSetValue(A, 3, 3, 2.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 2, 1, PETSC_MAX_REAL * 10, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectSetUpErrorIf(A, PETSC_TRUE, PETSC_ERR_FP, "Inf entry, PCSetErrorIfFailure()"));
  PetscCall(ExpectLikeSOR(A, 1.0, 0.0, PC_GS_SYMMETRIC, "Inf entry"));
  PetscCall(MatDestroy(&A));
  /* not an AIJ matrix */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 3, 3, NULL, &A));
  PetscCall(MatShift(A, 1.0));
  PetscCall(ExpectSetUpError(A, PETSC_ERR_SUP, "dense matrix"));
  PetscCall(MatDestroy(&A));
  /* omega outside (0, 2) */
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetType(pc, PCGS));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PCGSSetOmega(pc, 2.5);
  PetscCall(PetscPopErrorHandler());
  EXPECT(ierr == PETSC_ERR_ARG_OUTOFRANGE, "omega 2.5 accepted (error %d)", (int)ierr);
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;
  Mat         A[3];
  const char *names[3]  = {"symmetric 5-point", "convection-diffusion", "structurally nonsymmetric"};
  PCGSType    types[3]  = {PC_GS_FORWARD, PC_GS_BACKWARD, PC_GS_SYMMETRIC};
  PetscReal   omegas[3] = {1.0, 0.8, 1.4};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261122));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(Assemble(11, 0.0, 0, &A[0]));
  PetscCall(Assemble(10, 0.35, 0, &A[1]));
  PetscCall(Assemble(12, 0.1, 5, &A[2]));
  for (PetscInt m = 0; m < 3; m++)
    for (PetscInt t = 0; t < 3; t++)
      for (PetscInt o = 0; o < 3; o++)
        for (PetscInt f = 0; f < 2; f++)
          for (PetscInt s = 0; s < 2; s++) {
            GSCase c = {types[t], omegas[o], 0.0, (o == 1) ? 3 : 1, f, s};
            PetscCall(TestCase(A[m], names[m], &c, rnd));
          }
  {
    GSCase c = {PC_GS_SYMMETRIC, 1.1, 0.5, 2, 0, 2};
    PetscCall(TestCase(A[2], names[2], &c, rnd));
  }
  for (PetscInt m = 0; m < 3; m++) PetscCall(MatDestroy(&A[m]));
  PetscCall(TestRefresh(rnd));
  PetscCall(TestBadInput());
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_gs: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
