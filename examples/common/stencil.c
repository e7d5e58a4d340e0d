/* Generated stencil matrices shared by the benchmark and the device check */
#include "stencil.h"
#include <sptrsv/compat.h>

/* Dirichlet Laplacian-like M-matrix (the benchmark and the device check): -1 for each stencil neighbour inside the grid,
   npts-1 on the diagonal; 5/9 points in 2-D (nz = 1), 7/27 in 3-D. Built directly as CSR. */
PetscErrorCode SpTrsvBuildStencil(PetscInt nx, PetscInt ny, PetscInt nz, PetscInt npts, Mat *A)
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

/*
  SpTrsvBuildBlockCD - a multi-field 3-D convection-diffusion operator on an m x m x m grid with bs coupled
  fields per node (7-point stencil, first-order upwind convection along (1,1,1) of strength beta, dense
  bs x bs coupling blocks; standing in for atmosmodd/af_shell3 of paper 003). Rows are ordered node by node,
  the bs fields of a node together, and the matrix has block size bs. type: MATSEQAIJ, MATSEQBAIJ, a CUDA
  type, or NULL for -mat_type (default MATSEQAIJ).
*/
PetscErrorCode SpTrsvBuildBlockCD(PetscInt m, PetscInt bs, PetscReal beta, MatType type, Mat *A)
{
  const PetscInt  nn = m * m * m, n = nn * bs;
  const PetscReal h = 1.0 / (m + 1), c = beta * h; /* diffusion scaled by h^2: -1 per neighbour, upwind adds c */

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, n, n, n, n));
  PetscCall(MatSetBlockSize(*A, bs));
  if (type) PetscCall(MatSetType(*A, type));
  else {
    PetscCall(MatSetType(*A, MATSEQAIJ));
    PetscCall(MatSetFromOptions(*A));
  }
  PetscCall(MatXAIJSetPreallocation(*A, bs, NULL, NULL, NULL, NULL));
  PetscCall(MatSeqAIJSetPreallocation(*A, 7 * bs, NULL));
  PetscCall(MatSeqBAIJSetPreallocation(*A, bs, 7, NULL));
  for (PetscInt r = 0; r < nn; r++) {
    const PetscInt i = r % m, j = (r / m) % m, k = r / (m * m);
    const PetscInt nb[6] = {i > 0 ? r - 1 : -1, i < m - 1 ? r + 1 : -1, j > 0 ? r - m : -1, j < m - 1 ? r + m : -1, k > 0 ? r - m * m : -1, k < m - 1 ? r + m * m : -1};
    for (PetscInt f = 0; f < bs; f++)
      for (PetscInt g = 0; g < bs; g++) {
        const PetscReal couple = 0.3 / (1.0 + f + 2.0 * g) * (f < g ? 1.0 : -0.5); /* nonsymmetric field coupling */
        PetscCall(MatSetValue(*A, r * bs + f, r * bs + g, f == g ? 6.0 + 3.0 * c + 0.1 * f : couple, INSERT_VALUES));
        for (PetscInt d = 0; d < 6; d++) {
          if (nb[d] < 0) continue;
          /* even d: the upstream neighbour (i-1, j-1, k-1) carries the upwind term */
          PetscCall(MatSetValue(*A, r * bs + f, nb[d] * bs + g, f == g ? (d % 2 ? -1.0 : -1.0 - c) : 0.1 * couple, INSERT_VALUES));
        }
      }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2-D 5-point operator on an m x m grid, -Lap u + (beta, beta/2) . grad u, upwind (beta = 0: the Laplacian):
   nonsymmetric for beta != 0 (the GPU numeric ILU checks) */
PetscErrorCode SpTrsvBuildConvDiff2D(PetscInt m, PetscReal beta, Mat *A)
{
  const PetscReal h = 1.0 / (m + 1), cx = beta * h, cy = 0.5 * beta * h;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m * m, m * m, 5, NULL, A));
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt i = 0; i < m; i++) {
      const PetscInt r = j * m + i;
      PetscCall(MatSetValue(*A, r, r, 4.0 + cx + cy, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(*A, r, r - 1, -1.0 - cx, INSERT_VALUES));
      if (i < m - 1) PetscCall(MatSetValue(*A, r, r + 1, -1.0, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(*A, r, r - m, -1.0 - cy, INSERT_VALUES));
      if (j < m - 1) PetscCall(MatSetValue(*A, r, r + m, -1.0, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2x2 blocks [[1, 1], [1, 1]] along the diagonal, coupled by A(2k+1, 2k+2) = 0.5: the ILU pivot of every odd row is
   exactly zero (first at row 1, last at row n-1): the zero-pivot and shift checks */
PetscErrorCode SpTrsvBuildZeroPivotPairs(PetscInt n, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, A));
  for (PetscInt k = 0; k + 1 < n; k += 2) {
    PetscCall(MatSetValue(*A, k, k, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, k, k + 1, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, k + 1, k, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, k + 1, k + 1, 1.0, INSERT_VALUES));
    if (k + 2 < n) PetscCall(MatSetValue(*A, k + 1, k + 2, 0.5, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}
