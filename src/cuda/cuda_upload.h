/* Index uploads shared by the CUDA sources (private to them; defined in backend_cuda.cu) */
#pragma once
#include "cuda_check.h"

/*
  SpTrsvCUDAMallocInt - a new device int array of n + 1 entries (the last left unset) holding the n ints
  of h; asynchronous on st (h must stay valid until st has run the copy)
*/
PetscErrorCode SpTrsvCUDAMallocInt(int **, PetscInt, const int *, cudaStream_t);

/*
  SpTrsvCUDAUploadIndices - the same from a PetscInt array of len entries; the caller checked that every
  value fits in an int. h may change once it returns (a 32-bit PetscInt array is copied as it is, from pageable
  memory: staged before cudaMemcpyAsync returns; a 64-bit one through an int copy, synchronous on st).
*/
PetscErrorCode SpTrsvCUDAUploadIndices(const PetscInt *, PetscInt, int **, cudaStream_t);
