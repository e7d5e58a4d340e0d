/* Block triangles and block CSR input for block sizes 1..8 (private to the plugin) */
#pragma once
#include <sptrsv/tri.h>
#include <sptrsv/utils.h>

#define SPTRSV_BS_MAX 8

/*
   Blocks are bs x bs dense matrices stored column-major, entry (r, c) at [r + c * bs], the layout of
   MATSEQBAIJ, so the values of a BAIJ matrix are read and written without reordering.
*/

/*
   SpTrsvBlockCSR - a square matrix of n block rows in block CSR (columns ascending in each row). Made by
   SpTrsvBlockCSRGet() from a MATSEQBAIJ (arrays borrowed from the matrix) or from a MATSEQAIJ and a
   block size (arrays converted; every block with a stored entry is kept, the missing entries are zeros).
*/
typedef struct {
  PetscInt           n, bs;
  const PetscInt    *i, *j;
  const PetscScalar *a;
  Mat                src; /* the matrix it was read from */
  /* private: what SpTrsvBlockCSRRestore() gives back */
  Mat              mat;        /* the matrix, when borrowed */
  PetscScalar     *mat_a;      /* its value array, when borrowed */
  PetscObjectState mat_state;  /* its state before the (read-only) access */
  PetscInt    *own_i, *own_j;  /* converted arrays */
  PetscScalar *own_a;
} SpTrsvBlockCSR;

SPTRSV_INTERN PetscErrorCode SpTrsvBlockCSRGet(Mat, PetscInt, SpTrsvBlockCSR *);
SPTRSV_INTERN PetscErrorCode SpTrsvBlockCSRRestore(SpTrsvBlockCSR *);

/*
   SpTrsvBlockTri - a block triangle: strict part in block CSR plus, unless unit, its diagonal blocks
   and their inverses. For bs = 1 it can be a view of an SpTrsvTri (SpTrsvBlockTriCreateFromTri(): i, j,
   a and idiag borrowed, diag = 1 / idiag owned).
*/
typedef struct _n_SpTrsvBlockTri *SpTrsvBlockTri;
struct _n_SpTrsvBlockTri {
  PetscInt     n, bs;
  SpTrsvUplo   uplo;
  PetscBool    unit;
  PetscInt    *i, *j; /* strict part: block row pointers and block columns (ascending) */
  PetscScalar *a;     /* bs*bs values per block */
  PetscScalar *diag;  /* n diagonal blocks; NULL when unit */
  PetscScalar *idiag; /* their inverses; NULL when unit */
  PetscBool    borrowed;
};

SPTRSV_INTERN PetscErrorCode SpTrsvBlockTriCreate(PetscInt, PetscInt, SpTrsvUplo, PetscBool, PetscInt *, PetscInt *, SpTrsvBlockTri *);
SPTRSV_INTERN PetscErrorCode SpTrsvBlockTriCreateFromTri(SpTrsvTri, SpTrsvBlockTri *);
SPTRSV_INTERN PetscErrorCode SpTrsvBlockTriGetFull(SpTrsvBlockTri, PetscInt **, PetscInt **);
SPTRSV_INTERN PetscErrorCode SpTrsvBlockTriGetFullValues(SpTrsvBlockTri, const PetscInt *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvBlockTriDestroy(SpTrsvBlockTri *);

/* block CSR on the GPU (src/cuda/; the functions exist in CUDA builds, called from host code through the device-ops
   table, include/sptrsv/deviceops.h). SpTrsvCUDAExpand - device values of a block CSR matrix written as the scalar CSR values of its
   expansion (src/cuda/block_expand_kernels.cu) */
typedef struct _n_SpTrsvCUDAExpand *SpTrsvCUDAExpand;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDAExpandCreate(PetscInt, PetscInt, const PetscInt *, const PetscInt *, SpTrsvCUDAExpand *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAExpandApply(SpTrsvCUDAExpand, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDAExpandDestroy(SpTrsvCUDAExpand *);

/* SpTrsvCUDABSR - y = N x with cuSPARSE's BSR SpMV on device block values (src/cuda/bsr_spmv.cu) */
typedef struct _n_SpTrsvCUDABSR *SpTrsvCUDABSR;

SPTRSV_INTERN PetscErrorCode SpTrsvCUDABSRCreate(PetscInt, PetscInt, const PetscInt *, const PetscInt *, const PetscScalar *, SpTrsvCUDABSR *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABSRMult(SpTrsvCUDABSR, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABSRDestroy(SpTrsvCUDABSR *);

/* dense block kernels (column-major, bs <= SPTRSV_BS_MAX) */
SPTRSV_INTERN PetscErrorCode SpTrsvBlockInvert(PetscInt, PetscScalar *, PetscReal, PetscInt *);

/* C += s * A B */
static inline void SpTrsvBlockGemm(PetscInt bs, PetscScalar s, const PetscScalar *A, const PetscScalar *B, PetscScalar *C)
{
  if (bs == 1) {
    C[0] += s * A[0] * B[0];
    return;
  }
  for (PetscInt c = 0; c < bs; c++)
    for (PetscInt t = 0; t < bs; t++) {
      const PetscScalar b = s * B[t + c * bs];
      for (PetscInt r = 0; r < bs; r++) C[r + c * bs] += A[r + t * bs] * b;
    }
}

/* y += s * A x */
static inline void SpTrsvBlockGemv(PetscInt bs, PetscScalar s, const PetscScalar *A, const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt c = 0; c < bs; c++) {
    const PetscScalar b = s * x[c];
    for (PetscInt r = 0; r < bs; r++) y[r] += A[r + c * bs] * b;
  }
}

/* C = s * A B */
static inline void SpTrsvBlockMult(PetscInt bs, PetscScalar s, const PetscScalar *A, const PetscScalar *B, PetscScalar *C)
{
  for (PetscInt k = 0; k < bs * bs; k++) C[k] = 0.0;
  SpTrsvBlockGemm(bs, s, A, B, C);
}

static inline PetscBool SpTrsvBlockIsZero(PetscInt bs2, const PetscScalar *A)
{
  for (PetscInt k = 0; k < bs2; k++)
    if (A[k] != (PetscScalar)0.0) return PETSC_FALSE;
  return PETSC_TRUE;
}
