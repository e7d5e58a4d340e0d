static char help[] = "Tests of the sptrsv_level factor inside PETSc: solves against PETSc's native ILU/ICC,\n"
                     "transpose and multiple right-hand sides, refactorization reuse, and bad input.\n";

#include <petscksp.h>
#include <petscsptrsv.h>
#include <sptrsv/compat.h>
#include <math.h>

#include "unit_common.h"
#include "test_helpers.h"

/* 2-D convection-diffusion, 5-point, nonsymmetric unless beta = 0 */
static PetscErrorCode Assemble(PetscInt m, PetscReal beta, Mat *A)
{
  PetscInt n = m * m;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 5, NULL, A));
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt i = 0; i < m; i++) {
      PetscInt row = j * m + i;
      if (i > 0) PetscCall(MatSetValue(*A, row, row - 1, -1.0 - beta, INSERT_VALUES));
      if (i < m - 1) PetscCall(MatSetValue(*A, row, row + 1, -1.0 + beta, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(*A, row, row - m, -1.0, INSERT_VALUES));
      if (j < m - 1) PetscCall(MatSetValue(*A, row, row + m, -1.0, INSERT_VALUES));
      PetscCall(MatSetValue(*A, row, row, 4.0, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Factor(Mat A, MatSolverType type, MatFactorType ft, PetscInt levels, MatOrderingType ord, Mat *F)
{
  MatFactorInfo info;
  IS            row, col;

  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels = levels;
  info.fill   = 1.0;
  PetscCall(MatGetOrdering(A, ord, &row, &col));
  PetscCall(MatGetFactor(A, type, ft, F));
  if (ft == MAT_FACTOR_ICC) {
    info.shifttype   = (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE;
    info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
    info.zeropivot   = 100.0 * PETSC_MACHINE_EPSILON;
    PetscCall(MatICCFactorSymbolic(*F, A, row, &info));
    PetscCall(MatCholeskyFactorNumeric(*F, A, &info));
  } else {
    PetscCall(MatILUFactorSymbolic(*F, A, row, col, &info));
    PetscCall(MatLUFactorNumeric(*F, A, &info));
  }
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSolve, MatSolveTranspose and MatMatSolve of ours against PETSc's native factor */
static PetscErrorCode TestSolves(PetscRandom rnd, PetscInt m, PetscReal beta, MatFactorType ft, PetscInt levels, MatOrderingType ord)
{
  Mat       A, Fn, Fs, B, X, Xn;
  Vec       b, x, xn;
  PetscReal d;
  PetscInt  n;

  PetscFunctionBeginUser;
  PetscCall(Assemble(m, beta, &A));
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(Factor(A, MATSOLVERPETSC, ft, levels, ord, &Fn));
  PetscCall(Factor(A, MATSOLVERSPTRSVLEVEL, ft, levels, ord, &Fs));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xn));
  for (PetscInt trial = 0; trial < 3; trial++) {
    PetscCall(VecSetRandom(b, rnd));
    PetscCall(MatSolve(Fn, b, xn));
    PetscCall(MatSolve(Fs, b, x));
    PetscCall(VecRelDiffInf(x, xn, xn, &d));
    EXPECT(d < 1e-12, "MatSolve %s(%" PetscInt_FMT ") %s m=%" PetscInt_FMT ": relative difference %g", ft == MAT_FACTOR_ICC ? "ICC" : "ILU", levels, ord, m, (double)d);
    PetscCall(MatSolveTranspose(Fn, b, xn));
    PetscCall(MatSolveTranspose(Fs, b, x));
    PetscCall(VecRelDiffInf(x, xn, xn, &d));
    EXPECT(d < 1e-12, "MatSolveTranspose %s(%" PetscInt_FMT ") %s m=%" PetscInt_FMT ": relative difference %g", ft == MAT_FACTOR_ICC ? "ICC" : "ILU", levels, ord, m, (double)d);
  }
  /* four right-hand sides at once, against four single solves */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, 4, NULL, &B));
  PetscCall(MatSetRandom(B, rnd));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &Xn));
  PetscCall(MatMatSolve(Fs, B, X));
  PetscCall(MatMatSolve(Fn, B, Xn));
  PetscCall(MatAXPY(Xn, -1.0, X, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(Xn, NORM_MAX, &d));
  {
    PetscReal nx;
    PetscCall(MatNorm(X, NORM_MAX, &nx));
    EXPECT(d < 1e-12 * nx, "MatMatSolve differs from PETSc's by %g", (double)(d / nx));
  }
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&Xn));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xn));
  PetscCall(MatDestroy(&Fn));
  PetscCall(MatDestroy(&Fs));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EventCount(const char *name, PetscInt *count)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info));
  *count = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSP with PCILU: new values on the same pattern redo the numeric phase only, and the iterations
   match PETSc's native ILU before and after */
static PetscErrorCode RunKSP(Mat A, Vec b, MatSolverType type, PetscInt *its, PetscReal *rnorm)
{
  KSP ksp;
  PC  pc;
  Vec x;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCILU));
  PetscCall(PCFactorSetMatSolverType(pc, type));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its[0]));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm[0]));
  PetscCall(MatShift(A, 0.5)); /* new values, same pattern */
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its[1]));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm[1]));
  PetscCall(MatShift(A, -0.5));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestRefactor(void)
{
  Mat       A;
  Vec       b;
  PetscInt  itn[2], its[2], sym0, sym1, num0, num1;
  PetscReal rn[2], rs[2];

  PetscFunctionBeginUser;
  PetscCall(Assemble(40, 0.3, &A));
  PetscCall(MatCreateVecs(A, NULL, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(RunKSP(A, b, MATSOLVERPETSC, itn, rn));
  PetscCall(EventCount("SpTrsvSymbolic", &sym0));
  PetscCall(EventCount("SpTrsvNumeric", &num0));
  PetscCall(RunKSP(A, b, MATSOLVERSPTRSVLEVEL, its, rs));
  PetscCall(EventCount("SpTrsvSymbolic", &sym1));
  PetscCall(EventCount("SpTrsvNumeric", &num1));
  EXPECT(sym1 - sym0 == 1 && num1 - num0 == 2, "refactorization: %" PetscInt_FMT " symbolic and %" PetscInt_FMT " numeric phases, expected 1 and 2", sym1 - sym0, num1 - num0);
  for (PetscInt k = 0; k < 2; k++) {
    EXPECT(its[k] == itn[k], "solve %" PetscInt_FMT ": %" PetscInt_FMT " iterations, PETSc's ILU %" PetscInt_FMT, k, its[k], itn[k]);
    EXPECT(PetscAbsReal(rs[k] - rn[k]) <= 1e-10 * rn[k], "solve %" PetscInt_FMT ": residual %g, PETSc's ILU %g", k, (double)rs[k], (double)rn[k]);
  }
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* errors expected from MatGetFactor + symbolic + numeric on A (with MatSetErrorIfFailure(A, errorif)) */
static PetscErrorCode ExpectFactorErrorIf(Mat A, PetscBool errorif, PetscErrorCode expected, const char *what)
{
  Mat            F = NULL;
  MatFactorInfo  info;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(&info));
  info.fill = 1.0;
  PetscCall(MatSetErrorIfFailure(A, errorif));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatGetFactor(A, MATSOLVERSPTRSVLEVEL, MAT_FACTOR_ILU, &F);
  if (!ierr) ierr = MatILUFactorSymbolic(F, A, NULL, NULL, &info);
  if (!ierr) ierr = MatLUFactorNumeric(F, A, &info);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    const char *msg;
    PetscCall(PetscErrorMessage(ierr, NULL, (char **)&msg));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: error %d (%s)\n", what, (int)ierr, msg));
  }
  EXPECT(ierr == expected, "%s: error code %d, expected %d", what, (int)ierr, (int)expected);
  PetscCall(MatDestroy(&F));
  PetscCall(MatSetErrorIfFailure(A, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExpectFactorError(Mat A, PetscErrorCode expected, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(ExpectFactorErrorIf(A, PETSC_FALSE, expected, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestBadInput(void)
{
  Mat A;

  PetscFunctionBeginUser;
  /* non-square */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 4, 1, NULL, &A));
  for (PetscInt i = 0; i < 3; i++) PetscCall(MatSetValue(A, i, i, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFactorError(A, PETSC_ERR_ARG_SIZ, "non-square matrix"));
  PetscCall(MatDestroy(&A));
  /* zero pivot without a shift: [[1 1],[1 1]] */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &A));
  for (PetscInt i = 0; i < 2; i++)
    for (PetscInt j = 0; j < 2; j++) PetscCall(MatSetValue(A, i, j, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFactorError(A, 0, "zero pivot (not an error: the factor records it)"));
  PetscCall(ExpectFactorErrorIf(A, PETSC_TRUE, PETSC_ERR_MAT_LU_ZRPVT, "zero pivot with MatSetErrorIfFailure()"));
  PetscCall(MatDestroy(&A));
  /* missing diagonal entry in row 1 */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 3, 2, NULL, &A));
  PetscCall(MatSetValue(A, 0, 0, 2.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 1, 0, 1.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 1, 2, 1.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 2, 2, 2.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFactorError(A, PETSC_ERR_ARG_WRONGSTATE, "missing diagonal"));
  PetscCall(MatDestroy(&A));
  /* Inf in the matrix */
  PetscCall(Assemble(4, 0.0, &A));
  PetscCall(MatSetValue(A, 5, 5, (PetscReal)INFINITY, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectFactorError(A, 0, "Inf in the matrix (not an error, as PETSc's ILU)"));
  PetscCall(ExpectFactorErrorIf(A, PETSC_TRUE, PETSC_ERR_FP, "Inf in the matrix with MatSetErrorIfFailure()"));
  PetscCall(MatDestroy(&A));
  /* an unsupported matrix type */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 3, 3, NULL, &A));
  PetscCall(MatShift(A, 1.0));
  {
    Mat            F = NULL;
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatGetFactor(A, MATSOLVERSPTRSVLEVEL, MAT_FACTOR_ILU, &F);
    PetscCall(PetscPopErrorHandler());
    EXPECT(ierr == PETSC_ERR_MISSING_FACTOR && !F, "dense matrix: error %d, expected PETSC_ERR_MISSING_FACTOR (no solver registered)", (int)ierr);
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* NaN/Inf in the right-hand side come out as NaN/Inf (no hang, no crash); n = 0 works */
static PetscErrorCode TestNaNAndEmpty(void)
{
  Mat       A, F;
  Vec       b, x;
  PetscReal nrm;

  PetscFunctionBeginUser;
  PetscCall(Assemble(6, 0.1, &A));
  PetscCall(Factor(A, MATSOLVERSPTRSVLEVEL, MAT_FACTOR_ILU, 0, MATORDERINGNATURAL, &F));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(VecSetValue(b, 3, (PetscReal)INFINITY, INSERT_VALUES));
  PetscCall(VecSetValue(b, 7, NAN, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscCall(MatSolve(F, b, x));
  PetscCall(VecNorm(x, NORM_1, &nrm));
  EXPECT(PetscIsInfOrNanReal(nrm), "NaN/Inf right-hand side gave a finite solution");
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));

  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 0, 0, 0, NULL, &A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(Factor(A, MATSOLVERSPTRSVLEVEL, MAT_FACTOR_ILU, 0, MATORDERINGNATURAL, &F));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(MatSolve(F, b, x));
  PetscCall(MatSolveTranspose(F, b, x));
  npass++;
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* [2 1 0 0; 4 a11 1 0; 0 1 3 1; 0 0 1 4]: with a11 = 2 ILU(0) meets an exact zero pivot in row 1 */
static PetscErrorCode ZeroPivotMatrix(PetscScalar a11, Mat *A)
{
  const PetscInt    r[10] = {0, 0, 1, 1, 1, 2, 2, 2, 3, 3}, c[10] = {0, 1, 0, 1, 2, 1, 2, 3, 2, 3};
  const PetscScalar v[10] = {2, 1, 4, a11, 1, 1, 3, 1, 1, 4};

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 4, 4, 3, NULL, A));
  for (PetscInt k = 0; k < 10; k++) PetscCall(MatSetValue(*A, r[k], c[k], v[k], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetA11(Mat A, PetscScalar a11)
{
  PetscFunctionBeginUser;
  PetscCall(MatSetValue(A, 1, 1, a11, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  a zero pivot without a shift, at the Mat level, on PETSc's own ILU and on ours: the factor records the error
  (MatFactorGetError(), MatFactorGetErrorZeroPivot(): the same on both), MatSolve() returns Inf; ours then
  refactors on good values (the same factor, MatLUFactorNumeric() again) and clears the error, and with
  MatSetErrorIfFailure() the same zero pivot is an error naming the row
*/
static PetscErrorCode TestZeroPivotFactor(void)
{
  const MatSolverType types[2] = {MATSOLVERPETSC, MATSOLVERSPTRSVLEVEL};
  Mat                 A, F[2];
  Vec                 b, x[2];
  MatFactorInfo       info;
  IS                  row, col;
  MatFactorError      err[2];
  PetscReal           val[2], nrm[2], d;
  PetscInt            zrow[2];
  PetscErrorCode      ierr;

  PetscFunctionBeginUser;
  PetscCall(ZeroPivotMatrix(2.0, &A));
  PetscCall(MatCreateVecs(A, &x[0], &b));
  PetscCall(VecDuplicate(x[0], &x[1]));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatFactorInfoInitialize(&info));
  info.fill = 1.0;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  for (PetscInt t = 0; t < 2; t++) {
    PetscCall(MatGetFactor(A, types[t], MAT_FACTOR_ILU, &F[t]));
    PetscCall(MatILUFactorSymbolic(F[t], A, row, col, &info));
    PetscCall(MatLUFactorNumeric(F[t], A, &info));
    PetscCall(MatFactorGetError(F[t], &err[t]));
    PetscCall(MatFactorGetErrorZeroPivot(F[t], &val[t], &zrow[t]));
    PetscCall(MatSolve(F[t], b, x[t]));
    PetscCall(VecNorm(x[t], NORM_1, &nrm[t]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "zero pivot: PETSc error %d row %" PetscInt_FMT " |pivot| %g; ours error %d row %" PetscInt_FMT " |pivot| %g\n", (int)err[0], zrow[0], (double)val[0], (int)err[1], zrow[1], (double)val[1]));
  EXPECT(err[0] == MAT_FACTOR_NUMERIC_ZEROPIVOT && zrow[0] == 1, "PETSc's own ILU did not record the zero pivot in row 1 (error %d row %" PetscInt_FMT ")", (int)err[0], zrow[0]);
  EXPECT(err[1] == err[0] && zrow[1] == zrow[0] && val[1] == val[0], "zero pivot: ours records error %d row %" PetscInt_FMT " |pivot| %g, PETSc %d row %" PetscInt_FMT " |pivot| %g", (int)err[1], zrow[1], (double)val[1], (int)err[0], zrow[0], (double)val[0]);
  EXPECT(PetscIsInfReal(nrm[0]) && PetscIsInfReal(nrm[1]), "MatSolve on the failed factors: |x|_1 PETSc %g, ours %g (both must be Inf)", (double)nrm[0], (double)nrm[1]);
  /* good values, same pattern: our factor refactors and clears the error (PETSc's own keeps it) */
  PetscCall(SetA11(A, 5.0));
  PetscCall(MatLUFactorNumeric(F[1], A, &info));
  PetscCall(MatFactorGetError(F[1], &err[1]));
  EXPECT(err[1] == MAT_FACTOR_NOERROR, "refactorization on good values left the error %d", (int)err[1]);
  PetscCall(MatDestroy(&F[0]));
  PetscCall(MatGetFactor(A, MATSOLVERPETSC, MAT_FACTOR_ILU, &F[0]));
  PetscCall(MatILUFactorSymbolic(F[0], A, row, col, &info));
  PetscCall(MatLUFactorNumeric(F[0], A, &info));
  PetscCall(MatSolve(F[0], b, x[0]));
  PetscCall(MatSolve(F[1], b, x[1]));
  PetscCall(VecRelDiffInf(x[1], x[0], x[0], &d));
  EXPECT(d < 1e-14, "after the refactorization ours differs from a fresh PETSc factor by %g", (double)d);
  /* bad values again, errors asked for: an error naming the row and the pivot */
  PetscCall(SetA11(A, 2.0));
  PetscCall(MatSetErrorIfFailure(A, PETSC_TRUE));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatLUFactorNumeric(F[1], A, &info);
  PetscCall(PetscPopErrorHandler());
  {
    const char *msg = NULL;
    char       *loc = NULL;

    if (ierr) PetscCall(PetscErrorMessage(ierr, NULL, (char **)&msg));
    if (msg) PetscCall(PetscStrstr(msg, "Zero pivot in row 1 of the factored matrix (row 1 of the input): |pivot| 0.", &loc));
    EXPECT(ierr == PETSC_ERR_MAT_LU_ZRPVT && loc, "MatSetErrorIfFailure(): error %d '%s', expected %d naming row 1 and the pivot", (int)ierr, msg ? msg : "", (int)PETSC_ERR_MAT_LU_ZRPVT);
  }
  PetscCall(MatSetErrorIfFailure(A, PETSC_FALSE));
  for (PetscInt t = 0; t < 2; t++) {
    PetscCall(MatDestroy(&F[t]));
    PetscCall(VecDestroy(&x[t]));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one KSPSolve with GMRES + ILU of type `type` on A; the converged and the PC failed reasons */
static PetscErrorCode SolveReason(KSP ksp, Mat A, KSPConvergedReason *reason, PCFailedReason *pcreason)
{
  Vec b, x;
  PC  pc;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetFailedReason(pc, pcreason));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the same through KSP, ours against PETSc's own ILU: the same converged and PC failed reasons after the zero
  pivot (KSP_DIVERGED_PC_FAILED, PC_FACTOR_NUMERIC_ZEROPIVOT); then good values on the same pattern, without and
  with MatFactorClearError() on the PC's factor (PETSc 3.18's PCSetUp_ILU does not refactor a factor whose error
  is set: both must do the same thing either way, and converge after the clear); an Inf produced by the
  factorization (overflow) gives KSP_DIVERGED_NANORINF on both
*/
static PetscErrorCode TestZeroPivotKSP(void)
{
  const MatSolverType types[2] = {MATSOLVERPETSC, MATSOLVERSPTRSVLEVEL};
  KSPConvergedReason  r[3][2];
  PCFailedReason      p[3][2];

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < 2; t++) {
    KSP ksp;
    PC  pc;
    Mat A, F;

    PetscCall(ZeroPivotMatrix(2.0, &A));
    PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatSolverType(pc, types[t]));
    PetscCall(SolveReason(ksp, A, &r[0][t], &p[0][t]));
    PetscCall(SetA11(A, 5.0));
    PetscCall(SolveReason(ksp, A, &r[1][t], &p[1][t]));
    PetscCall(PCFactorGetMatrix(pc, &F));
    PetscCall(MatFactorClearError(F));
    PetscCall(SetA11(A, 6.0));
    PetscCall(SolveReason(ksp, A, &r[2][t], &p[2][t]));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(MatDestroy(&A));
  }
  for (PetscInt k = 0; k < 3; k++) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "KSP solve %" PetscInt_FMT ": PETSc %s (PC %s), ours %s (PC %s)\n", k, KSPConvergedReasons[r[k][0]], PCFailedReasons[p[k][0]], KSPConvergedReasons[r[k][1]], PCFailedReasons[p[k][1]]));
    EXPECT(r[k][0] == r[k][1] && p[k][0] == p[k][1], "KSP solve %" PetscInt_FMT ": ours %s (PC %s), PETSc %s (PC %s)", k, KSPConvergedReasons[r[k][1]], PCFailedReasons[p[k][1]], KSPConvergedReasons[r[k][0]], PCFailedReasons[p[k][0]]);
  }
  EXPECT(r[0][1] == KSP_DIVERGED_PC_FAILED && p[0][1] == PC_FACTOR_NUMERIC_ZEROPIVOT, "zero pivot: ours %s (PC %s), expected DIVERGED_PC_FAILED (PC FACTOR_NUMERIC_ZEROPIVOT)", KSPConvergedReasons[r[0][1]], PCFailedReasons[p[0][1]]);
  EXPECT(r[2][1] > 0, "good values after MatFactorClearError(): ours %s, expected convergence", KSPConvergedReasons[r[2][1]]);
  /* overflow in the factorization: [1e-10 1e300; 1e300 1] gives L(1,0) = Inf from a finite matrix and right-hand side */
  for (PetscInt t = 0; t < 2; t++) {
    KSP ksp;
    PC  pc;
    Mat A;

    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &A));
    PetscCall(MatSetValue(A, 0, 0, 1e-10, INSERT_VALUES));
    PetscCall(MatSetValue(A, 0, 1, 1e300, INSERT_VALUES));
    PetscCall(MatSetValue(A, 1, 0, 1e300, INSERT_VALUES));
    PetscCall(MatSetValue(A, 1, 1, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatSolverType(pc, types[t]));
    PetscCall(SolveReason(ksp, A, &r[0][t], &p[0][t]));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "overflow: PETSc %s (PC %s), ours %s (PC %s)\n", KSPConvergedReasons[r[0][0]], PCFailedReasons[p[0][0]], KSPConvergedReasons[r[0][1]], PCFailedReasons[p[0][1]]));
  EXPECT(r[0][1] == r[0][0] && p[0][1] == p[0][0] && r[0][1] == KSP_DIVERGED_NANORINF, "overflow: ours %s (PC %s), PETSc %s (PC %s), expected DIVERGED_NANORINF", KSPConvergedReasons[r[0][1]], PCFailedReasons[p[0][1]], KSPConvergedReasons[r[0][0]], PCFailedReasons[p[0][0]]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(TestSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 0, MATORDERINGNATURAL));
  PetscCall(TestSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 2, MATORDERINGNATURAL));
  PetscCall(TestSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 1, MATORDERINGRCM));
  PetscCall(TestSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 0, MATORDERINGND));
  PetscCall(TestSolves(rnd, 20, 0.0, MAT_FACTOR_ICC, 0, MATORDERINGNATURAL));
  PetscCall(TestSolves(rnd, 20, 0.0, MAT_FACTOR_ICC, 2, MATORDERINGRCM));
  PetscCall(TestRefactor());
  PetscCall(TestBadInput());
  PetscCall(TestNaNAndEmpty());
  PetscCall(TestZeroPivotFactor());
  PetscCall(TestZeroPivotKSP());
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_pc: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
