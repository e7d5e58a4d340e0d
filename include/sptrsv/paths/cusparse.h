/* sptrsv_cusparse: the CSR with a stored diagonal that cusparseSpSV reads, built by the path's host code
   (src/mat/paths/cusparse/cusparse.c) for its CUDA executor (src/cuda/paths/cusparse/cusparse.cu) (private to the plugin) */
#pragma once
#include <sptrsv/registry.h>
#include <sptrsv/tri.h>

SPTRSV_INTERN PetscErrorCode SpTrsvCusparseCSRBuild(SpTrsvTri, PetscBool, const SpTrsvOp *, int **, int **, PetscInt **, PetscInt *); /* T, transpose, op(T): ptr, idx, value map, nnz */
SPTRSV_INTERN PetscErrorCode SpTrsvCusparseCSRValues(SpTrsvTri, PetscInt, const PetscInt *, PetscScalar *);                             /* T, nnz, value map: values */
SPTRSV_PATH_DECLARE(cusparse);
