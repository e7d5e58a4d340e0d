static char help[] = "LU (SuperLU) and Cholesky (CHOLMOD) factors of every sptrsv_* MatSolverType against PETSc's native ones.\n\
Options:\n\
  -matdir <dir>   directory of the Matrix Market test matrices (default tests/data/matrices)\n\
  -eps_factor <f> allowed backward error: native's + f machine epsilons (default 100)\n\
  -backend <host|cuda> where the paths solve (default host; cuda: every factor must say it solves there)\n\
  -quick          the generated matrices and the failure cases only (compute-sanitizer)\n\n";

/*
   For every matrix, factor type (LU, Cholesky where A is SPD) and MatSolverType (every registry path and the automatic
   sptrsv), on the host backend, with PETSc's nd ordering:
   - MatSolve, MatSolveTranspose: the backward error ||b - op(A) x|| / (||op(A)|| ||x|| + ||b||) (inf norms) of random
     right-hand sides is at most the native factor's (MATSOLVERPETSC, same ordering) + eps_factor machine epsilons (the
     issue's target; where the native factor fails, e.g. a zero diagonal without pivoting, eps_factor epsilons alone);
   - MatMatSolve, MatMatSolveTranspose with 3 columns: every column equals MatSolve's (MatSolveTranspose's) to rounding;
   - the supernode partition recorded on L and U is one partition of the library, the same on both triangles, and a
     supernodal one of L's stored pattern (the columns of a supernode share their rows below it, the diagonal block
     is full);
   - refactorization on the same pattern with new values (rows scaled at random: LU's pivots change) solves the new
     system to the same bound;
   - a pivot-order change on a 3 x 3 matrix rebuilds the triangles and redoes the analysis (the factor says so) and the
     solves stay right;
   - a singular matrix (LU) and an indefinite one (Cholesky) give MAT_FACTOR_NUMERIC_ZEROPIVOT, the PETSc errors with
     MatSetErrorIfFailure(), and KSP_DIVERGED_PC_FAILED inside KSPSolve; COLAMD and CHOLMOD's own orderings solve too.
*/
#include <sptrsv/factormat.h>
#include <petscksp.h>
#include "../../examples/common/mmload.h"
#include "../../examples/common/stencil.h"
#include "unit_common.h"

static char      matdir[PETSC_MAX_PATH_LEN] = "tests/data/matrices";
static PetscReal eps_factor                 = 100;
static char      backend[16]                = "host";

/* backward error of x for op(A) x = b */
static PetscErrorCode BackwardError(Mat A, PetscBool transpose, Vec b, Vec x, PetscReal *berr)
{
  Vec       r;
  PetscReal nA, nx, nb, nr;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &r));
  if (transpose) PetscCall(MatMultTranspose(A, x, r));
  else PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(MatNorm(A, transpose ? NORM_1 : NORM_INFINITY, &nA));
  PetscCall(VecNorm(x, NORM_INFINITY, &nx));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  PetscCall(VecNorm(r, NORM_INFINITY, &nr));
  *berr = nr / (nA * nx + nb);
  if (PetscIsInfOrNanReal(*berr)) *berr = PETSC_MAX_REAL;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a factor of A by solver type stype, nd ordering; *failed: the numeric factorization reported an error */
static PetscErrorCode Factor(Mat A, MatSolverType stype, MatFactorType ftype, const char *ordering, Mat *F, PetscBool *failed)
{
  MatFactorInfo  info;
  IS             row, col;
  MatFactorError err;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatGetOrdering(A, ordering, &row, &col));
  *failed = PETSC_TRUE;
  ierr    = MatGetFactor(A, stype, ftype, F); /* errors are returned after the orderings are freed (NativeFactor) */
  if (!ierr) ierr = ftype == MAT_FACTOR_LU ? MatLUFactorSymbolic(*F, A, row, col, &info) : MatCholeskyFactorSymbolic(*F, A, row, &info);
  if (!ierr) ierr = ftype == MAT_FACTOR_LU ? MatLUFactorNumeric(*F, A, &info) : MatCholeskyFactorNumeric(*F, A, &info);
  if (!ierr) ierr = MatFactorGetError(*F, &err);
  if (!ierr) *failed = (PetscBool)(err != MAT_FACTOR_NOERROR);
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's own factor (no pivoting): a missing diagonal entry or a zero pivot makes it fail, then *failed */
static PetscErrorCode NativeFactor(Mat A, MatFactorType ftype, Mat *F, PetscBool *failed)
{
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  *F = NULL;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = Factor(A, MATSOLVERPETSC, ftype, MATORDERINGND, F, failed);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    *failed = PETSC_TRUE;
    PetscCall(MatDestroy(F));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* worst backward error of MatSolve (or MatSolveTranspose) over the right-hand sides B's columns; X gets the solutions */
static PetscErrorCode SolveColumns(Mat A, Mat F, PetscBool transpose, Mat B, Mat X, PetscReal *worst)
{
  PetscInt N;

  PetscFunctionBeginUser;
  *worst = 0;
  PetscCall(MatGetSize(B, NULL, &N));
  for (PetscInt c = 0; c < N; c++) {
    Vec       b, x;
    PetscReal e;

    PetscCall(MatDenseGetColumnVecRead(B, c, &b));
    PetscCall(MatDenseGetColumnVecWrite(X, c, &x));
    if (transpose) PetscCall(MatSolveTranspose(F, b, x));
    else PetscCall(MatSolve(F, b, x));
    PetscCall(BackwardError(A, transpose, b, x, &e));
    PetscCall(MatDenseRestoreColumnVecWrite(X, c, &x));
    PetscCall(MatDenseRestoreColumnVecRead(B, c, &b));
    *worst = PetscMax(*worst, e);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* L's supernode partition: the library's (nsuper of the factor's record), the same on U, supernodal in L's pattern */
static PetscErrorCode CheckSupernodes(const char *name, SpTrsvFactor fac)
{
  SpTrsvDirectHead *h = SpTrsvFactorDirectHead(fac);
  const SpTrsvTri   L = fac->L;
  PetscBool         same = PETSC_FALSE, ok = PETSC_TRUE;
  PetscInt          bad = -1;

  PetscFunctionBeginUser;
  EXPECT(h && L->nsuper > 0 && L->nsuper == h->nsuper && L->super[0] == 0 && L->super[L->nsuper] == L->n, "%s: supernode partition recorded (%" PetscInt_FMT " supernodes, the library %" PetscInt_FMT ")", name, L->nsuper, h ? h->nsuper : -1);
  if (fac->U->nsuper == L->nsuper) PetscCall(PetscArraycmp(L->super, fac->U->super, L->nsuper + 1, &same));
  EXPECT(same, "%s: U records L's supernode partition", name);
  /* in CSC terms: build the column structure of L from its CSR (rows of a column ascending) */
  {
    PetscInt *cp, *ci, *pos, n = L->n;
    PetscCall(PetscCalloc1(n + 1, &cp));
    PetscCall(PetscMalloc2(L->i[n] + 1, &ci, n + 1, &pos));
    for (PetscInt p = 0; p < L->i[n]; p++) cp[L->j[p] + 1]++;
    for (PetscInt c = 0; c < n; c++) cp[c + 1] += cp[c];
    for (PetscInt c = 0; c < n; c++) pos[c] = cp[c];
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt p = L->i[r]; p < L->i[r + 1]; p++) ci[pos[L->j[p]]++] = r;
    for (PetscInt k = 0; k < L->nsuper && ok; k++) {
      const PetscInt s = L->super[k], e = L->super[k + 1];
      for (PetscInt j = s; j < e && ok; j++) {
        /* column j: rows j+1..e-1 (the full diagonal block), then exactly column s's rows at or below e */
        PetscInt q = cp[j], qs = cp[s] + (e - 1 - s);
        for (PetscInt r = j + 1; r < e && ok; r++, q++) ok = (PetscBool)(q < cp[j + 1] && ci[q] == r);
        ok = (PetscBool)(ok && cp[j + 1] - q == cp[s + 1] - qs);
        for (; ok && q < cp[j + 1]; q++, qs++) ok = (PetscBool)(ci[q] == ci[qs]);
        if (!ok) bad = k;
      }
    }
    PetscCall(PetscFree(cp));
    PetscCall(PetscFree2(ci, pos));
  }
  EXPECT(ok, "%s: supernode %" PetscInt_FMT " is not supernodal in L's pattern", name, bad);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one (matrix, factor type): native reference, then every solver type */
static PetscErrorCode CheckMatrix(const char *mname, Mat A, MatFactorType ftype)
{
  const PetscReal eps = PETSC_MACHINE_EPSILON;
  Mat             Fn, B, Xn, X, X2;
  PetscBool       nfailed;
  PetscReal       ref[2] = {0, 0};
  PetscInt        n, npaths, nrhs = 3;
  PetscRandom     rnd;
  const char     *fname = ftype == MAT_FACTOR_LU ? "LU" : "Cholesky";

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, nrhs, NULL, &B));
  PetscCall(MatSetRandom(B, rnd));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &Xn));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X2));
  PetscCall(NativeFactor(A, ftype, &Fn, &nfailed));
  if (!nfailed) {
    PetscCall(SolveColumns(A, Fn, PETSC_FALSE, B, Xn, &ref[0]));
    /* PETSc's SeqAIJ Cholesky has no MatSolveTranspose: A is symmetric, its MatSolve is the reference */
    PetscCall(SolveColumns(A, Fn, ftype == MAT_FACTOR_LU ? PETSC_TRUE : PETSC_FALSE, B, Xn, &ref[1]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "# %s %s: n %" PetscInt_FMT ", native backward errors %s %.2e / %.2e (solve / transpose)\n", mname, fname, n, nfailed ? "(native factor failed: bound eps_factor eps)" : "", (double)ref[0], (double)ref[1]));
  PetscCall(MatDestroy(&Fn));

  PetscCall(SpTrsvPathGetCount(&npaths));
  for (PetscInt k = 0; k <= npaths; k++) {
    SpTrsvPath   path  = NULL;
    const char  *stype = MATSOLVERSPTRSV;
    Mat          F;
    PetscBool    failed;
    PetscReal    e[2], bound[2], dmax = 0;
    SpTrsvFactor fac;
    char         name[256];

    if (k < npaths) {
      PetscCall(SpTrsvPathGetByIndex(k, &path));
      if (!(ftype == MAT_FACTOR_LU ? path->ilu : path->icc)) continue;
      stype = path->solvertype;
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s %s %s", mname, fname, stype));
    PetscCall(Factor(A, stype, ftype, MATORDERINGND, &F, &failed));
    EXPECT(!failed, "%s: the factorization failed", name);
    if (failed) {
      PetscCall(MatDestroy(&F));
      continue;
    }
    for (PetscInt t = 0; t < 2; t++) {
      bound[t] = ref[t] + eps_factor * eps;
      PetscCall(SolveColumns(A, F, (PetscBool)t, B, X, &e[t]));
      EXPECT(e[t] <= bound[t], "%s: %s backward error %.3e > native %.3e + %g eps", name, t ? "MatSolveTranspose" : "MatSolve", (double)e[t], (double)ref[t], (double)eps_factor);
      /* MatMatSolve(Transpose) must give the same columns, to rounding: the supernodal path's push mode adds with atomics on
         the GPU, in an order that changes from run to run (1e-13 relative seen on the H100 for cryg2500, |X| 5e11) */
      if (t) PetscCall(MatMatSolveTranspose(F, B, X2));
      else PetscCall(MatMatSolve(F, B, X2));
      PetscCall(MatAXPY(X2, -1.0, X, SAME_NONZERO_PATTERN));
      PetscCall(MatNorm(X2, NORM_MAX, &dmax));
      {
        PetscReal xn;
        PetscCall(MatNorm(X, NORM_MAX, &xn));
        EXPECT(dmax <= 1e-10 * xn, "%s: MatMatSolve%s differs from MatSolve%s by %.3e (|X| %.3e)", name, t ? "Transpose" : "", t ? "Transpose" : "", (double)dmax, (double)xn);
      }
    }
    {
      const char *be;
      PetscCall(MatSpTrsvGetBackend(F, &be));
      EXPECT(!strcmp(be, backend), "%s: solves on the %s backend, asked for %s", name, be, backend);
    }
    PetscCall(MatSpTrsvGetFactorHost(F, &fac));
    PetscCall(CheckSupernodes(name, fac));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "#   %-50s backward errors %.2e %.2e, %" PetscInt_FMT " supernodes\n", name, (double)e[0], (double)e[1], fac->L->nsuper));
    PetscCall(MatDestroy(&F));
  }
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&Xn));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&X2));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* refactorization on the same pattern: A's rows (LU) or rows and columns (Cholesky) scaled at random */
static PetscErrorCode CheckRefactor(const char *mname, Mat A0, MatFactorType ftype, MatSolverType stype)
{
  Mat           A, F, Fn;
  Vec           s, b, x;
  PetscRandom   rnd;
  PetscBool     failed, nfailed;
  PetscReal     e, ref = 0;
  MatFactorInfo info;
  char          name[256];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s %s %s refactorization", mname, ftype == MAT_FACTOR_LU ? "LU" : "Cholesky", stype));
  PetscCall(MatDuplicate(A0, MAT_COPY_VALUES, &A));
  PetscCall(Factor(A, stype, ftype, MATORDERINGND, &F, &failed));
  EXPECT(!failed, "%s: first factorization failed", name);
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, 0.1, 10.0));
  PetscCall(MatCreateVecs(A, &s, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecSetRandom(s, rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(MatDiagonalScale(A, s, ftype == MAT_FACTOR_LU ? NULL : s));
  PetscCall(MatFactorInfoInitialize(&info));
  if (ftype == MAT_FACTOR_LU) PetscCall(MatLUFactorNumeric(F, A, &info));
  else PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  PetscCall(MatSolve(F, b, x));
  PetscCall(BackwardError(A, PETSC_FALSE, b, x, &e));
  PetscCall(NativeFactor(A, ftype, &Fn, &nfailed));
  if (!nfailed) {
    PetscCall(MatSolve(Fn, b, x));
    PetscCall(BackwardError(A, PETSC_FALSE, b, x, &ref));
  }
  EXPECT(e <= ref + eps_factor * PETSC_MACHINE_EPSILON, "%s: backward error %.3e > native %.3e + %g eps", name, (double)e, (double)ref, (double)eps_factor);
  {
    SpTrsvFactor fac;
    PetscCall(MatSpTrsvGetFactorHost(F, &fac));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "#   %-50s backward error %.2e (native %.2e), %" PetscInt_FMT " numeric phases, %" PetscInt_FMT " rebuilt\n", name, (double)e, (double)ref, SpTrsvFactorDirectHead(fac)->nnumeric, SpTrsvFactorDirectHead(fac)->nrebuild));
    EXPECT(SpTrsvFactorDirectHead(fac)->nnumeric == 2, "%s: %" PetscInt_FMT " numeric phases counted, expected 2", name, SpTrsvFactorDirectHead(fac)->nnumeric);
  }
  PetscCall(MatDestroy(&Fn));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&s));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the symbolic phase alone, in nested dissection: the factor, its orderings (the caller destroys them) and its info */
static PetscErrorCode SymbolicND(Mat A, MatSolverType stype, MatFactorType ftype, MatFactorInfo *info, Mat *F, IS *row, IS *col)
{
  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(info));
  PetscCall(MatGetOrdering(A, MATORDERINGND, row, col));
  PetscCall(MatGetFactor(A, stype, ftype, F));
  if (ftype == MAT_FACTOR_LU) PetscCall(MatLUFactorSymbolic(*F, A, *row, *col, info));
  else PetscCall(MatCholeskyFactorSymbolic(*F, A, *row, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the numeric phase right after the symbolic one reuses its LU of the same values: the triangles are not touched (their
   state unchanged, so no solver recomputes what it made at setup: the partitioned inverse took 15 s twice at 32^3); a
   second numeric phase refactors and refreshes them; both solve to PETSc's backward error */
static PetscErrorCode CheckFreshNumeric(const char *mname, Mat A, MatSolverType stype)
{
  Mat           F;
  MatFactorInfo info;
  IS            row, col;
  SpTrsvFactor  fac;
  PetscInt      sl, su;
  Vec           b, x;
  PetscReal     e;

  PetscFunctionBeginUser;
  PetscCall(SymbolicND(A, stype, MAT_FACTOR_LU, &info, &F, &row, &col));
  PetscCall(MatSpTrsvGetFactorHost(F, &fac));
  EXPECT(!fac->L->values_unset && !fac->U->values_unset, "%s %s: LU factored at the symbolic phase left its values unset", mname, stype);
  sl = fac->L->state;
  su = fac->U->state;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  for (PetscInt round = 0; round < 2; round++) {
    PetscCall(MatLUFactorNumeric(F, A, &info));
    PetscCall(MatSpTrsvGetFactorHost(F, &fac));
    if (round == 0) EXPECT(fac->L->state == sl && fac->U->state == su, "%s %s: the numeric phase after the symbolic one changed the triangles' state (L %" PetscInt_FMT " -> %" PetscInt_FMT ", U %" PetscInt_FMT " -> %" PetscInt_FMT ")", mname, stype, sl, fac->L->state, su, fac->U->state);
    else EXPECT(fac->L->state > sl && fac->U->state > su, "%s %s: a second numeric phase left the triangles' state (L %" PetscInt_FMT ", U %" PetscInt_FMT ")", mname, stype, fac->L->state, fac->U->state);
    PetscCall(MatSolve(F, b, x));
    PetscCall(BackwardError(A, PETSC_FALSE, b, x, &e));
    EXPECT(e <= eps_factor * PETSC_MACHINE_EPSILON, "%s %s: backward error %.3e after numeric phase %" PetscInt_FMT, mname, stype, (double)e, round + 1);
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&F));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cholesky: CHOLMOD's symbolic phase makes the pattern only; the values stay unset (the executors set up on it do no
   numeric work) until the numeric phase writes every one of them. With -mat_sptrsv_cholesky_overlap (default) the
   symbolic phase's values are factored in a host thread: the numeric phase takes that factor when A did not change
   (noverlap counts it), and factors again when it did (A scaled between the phases: a stale factor would solve the
   old matrix); a factor destroyed right after its symbolic phase waits for the thread. overlap 0: never a thread. */
static PetscErrorCode CholeskyOnce(const char *mname, Mat A, MatSolverType stype, PetscBool scale_between, PetscInt want_overlap)
{
  Mat           F;
  MatFactorInfo info;
  IS            row, col;
  SpTrsvFactor  fac;
  Vec           b, x;
  PetscReal     e;

  PetscFunctionBeginUser;
  PetscCall(SymbolicND(A, stype, MAT_FACTOR_CHOLESKY, &info, &F, &row, &col));
  PetscCall(MatSpTrsvGetFactorHost(F, &fac));
  EXPECT(fac->L->values_unset && fac->U->values_unset, "%s %s: Cholesky's values set at the symbolic phase (L %d, U %d unset)", mname, stype, (int)fac->L->values_unset, (int)fac->U->values_unset);
  if (scale_between) PetscCall(MatScale(A, 2.0));
  PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  PetscCall(MatSpTrsvGetFactorHost(F, &fac));
  EXPECT(!fac->L->values_unset && !fac->U->values_unset, "%s %s: Cholesky's values still unset after the numeric phase", mname, stype);
  EXPECT(SpTrsvFactorDirectHead(fac)->noverlap == want_overlap, "%s %s%s: %" PetscInt_FMT " numeric factorizations taken from the symbolic phase's thread, expected %" PetscInt_FMT, mname, stype, scale_between ? " (A scaled between the phases)" : "", SpTrsvFactorDirectHead(fac)->noverlap, want_overlap);
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSetRandom(b, NULL));
  PetscCall(MatSolve(F, b, x));
  PetscCall(BackwardError(A, PETSC_FALSE, b, x, &e));
  EXPECT(e <= eps_factor * PETSC_MACHINE_EPSILON, "%s %s%s: Cholesky backward error %.3e", mname, stype, scale_between ? " (A scaled between the phases)" : "", (double)e);
  if (scale_between) PetscCall(MatScale(A, 0.5));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&F));
  /* a symbolic phase alone, then the factor destroyed: the thread is waited for */
  PetscCall(MatGetFactor(A, stype, MAT_FACTOR_CHOLESKY, &F));
  PetscCall(MatCholeskyFactorSymbolic(F, A, row, &info));
  PetscCall(MatDestroy(&F));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckValuesLater(const char *mname, Mat A, MatSolverType stype)
{
  PetscFunctionBeginUser;
  PetscCall(CholeskyOnce(mname, A, stype, PETSC_FALSE, 1));
  PetscCall(CholeskyOnce(mname, A, stype, PETSC_TRUE, 0));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_cholesky_overlap", "0"));
  PetscCall(CholeskyOnce(mname, A, stype, PETSC_FALSE, 0));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_cholesky_overlap"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Dense3(const PetscScalar v[9], Mat *A)
{
  PetscInt idx[3] = {0, 1, 2};

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 3, 3, NULL, A));
  PetscCall(MatSetValues(*A, 3, idx, 3, idx, v, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a new pivot order on refactorization: the triangles are rebuilt and analysed again, the solves stay right */
static PetscErrorCode CheckPivotChange(MatSolverType stype)
{
  const PetscScalar v1[9] = {4, 1, 1, 1, 3, 1, 1, 1, 2}, v2[9] = {0.001, 1, 1, 5, 3, 1, 1, 7, 2};
  Mat               A, F;
  Vec               b, x;
  PetscBool         failed;
  PetscReal         e;
  MatFactorInfo     info;
  SpTrsvFactor      fac;

  PetscFunctionBeginUser;
  PetscCall(Dense3(v1, &A));
  PetscCall(Factor(A, stype, MAT_FACTOR_LU, MATORDERINGNATURAL, &F, &failed));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  { /* new values on the same pattern: column 0's largest entry moves to row 1 */
    PetscScalar *a;
    PetscCall(MatSeqAIJGetArray(A, &a));
    for (PetscInt k = 0; k < 9; k++) a[k] = v2[k];
    PetscCall(MatSeqAIJRestoreArray(A, &a));
  }
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscCall(MatSolve(F, b, x));
  PetscCall(BackwardError(A, PETSC_FALSE, b, x, &e));
  PetscCall(MatSpTrsvGetFactorHost(F, &fac));
  EXPECT(!failed && SpTrsvFactorDirectHead(fac)->nrebuild == 1, "%s pivot change: %" PetscInt_FMT " rebuilds, expected 1", stype, SpTrsvFactorDirectHead(fac)->nrebuild);
  EXPECT(e <= 10 * PETSC_MACHINE_EPSILON, "%s pivot change: backward error %.3e after the rebuild", stype, (double)e);
  PetscCall(MatSolveTranspose(F, b, x));
  PetscCall(BackwardError(A, PETSC_TRUE, b, x, &e));
  EXPECT(e <= 10 * PETSC_MACHINE_EPSILON, "%s pivot change: transpose backward error %.3e after the rebuild", stype, (double)e);
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a singular (LU) or indefinite (Cholesky) matrix: the factor error, the PETSc error, KSP_DIVERGED_PC_FAILED */
static PetscErrorCode CheckFailure(MatFactorType ftype, MatSolverType stype)
{
  const PetscScalar sing[9] = {1, 2, 3, 2, 4, 6, 1, 1, 1}, indef[9] = {1, 2, 0, 2, 1, 0, 0, 0, 3};
  Mat               A, F;
  PetscBool         failed;
  PetscErrorCode    ierr;
  KSP               ksp;
  PC                pc;
  Vec               b, x;
  KSPConvergedReason reason;
  const char        *fname = ftype == MAT_FACTOR_LU ? "LU" : "Cholesky";

  PetscFunctionBeginUser;
  PetscCall(Dense3(ftype == MAT_FACTOR_LU ? sing : indef, &A));
  PetscCall(Factor(A, stype, ftype, MATORDERINGNATURAL, &F, &failed));
  EXPECT(failed, "%s %s of a %s matrix: no factor error", fname, stype, ftype == MAT_FACTOR_LU ? "singular" : "indefinite");
  PetscCall(MatDestroy(&F));
  /* with MatSetErrorIfFailure() the numeric phase raises PETSc's zero pivot error */
  PetscCall(MatSetErrorIfFailure(A, PETSC_TRUE));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = Factor(A, stype, ftype, MATORDERINGNATURAL, &F, &failed);
  PetscCall(PetscPopErrorHandler());
  EXPECT(ierr == (ftype == MAT_FACTOR_LU ? PETSC_ERR_MAT_LU_ZRPVT : PETSC_ERR_MAT_CH_ZRPVT), "%s %s with MatSetErrorIfFailure: error %d, expected %d", fname, stype, (int)ierr, ftype == MAT_FACTOR_LU ? PETSC_ERR_MAT_LU_ZRPVT : PETSC_ERR_MAT_CH_ZRPVT);
  PetscCall(MatDestroy(&F));
  PetscCall(MatSetErrorIfFailure(A, PETSC_FALSE));
  /* KSP: the PC fails, the solve stops with KSP_DIVERGED_PC_FAILED */
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, ftype == MAT_FACTOR_LU ? PCLU : PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, stype));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  EXPECT(reason == KSP_DIVERGED_PC_FAILED, "%s %s: KSP reason %s, expected KSP_DIVERGED_PC_FAILED", fname, stype, KSPConvergedReasons[reason]);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a structurally singular matrix (column 1 without entries, then two columns sharing one row): an error, not a crash */
static PetscErrorCode CheckStructurallySingular(MatSolverType stype)
{
  const PetscInt rows[2][4] = {{0, 1, 1, 2}, {0, 0, 1, 2}}, cols[2][4] = {{0, 0, 2, 2}, {0, 1, 2, 2}};

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < 2; c++) {
    Mat            A, F = NULL;
    PetscBool      failed;
    PetscErrorCode ierr;

    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 3, 3, NULL, &A));
    for (PetscInt k = 0; k < 4; k++) PetscCall(MatSetValue(A, rows[c][k], cols[c][k], 1.0 + k, INSERT_VALUES));
    if (c) PetscCall(MatSetValue(A, 1, 1, 0.0, INSERT_VALUES)); /* an explicit zero keeps row 1 (and column 1) structural */
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = Factor(A, stype, MAT_FACTOR_LU, MATORDERINGNATURAL, &F, &failed);
    PetscCall(PetscPopErrorHandler());
    if (c == 0) EXPECT(ierr == PETSC_ERR_MAT_LU_ZRPVT, "%s: a matrix with an empty column gives error %d, expected PETSC_ERR_MAT_LU_ZRPVT", stype, (int)ierr);
    else EXPECT(!ierr || ierr == PETSC_ERR_MAT_LU_ZRPVT, "%s: a matrix with an explicit zero on the diagonal gives error %d", stype, (int)ierr);
    PetscCall(MatDestroy(&F));
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the libraries' own orderings (-mat_sptrsv_lu_ordering colamd, -mat_sptrsv_cholesky_ordering amd|metis|auto) */
static PetscErrorCode CheckOwnOrdering(const char *mname, Mat A, MatFactorType ftype, const char *option, const char *value)
{
  Mat       F;
  Vec       b, x;
  PetscBool failed;
  PetscReal e;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(NULL, option, value));
  PetscCall(Factor(A, MATSOLVERSPTRSVLEVEL, ftype, MATORDERINGND, &F, &failed));
  PetscCall(PetscOptionsClearValue(NULL, option));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatSolve(F, b, x));
  PetscCall(BackwardError(A, PETSC_FALSE, b, x, &e));
  EXPECT(!failed && e <= eps_factor * PETSC_MACHINE_EPSILON, "%s %s %s: backward error %.3e", mname, option, value, (double)e);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "#   %s %s %s: backward error %.2e\n", mname, option, value, (double)e));
  PetscCall(MatDestroy(&F));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const char *lu_files[]   = {"west0479", "olm1000", "cryg2500", "rajat19", "bp_1200", "nnc1374", "watt_2", "adder_dcop_05", "494_bus", "bcsstk13"};
  const char *chol_files[] = {"494_bus", "bcsstk13"};
  Mat         A;
  PetscBool   quick = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-backend", backend, sizeof(backend), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-quick", &quick, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-eps_factor", &eps_factor, NULL));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_backend", backend));

  /* generated: 2-D and 3-D Laplacians (SPD), a nonsymmetric convection-diffusion operator */
  PetscCall(SpTrsvBuildStencil(24, 24, 1, 5, &A));
  PetscCall(CheckMatrix("laplace2d-24", A, MAT_FACTOR_LU));
  PetscCall(CheckMatrix("laplace2d-24", A, MAT_FACTOR_CHOLESKY));
  PetscCall(CheckRefactor("laplace2d-24", A, MAT_FACTOR_CHOLESKY, MATSOLVERSPTRSVLEVEL));
  PetscCall(CheckOwnOrdering("laplace2d-24", A, MAT_FACTOR_CHOLESKY, "-mat_sptrsv_cholesky_ordering", "amd"));
  PetscCall(CheckOwnOrdering("laplace2d-24", A, MAT_FACTOR_CHOLESKY, "-mat_sptrsv_cholesky_ordering", "metis"));
  PetscCall(CheckOwnOrdering("laplace2d-24", A, MAT_FACTOR_CHOLESKY, "-mat_sptrsv_cholesky_ordering", "auto"));
  PetscCall(MatDestroy(&A));
  PetscCall(SpTrsvBuildStencil(9, 9, 9, 7, &A));
  PetscCall(CheckMatrix("laplace3d-9", A, MAT_FACTOR_LU));
  PetscCall(CheckMatrix("laplace3d-9", A, MAT_FACTOR_CHOLESKY));
  PetscCall(CheckRefactor("laplace3d-9", A, MAT_FACTOR_LU, MATSOLVERSPTRSVSYNCFREE));
  PetscCall(CheckFreshNumeric("laplace3d-9", A, MATSOLVERSPTRSVPINV));
  PetscCall(CheckFreshNumeric("laplace3d-9", A, MATSOLVERSPTRSVSUPERNODAL));
  PetscCall(CheckValuesLater("laplace3d-9", A, MATSOLVERSPTRSVSUPERNODAL));
  PetscCall(CheckValuesLater("laplace3d-9", A, MATSOLVERSPTRSV));
  PetscCall(MatDestroy(&A));
  PetscCall(SpTrsvBuildConvDiff2D(24, 200.0, &A));
  PetscCall(CheckMatrix("convdiff2d-24", A, MAT_FACTOR_LU));
  PetscCall(CheckRefactor("convdiff2d-24", A, MAT_FACTOR_LU, MATSOLVERSPTRSVLEVEL));
  PetscCall(CheckOwnOrdering("convdiff2d-24", A, MAT_FACTOR_LU, "-mat_sptrsv_lu_ordering", "colamd"));
  PetscCall(MatDestroy(&A));

  /* the shipped matrices */
  for (size_t f = 0; !quick && f < sizeof(lu_files) / sizeof(lu_files[0]) + sizeof(chol_files) / sizeof(chol_files[0]); f++) {
    const PetscBool lu   = (PetscBool)(f < sizeof(lu_files) / sizeof(lu_files[0]));
    const char     *name = lu ? lu_files[f] : chol_files[f - sizeof(lu_files) / sizeof(lu_files[0])];
    char            path[PETSC_MAX_PATH_LEN];
    PetscBool       exists;

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", matdir, name));
    PetscCall(PetscTestFile(path, 'r', &exists));
    EXPECT(exists, "%s not found (use -matdir <dir>)", path);
    if (!exists) continue;
    PetscCall(SpTrsvLoadMatrixMarket(path, &A));
    PetscCall(CheckMatrix(name, A, lu ? MAT_FACTOR_LU : MAT_FACTOR_CHOLESKY));
    if (lu && (!strcmp(name, "west0479") || !strcmp(name, "cryg2500"))) PetscCall(CheckRefactor(name, A, MAT_FACTOR_LU, MATSOLVERSPTRSVELEMENT));
    if (!lu && !strcmp(name, "bcsstk13")) PetscCall(CheckRefactor(name, A, MAT_FACTOR_CHOLESKY, MATSOLVERSPTRSVLOCALITY));
    PetscCall(MatDestroy(&A));
  }

  PetscCall(CheckPivotChange(MATSOLVERSPTRSVLEVEL));
  PetscCall(CheckPivotChange(MATSOLVERSPTRSV));
  PetscCall(CheckFailure(MAT_FACTOR_LU, MATSOLVERSPTRSVLEVEL));
  PetscCall(CheckFailure(MAT_FACTOR_CHOLESKY, MATSOLVERSPTRSVLEVEL));
  PetscCall(CheckFailure(MAT_FACTOR_LU, MATSOLVERSPTRSVSYNCFREE));
  PetscCall(CheckStructurallySingular(MATSOLVERSPTRSVLEVEL));

  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_direct: %" PetscInt_FMT " checks passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
