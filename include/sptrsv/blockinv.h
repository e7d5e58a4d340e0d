/* Dense triangular diagonal blocks: the inverse, one column at a time, and the infinity-norm condition number's
   arithmetic, shared by the host and the CUDA code of every path that inverts diagonal blocks (the supernodal path's
   inverted supernodes, the locality path's blocks kernel) (private to the plugin) */
#pragma once
#include <sptrsv/compat.h> /* PETSc */
#include <sptrsv/hd.h> /* SPTRSV_HD */
#include <math.h>      /* INFINITY */

/*
   The inverse of a diagonal block, one column at a time (host and device share it): column j of X = D^{-1} for a dense
   lower (upper) triangular w x w column-major D whose diagonal holds the inverted diagonal.
     lower: X_jj = D_jj, X_ij = -D_ii sum_{k=j}^{i-1} D_ik X_kj (i = j+1 .. w-1), 0 above;
     upper: X_jj = D_jj, X_ij = -D_ii sum_{k=i+1}^{j} D_ik X_kj (i = j-1 .. 0), 0 below.
*/
static inline SPTRSV_HD void SpTrsvSupernodeInvertColumn(PetscInt w, const PetscScalar *D, PetscScalar *X, PetscInt j, PetscBool lower)
{
  for (PetscInt i = 0; i < w; i++) X[i + j * w] = 0;
  X[j + j * w] = D[j + j * w];
  if (lower)
    for (PetscInt i = j + 1; i < w; i++) {
      PetscScalar s = 0;
      for (PetscInt k = j; k < i; k++) s += D[i + k * w] * X[k + j * w];
      X[i + j * w] = -s * D[i + i * w];
    }
  else
    for (PetscInt i = j - 1; i >= 0; i--) {
      PetscScalar s = 0;
      for (PetscInt k = i + 1; k <= j; k++) s += D[i + k * w] * X[k + j * w];
      X[i + j * w] = -s * D[i + i * w];
    }
}

/*
   The conditioning check's arithmetic: kappa = ||D||_inf ||X||_inf of a block and its computed inverse, shared by the
   host (the supernodal path's SpTrsvSupernodeBlockCond, the locality path's SpTrsvLocalityBlockNumeric) and the GPU
   (their kernels, a thread per row): row i's absolute sums of D's true block (diagonal 1/D_ii) and of X
   (column-major, or row-major with xrow), in column order, folded into the running maxima nd, nx, a non-finite sum
   counting as Inf (a plain maximum would drop a NaN); kappa = nd nx, Inf when not finite (Inf, or Inf times 0).
   INFINITY, not PETSC_INFINITY (a finite number).
*/
static inline SPTRSV_HD PetscReal SpTrsvSupernodeCondMax(PetscReal m, PetscReal s)
{
  return s <= PETSC_MAX_REAL ? (s > m ? s : m) : (PetscReal)INFINITY;
}

static inline SPTRSV_HD void SpTrsvSupernodeCondRow(PetscInt w, const PetscScalar *D, const PetscScalar *X, PetscBool xrow, PetscInt i, PetscReal *nd, PetscReal *nx)
{
  PetscReal sd = 0, sx = 0;

  for (PetscInt j = 0; j < w; j++) {
    sd += i == j ? (PetscReal)1 / PetscAbsScalar(D[i + i * w]) : PetscAbsScalar(D[i + j * w]);
    sx += PetscAbsScalar(xrow ? X[i * w + j] : X[i + j * w]);
  }
  *nd = SpTrsvSupernodeCondMax(*nd, sd);
  *nx = SpTrsvSupernodeCondMax(*nx, sx);
}

static inline SPTRSV_HD PetscReal SpTrsvSupernodeCondKappa(PetscReal nd, PetscReal nx)
{
  return nd * nx <= PETSC_MAX_REAL ? nd * nx : (PetscReal)INFINITY;
}
