/* Test matrices of the benchmarks: loading, diagonal completion and grid parsing (the Laplacians are examples/common/stencil.c) */
#include "bench.h"

/* ---- matrices ------------------------------------------------------------------------------------ */

/* ILU(0) needs every diagonal entry in the pattern: add zero to each (missing ones become explicit zeros,
   which the nonzero shift handles) */
PetscErrorCode AddDiagonal(Mat A)
{
  PetscInt m;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &m, NULL));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = 0; i < m; i++) PetscCall(MatSetValue(A, i, i, 0.0, ADD_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ParseGrid(const char *s, PetscInt dim, PetscInt g[3])
{
  long long v[3] = {1, 1, 1};
  int       k;

  PetscFunctionBeginUser;
  k = dim == 2 ? sscanf(s, "%lldx%lld", &v[0], &v[1]) : sscanf(s, "%lldx%lldx%lld", &v[0], &v[1], &v[2]);
  PetscCheck(k == dim, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Grid '%s' must be %s", s, dim == 2 ? "NXxNY" : "NXxNYxNZ");
  for (PetscInt d = 0; d < 3; d++) {
    PetscCheck(v[d] > 0 && v[d] < PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Grid '%s': sizes must be positive", s);
    g[d] = (PetscInt)v[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  strong-locality matrices (paper 004's experiments): banded (n rows, half-bandwidth w: entries |i - j| <= w, -1 off the
  diagonal, 2w + 1 on it) and block-diagonal (dense blocks of bs rows: -1 off the diagonal, bs on it); both strictly
  diagonally dominant, so ILU(0) exists (and is exact: their patterns do not fill)
*/
static PetscErrorCode BuildBanded(PetscInt n, PetscInt w, PetscBool blocks, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, blocks ? w : 2 * w + 1, NULL, A));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt lo = blocks ? (i / w) * w : PetscMax(0, i - w), hi = blocks ? PetscMin(n, lo + w) - 1 : PetscMin(n - 1, i + w);

    for (PetscInt j = lo; j <= hi; j++) PetscCall(MatSetValue(*A, i, j, j == i ? (PetscScalar)(blocks ? w : 2 * w + 1) : -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  BenchLoadMatrix - the matrix of the options: -mtx (or -f) <file.mtx[.gz]> (a missing diagonal entry becomes an explicit
  zero), -fbin <file> (a PETSc binary matrix, e.g. written by a tutorial's -ksp_view_mat binary:<file>; converted to
  SEQAIJ, a missing diagonal entry an explicit zero), -lap2d NXxNY -stencil 5|9, -lap3d NXxNYxNZ -stencil 7|27, -banded NxW (half-bandwidth W) or -blockdiag NxBS
  (dense blocks of BS rows); sets B->label (-label overrides), B->n, B->nnzA
*/
PetscErrorCode BenchLoadMatrix(Bench *B, const char *prog, Mat *A, PetscBool *file)
{
  char           mtx[PETSC_MAX_PATH_LEN] = "", bin[PETSC_MAX_PATH_LEN] = "", grid[256] = "", label[PETSC_MAX_PATH_LEN] = "";
  PetscBool      has_mtx, has_bin, has2d, has3d = PETSC_FALSE, has_label, hasband, hasblock;
  PetscInt       stencil = 0, g[3] = {1, 1, 1};
  MatInfo        ainfo;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mtx", mtx, sizeof(mtx), &has_mtx));
  if (!has_mtx) PetscCall(PetscOptionsGetString(NULL, NULL, "-f", mtx, sizeof(mtx), &has_mtx)); /* an alias */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-fbin", bin, sizeof(bin), &has_bin));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-lap2d", grid, sizeof(grid), &has2d));
  if (!has2d) PetscCall(PetscOptionsGetString(NULL, NULL, "-lap3d", grid, sizeof(grid), &has3d));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-banded", &hasband));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-blockdiag", &hasblock));
  if (hasband || hasblock) PetscCall(PetscOptionsGetString(NULL, NULL, hasband ? "-banded" : "-blockdiag", grid, sizeof(grid), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-stencil", &stencil, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-label", label, sizeof(label), &has_label));
  PetscCheck((has_mtx ? 1 : 0) + (has_bin ? 1 : 0) + (has2d ? 1 : 0) + (has3d ? 1 : 0) + (hasband ? 1 : 0) + (hasblock ? 1 : 0) == 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Give exactly one of -mtx <file>, -fbin <file>, -lap2d NXxNY -stencil 5|9, -lap3d NXxNYxNZ -stencil 7|27, -banded NxW, -blockdiag NxBS");
  *file = (PetscBool)(has_mtx || has_bin);
  PetscCall(PetscTime(&t0));
  if (has_mtx) {
#if defined(SPTRSV_NO_MMLOAD)
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Built without the Matrix Market reader (no zlib): cannot read %s", mtx);
#else
    const char *base = strrchr(mtx, '/');
    size_t      len;

    PetscCall(SpTrsvLoadMatrixMarket(mtx, A));
    PetscCall(AddDiagonal(*A));
    PetscCall(PetscStrncpy(B->label, base ? base + 1 : mtx, sizeof(B->label)));
    len = strlen(B->label);
    if (len > 7 && !strcmp(B->label + len - 7, ".mtx.gz")) B->label[len - 7] = 0;
    else if (len > 4 && !strcmp(B->label + len - 4, ".mtx")) B->label[len - 4] = 0;
#endif
  } else if (has_bin) {
    PetscViewer v;
    Mat         L;
    const char *base = strrchr(bin, '/');

    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, bin, FILE_MODE_READ, &v));
    PetscCall(MatCreate(PETSC_COMM_SELF, &L));
    PetscCall(MatSetType(L, MATSEQAIJ));
    PetscCall(MatLoad(L, v));
    PetscCall(PetscViewerDestroy(&v));
    PetscCall(MatConvert(L, MATSEQAIJ, MAT_INITIAL_MATRIX, A));
    PetscCall(MatDestroy(&L));
    PetscCall(AddDiagonal(*A));
    PetscCall(PetscStrncpy(B->label, base ? base + 1 : bin, sizeof(B->label)));
  } else if (hasband || hasblock) {
    PetscCall(ParseGrid(grid, 2, g));
    PetscCheck(g[0] > 0 && g[1] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s %s: expected NxW with positive N and W", hasband ? "-banded" : "-blockdiag", grid);
    PetscCall(BuildBanded(g[0], g[1], hasblock, A));
    PetscCall(PetscSNPrintf(B->label, sizeof(B->label), "%s%" PetscInt_FMT "_%" PetscInt_FMT, hasband ? "banded" : "blockdiag", g[1], g[0]));
  } else {
    PetscInt dim = has2d ? 2 : 3;
    if (!stencil) stencil = dim == 2 ? 5 : 7;
    PetscCall(ParseGrid(grid, dim, g));
    PetscCall(SpTrsvBuildStencil(g[0], g[1], g[2], stencil, A));
    if (dim == 2) PetscCall(PetscSNPrintf(B->label, sizeof(B->label), "lap2d%" PetscInt_FMT "_%" PetscInt_FMT "x%" PetscInt_FMT, stencil, g[0], g[1]));
    else PetscCall(PetscSNPrintf(B->label, sizeof(B->label), "lap3d%" PetscInt_FMT "_%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT, stencil, g[0], g[1], g[2]));
  }
  PetscCall(PetscTime(&t1));
  if (has_label) PetscCall(PetscStrncpy(B->label, label, sizeof(B->label)));
  PetscCall(MatGetSize(*A, &B->n, NULL));
  PetscCall(MatGetInfo(*A, MAT_LOCAL, &ainfo));
  B->nnzA = (PetscInt)ainfo.nz_used;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %s: n = %" PetscInt_FMT ", nnz(A) = %" PetscInt_FMT " (built in %.2f s)\n", prog, B->label, B->n, B->nnzA, (double)(t1 - t0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
