static char help[] = "Unit tests of the level-set analysis and of plan execution on the host backend.\n";

#include <sptrsv/backend.h>

#include "unit_common.h"

/* the hand-checked DAG: 1<-0, 3<-{1,2}, 4<-0, 5<-{3,4}: levels 0 1 0 2 1 3 */
static PetscErrorCode TestHandDAG(void)
{
  const PetscInt ai[] = {0, 0, 1, 1, 3, 4, 6}, aj[] = {0, 1, 2, 0, 3, 4};
  const PetscInt lev[] = {0, 1, 0, 2, 1, 3}, order[] = {0, 2, 1, 4, 3, 5}, levptr[] = {0, 2, 4, 5, 6};
  SpTrsvTri      t;
  SpTrsvOp       op;
  SpTrsvPlan     plan;
  PetscBool      same;

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(6, SPTRSV_LOWER, PETSC_TRUE, ai, aj, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(SpTrsvPlanCreateLevelSets(&op, &plan));
  EXPECT(plan->nlevels == 4, "hand DAG: %" PetscInt_FMT " levels, expected 4", plan->nlevels);
  PetscCall(PetscArraycmp(plan->level, lev, 6, &same));
  EXPECT(same, "hand DAG: wrong levels");
  PetscCall(PetscArraycmp(plan->order, order, 6, &same));
  EXPECT(same, "hand DAG: wrong order");
  PetscCall(PetscArraycmp(plan->levptr, levptr, 5, &same));
  EXPECT(same, "hand DAG: wrong level pointers");
  EXPECT(plan->stats.max_level_rows == 2 && plan->stats.max_row_nnz == 2 && plan->stats.nnz == 6, "hand DAG: wrong statistics");
  PetscCall(SpTrsvPlanDestroy(&plan));
  /* the transpose is upper: row i of L^T depends on the rows that depend on i in L.
     0 <- {1,4}, 1 <- 3, 2 <- 3, 3 <- 5, 4 <- 5: levels from the bottom: 5:0, 3:1, 4:1, 1:2, 2:2, 0:3 */
  {
    const PetscInt levt[] = {3, 2, 2, 1, 1, 0};
    PetscCall(SpTrsvTriGetOp(t, PETSC_TRUE, &op));
    EXPECT(!op.lower, "transpose of a lower triangle must be upper");
    PetscCall(SpTrsvPlanCreateLevelSets(&op, &plan));
    PetscCall(PetscArraycmp(plan->level, levt, 6, &same));
    EXPECT(same && plan->nlevels == 4, "hand DAG transpose: wrong levels");
    PetscCall(SpTrsvPlanDestroy(&plan));
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* strict lower triangle of the 5/7-point stencil on an nx x ny x nz grid: level of (i,j,k) is i+j+k */
static PetscErrorCode TestGrid(PetscInt nx, PetscInt ny, PetscInt nz)
{
  SpTrsvTri  t;
  SpTrsvOp   op;
  SpTrsvPlan plan;
  PetscBool  ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(GridLower7(nx, ny, nz, &t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(SpTrsvPlanCreateLevelSets(&op, &plan));
  EXPECT(plan->nlevels == nx + ny + nz - 2, "grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": %" PetscInt_FMT " levels, expected %" PetscInt_FMT, nx, ny, nz, plan->nlevels, nx + ny + nz - 2);
  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i < nx; i++)
        if (plan->level[(k * ny + j) * nx + i] != i + j + k) ok = PETSC_FALSE;
  EXPECT(ok, "grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": level of (i,j,k) is not i+j+k", nx, ny, nz);
  PetscCall(SpTrsvPlanDestroy(&plan));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* plain sequential substitution with op(T) formed densely: the independent reference */
static PetscErrorCode DenseSolve(SpTrsvTri t, PetscBool transpose, const PetscScalar *b, PetscScalar *x)
{
  PetscInt     n = t->n;
  PetscScalar *D;
  PetscBool    lower = (PetscBool)((t->uplo == SPTRSV_LOWER) != transpose);

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(n * n + 1, &D));
  for (PetscInt r = 0; r < n; r++) {
    D[r * n + r] = t->unit ? 1.0 : 1.0 / t->idiag[r];
    for (PetscInt p = t->i[r]; p < t->i[r + 1]; p++) {
      if (transpose) D[t->j[p] * n + r] = t->a[p];
      else D[r * n + t->j[p]] = t->a[p];
    }
  }
  for (PetscInt k = 0; k < n; k++) {
    PetscInt    r = lower ? k : n - 1 - k;
    PetscScalar s = b[r];
    for (PetscInt c = 0; c < n; c++)
      if (c != r) s -= D[r * n + c] * (((lower && c < r) || (!lower && c > r)) ? x[c] : 0.0);
    x[r] = s / D[r * n + r];
  }
  PetscCall(PetscFree(D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* random triangles (both sides, unit or not, several densities): plan execution in both formats and
   both orientations against the dense substitution */
static PetscErrorCode TestRandom(PetscRandom rnd, PetscInt n, PetscReal density, SpTrsvUplo uplo, PetscBool unit)
{
  PetscInt    *ai, *aj, nnz = 0;
  SpTrsvTri    t;
  PetscScalar *b, *x, *xref;
  PetscReal    r;

  PetscInt     npaths;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathGetCount(&npaths));
  PetscCall(PetscMalloc1(n + 1, &ai));
  PetscCall(PetscMalloc1(n * n + 1, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt lo = uplo == SPTRSV_LOWER ? 0 : i + 1, hi = uplo == SPTRSV_LOWER ? i : n;
    for (PetscInt j = lo; j < hi; j++) {
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      if (r < density) aj[nnz++] = j;
    }
    ai[i + 1] = nnz;
  }
  PetscCall(SpTrsvTriCreate(n, uplo, unit, &t));
  PetscCall(SpTrsvTriSetPattern(t, ai, aj));
  for (PetscInt p = 0; p < nnz; p++) {
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    t->a[p] = (r - 0.5) / (1.0 + density * n);
  }
  if (!unit)
    for (PetscInt i = 0; i < n; i++) {
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      t->idiag[i] = 1.0 / (1.0 + r);
    }
  PetscCall(SpTrsvTriValuesChanged(t));
  PetscCall(PetscMalloc3(n + 1, &b, n + 1, &x, n + 1, &xref));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValue(rnd, &b[i]));
  for (PetscInt tr = 0; tr < 2; tr++) {
    PetscCall(DenseSolve(t, (PetscBool)tr, b, xref));
    for (PetscInt f = 0; f < 2; f++)
      for (PetscInt pt = 0; pt < npaths; pt++) {
        SpTrsvSolver s;
        SpTrsvPath   path;
        PetscReal    err = 0, nrm = 0;
        PetscCall(SpTrsvPathGetByIndex(pt, &path));
        if (f == SPTRSV_FORMAT_CSC && !path->csc) continue; /* a path that reads rows only */
        PetscCall(SpTrsvSolverCreate(t, (PetscBool)tr, (SpTrsvFormat)f, path, &SpTrsvBackendHost, &s));
        PetscCall(SpTrsvSolverApply(s, b, x));
        for (PetscInt i = 0; i < n; i++) {
          err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
          nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
        }
        EXPECT(err <= 1e-12 * PetscMax(nrm, 1.0), "random n=%" PetscInt_FMT " density %g %s%s %s %s %s: error %g", n, (double)density, uplo == SPTRSV_LOWER ? "lower" : "upper", unit ? " unit" : "", tr ? "transpose" : "", SpTrsvFormats[f], path->name, (double)err);
        PetscCall(SpTrsvSolverDestroy(&s));
      }
  }
  PetscCall(PetscFree3(b, x, xref));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bad input: a dependency on the wrong side of the diagonal must be an error, not a wrong answer */
static PetscErrorCode TestNotTriangular(void)
{
  const PetscInt ai[] = {0, 1, 1, 2}, aj[] = {1, 0};
  PetscInt       level[3];
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvLevelsCompute(3, ai, aj, PETSC_TRUE, level, NULL);
  PetscCall(PetscPopErrorHandler());
  EXPECT(ierr == PETSC_ERR_ARG_WRONG, "non-triangular pattern accepted (error %d)", (int)ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestEmpty(void)
{
  PetscInt  *ai;
  SpTrsvTri  t;
  SpTrsvOp   op;
  SpTrsvPlan plan;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(1, &ai));
  PetscCall(SpTrsvTriCreate(0, SPTRSV_LOWER, PETSC_FALSE, &t));
  PetscCall(SpTrsvTriSetPattern(t, ai, NULL));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(SpTrsvPlanCreateLevelSets(&op, &plan));
  EXPECT(plan->nlevels == 0, "n = 0: %" PetscInt_FMT " levels", plan->nlevels);
  PetscCall(SpTrsvPlanDestroy(&plan));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Element plans: the dispatch order puts every dependency first (what makes the GPU kernels
   deadlock-free) on the shapes the issue names: a chain (one row per level), a row depending on every
   earlier row, and empty rows; solves in dispatch order match the dense reference.
*/
static PetscErrorCode TestDispatchShape(const char *name, PetscInt n, PetscInt kind)
{
  PetscInt    *ai, *aj, nnz = 0;
  SpTrsvTri    t;
  SpTrsvOp     op;
  SpTrsvPlan   plan;
  SpTrsvSolver        s;
  SpTrsvPath          element;
  SpTrsvPathOptions   opts;
  PetscScalar        *b, *x;
  PetscReal           err = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &ai));
  PetscCall(PetscMalloc1(2 * n + 1, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (kind == 0 && i > 0) aj[nnz++] = i - 1;                                      /* chain */
    if (kind == 1 && i == n - 1)                                                    /* last row depends on all */
      for (PetscInt j = 0; j < i; j++) aj[nnz++] = j;
    if (kind == 2 && i % 3 == 2) aj[nnz++] = i - 2;                                 /* mostly empty rows */
    ai[i + 1] = nnz;
    if (kind == 1) PetscCall(PetscRealloc(sizeof(PetscInt) * (nnz + n + 1), &aj)); /* room for the full row */
  }
  PetscCall(SpTrsvTriCreate(n, SPTRSV_LOWER, PETSC_TRUE, &t));
  PetscCall(SpTrsvTriSetPattern(t, ai, aj));
  for (PetscInt p = 0; p < nnz; p++) t->a[p] = kind == 1 ? 1.0 / n : -1.0;
  PetscCall(SpTrsvTriValuesChanged(t));
  PetscCall(SpTrsvTriGetOp(t, PETSC_FALSE, &op));
  PetscCall(SpTrsvPathFind("element", &element));
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  PetscCall(SpTrsvPlanCreate(&op, element, SPTRSV_FORMAT_CSR, &opts, &plan));
  PetscCall(SpTrsvPlanCheckDispatchOrder(&op, plan));
  EXPECT(plan->path == element && plan->nlevels == (kind == 0 ? n : 2), "%s: %" PetscInt_FMT " levels", name, plan->nlevels);
  /* b = T * ones (unit diagonal): x must be ones */
  PetscCall(PetscMalloc2(n + 1, &b, n + 1, &x));
  for (PetscInt i = 0; i < n; i++) {
    b[i] = 1.0;
    for (PetscInt p = ai[i]; p < ai[i + 1]; p++) b[i] += t->a[p];
  }
  for (PetscInt f = 0; f < 2; f++) {
    PetscCall(SpTrsvSolverCreate(t, PETSC_FALSE, (SpTrsvFormat)f, element, &SpTrsvBackendHost, &s));
    PetscCall(SpTrsvSolverApply(s, b, x));
    err = 0;
    for (PetscInt i = 0; i < n; i++) err = PetscMax(err, PetscAbsScalar(x[i] - 1.0));
    EXPECT(err < 1e-10, "%s %s: error %g", name, SpTrsvFormats[f], (double)err);
    PetscCall(SpTrsvSolverDestroy(&s));
  }
  /* a corrupted dispatch order (first two positions of a chain swapped) must be refused */
  if (kind == 0 && n > 2) {
    PetscErrorCode ierr;
    PetscInt       tmp = plan->order[0];
    plan->order[0]     = plan->order[1];
    plan->order[1]     = tmp;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SpTrsvPlanCheckDispatchOrder(&op, plan);
    PetscCall(PetscPopErrorHandler());
    EXPECT(ierr == PETSC_ERR_PLIB, "%s: a dispatch order with a dependency after its row was accepted (error %d)", name, (int)ierr);
  }
  PetscCall(PetscFree2(b, x));
  PetscCall(SpTrsvPlanDestroy(&plan));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(TestHandDAG());
  PetscCall(TestGrid(5, 4, 3));
  PetscCall(TestGrid(7, 1, 1));
  PetscCall(TestGrid(6, 9, 1));
  PetscCall(TestGrid(2, 3, 17));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261122));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt u = 0; u < 2; u++) {
    PetscCall(TestRandom(rnd, 1, 0.5, (SpTrsvUplo)u, PETSC_FALSE));
    PetscCall(TestRandom(rnd, 60, 0.02, (SpTrsvUplo)u, PETSC_TRUE));
    PetscCall(TestRandom(rnd, 60, 0.3, (SpTrsvUplo)u, PETSC_FALSE));
    PetscCall(TestRandom(rnd, 150, 0.05, (SpTrsvUplo)u, PETSC_FALSE));
    PetscCall(TestRandom(rnd, 150, 1.0, (SpTrsvUplo)u, PETSC_TRUE));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(TestDispatchShape("chain n=1e6", 1000000, 0));
  PetscCall(TestDispatchShape("row depending on all earlier rows", 3000, 1));
  PetscCall(TestDispatchShape("empty rows", 10000, 2));
  PetscCall(TestNotTriangular());
  PetscCall(TestEmpty());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_levels: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
