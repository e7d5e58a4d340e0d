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
  BenchLoadMatrix - the matrix of the options: -mtx (or -f) <file.mtx[.gz]> (a missing diagonal entry becomes an explicit
  zero), -lap2d NXxNY -stencil 5|9 or -lap3d NXxNYxNZ -stencil 7|27; sets B->label (-label overrides), B->n, B->nnzA
*/
PetscErrorCode BenchLoadMatrix(Bench *B, const char *prog, Mat *A, PetscBool *file)
{
  char           mtx[PETSC_MAX_PATH_LEN] = "", grid[256] = "", label[PETSC_MAX_PATH_LEN] = "";
  PetscBool      has_mtx, has2d, has3d = PETSC_FALSE, has_label;
  PetscInt       stencil = 0, g[3] = {1, 1, 1};
  MatInfo        ainfo;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mtx", mtx, sizeof(mtx), &has_mtx));
  if (!has_mtx) PetscCall(PetscOptionsGetString(NULL, NULL, "-f", mtx, sizeof(mtx), &has_mtx)); /* an alias */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-lap2d", grid, sizeof(grid), &has2d));
  if (!has2d) PetscCall(PetscOptionsGetString(NULL, NULL, "-lap3d", grid, sizeof(grid), &has3d));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-stencil", &stencil, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-label", label, sizeof(label), &has_label));
  PetscCheck((has_mtx ? 1 : 0) + (has2d ? 1 : 0) + (has3d ? 1 : 0) == 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Give exactly one of -mtx <file>, -lap2d NXxNY -stencil 5|9, -lap3d NXxNYxNZ -stencil 7|27");
  *file = has_mtx;
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
