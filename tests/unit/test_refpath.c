static const char help[] = "A path defined and registered by this file alone (the registry is the path's whole interface): a host-only\n"
                           "reference path, rows in natural order, solving PETSc's ILU(0) factors in GMRES(30) exactly as PETSc's own ILU.\n"
                           "  -n <30>: grid points per side of the 2-D Laplacian\n";

/*
   sptrsv_reference: the smallest path there is. Its analysis takes the rows in the triangle's natural order (increasing
   for a lower op(T), decreasing for an upper one: a topological order); its host executor substitutes row by row in that
   order, reading the triangle's current values. It has no options, no CUDA executor, no citation. It is registered at
   run time through SpTrsvPathRegister() (which registers its MatSolverType sptrsv_reference for ILU, ICC, LU and
   Cholesky factors); nothing outside this file names it. Then GMRES(30) + ILU(0) on a 2-D Laplacian with
   -pc_factor_mat_solver_type sptrsv_reference must take the iterations of -pc_factor_mat_solver_type petsc, with the same
   residual history to rounding.
*/
#include <sptrsv/factormat.h> /* SpTrsvPathRegister */
#include <petscksp.h>
#include "unit_common.h"

/* the analysis: rows in natural order, one after the other (each a step of its own) */
static PetscErrorCode RefAnalyze(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *opts, const void *own, SpTrsvPlan *plan)
{
  SpTrsvPlan p;
  PetscInt   maxrow = 0;

  PetscFunctionBegin;
  PetscCheck(format == SPTRSV_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_reference reads rows only: use -%smat_sptrsv_format csr", opts->prefix);
  PetscCall(PetscNew(&p));
  p->n       = op->n;
  p->nlevels = op->n;
  PetscCall(PetscMalloc2(op->n, &p->order, op->n, &p->level));
  for (PetscInt k = 0; k < op->n; k++) {
    const PetscInt i = op->lower ? k : op->n - 1 - k;

    p->order[k] = i;
    p->level[i] = k;
    maxrow      = PetscMax(maxrow, op->ri[i + 1] - op->ri[i]);
  }
  PetscCall(SpTrsvPlanSetStats(op, p, op->n ? 1 : 0, maxrow));
  *plan = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host executor: nothing to set up (the solve reads the triangle's current values) */
static PetscErrorCode RefNothing(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = op(T)^{-1} b, row by row in the plan's order: x_i = (b_i - sum_j op(T)_ij x_j) / op(T)_ii */
static PetscErrorCode RefSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  SpTrsvOp op;

  PetscFunctionBegin;
  PetscCall(SpTrsvTriGetOp(s->tri, s->transpose, &op));
  for (PetscInt k = 0; k < op.n; k++) {
    const PetscInt i = s->plan->order[k];
    PetscScalar    r = b[i];

    for (PetscInt e = op.ri[i]; e < op.ri[i + 1]; e++) r -= op.ra[e] * x[op.rj[e]];
    x[i] = op.unit ? r : r * op.idiag[i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const SpTrsvExecutor RefExecHost = {RefNothing, RefNothing, RefSolve, NULL, RefNothing, NULL};

/* the path's registry entry: everything the plugin knows of it */
static const struct _n_SpTrsvPath RefPath = {
  .name       = "reference",
  .solvertype = "sptrsv_reference",
  .summary    = "reference: rows in natural order, substituted one by one on the host (a test path)",
  .ilu        = PETSC_TRUE,
  .icc        = PETSC_TRUE,
  .analyze    = RefAnalyze,
  .exec       = {&RefExecHost, NULL},
};

/* GMRES(30) + ILU(0) with the factors of solvertype on A x = b from x = 0: iterations and residual history */
static PetscErrorCode Solve(Mat A, Vec b, const char *solvertype, PetscInt *its, PetscReal hist[], PetscInt *nhist)
{
  KSP ksp;
  PC  pc;
  Vec x;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGMRESSetRestart(ksp, 30));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCILU));
  PetscCall(PCFactorSetLevels(pc, 0));
  PetscCall(PCFactorSetMatSolverType(pc, solvertype));
  PetscCall(KSPSetResidualHistory(ksp, hist, 1001, PETSC_TRUE));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetResidualHistory(ksp, NULL, nhist));
  {
    Mat          F;
    MatSolverType used;

    PetscCall(PCFactorGetMatrix(pc, &F));
    PetscCall(MatFactorGetSolverType(F, &used));
    EXPECT(!strcmp(used, solvertype), "the factor's solver type is %s, not %s", used, solvertype);
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt   m = 30, n, its[2], nh[2];
  PetscReal *hist[2], diff = 0;
  Mat        A;
  Vec        b;
  SpTrsvPath found;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &m, NULL));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_backend", "host")); /* the path has a host executor only */
  PetscCall(SpTrsvPathRegister(&RefPath));
  PetscCall(SpTrsvPathFind("sptrsv_reference", &found));
  EXPECT(found == &RefPath, "the registry does not find the registered path");
  { /* a second path of the same name is refused */
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SpTrsvPathRegister(&RefPath);
    PetscCall(PetscPopErrorHandler());
    EXPECT(ierr != PETSC_SUCCESS, "the registry took sptrsv_reference twice");
  }
  /* the 2-D Laplacian on an m x m grid (5-point stencil), b = A * (1, 2, 3, ...) */
  n = m * m;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 5, NULL, &A));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j < m; j++) {
      const PetscInt r = i * m + j;
      PetscCall(MatSetValue(A, r, r, 4.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(A, r, r - m, -1.0, INSERT_VALUES));
      if (i < m - 1) PetscCall(MatSetValue(A, r, r + m, -1.0, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(A, r, r - 1, -1.0, INSERT_VALUES));
      if (j < m - 1) PetscCall(MatSetValue(A, r, r + 1, -1.0, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, NULL, &b));
  {
    Vec xt;
    PetscCall(VecDuplicate(b, &xt));
    for (PetscInt i = 0; i < n; i++) PetscCall(VecSetValue(xt, i, (PetscScalar)(i % 7 + 1), INSERT_VALUES));
    PetscCall(VecAssemblyBegin(xt));
    PetscCall(VecAssemblyEnd(xt));
    PetscCall(MatMult(A, xt, b));
    PetscCall(VecDestroy(&xt));
  }
  PetscCall(PetscMalloc2(1001, &hist[0], 1001, &hist[1]));
  PetscCall(Solve(A, b, MATSOLVERPETSC, &its[0], hist[0], &nh[0]));
  PetscCall(Solve(A, b, "sptrsv_reference", &its[1], hist[1], &nh[1]));
  EXPECT(its[0] == its[1] && nh[0] == nh[1], "GMRES(30) + ILU(0): %" PetscInt_FMT " iterations with sptrsv_reference, %" PetscInt_FMT " with PETSc's ILU", its[1], its[0]);
  for (PetscInt k = 0; k < PetscMin(nh[0], nh[1]); k++) diff = PetscMax(diff, PetscAbsReal(hist[1][k] - hist[0][k]) / PetscMax(hist[0][k], PETSC_SMALL * hist[0][0]));
  EXPECT(diff < 1e-8, "residual histories differ: largest relative difference %g", (double)diff);
  EXPECT(its[0] > 10, "the solve took %" PetscInt_FMT " iterations only: no test of the residual history", its[0]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s GMRES(30) + ILU(0), %" PetscInt_FMT "^2 Laplacian: %" PetscInt_FMT " iterations with sptrsv_reference and PETSc's ILU, residual histories within %.1e\n", diff < 1e-8 && its[0] == its[1] ? "ok" : "not ok", m, its[1], (double)diff));
  PetscCall(PetscFree2(hist[0], hist[1]));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_refpath: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
