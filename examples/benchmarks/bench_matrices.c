/* Test matrices of the benchmark: diagonal completion and grid parsing (the Laplacians are examples/common/stencil.c) */
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

