/* SpTrsvBILU: block ILU(k) of a block CSR matrix, block sizes 1..8 (src/mat/factor/biluk.c; private to the plugin) */
#pragma once
#include <sptrsv/blocktri.h>
#include <sptrsv/deviceops.h> /* the names SpTrsvBILU, SpTrsvCUDABILU, SpTrsvCUDABILUArrays */

/*
   SpTrsvBILU - block ILU(k) of a block CSR matrix, natural ordering: A ~ L U with L unit lower
   (strict blocks in L) and U upper (strict blocks, diagonal blocks and their inverses in U). The same
   factorization as PETSc's MATSEQBAIJ ILU (MatILUFactorSymbolic_SeqBAIJ, MatLUFactorNumeric_SeqBAIJ_N
   and its unrolled variants): the same pattern, block operations and zero-pivot rules.
*/
struct _n_SpTrsvBILU {
  PetscInt       n, bs, levels;
  SpTrsvBlockTri L, U;
  PetscInt       nnzA;  /* blocks of A at the symbolic phase */
  PetscInt      *adiag; /* position of the diagonal block of each block row of A */
  PetscScalar   *work;  /* dense block row accumulator, n * bs * bs */
  PetscReal      shift_amount;
  PetscInt       nshifts;
  PetscLogDouble flops; /* of the last numeric phase */
  /* failures (as PETSc's BAIJ ILU, MatLUFactorNumeric_SeqBAIJ_N with allowzeropivot = !A->erroriffailure):
     with erroriffailure (PC isai sets it from pc->erroriffailure) a zero pivot or a NaN/Inf entry is an error
     naming the block row or the entry; otherwise the numeric phase records it and goes on */
  PetscBool      erroriffailure; /* input, default PETSC_FALSE */
  MatFactorError error;          /* MAT_FACTOR_NUMERIC_ZEROPIVOT after a zero pivot, else MAT_FACTOR_NOERROR */
  PetscInt       zeropivot_row;  /* the first one's block row */
  PetscInt       zeropivot_sub;  /* and its row inside the block */
  PetscBool      nonfinite;      /* a NaN/Inf entry in the matrix */
  /* the value map, for a numeric phase that gathers the matrix's own value array itself (the GPU's): made by
     the symbolic phase when valuemap is set (src/mat/factor/bilumap.c) */
  PetscBool valuemap; /* input, default PETSC_FALSE */
  PetscInt  nval;     /* values in the matrix's array: AIJ nonzeros, or BAIJ blocks times bs^2 */
  PetscInt *amap;     /* value k of that array -> its value index in F = [L strict | diagonal | U strict]
                         (block rows in order, bs*bs values per block, column-major) */
};

SPTRSV_INTERN PetscErrorCode SpTrsvBILUCreate(PetscInt, PetscInt, SpTrsvBILU *);
SPTRSV_INTERN PetscErrorCode SpTrsvBILUSymbolic(const SpTrsvBlockCSR *, IS, IS, const MatFactorInfo *, SpTrsvBILU);
SPTRSV_INTERN PetscErrorCode SpTrsvBILUNumeric(const SpTrsvBlockCSR *, const MatFactorInfo *, SpTrsvBILU);
SPTRSV_INTERN PetscErrorCode SpTrsvBILUSolve(SpTrsvBILU, const PetscScalar *, PetscScalar *);
SPTRSV_INTERN PetscErrorCode SpTrsvBILUDestroy(SpTrsvBILU *);

/* the layout F of the factor's values against the matrix's own value array (src/mat/factor/bilumap.c) */
SPTRSV_INTERN PetscErrorCode SpTrsvBILUValueMapCreate(SpTrsvBILU, Mat);                                         /* nval, amap (the symbolic phase) */
SPTRSV_INTERN PetscErrorCode SpTrsvBILUGetValueCount(SpTrsvBILU, Mat, PetscInt *);                               /* values in the matrix's array */
SPTRSV_INTERN PetscErrorCode SpTrsvBILUValueLocation(SpTrsvBILU, Mat, PetscInt, PetscInt *, PetscInt *);        /* row and column of value k */
SPTRSV_INTERN PetscErrorCode SpTrsvBILUTriangleSources(SpTrsvBILU, SpTrsvBlockTri, const PetscInt *, PetscInt **); /* F's block of each block of a whole triangle */

/*
   SpTrsvCUDABILU - the numeric block ILU on the GPU (src/cuda/bilu_kernels.cu; exists in CUDA builds, called from
   host code through the device-ops table, include/sptrsv/deviceops.h) on the pattern of a host
   SpTrsvBILU after its symbolic phase, block sizes 2..8. The input values (nval of them, host or device)
   go into the factor through amap (input value k -> value index in the factor F = [L strict | diagonal
   | U strict] by block rows, bs*bs per block, column-major). The numeric phase reports the first
   non-finite input value (badval) and the first zero pivot (zerorow, zeropivot), -1 when none; the
   caller turns them into errors.
*/
struct _n_SpTrsvCUDABILUArrays {
  int                n, bs;
  const int         *fi, *fj, *fd; /* F's block rows, block columns, diagonal slots */
  const PetscScalar *fa, *idiag;   /* F's values, inverted diagonal blocks */
};

SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUCreate(SpTrsvBILU, PetscInt, const PetscInt *, SpTrsvCUDABILU *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUNumeric(SpTrsvCUDABILU, const PetscScalar *, PetscMemType, PetscReal, PetscInt *, PetscInt *, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUGetArrays(SpTrsvCUDABILU, SpTrsvCUDABILUArrays *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUGetLevels(SpTrsvCUDABILU, PetscInt *);
SPTRSV_INTERN PetscErrorCode SpTrsvCUDABILUDestroy(SpTrsvCUDABILU *);
