static const char help[] = "Device check of the GPU numeric ILU(k) (-mat_sptrsv_factor_device): the factor, MatSolve and MatSolveTranspose\n"
                           "against the host numeric phase (-mat_sptrsv_factor_device 0), shifts, zero pivots, NaN, refactorization.\n"
                           "  -matdir DIR   also every .mtx.gz of DIR (ILU(0), natural ordering)\n"
                           "  -quick        one small matrix and the failure cases (for the sanitizers)\n"
                           "  -rows global|shared  -mat_sptrsv_factor_device_rows of the GPU factors (default: the option's default)\n"
                           "  -bps K        -mat_sptrsv_factor_device_blocks_per_sm of the GPU factors (default: the option's default)\n"
                           "  -tol TOL      relative tolerance, generated matrices (default 1e-12)\n"
                           "  -tol_mm TOL   relative tolerance, Matrix Market files (default 1e-8: FMA contraction, amplified by ill conditioning: bcsstk13 differs by 2.7e-9 on the H100)\n";

/* Every comparison runs the same factorization twice on the CUDA backend: numeric phase on the host (the
   reference) and on the GPU. Prints one line per check and "N passed, N failed"; exits nonzero on failure. */
#include <petscsptrsv.h>
#include <petscksp.h>
#include <sptrsv/factormat.h>
#include "../../examples/common/stencil.h"
#if !defined(SPTRSV_NO_MMLOAD)
  #include "../../examples/common/mmload.h"
#endif
#include <dirent.h>
#include <math.h>
#include "../unit/test_helpers.h"

static PetscInt  npass = 0, nfail = 0;
static char      rows[16] = "", bps[16] = ""; /* -rows, -bps: -mat_sptrsv_factor_device_rows, _blocks_per_sm of the GPU factors */
static PetscReal tol   = 1e-12, tol_mm = 1e-8; /* Matrix Market: bcsstk13's ILU(0) factor differs by 2.7e-9 (FMA contraction, ill-conditioned) */

static void Report(PetscBool ok, const char *what, const char *name, double val)
{
  (void)PetscPrintf(PETSC_COMM_SELF, "%-28s %-48s %10.2e %s\n", what, name, val, ok ? "PASS" : "FAIL");
  if (ok) npass++;
  else nfail++;
}

typedef struct {
  const char        *solver;
  const char        *ordering;
  PetscInt           levels;
  MatFactorShiftType shift;
  PetscReal          amount;
} FactorCfg;

/* a factor of A on the CUDA backend, numeric phase on the device or not; *ierr: the numeric phase's error */
static PetscErrorCode MakeFactor(Mat A, const FactorCfg *c, PetscBool device, PetscBool errorif, Mat *F, PetscErrorCode *ierr)
{
  IS            row, col;
  MatFactorInfo info;

  PetscFunctionBeginUser;
  PetscCall(MatGetFactor(A, c->solver, MAT_FACTOR_ILU, F));
  PetscCall(MatSetOptionsPrefix(*F, "ckf_"));
  PetscCall(PetscOptionsSetValue(NULL, "-ckf_mat_sptrsv_backend", "cuda"));
  PetscCall(PetscOptionsSetValue(NULL, "-ckf_mat_sptrsv_factor_device", device ? "1" : "0"));
  if (device && rows[0]) PetscCall(PetscOptionsSetValue(NULL, "-ckf_mat_sptrsv_factor_device_rows", rows));
  if (device && bps[0]) PetscCall(PetscOptionsSetValue(NULL, "-ckf_mat_sptrsv_factor_device_blocks_per_sm", bps));
  PetscCall(MatGetOrdering(A, c->ordering, &row, &col));
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels      = (PetscReal)c->levels;
  info.shifttype   = (PetscReal)c->shift;
  info.shiftamount = c->amount;
  info.zeropivot   = 1e-12;
  info.fill        = 2.0;
  PetscCall(MatSetErrorIfFailure(A, errorif));
  PetscCall(MatILUFactorSymbolic(*F, A, row, col, &info));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = MatLUFactorNumeric(*F, A, &info);
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatSetErrorIfFailure(A, PETSC_FALSE));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(PetscOptionsClearValue(NULL, "-ckf_mat_sptrsv_backend"));
  PetscCall(PetscOptionsClearValue(NULL, "-ckf_mat_sptrsv_factor_device"));
  PetscCall(PetscOptionsClearValue(NULL, "-ckf_mat_sptrsv_factor_device_rows"));
  PetscCall(PetscOptionsClearValue(NULL, "-ckf_mat_sptrsv_factor_device_blocks_per_sm"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |a - b| / max |b| over the finite entries; entries equal bit for bit (the same Inf, or NaN in both) agree, an
   Inf or NaN in one only is an infinite difference (shifts of exact zero pivots can overflow both solves alike) */
static PetscReal RelDiff(PetscInt m, const PetscScalar *a, const PetscScalar *b)
{
  PetscReal d = 0, nrm = 0;
  for (PetscInt k = 0; k < m; k++) {
    const PetscBool fa = (PetscBool)!PetscIsInfOrNanScalar(a[k]), fb = (PetscBool)!PetscIsInfOrNanScalar(b[k]);
    if (fa && fb) {
      d   = PetscMax(d, PetscAbsScalar(a[k] - b[k]));
      nrm = PetscMax(nrm, PetscAbsScalar(b[k]));
    } else if (!(a[k] == b[k] || (PetscIsNanScalar(a[k]) && PetscIsNanScalar(b[k])))) return PETSC_INFINITY;
  }
  return nrm > 0 ? d / nrm : d;
}

static PetscErrorCode VecRelDiff(Vec x, Vec y, PetscReal *r)
{
  const PetscScalar *a, *b;
  PetscInt           m;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(y, &m));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(y, &b));
  *r = RelDiff(m, a, b);
  PetscCall(VecRestoreArrayRead(y, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solves (MatSolve and MatSolveTranspose, before any download) and the downloaded factors of Fh and Fd */
static PetscErrorCode CompareFactors(Mat A, Mat Fh, Mat Fd, const char *name, PetscRandom rnd)
{
  Vec          b, xh, xd;
  PetscReal    r;
  SpTrsvFactor fh, fd;
  Mat_SpTrsv  *sd = (Mat_SpTrsv *)Fd->data;

  PetscFunctionBeginUser;
  Report(sd->numeric_device, "numeric on the device", name, 0.0);
  PetscCall(MatCreateVecs(A, &b, &xh));
  PetscCall(VecDuplicate(xh, &xd));
  PetscCall(VecSetRandom(b, rnd));
  for (PetscInt t = 0; t < 2; t++) {
    if (t) {
      PetscCall(MatSolveTranspose(Fh, b, xh));
      PetscCall(MatSolveTranspose(Fd, b, xd));
    } else {
      PetscCall(MatSolve(Fh, b, xh));
      PetscCall(MatSolve(Fd, b, xd));
    }
    PetscCall(VecRelDiff(xd, xh, &r));
    Report((PetscBool)(r <= tol), t ? "MatSolveTranspose" : "MatSolve", name, (double)r);
  }
  PetscCall(MatSpTrsvGetFactorHost(Fh, &fh));
  PetscCall(MatSpTrsvGetFactorHost(Fd, &fd));
  r = PetscMax(RelDiff(fh->L->i[fh->n], fd->L->a, fh->L->a), PetscMax(RelDiff(fh->U->i[fh->n], fd->U->a, fh->U->a), RelDiff(fh->n, fd->U->idiag, fh->U->idiag)));
  Report((PetscBool)(r <= tol), "factor values (L, U, idiag)", name, (double)r);
  Report((PetscBool)(fh->nshifts == fd->nshifts && fh->shift_amount == fd->shift_amount && fh->error == fd->error && fh->zeropivot_row == fd->zeropivot_row && fh->nonfinite == fd->nonfinite), "outcome (shift, error)", name, (double)fd->shift_amount);
  /* after the download the solves still agree (the solvers were not refreshed from stale values) */
  PetscCall(MatSolve(Fd, b, xd));
  PetscCall(MatSolve(Fh, b, xh));
  PetscCall(VecRelDiff(xd, xh, &r));
  Report((PetscBool)(r <= tol), "MatSolve after download", name, (double)r);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xh));
  PetscCall(VecDestroy(&xd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* host and device numeric phases of one configuration, then a second numeric phase with new values */
static PetscErrorCode CheckCase(Mat A, const char *mname, const FactorCfg *c, PetscBool refactor, PetscRandom rnd)
{
  Mat            Fh, Fd;
  PetscErrorCode eh, ed;
  char           name[128];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s ILU(%" PetscInt_FMT ") %s %s", mname, c->levels, c->ordering, c->solver + 7));
  PetscCall(MakeFactor(A, c, PETSC_FALSE, PETSC_FALSE, &Fh, &eh));
  PetscCall(MakeFactor(A, c, PETSC_TRUE, PETSC_FALSE, &Fd, &ed));
  Report((PetscBool)(!eh && !ed), "numeric phases succeed", name, 0.0);
  if (!eh && !ed) PetscCall(CompareFactors(A, Fh, Fd, name, rnd));
  if (refactor && !eh && !ed) { /* new values, same pattern: the numeric phase only */
    Mat           B;
    MatFactorInfo info;
    char          name2[160];

    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
    PetscCall(MatScale(B, 2.0));
    PetscCall(MatShift(B, 0.25));
    PetscCall(MatFactorInfoInitialize(&info));
    info.levels    = (PetscReal)c->levels;
    info.zeropivot = 1e-12;
    PetscCall(MatLUFactorNumeric(Fh, B, &info));
    PetscCall(MatLUFactorNumeric(Fd, B, &info));
    PetscCall(PetscSNPrintf(name2, sizeof(name2), "%s, refactored", name));
    PetscCall(CompareFactors(B, Fh, Fd, name2, rnd));
    PetscCall(MatDestroy(&B));
  }
  PetscCall(MatDestroy(&Fh));
  PetscCall(MatDestroy(&Fd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* zero pivots: every shift type gives the host's outcome; with errorif the same error and message */
static PetscErrorCode CheckShifts(PetscRandom rnd)
{
  Mat                      A;
  const MatFactorShiftType types[]  = {MAT_SHIFT_NONE, MAT_SHIFT_NONZERO, MAT_SHIFT_POSITIVE_DEFINITE, MAT_SHIFT_INBLOCKS};
  const char              *tnames[] = {"none", "nonzero", "positive_definite", "inblocks"};

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildZeroPivotPairs(400, &A));
  for (PetscInt t = 0; t < 4; t++) {
    FactorCfg      c = {MATSOLVERSPTRSVLEVEL, MATORDERINGNATURAL, 0, types[t], 1e-6};
    Mat            Fh, Fd;
    PetscErrorCode eh, ed;
    SpTrsvFactor   fh, fd;
    char           name[64];

    PetscCall(PetscSNPrintf(name, sizeof(name), "zeropivots shift %s", tnames[t]));
    PetscCall(MakeFactor(A, &c, PETSC_FALSE, PETSC_FALSE, &Fh, &eh));
    PetscCall(MakeFactor(A, &c, PETSC_TRUE, PETSC_FALSE, &Fd, &ed));
    Report((PetscBool)(!eh && !ed), "numeric phases succeed", name, 0.0);
    PetscCall(MatSpTrsvGetFactorHost(Fh, &fh));
    PetscCall(MatSpTrsvGetFactorHost(Fd, &fd));
    Report((PetscBool)(fh->nshifts == fd->nshifts && fh->shift_amount == fd->shift_amount), "nshifts, shift_amount", name, (double)fd->shift_amount);
    Report((PetscBool)(fh->error == fd->error && fh->zeropivot_row == fd->zeropivot_row && fh->zeropivot_value == fd->zeropivot_value && Fd->factorerrortype == Fh->factorerrortype), "factor error", name, (double)fd->zeropivot_row);
    if (t == 0) Report((PetscBool)(fd->error == MAT_FACTOR_NUMERIC_ZEROPIVOT && fd->zeropivot_row == 399), "last zero pivot recorded", name, (double)fd->zeropivot_row);
    else PetscCall(CompareFactors(A, Fh, Fd, name, rnd));
    PetscCall(MatDestroy(&Fh));
    PetscCall(MatDestroy(&Fd));
    if (t == 0) { /* errorif: the first zero pivot is the same error */
      char mh[512], md[512];

      PetscCall(MakeFactor(A, &c, PETSC_FALSE, PETSC_TRUE, &Fh, &eh));
      LastMessage(eh, mh, sizeof(mh));
      PetscCall(MakeFactor(A, &c, PETSC_TRUE, PETSC_TRUE, &Fd, &ed));
      LastMessage(ed, md, sizeof(md));
      Report((PetscBool)(eh == PETSC_ERR_MAT_LU_ZRPVT && ed == eh && !strcmp(mh, md)), "errorif: same zero-pivot error", name, (double)ed);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  host:   %s\n  device: %s\n", mh, md));
      PetscCall(MatDestroy(&Fh));
      PetscCall(MatDestroy(&Fd));
    }
  }
  { /* KSP with PCILU (sptrsv_level, CUDA backend, device numeric): DIVERGED_PC_FAILED as PETSc's ILU */
    KSP                ksp;
    PC                 pc;
    Vec                b, x;
    KSPConvergedReason reason;

    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(VecSet(b, 1.0));
    PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(KSPSetOptionsPrefix(ksp, "ckk_"));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERSPTRSVLEVEL));
    PetscCall(PetscOptionsSetValue(NULL, "-ckk_mat_sptrsv_backend", "cuda"));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    {
      Mat F;
      PetscCall(PCFactorGetMatrix(pc, &F));
      Report((PetscBool)(reason == KSP_DIVERGED_PC_FAILED && ((Mat_SpTrsv *)F->data)->numeric_device), "KSP DIVERGED_PC_FAILED", "zeropivots shift none", (double)reason);
    }
    PetscCall(PetscOptionsClearValue(NULL, "-ckk_mat_sptrsv_backend"));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x));
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a NaN in A: recorded as the host does; with errorif the same error */
static PetscErrorCode CheckNaN(void)
{
  Mat            A, Fh, Fd;
  FactorCfg      c = {MATSOLVERSPTRSVLEVEL, MATORDERINGNATURAL, 1, MAT_SHIFT_NONE, 0};
  PetscErrorCode eh, ed;
  SpTrsvFactor   fh, fd;
  char           mh[512], md[512];

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildStencil(20, 20, 1, 5, &A));
  PetscCall(MatSetValue(A, 37, 38, (PetscScalar)NAN, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MakeFactor(A, &c, PETSC_FALSE, PETSC_FALSE, &Fh, &eh));
  PetscCall(MakeFactor(A, &c, PETSC_TRUE, PETSC_FALSE, &Fd, &ed));
  PetscCall(MatSpTrsvGetFactorHost(Fh, &fh));
  PetscCall(MatSpTrsvGetFactorHost(Fd, &fd));
  Report((PetscBool)(!eh && !ed && fh->nonfinite && fd->nonfinite), "NaN in A recorded", "lap2d5 20x20 + NaN", 0.0);
  PetscCall(MatDestroy(&Fh));
  PetscCall(MatDestroy(&Fd));
  PetscCall(MakeFactor(A, &c, PETSC_FALSE, PETSC_TRUE, &Fh, &eh));
  LastMessage(eh, mh, sizeof(mh));
  PetscCall(MakeFactor(A, &c, PETSC_TRUE, PETSC_TRUE, &Fd, &ed));
  LastMessage(ed, md, sizeof(md));
  Report((PetscBool)(eh == PETSC_ERR_FP && ed == eh && !strcmp(mh, md)), "errorif: same NaN error", "lap2d5 20x20 + NaN", (double)ed);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  host:   %s\n  device: %s\n", mh, md));
  PetscCall(MatDestroy(&Fh));
  PetscCall(MatDestroy(&Fd));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckMatrix(Mat A, const char *mname, PetscBool all, PetscRandom rnd)
{
  const char *orders[]  = {MATORDERINGNATURAL, MATORDERINGRCM};
  const char *solvers[] = {MATSOLVERSPTRSVLEVEL, MATSOLVERSPTRSVELEMENT, MATSOLVERSPTRSVSYNCFREE};

  PetscFunctionBeginUser;
  for (PetscInt o = 0; o < (all ? 2 : 1); o++)
    for (PetscInt k = 0; k <= (all ? 2 : 0); k++) {
      FactorCfg c = {MATSOLVERSPTRSVLEVEL, orders[o], k, MAT_SHIFT_NONE, 0};
      PetscCall(CheckCase(A, mname, &c, (PetscBool)(k == 1), rnd));
    }
  for (PetscInt s = 1; all && s < 3; s++) { /* the other paths' device refresh (and the sync-free ELL image) */
    FactorCfg c = {solvers[s], MATORDERINGRCM, 1, MAT_SHIFT_NONE, 0};
    PetscCall(CheckCase(A, mname, &c, PETSC_TRUE, rnd));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if !defined(SPTRSV_NO_MMLOAD)
/* some row without a diagonal entry (ILU needs them all) */
static PetscErrorCode MissingDiagonal(Mat A, PetscBool *missing)
{
  PetscInt m;

  PetscFunctionBeginUser;
  *missing = PETSC_FALSE;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  for (PetscInt r = 0; r < m && !*missing; r++) {
    const PetscInt *cols;
    PetscInt        nc;
    PetscBool       found = PETSC_FALSE;

    PetscCall(MatGetRow(A, r, &nc, &cols, NULL));
    for (PetscInt k = 0; k < nc; k++) found = (PetscBool)(found || cols[k] == r);
    PetscCall(MatRestoreRow(A, r, &nc, &cols, NULL));
    *missing = (PetscBool)!found;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  Mat         A;
  PetscRandom rnd;
  char        matdir[PETSC_MAX_PATH_LEN] = "";
  PetscBool   hasdir = PETSC_FALSE, avail, quick = PETSC_FALSE;
  const char *why;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), &hasdir));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol_mm", &tol_mm, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-quick", &quick, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-rows", rows, sizeof(rows), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bps", bps, sizeof(bps), NULL));
  {
    const SpTrsvBackendOps *cuda;
    PetscCall(SpTrsvBackendCUDAGet(&cuda, &avail, &why));
  }
  if (!avail) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "CUDA backend unavailable (%s): nothing to check\n0 passed, 1 failed\n", why));
    PetscCall(PetscFinalize());
    return 1;
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "CUDA backend available (%s): GPU numeric ILU against the host numeric ILU, tolerance %g\n", why, (double)tol));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 20251124));
  PetscCall(PetscRandomSeed(rnd));

  PetscCall(SpTrsvBuildStencil(64, 64, 1, 5, &A));
  PetscCall(CheckMatrix(A, "lap2d5 64x64", (PetscBool)!quick, rnd));
  PetscCall(MatDestroy(&A));
  if (quick) goto failures;
  PetscCall(SpTrsvBuildStencil(24, 24, 24, 7, &A));
  PetscCall(CheckMatrix(A, "lap3d7 24^3", PETSC_TRUE, rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(SpTrsvBuildStencil(12, 12, 12, 27, &A));
  PetscCall(CheckMatrix(A, "lap3d27 12^3", PETSC_TRUE, rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(SpTrsvBuildConvDiff2D(80, 200.0, &A));
  PetscCall(CheckMatrix(A, "convdiff 80x80", PETSC_TRUE, rnd));
#if defined(PETSC_HAVE_CUDA)
  { /* the input read in place from a MATSEQAIJCUSPARSE whose values are on the device */
    Mat       Ad;
    Vec       x, y;
    FactorCfg c = {MATSOLVERSPTRSVLEVEL, MATORDERINGRCM, 1, MAT_SHIFT_NONE, 0};

    PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ad));
    PetscCall(MatCreateVecs(Ad, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(Ad, x, y)); /* the values go to the device */
    PetscCall(CheckCase(Ad, "convdiff 80x80 cusparse", &c, PETSC_TRUE, rnd));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&Ad));
  }
#endif
  PetscCall(MatDestroy(&A));
failures:
  PetscCall(CheckShifts(rnd));
  PetscCall(CheckNaN());
#if !defined(SPTRSV_NO_MMLOAD)
  if (hasdir && matdir[0] && !quick) {
    DIR           *dir = opendir(matdir);
    struct dirent *e;

    while (dir && (e = readdir(dir))) {
      size_t l = strlen(e->d_name);
      char   path[PETSC_MAX_PATH_LEN];

      if (l < 8 || strcmp(e->d_name + l - 7, ".mtx.gz")) continue;
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", matdir, e->d_name));
      PetscCall(SpTrsvLoadMatrixMarket(path, &A));
      {
        PetscBool missing;
        PetscCall(MissingDiagonal(A, &missing));
        if (missing) {
          PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: missing diagonal entry, skipped\n", e->d_name));
          PetscCall(MatDestroy(&A));
          continue;
        }
      }
      {
        FactorCfg c    = {MATSOLVERSPTRSVLEVEL, MATORDERINGNATURAL, 0, MAT_SHIFT_NONZERO, 1e-10};
        PetscReal tgen = tol;

        tol = tol_mm;
        PetscCall(CheckCase(A, e->d_name, &c, PETSC_FALSE, rnd));
        tol = tgen;
      }
      PetscCall(MatDestroy(&A));
    }
    if (dir) closedir(dir);
  }
#endif
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
