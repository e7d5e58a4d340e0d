static char help[] = "Compare sptrsv's ILU(k)/ICC(k) with PETSc's native SeqAIJ factorizations.\n\
Options:\n\
  -matdir <dir>  directory of the Matrix Market test matrices (default tests/data/matrices: run from the repository root)\n\
  -tol <tol>     maximum relative difference of the solutions (default 1e-10)\n\
  -nrhs <n>      random right-hand sides per case (default 3)\n\n";

/*
   For each case, A is factored by PETSc (MatGetFactor(A, MATSOLVERPETSC, MAT_FACTOR_ILU/ICC)) and by
   SpTrsvFactor with the same MatFactorInfo and orderings; x = factor^{-1} b is compared for random b.
   Ours is applied by a plain substitution written here from F->L, F->U, F->rperm, F->cperm:
       x = Q^T U^{-1} L^{-1} P b.
   Output: one line "ok <name>" or "not ok <name> ..." per case; the exit code is nonzero on failure.
*/
#include <math.h>
#include <sptrsv/factor.h>
#include "../../examples/common/mmload.h"

static PetscInt  nfail = 0, npass = 0, nskip = 0, nrhs = 3;
static PetscReal tol                        = 1e-10;
static char      matdir[PETSC_MAX_PATH_LEN] = "tests/data/matrices";

static PetscErrorCode Report(const char *name, PetscBool ok, const char *fmt, PetscReal a, PetscReal b)
{
  PetscFunctionBeginUser;
  if (ok) {
    npass++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ok %s", name));
  } else {
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "not ok %s", name));
  }
  if (fmt) PetscCall(PetscPrintf(PETSC_COMM_SELF, fmt, (double)a, (double)b));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- test matrices ------------------------------------------------------------------------------ */

static PetscErrorCode Laplace2D(PetscInt m, Mat *A)
{
  PetscInt n = m * m;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 5, NULL, A));
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt j = 0; j < m; j++) {
      PetscInt row = i * m + j;

      if (i > 0) PetscCall(MatSetValue(*A, row, row - m, -1.0, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(*A, row, row - 1, -1.0, INSERT_VALUES));
      PetscCall(MatSetValue(*A, row, row, 4.0, INSERT_VALUES));
      if (j < m - 1) PetscCall(MatSetValue(*A, row, row + 1, -1.0, INSERT_VALUES));
      if (i < m - 1) PetscCall(MatSetValue(*A, row, row + m, -1.0, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Laplace3D(PetscInt m, Mat *A)
{
  PetscInt n = m * m * m;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 7, NULL, A));
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt j = 0; j < m; j++) {
      for (PetscInt k = 0; k < m; k++) {
        PetscInt row = (i * m + j) * m + k;

        PetscCall(MatSetValue(*A, row, row, 6.0, INSERT_VALUES));
        if (i > 0) PetscCall(MatSetValue(*A, row, row - m * m, -1.0, INSERT_VALUES));
        if (i < m - 1) PetscCall(MatSetValue(*A, row, row + m * m, -1.0, INSERT_VALUES));
        if (j > 0) PetscCall(MatSetValue(*A, row, row - m, -1.0, INSERT_VALUES));
        if (j < m - 1) PetscCall(MatSetValue(*A, row, row + m, -1.0, INSERT_VALUES));
        if (k > 0) PetscCall(MatSetValue(*A, row, row - 1, -1.0, INSERT_VALUES));
        if (k < m - 1) PetscCall(MatSetValue(*A, row, row + 1, -1.0, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2-D Laplacian (m x m grid) coupled with a dense 3x3 block per grid point: rows of a point share their
   pattern, so PETSc factors it with its inode routines (nonsymmetric values unless sym) */
static PetscErrorCode Laplace2DBlocks(PetscInt m, PetscBool sym, Mat *A)
{
  const PetscScalar B[3][3] = {
    {4.0, 1.0, 0.5},
    {0.2, 5.0, 1.0},
    {0.3, 0.1, 6.0}
  };
  Mat L;

  PetscFunctionBeginUser;
  PetscCall(Laplace2D(m, &L));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3 * m * m, 3 * m * m, 15, NULL, A));
  for (PetscInt r = 0; r < m * m; r++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;

    PetscCall(MatGetRow(L, r, &nc, &cols, &vals));
    for (PetscInt q = 0; q < nc; q++)
      for (PetscInt a = 0; a < 3; a++)
        for (PetscInt b = 0; b < 3; b++) {
          PetscScalar v = vals[q] * (sym ? (a == b ? 5.0 : 0.5) : B[a][b]);
          PetscCall(MatSetValue(*A, 3 * r + a, 3 * cols[q] + b, v, INSERT_VALUES));
        }
    PetscCall(MatRestoreRow(L, r, &nc, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDestroy(&L));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* random nonsymmetric, strictly diagonally dominant: about nper off-diagonals per row, some near the
   diagonal and some anywhere */
static PetscErrorCode RandomDD(PetscInt n, PetscInt nper, Mat *A)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 12345));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, nper + 1, NULL, A));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal sum = 0;

    for (PetscInt t = 0; t < nper; t++) {
      PetscReal u, v;
      PetscInt  j;

      PetscCall(PetscRandomGetValueReal(rnd, &u));
      PetscCall(PetscRandomGetValueReal(rnd, &v));
      j = t % 2 ? (PetscInt)(u * n) : i + (PetscInt)((u - 0.5) * 20);
      j = PetscMin(PetscMax(j, 0), n - 1);
      if (j == i) continue;
      v = 2 * v - 1;
      sum += PetscAbsReal(v);
      PetscCall(MatSetValue(*A, i, j, v, ADD_VALUES));
    }
    PetscCall(MatSetValue(*A, i, i, sum + 0.5, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2-D Laplacian with explicit zeros on a few diagonal entries: a zero pivot at the first of them */
static PetscErrorCode ZeroDiagonal(PetscInt m, Mat *A)
{
  const PetscInt rows[] = {0, 37, 50};

  PetscFunctionBeginUser;
  PetscCall(Laplace2D(m, A));
  for (PetscInt k = 0; k < 3; k++) PetscCall(MatSetValue(*A, rows[k], rows[k], 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a matrix of -matdir; when the file is missing its cases are reported as skipped */
static PetscErrorCode LoadMatrix(const char *name, Mat *A, PetscBool *found)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", matdir, name));
  PetscCall(PetscTestFile(path, 'r', found));
  if (*found) PetscCall(SpTrsvLoadMatrixMarket(path, A));
  else {
    nskip++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ok %s # SKIP %s not found (use -matdir <dir>)\n", name, path));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* multiply every stored value by 1 + 0.05 u, u in [-1, 1]: same pattern, new values */
static PetscErrorCode PerturbValues(Mat A, PetscRandom rnd)
{
  PetscScalar *v;
  PetscInt     nz;
  MatInfo      info;

  PetscFunctionBeginUser;
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  nz = (PetscInt)info.nz_used;
  PetscCall(MatSeqAIJGetArray(A, &v));
  for (PetscInt p = 0; p < nz; p++) {
    PetscReal u;

    PetscCall(PetscRandomGetValueReal(rnd, &u));
    v[p] *= 1 + 0.05 * (2 * u - 1);
  }
  PetscCall(MatSeqAIJRestoreArray(A, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- our factor applied by plain substitution: x = Q^T U^{-1} L^{-1} P b ------------------------ */

static PetscErrorCode SolveOurs(SpTrsvFactor fac, Vec b, Vec x)
{
  const PetscScalar *bb;
  PetscScalar       *xx, *z;
  PetscInt           n = fac->n;
  SpTrsvTri          L = fac->L, U = fac->U;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &z));
  PetscCall(VecGetArrayRead(b, &bb));
  for (PetscInt k = 0; k < n; k++) z[k] = bb[fac->rperm ? fac->rperm[k] : k];
  PetscCall(VecRestoreArrayRead(b, &bb));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt p = L->i[i]; p < L->i[i + 1]; p++) z[i] -= L->a[p] * z[L->j[p]];
  for (PetscInt i = n - 1; i >= 0; i--) {
    PetscScalar s = z[i];

    for (PetscInt p = U->i[i]; p < U->i[i + 1]; p++) s -= U->a[p] * z[U->j[p]];
    z[i] = s * U->idiag[i];
  }
  PetscCall(VecGetArray(x, &xx));
  for (PetscInt k = 0; k < n; k++) xx[fac->cperm ? fac->cperm[k] : k] = z[k];
  PetscCall(VecRestoreArray(x, &xx));
  PetscCall(PetscFree(z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max over random b of |x_ours - x_petsc|_inf / |x_petsc|_inf */
static PetscErrorCode CompareSolves(Mat A, Mat Fp, SpTrsvFactor fac, PetscRandom rnd, PetscReal *maxdiff)
{
  Vec b, x, y;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &y));
  *maxdiff = 0;
  for (PetscInt r = 0; r < nrhs; r++) {
    PetscReal nx, nd;

    PetscCall(VecSetRandom(b, rnd));
    PetscCall(MatSolve(Fp, b, x));
    PetscCall(SolveOurs(fac, b, y));
    PetscCall(VecNorm(x, NORM_INFINITY, &nx));
    PetscCall(VecAXPY(y, -1.0, x));
    PetscCall(VecNorm(y, NORM_INFINITY, &nd));
    nd = nx > 0 ? nd / nx : nd;
    if (PetscIsInfOrNanReal(nd)) nd = PETSC_MAX_REAL;
    *maxdiff = PetscMax(*maxdiff, nd);
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- one comparison case -------------------------------------------------------------------------- */

typedef struct {
  PetscBool          icc;
  PetscInt           levels;
  MatOrderingType    ordering;
  MatFactorShiftType shift;
  PetscBool          diagonal_fill;
  PetscReal          fill;
  PetscBool          refactor;    /* perturb the values (same pattern) and factor again */
  PetscReal          shiftamount; /* 0: PETSc's default 100 eps */
  PetscBool          swaprows;    /* row ordering: swap the rows 2t and 2t+1 of `ordering` (nonsymmetric) */
  PetscBool          oursonly;    /* PETSc cannot do this case: only check that ours succeeds */
} Case;


/* our factorization of A (ILU or ICC), symbolic then numeric, with the values checked finite */
static PetscErrorCode FactorOurs(Mat A, IS row, IS col, const MatFactorInfo *info, PetscBool icc, PetscInt n, SpTrsvFactor *fac)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvFactorCreate(icc ? MAT_FACTOR_ICC : MAT_FACTOR_ILU, n, fac));
  if (icc) {
    PetscCall(SpTrsvFactorICCSymbolic(A, row, info, *fac));
    PetscCall(SpTrsvFactorICCNumeric(A, info, *fac));
  } else {
    PetscCall(SpTrsvFactorILUSymbolic(A, row, col, info, *fac));
    PetscCall(SpTrsvFactorILUNumeric(A, info, *fac));
  }
  PetscCall(SpTrsvTriCheckValues((*fac)->L));
  PetscCall(SpTrsvTriCheckValues((*fac)->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCase(const char *mname, Mat A, Case c)
{
  Mat           Fp;
  IS            row, col;
  MatFactorInfo info;
  SpTrsvFactor  fac;
  PetscRandom   rnd;
  MatInfo       minfo;
  PetscReal     diff, nzp, nzo;
  PetscInt      n;
  char          name[256];
  PetscBool     ok;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s(%" PetscInt_FMT ")_%s_%s%s_%s%s%s%s", c.icc ? "icc" : "ilu", c.levels, mname, c.ordering, c.swaprows ? "+swap" : "", MatFactorShiftTypes[c.shift], c.shiftamount > 0 ? "_amount" : "", c.diagonal_fill ? "_diagfill" : "", c.fill > 1 ? "_fill" : ""));
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels        = c.levels;
  info.fill          = c.fill > 1 ? c.fill : 1.0;
  info.diagonal_fill = c.diagonal_fill ? 1.0 : 0.0;
  info.shifttype     = (PetscReal)c.shift;
  info.shiftamount   = c.shiftamount > 0 ? c.shiftamount : 100.0 * PETSC_MACHINE_EPSILON;
  info.zeropivot     = 100.0 * PETSC_MACHINE_EPSILON;
  PetscCall(MatGetOrdering(A, c.ordering, &row, &col));
  if (c.swaprows) {
    const PetscInt *r;
    PetscInt       *s;

    PetscCall(ISGetIndices(row, &r));
    PetscCall(PetscMalloc1(n, &s));
    for (PetscInt k = 0; k < n; k++) s[k] = (k % 2 == 0 && k + 1 < n) ? r[k + 1] : (k % 2 ? r[k - 1] : r[k]);
    PetscCall(ISRestoreIndices(row, &r));
    PetscCall(ISDestroy(&row));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, s, PETSC_OWN_POINTER, &row));
    PetscCall(ISSetPermutation(row));
  }

  if (c.oursonly) {
    PetscCall(FactorOurs(A, row, col, &info, c.icc, n, &fac));
    PetscCall(Report(name, PETSC_TRUE, " # ours only: nnz %g, shifts %g", (PetscReal)(fac->L->i[n] + fac->U->i[n] + n), (PetscReal)fac->nshifts));
    PetscCall(SpTrsvFactorDestroy(&fac));
    PetscCall(ISDestroy(&row));
    PetscCall(ISDestroy(&col));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* PETSc's native factorization */
  PetscCall(MatGetFactor(A, MATSOLVERPETSC, c.icc ? MAT_FACTOR_ICC : MAT_FACTOR_ILU, &Fp));
  if (c.icc) {
    PetscCall(MatICCFactorSymbolic(Fp, A, row, &info));
    PetscCall(MatCholeskyFactorNumeric(Fp, A, &info));
  } else {
    PetscCall(MatILUFactorSymbolic(Fp, A, row, col, &info));
    PetscCall(MatLUFactorNumeric(Fp, A, &info));
  }
  {
    MatFactorError err;

    PetscCall(MatFactorGetError(Fp, &err));
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "PETSc's own factorization failed for %s: pick another case", name);
  }

  /* ours */
  PetscCall(FactorOurs(A, row, col, &info, c.icc, n, &fac));

  /* same number of stored entries (the patterns are the same) */
  PetscCall(MatGetInfo(Fp, MAT_LOCAL, &minfo));
  nzp = minfo.nz_used;
  nzo = c.icc ? (PetscReal)(fac->U->i[n] + n) : (PetscReal)(fac->L->i[n] + fac->U->i[n] + n);
  if (c.icc) PetscCheck(fac->L->i[n] == fac->U->i[n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "ICC: L is not U^T");

  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 271828));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(CompareSolves(A, Fp, fac, rnd, &diff));
  ok = (PetscBool)(diff <= tol && nzp == nzo);
  if (nzp != nzo) {
    PetscCall(Report(name, PETSC_FALSE, ": factor nonzeros: PETSc %g, ours %g", nzp, nzo));
  } else {
    char msg[128];

    PetscCall(PetscSNPrintf(msg, sizeof(msg), " # nnz %%g, max rel diff %%.2e, shifts %" PetscInt_FMT " (amount %g)", fac->nshifts, (double)fac->shift_amount));
    PetscCall(Report(name, ok, msg, nzo, diff));
  }

  if (c.refactor) {
    Mat          B;
    PetscScalar *la = fac->L->a, *ua = fac->U->a;
    PetscInt    *lj = fac->L->j, *uj = fac->U->j, ls = fac->L->state;
    char         rname[300];

    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
    PetscCall(PerturbValues(B, rnd));
    if (c.icc) {
      PetscCall(MatCholeskyFactorNumeric(Fp, B, &info));
      PetscCall(SpTrsvFactorICCNumeric(B, &info, fac));
    } else {
      PetscCall(MatLUFactorNumeric(Fp, B, &info));
      PetscCall(SpTrsvFactorILUNumeric(B, &info, fac));
    }
    PetscCall(CompareSolves(B, Fp, fac, rnd, &diff));
    PetscCall(PetscSNPrintf(rname, sizeof(rname), "%s_refactor", name));
    ok = (PetscBool)(diff <= tol && la == fac->L->a && ua == fac->U->a && lj == fac->L->j && uj == fac->U->j && fac->L->state > ls);
    PetscCall(Report(rname, ok, " # max rel diff %.2e, in place %g", diff, (PetscReal)(la == fac->L->a && ua == fac->U->a)));
    PetscCall(MatDestroy(&B));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(SpTrsvFactorDestroy(&fac));
  PetscCall(MatDestroy(&Fp));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* run a case; an error inside it is a failure of that case, not the end of the test */
#define RUN(label, call) \
  do { \
    PetscErrorCode ierr_ = (call); \
    if (ierr_) { \
      nfail++; \
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "not ok %s # error %d\n", label, (int)ierr_)); \
    } \
  } while (0)

static Case ILU(PetscInt levels, MatOrderingType ord)
{
  Case c = {PETSC_FALSE, levels, ord, MAT_SHIFT_NONE, PETSC_FALSE, 1.0, PETSC_FALSE, 0.0, PETSC_FALSE, PETSC_FALSE};
  return c;
}

static Case ICC(PetscInt levels, MatOrderingType ord)
{
  Case c = {PETSC_TRUE, levels, ord, MAT_SHIFT_NONE, PETSC_FALSE, 1.0, PETSC_FALSE, 0.0, PETSC_FALSE, PETSC_FALSE};
  return c;
}

static Case Shift(Case c, MatFactorShiftType s)
{
  c.shift = s;
  return c;
}

static Case Amount(Case c, PetscReal amount)
{
  c.shiftamount = amount;
  return c;
}

static Case Refactor(Case c)
{
  c.refactor = PETSC_TRUE;
  return c;
}

/* ---- expected errors ------------------------------------------------------------------------------ */

/* run f on A with our factorization and expect error `expected` whose message contains `needle` */
static PetscErrorCode ExpectError(const char *name, Mat A, PetscBool icc, PetscInt levels, MatFactorShiftType shift, PetscErrorCode expected, const char *needle)
{
  MatFactorInfo  info;
  SpTrsvFactor   fac;
  PetscInt       n, m;
  PetscErrorCode ierr;
  char          *msg   = NULL;
  PetscBool      found = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, &m));
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels      = levels;
  info.fill        = 1.0;
  info.shifttype   = (PetscReal)shift;
  info.zeropivot   = 100.0 * PETSC_MACHINE_EPSILON;
  info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  PetscCall(SpTrsvFactorCreate(icc ? MAT_FACTOR_ICC : MAT_FACTOR_ILU, n, &fac));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = icc ? SpTrsvFactorICCSymbolic(A, NULL, &info, fac) : SpTrsvFactorILUSymbolic(A, NULL, NULL, &info, fac);
  if (!ierr) ierr = icc ? SpTrsvFactorICCNumeric(A, &info, fac) : SpTrsvFactorILUNumeric(A, &info, fac);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(PetscErrorMessage(ierr, NULL, &msg));
    if (msg && needle) {
      char *loc = NULL;

      PetscCall(PetscStrstr(msg, needle, &loc));
      found = (PetscBool)(loc != NULL);
    } else found = PETSC_TRUE;
  }
  PetscCall(SpTrsvFactorDestroy(&fac));
  if (ierr == expected && found) {
    npass++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ok %s # %s\n", name, msg));
  } else {
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "not ok %s: error %d (expected %d), message '%s'\n", name, (int)ierr, (int)expected, msg ? msg : ""));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  without A->erroriffailure a zero pivot (shift type none) is not an error: the factor records it as PETSc's own
  ILU/ICC does (MatPivotCheck_none(): the last zero pivot's row and |pivot|, MAT_FACTOR_NUMERIC_ZEROPIVOT).
  Ours must record what PETSc's factor of the same matrix reports, and a refactorization with good values
  must clear it.
*/
static PetscErrorCode ExpectZeroPivotRecord(const char *name, Mat A, PetscBool icc, PetscInt levels)
{
  MatFactorInfo  info;
  Mat            Fp;
  IS             row, col;
  SpTrsvFactor   fac;
  MatFactorError perr;
  PetscReal      pval;
  PetscInt       prow, n;
  PetscErrorCode ierr;
  PetscBool      ok;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels    = levels;
  info.fill      = 1.0;
  info.shifttype = (PetscReal)MAT_SHIFT_NONE;
  info.zeropivot = 100.0 * PETSC_MACHINE_EPSILON;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(MatGetFactor(A, MATSOLVERPETSC, icc ? MAT_FACTOR_ICC : MAT_FACTOR_ILU, &Fp));
  if (icc) {
    PetscCall(MatICCFactorSymbolic(Fp, A, row, &info));
    PetscCall(MatCholeskyFactorNumeric(Fp, A, &info));
  } else {
    PetscCall(MatILUFactorSymbolic(Fp, A, row, col, &info));
    PetscCall(MatLUFactorNumeric(Fp, A, &info));
  }
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatFactorGetError(Fp, &perr));
  PetscCall(MatFactorGetErrorZeroPivot(Fp, &pval, &prow));
  PetscCall(MatDestroy(&Fp));
  PetscCall(SpTrsvFactorCreate(icc ? MAT_FACTOR_ICC : MAT_FACTOR_ILU, n, &fac));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = icc ? SpTrsvFactorICCSymbolic(A, NULL, &info, fac) : SpTrsvFactorILUSymbolic(A, NULL, NULL, &info, fac);
  if (!ierr) ierr = icc ? SpTrsvFactorICCNumeric(A, &info, fac) : SpTrsvFactorILUNumeric(A, &info, fac);
  PetscCall(PetscPopErrorHandler());
  ok = (PetscBool)(!ierr && perr == MAT_FACTOR_NUMERIC_ZEROPIVOT && fac->error == perr && fac->zeropivot_row == prow && fac->zeropivot_value == pval);
  PetscCall(Report(name, ok, " # PETSc: error %g, row %g", (PetscReal)perr, (PetscReal)prow));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: PETSc error %d row %" PetscInt_FMT " |pivot| %g; ours: return %d, error %d row %" PetscInt_FMT " |pivot| %g\n", name, (int)perr, prow, (double)pval, (int)ierr, (int)fac->error, fac->zeropivot_row, (double)fac->zeropivot_value));
  PetscCall(SpTrsvFactorDestroy(&fac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a failed numeric factorization, then one on good values of the same pattern: the error is cleared */
static PetscErrorCode ExpectRefactorClears(const char *name, Mat A, PetscBool icc)
{
  MatFactorInfo info;
  SpTrsvFactor  fac;
  PetscInt      n;
  PetscBool     failed, cleared;
  const PetscInt rows[] = {0, 37, 50};

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatFactorInfoInitialize(&info));
  info.fill      = 1.0;
  info.shifttype = (PetscReal)MAT_SHIFT_NONE;
  info.zeropivot = 100.0 * PETSC_MACHINE_EPSILON;
  PetscCall(SpTrsvFactorCreate(icc ? MAT_FACTOR_ICC : MAT_FACTOR_ILU, n, &fac));
  if (icc) PetscCall(SpTrsvFactorICCSymbolic(A, NULL, &info, fac));
  else PetscCall(SpTrsvFactorILUSymbolic(A, NULL, NULL, &info, fac));
  if (icc) PetscCall(SpTrsvFactorICCNumeric(A, &info, fac));
  else PetscCall(SpTrsvFactorILUNumeric(A, &info, fac));
  failed = (PetscBool)(fac->error == MAT_FACTOR_NUMERIC_ZEROPIVOT);
  for (PetscInt k = 0; k < 3; k++) PetscCall(MatSetValue(A, rows[k], rows[k], 4.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (icc) PetscCall(SpTrsvFactorICCNumeric(A, &info, fac));
  else PetscCall(SpTrsvFactorILUNumeric(A, &info, fac));
  cleared = (PetscBool)(fac->error == MAT_FACTOR_NOERROR && !fac->nonfinite);
  PetscCall(SpTrsvTriCheckValues(fac->L));
  PetscCall(SpTrsvTriCheckValues(fac->U));
  for (PetscInt k = 0; k < 3; k++) PetscCall(MatSetValue(A, rows[k], rows[k], 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(Report(name, (PetscBool)(failed && cleared), " # failed first %g, cleared after %g", (PetscReal)failed, (PetscReal)cleared));
  PetscCall(SpTrsvFactorDestroy(&fac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestErrors(void)
{
  Mat       A;
  PetscBool found;

  PetscFunctionBeginUser;
  /* zero pivot without shift: recorded as PETSc records it, cleared by a good refactorization */
  PetscCall(ZeroDiagonal(10, &A));
  PetscCall(ExpectZeroPivotRecord("zero_pivot_record_ilu0", A, PETSC_FALSE, 0));
  PetscCall(ExpectZeroPivotRecord("zero_pivot_record_ilu2", A, PETSC_FALSE, 2));
  PetscCall(ExpectZeroPivotRecord("zero_pivot_record_icc0", A, PETSC_TRUE, 0));
  PetscCall(ExpectZeroPivotRecord("zero_pivot_record_icc1", A, PETSC_TRUE, 1));
  PetscCall(ExpectRefactorClears("zero_pivot_refactor_clears_ilu0", A, PETSC_FALSE));
  PetscCall(ExpectRefactorClears("zero_pivot_refactor_clears_icc0", A, PETSC_TRUE));
  /* and an error naming the row when the matrix asks for errors (MatSetErrorIfFailure(), as PCSetUp_ILU does under -ksp_error_if_not_converged) */
  PetscCall(MatSetErrorIfFailure(A, PETSC_TRUE));
  PetscCall(ExpectError("error_zero_pivot_ilu0", A, PETSC_FALSE, 0, MAT_SHIFT_NONE, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in row 0 of the factored matrix"));
  PetscCall(ExpectError("error_zero_pivot_ilu2", A, PETSC_FALSE, 2, MAT_SHIFT_NONE, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot"));
  PetscCall(ExpectError("error_zero_pivot_icc1", A, PETSC_TRUE, 1, MAT_SHIFT_NONE, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot"));
  /* NaN in A: an error with erroriffailure, recorded otherwise (PETSc's factor does not look for it) */
  PetscCall(MatSetValue(A, 5, 6, (PetscScalar)NAN, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectError("error_nan_ilu1", A, PETSC_FALSE, 1, MAT_SHIFT_NONZERO, PETSC_ERR_FP, "(5, 6) is NaN"));
  PetscCall(MatSetErrorIfFailure(A, PETSC_FALSE));
  {
    MatFactorInfo info;
    SpTrsvFactor  fac;

    PetscCall(MatFactorInfoInitialize(&info));
    info.levels    = 1;
    info.fill      = 1.0;
    info.shifttype   = (PetscReal)MAT_SHIFT_NONZERO;
    info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
    PetscCall(SpTrsvFactorCreate(MAT_FACTOR_ILU, 100, &fac));
    PetscCall(SpTrsvFactorILUSymbolic(A, NULL, NULL, &info, fac));
    PetscCall(SpTrsvFactorILUNumeric(A, &info, fac));
    PetscCall(Report("nan_recorded_ilu1", (PetscBool)(fac->nonfinite && fac->error == MAT_FACTOR_NOERROR), " # nonfinite %g, error %g", (PetscReal)fac->nonfinite, (PetscReal)fac->error));
    PetscCall(SpTrsvFactorDestroy(&fac));
  }
  PetscCall(MatDestroy(&A));

  /* missing diagonal entries: west0479 */
  PetscCall(LoadMatrix("west0479", &A, &found));
  if (found) {
    PetscCall(ExpectError("error_missing_diagonal_west0479_ilu0", A, PETSC_FALSE, 0, MAT_SHIFT_NONE, PETSC_ERR_ARG_WRONGSTATE, "Matrix is missing diagonal entry in row"));
    PetscCall(ExpectError("error_missing_diagonal_west0479_ilu1", A, PETSC_FALSE, 1, MAT_SHIFT_NONZERO, PETSC_ERR_ARG_WRONGSTATE, "Matrix is missing diagonal entry in row"));
    PetscCall(ExpectError("error_missing_diagonal_west0479_icc0", A, PETSC_TRUE, 0, MAT_SHIFT_POSITIVE_DEFINITE, PETSC_ERR_ARG_WRONGSTATE, "Matrix is missing diagonal entry in row"));
    PetscCall(MatDestroy(&A));
  }

  PetscCall(LoadMatrix("nnc1374", &A, &found));
  if (found) {
    PetscCall(ExpectError("error_missing_diagonal_nnc1374_ilu2", A, PETSC_FALSE, 2, MAT_SHIFT_NONZERO, PETSC_ERR_ARG_WRONGSTATE, "Matrix is missing diagonal entry in row 8"));
    PetscCall(MatDestroy(&A));
  }

  /* non-square and non-AIJ matrices */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 4, 5, 1, NULL, &A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(ExpectError("error_nonsquare", A, PETSC_FALSE, 0, MAT_SHIFT_NONE, PETSC_ERR_ARG_SIZ, "square"));
  PetscCall(MatDestroy(&A));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 4, 4, NULL, &A));
  PetscCall(MatShift(A, 1.0));
  PetscCall(ExpectError("error_dense", A, PETSC_FALSE, 0, MAT_SHIFT_NONE, PETSC_ERR_SUP, "seqdense"));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n = 0: empty triangles */
static PetscErrorCode TestEmpty(void)
{
  Mat           A;
  MatFactorInfo info;
  PetscBool     ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 0, 0, 0, NULL, &A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatFactorInfoInitialize(&info));
  info.fill = 1.0;
  for (PetscInt icc = 0; icc < 2; icc++) {
    for (PetscInt levels = 0; levels < 3; levels += 2) {
      SpTrsvFactor fac;

      info.levels = levels;
      PetscCall(SpTrsvFactorCreate(icc ? MAT_FACTOR_ICC : MAT_FACTOR_ILU, 0, &fac));
      if (icc) {
        PetscCall(SpTrsvFactorICCSymbolic(A, NULL, &info, fac));
        PetscCall(SpTrsvFactorICCNumeric(A, &info, fac));
      } else {
        PetscCall(SpTrsvFactorILUSymbolic(A, NULL, NULL, &info, fac));
        PetscCall(SpTrsvFactorILUNumeric(A, &info, fac));
      }
      if (!(fac->L && fac->U && fac->L->n == 0 && fac->U->n == 0 && fac->L->i[0] == 0 && fac->U->i[0] == 0)) ok = PETSC_FALSE;
      PetscCall(SpTrsvFactorDestroy(&fac));
    }
  }
  PetscCall(Report("empty_matrix_n0", ok, NULL, 0, 0));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat                   A;
  PetscBool             found;
  const MatOrderingType ords[] = {MATORDERINGNATURAL, MATORDERINGRCM, MATORDERINGND};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nrhs", &nrhs, NULL));

  /* 2-D Laplacian 30x30: ILU(0..3) x natural/rcm/nd, ICC(0..2) */
  PetscCall(Laplace2D(30, &A));
  for (PetscInt o = 0; o < 3; o++)
    for (PetscInt k = 0; k <= 3; k++) RUN("lap2d ilu", RunCase("lap2d", A, k == 1 ? Refactor(ILU(k, ords[o])) : ILU(k, ords[o])));
  for (PetscInt o = 0; o < 3; o++)
    for (PetscInt k = 0; k <= 2; k++) RUN("lap2d icc", RunCase("lap2d", A, k == 1 ? Refactor(ICC(k, ords[o])) : ICC(k, ords[o])));
  RUN("lap2d icc pd", RunCase("lap2d", A, Shift(ICC(1, MATORDERINGNATURAL), MAT_SHIFT_POSITIVE_DEFINITE)));
  {
    Case c = ILU(2, MATORDERINGNATURAL);
    c.fill = 4.0;
    RUN("lap2d fill", RunCase("lap2d", A, c));
  }
  PetscCall(MatDestroy(&A));

  /* 3-D Laplacian 10^3 */
  PetscCall(Laplace3D(10, &A));
  for (PetscInt k = 0; k <= 3; k++) RUN("lap3d ilu", RunCase("lap3d", A, ILU(k, MATORDERINGNATURAL)));
  RUN("lap3d ilu rcm", RunCase("lap3d", A, Refactor(ILU(1, MATORDERINGRCM))));
  RUN("lap3d ilu nd", RunCase("lap3d", A, ILU(2, MATORDERINGND)));
  RUN("lap3d ilu qmd", RunCase("lap3d", A, ILU(1, MATORDERINGQMD)));
  RUN("lap3d ilu 1wd", RunCase("lap3d", A, ILU(1, MATORDERING1WD)));
  for (PetscInt k = 0; k <= 2; k++) RUN("lap3d icc", RunCase("lap3d", A, ICC(k, MATORDERINGNATURAL)));
  RUN("lap3d icc nd", RunCase("lap3d", A, Refactor(ICC(2, MATORDERINGND))));
  PetscCall(MatDestroy(&A));

  /* inodes: PETSc's inode ILU numeric (MatLUFactorNumeric_SeqAIJ_Inode) and inode-aware orderings */
  PetscCall(Laplace2DBlocks(12, PETSC_FALSE, &A));
  for (PetscInt o = 0; o < 3; o++)
    for (PetscInt k = 0; k <= 2; k++) RUN("blocks ilu", RunCase("lap2d-3x3", A, k == 1 ? Refactor(ILU(k, ords[o])) : ILU(k, ords[o])));
  RUN("blocks ilu pd", RunCase("lap2d-3x3", A, Shift(ILU(1, MATORDERINGNATURAL), MAT_SHIFT_POSITIVE_DEFINITE)));
  PetscCall(MatDestroy(&A));
  PetscCall(Laplace2DBlocks(12, PETSC_TRUE, &A));
  for (PetscInt k = 0; k <= 2; k++) RUN("blocks icc", RunCase("lap2d-3x3sym", A, ICC(k, ords[k])));
  PetscCall(MatDestroy(&A));

  /* random nonsymmetric diagonally dominant */
  PetscCall(RandomDD(600, 6, &A));
  for (PetscInt o = 0; o < 3; o++)
    for (PetscInt k = 0; k <= 3; k++) RUN("random ilu", RunCase("randdd", A, k == 2 ? Refactor(ILU(k, ords[o])) : ILU(k, ords[o])));
  RUN("random ilu inblocks", RunCase("randdd", A, Shift(ILU(1, MATORDERINGNATURAL), MAT_SHIFT_INBLOCKS)));
  /* nonsymmetric row/column orderings take diagonal entries away: -pc_factor_diagonal_fill. PETSc 3.18
     inserts the diagonal without marking it present, so with levels > 0 a fill that reaches the
     diagonal again corrupts its list (it loops forever): with levels > 0 only ours is run */
  for (PetscInt k = 0; k <= 2; k++) {
    Case c = Amount(Shift(ILU(k, MATORDERINGNATURAL), MAT_SHIFT_NONZERO), 1e-2);

    c.swaprows      = PETSC_TRUE;
    c.diagonal_fill = PETSC_TRUE;
    c.oursonly      = (PetscBool)(k > 0);
    RUN("random ilu diagonal fill", RunCase("randdd", A, c));
  }
  PetscCall(MatDestroy(&A));

  /* zero pivots: the shifts */
  PetscCall(ZeroDiagonal(10, &A));
  for (PetscInt k = 0; k <= 2; k++) {
    RUN("shift nonzero", RunCase("zerodiag", A, Refactor(Shift(ILU(k, MATORDERINGNATURAL), MAT_SHIFT_NONZERO))));
    RUN("shift pd", RunCase("zerodiag", A, Refactor(Shift(ILU(k, MATORDERINGNATURAL), MAT_SHIFT_POSITIVE_DEFINITE))));
    RUN("shift inblocks", RunCase("zerodiag", A, Shift(ILU(k, MATORDERINGNATURAL), MAT_SHIFT_INBLOCKS)));
  }
  RUN("shift nonzero rcm", RunCase("zerodiag", A, Shift(ILU(1, MATORDERINGRCM), MAT_SHIFT_NONZERO)));
  /* a shift of 100 eps leaves pivots of 1e-13: the factor is so ill-conditioned that the solves agree
     only to 1e-4 whatever the arithmetic (ICC's D Ut solve differs from PETSc's D^{-1} then Ut solve),
     so ICC's NONZERO and INBLOCKS shifts are tested with a larger amount */
  for (PetscInt k = 0; k <= 2; k++) {
    RUN("icc shift pd", RunCase("zerodiag", A, Refactor(Shift(ICC(k, MATORDERINGNATURAL), MAT_SHIFT_POSITIVE_DEFINITE))));
    RUN("icc shift nonzero", RunCase("zerodiag", A, Refactor(Amount(Shift(ICC(k, MATORDERINGNATURAL), MAT_SHIFT_NONZERO), 0.1))));
    RUN("icc shift inblocks", RunCase("zerodiag", A, Amount(Shift(ICC(k, MATORDERINGRCM), MAT_SHIFT_INBLOCKS), 0.5)));
  }
  RUN("ilu shift nonzero amount", RunCase("zerodiag", A, Amount(Shift(ILU(1, MATORDERINGND), MAT_SHIFT_NONZERO), 1e-3)));
  PetscCall(MatDestroy(&A));

  /* real matrices */
  PetscCall(LoadMatrix("bcsstk13", &A, &found));
  if (found) {
    for (PetscInt k = 0; k <= 2; k++) RUN("bcsstk13 icc", RunCase("bcsstk13", A, Shift(ICC(k, MATORDERINGNATURAL), MAT_SHIFT_POSITIVE_DEFINITE)));
    RUN("bcsstk13 icc rcm", RunCase("bcsstk13", A, Refactor(Shift(ICC(1, MATORDERINGRCM), MAT_SHIFT_POSITIVE_DEFINITE))));
    RUN("bcsstk13 ilu", RunCase("bcsstk13", A, ILU(0, MATORDERINGNATURAL)));
    RUN("bcsstk13 ilu", RunCase("bcsstk13", A, Shift(ILU(1, MATORDERINGNATURAL), MAT_SHIFT_NONZERO)));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(LoadMatrix("494_bus", &A, &found));
  if (found) {
    for (PetscInt k = 0; k <= 2; k++) RUN("494_bus icc", RunCase("494_bus", A, Shift(ICC(k, MATORDERINGNATURAL), MAT_SHIFT_POSITIVE_DEFINITE)));
    RUN("494_bus icc nd", RunCase("494_bus", A, ICC(1, MATORDERINGND)));
    for (PetscInt k = 0; k <= 2; k++) RUN("494_bus ilu", RunCase("494_bus", A, ILU(k, MATORDERINGRCM)));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(LoadMatrix("cryg2500", &A, &found));
  if (found) {
    for (PetscInt k = 0; k <= 2; k++) RUN("cryg2500 ilu", RunCase("cryg2500", A, k == 1 ? Refactor(ILU(k, MATORDERINGNATURAL)) : ILU(k, MATORDERINGNATURAL)));
    RUN("cryg2500 ilu rcm", RunCase("cryg2500", A, ILU(1, MATORDERINGRCM)));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(LoadMatrix("watt_2", &A, &found));
  if (found) {
    for (PetscInt k = 0; k <= 2; k++) RUN("watt_2 ilu", RunCase("watt_2", A, k == 2 ? Refactor(ILU(k, MATORDERINGNATURAL)) : ILU(k, MATORDERINGNATURAL)));
    RUN("watt_2 ilu nd", RunCase("watt_2", A, Shift(ILU(1, MATORDERINGND), MAT_SHIFT_NONZERO)));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(LoadMatrix("olm1000", &A, &found));
  if (found) {
    for (PetscInt k = 0; k <= 2; k++) RUN("olm1000 ilu", RunCase("olm1000", A, ILU(k, MATORDERINGNATURAL)));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(LoadMatrix("zenios", &A, &found));
  if (found) {
    for (PetscInt k = 0; k <= 1; k++) RUN("zenios icc", RunCase("zenios", A, Shift(ICC(k, MATORDERINGNATURAL), MAT_SHIFT_POSITIVE_DEFINITE)));
    RUN("zenios ilu", RunCase("zenios", A, Shift(ILU(1, MATORDERINGRCM), MAT_SHIFT_NONZERO)));
    PetscCall(MatDestroy(&A));
  }

  PetscCall(TestErrors());
  PetscCall(TestEmpty());

  PetscCall(PetscPrintf(PETSC_COMM_SELF, "# %" PetscInt_FMT " passed, %" PetscInt_FMT " failed, %" PetscInt_FMT " matrices skipped\n", npass, nfail, nskip));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
