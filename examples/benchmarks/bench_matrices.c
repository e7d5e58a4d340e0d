/* Test matrices of the benchmark: generated Laplacians */
#include "bench.h"

/* ---- matrices ------------------------------------------------------------------------------------ */

/* Dirichlet Laplacian-like M-matrix (as the device check): -1 for each stencil neighbour inside the grid,
   npts-1 on the diagonal; 5/9 points in 2-D (nz = 1), 7/27 in 3-D. Built directly as CSR. */
PetscErrorCode BuildStencil(PetscInt nx, PetscInt ny, PetscInt nz, PetscInt npts, Mat *A)
{
  PetscInt64   n = (PetscInt64)nx * ny * nz, nnz = 0, cap;
  PetscInt    *ia, *ja;
  PetscScalar *va;
  PetscBool    full = (PetscBool)(npts == 9 || npts == 27);

  PetscFunctionBeginUser;
  PetscCheck(nx > 0 && ny > 0 && nz > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Grid sizes must be positive");
  PetscCheck((nz == 1 && (npts == 5 || npts == 9)) || (nz > 1 && (npts == 7 || npts == 27)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-stencil %" PetscInt_FMT " does not fit a %s grid (2-D: 5 or 9, 3-D: 7 or 27)", npts, nz == 1 ? "2-D" : "3-D");
  cap = n * npts;
  PetscCheck(cap < PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "Grid too large for PetscInt");
  PetscCall(PetscMalloc3(n + 1, &ia, cap, &ja, cap, &va));
  ia[0] = 0;
  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i < nx; i++) {
        PetscInt row = i + nx * (j + ny * k);
        /* kk outer, jj, ii inner: columns come out ascending */
        for (PetscInt dk = -1; dk <= 1; dk++)
          for (PetscInt dj = -1; dj <= 1; dj++)
            for (PetscInt di = -1; di <= 1; di++) {
              PetscInt ii = i + di, jj = j + dj, kk = k + dk, dist = PetscAbsInt(di) + PetscAbsInt(dj) + PetscAbsInt(dk);
              if (nz == 1 && dk) continue;
              if (!full && dist > 1) continue;
              if (ii < 0 || ii >= nx || jj < 0 || jj >= ny || kk < 0 || kk >= nz) continue;
              ja[nnz] = ii + nx * (jj + ny * kk);
              va[nnz] = dist ? -1.0 : (PetscScalar)(npts - 1);
              nnz++;
            }
        ia[row + 1] = (PetscInt)nnz;
      }
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, (PetscInt)n, (PetscInt)n, (PetscInt)n, (PetscInt)n));
  PetscCall(MatSetType(*A, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, ia, ja, va));
  PetscCall(PetscFree3(ia, ja, va));
  PetscFunctionReturn(PETSC_SUCCESS);
}

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

